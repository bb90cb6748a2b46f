/** Control routes: `POST`, `GET` and `DELETE /__mock/faults`, and the check of a fault rule. @module */
import { type EndpointDefinition, endpointList, limitIssues } from '@iacm/sdk/contract';
import { validationError } from '../errors.js';
import { checkEndpointName } from '../pipeline/endpoint-name.js';
import { type CheckedFaultRule, FaultBody } from '../pipeline/faults.js';
import { matchIssues } from '../pipeline/request-match.js';
import { parseControlBody } from './route.js';

/** The endpoint table's definitions by name. */
const DEFINITIONS: ReadonlyMap<string, EndpointDefinition> = new Map(endpointList.map((d) => [d.name, d]));

/**
 * Checks a fault rule (`POST /__mock/faults`'s body, `control.addFault`'s rule): an `endpoint` first
 * (a 400 naming `endpoint`, what came and the closest names, as `control.calls` gives), then the
 * shape ({@link FaultBody}: exactly one of `path` and `endpoint`, the ranges), then `match`'s members
 * against the endpoint's body and query (one 400 naming each unknown one).
 */
export function checkFault(raw: unknown): CheckedFaultRule {
  const endpoint = (raw as { endpoint?: unknown } | null | undefined)?.endpoint;
  if (endpoint !== undefined) checkEndpointName(endpoint, 'body');
  const rule = parseControlBody(FaultBody, raw);
  if (rule.endpoint !== undefined && rule.match !== undefined) {
    const issues = matchIssues(DEFINITIONS.get(rule.endpoint) as EndpointDefinition, rule.match);
    if (issues.length > 0) throw validationError(limitIssues(issues));
  }
  return rule;
}
