/** Control routes: `POST`, `GET` and `DELETE /__mock/faults`, and the check of a fault rule. @module */
import { type EndpointDefinition, endpointList, limitIssues } from '@iacm/sdk/contract';
import { validationError } from '../errors.js';
import { checkEndpointName } from '../pipeline/endpoint-name.js';
import { type CheckedFaultRule, FaultBody } from '../pipeline/faults.js';
import { keptJson, matchIssues } from '../pipeline/request-match.js';
import { parseControlBody } from './route.js';

/** The endpoint table's definitions by name. */
const DEFINITIONS: ReadonlyMap<string, EndpointDefinition> = new Map(endpointList.map((d) => [d.name, d]));

/**
 * Checks a fault rule (`POST /__mock/faults`'s body, `control.addFault`'s rule): a JSON value within
 * the JSON bounds (a rule given in process too), an `endpoint` first (a 400 naming `endpoint`, what
 * came and the closest names, as `control.calls` gives), then the shape ({@link FaultBody}: exactly
 * one of `path` and `endpoint`, the ranges, no header of `FRAMING_HEADERS`), then `match`'s members
 * against the endpoint's body and query (one 400 naming each unknown one). What its `match`, `body`
 * and `headers` take of the faults' budget (`MATCH_LIMITS.maxTotalBytes`) is checked when it is added
 * (`FaultBook.add`). The rule is copied as JSON ({@link keptJson}): a tree the mock owns.
 */
export function checkFault(given: unknown): CheckedFaultRule {
  const raw = keptJson(given);
  const endpoint = (raw as { endpoint?: unknown } | null | undefined)?.endpoint;
  if (endpoint !== undefined) checkEndpointName(endpoint, 'body');
  const rule = parseControlBody(FaultBody, raw);
  if (rule.endpoint !== undefined && rule.match !== undefined) {
    const issues = matchIssues(DEFINITIONS.get(rule.endpoint) as EndpointDefinition, rule.match);
    if (issues.length > 0) throw validationError(limitIssues(issues));
  }
  return rule;
}
