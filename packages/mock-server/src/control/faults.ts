/** Control routes: `POST`, `GET` and `DELETE /__mock/faults`, and the check of a fault rule. @module */
import { checkJsonBounds, type EndpointDefinition, endpointList, limitIssues } from '@iacm/sdk/contract';
import { HttpError, validationError } from '../errors.js';
import { checkEndpointName } from '../pipeline/endpoint-name.js';
import { type CheckedFaultRule, FaultBody } from '../pipeline/faults.js';
import { matchIssues } from '../pipeline/request-match.js';
import { parseControlBody } from './route.js';

/** The endpoint table's definitions by name. */
const DEFINITIONS: ReadonlyMap<string, EndpointDefinition> = new Map(endpointList.map((d) => [d.name, d]));

/**
 * A rule as JSON: within the JSON bounds (checked first: the walk is bounded even for a hand-built
 * value with cycles or shared parts), then a copy through its JSON text, as a rule sent over HTTP is
 * (so that `match` is a tree the faults' budget can measure: `FaultBook.add`); a 400 otherwise.
 */
function asJson(raw: unknown): unknown {
  if (raw === undefined) return raw;
  const problem = checkJsonBounds(raw);
  if (problem) throw validationError([problem]);
  let text: string | undefined;
  try {
    text = JSON.stringify(raw);
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    throw new HttpError(400, 'validation_failed', 'body: expected a JSON value (no cycles, no functions)');
  }
  return JSON.parse(text);
}

/**
 * Checks a fault rule (`POST /__mock/faults`'s body, `control.addFault`'s rule): a JSON value within
 * the JSON bounds (a rule given in process too), an `endpoint` first (a 400 naming `endpoint`, what
 * came and the closest names, as `control.calls` gives), then the shape ({@link FaultBody}: exactly
 * one of `path` and `endpoint`, the ranges, no header of `FRAMING_HEADERS`), then `match`'s members
 * against the endpoint's body and query (one 400 naming each unknown one). What its `match` takes of
 * the faults' budget (`MATCH_LIMITS.maxTotalBytes`) is checked when it is added (`FaultBook.add`).
 */
export function checkFault(given: unknown): CheckedFaultRule {
  const raw = asJson(given);
  const endpoint = (raw as { endpoint?: unknown } | null | undefined)?.endpoint;
  if (endpoint !== undefined) checkEndpointName(endpoint, 'body');
  const rule = parseControlBody(FaultBody, raw);
  if (rule.endpoint !== undefined && rule.match !== undefined) {
    const issues = matchIssues(DEFINITIONS.get(rule.endpoint) as EndpointDefinition, rule.match);
    if (issues.length > 0) throw validationError(limitIssues(issues));
  }
  return rule;
}
