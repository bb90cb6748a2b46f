/**
 * Which requests of an endpoint an injected answer is for: the one matcher of one-off answers
 * (`one-off.ts`) and endpoint faults (`faults.ts`). A `match` names members of the request's body
 * and query as the endpoint's schemas parsed them, and the caller's account; every member given must
 * equal (deep, as JSON) the request's, members not given match anything. No regular expression.
 *
 * @module
 */
import {
  checkJsonBounds,
  type EndpointDefinition,
  type EndpointName,
  type Endpoints,
  type FieldIssue,
} from '@iacm/sdk/contract';
import * as z from 'zod';
import { HttpError, validationError } from '../errors.js';
import { clip } from '../http/objects.js';
import type { RouteInput } from './route.js';

/**
 * The bounds of a `match`: the characters of `accountId`, how deep values are compared, and the heap
 * budget of the `match`es kept waiting.
 */
export const MATCH_LIMITS = Object.freeze({
  /** Characters of `match.accountId`. */
  maxAccountIdLength: 64,
  /** Levels of a value compared (deeper is never equal). */
  maxDepth: 64,
  /**
   * Bytes by the heap's measure ({@link matchHeapBytes}: two a character of the JSON text, 64 a
   * value) that the waiting one-off answers take together (with their bodies: `ONE_OFF_LIMITS
   * .maxTotalBytes`), and that the waiting endpoint faults' `match`es and answers take together
   * (their bodies and headers at two bytes a character of their JSON: `FaultBook.add`): 64 MiB each
   * (a further one past it is a 409, {@link checkKeptBytes}). As every request to an endpoint is
   * compared with every waiting `match` of it, this also bounds what matching one request costs.
   * (The pending waits' `match`es have a budget of their own: `WAIT_LIMITS.maxMatchBytes`.)
   */
  maxTotalBytes: 64 * 1024 * 1024,
});

/**
 * Checks that `adding` more bytes (by the heap's measure, {@link matchHeapBytes}) keep what a book of
 * injected answers or of waits holds (`kept`) within `limit` (default {@link MATCH_LIMITS}
 * `maxTotalBytes`): else a 409 `conflict` saying what would pass it (`what`), how it is measured
 * (`measure`) and how to make room (`remove`). The one check of the one-off answers' budget, of the
 * endpoint faults' budget and of the pending waits' `match` budget (`WAIT_LIMITS.maxMatchBytes`).
 */
export function checkKeptBytes(
  kept: number,
  adding: number,
  what: string,
  measure: string,
  remove: string,
  limit: number = MATCH_LIMITS.maxTotalBytes,
): void {
  if (kept + adding <= limit) return;
  throw new HttpError(
    409,
    'conflict',
    `${what} would take more than ${limit} bytes (${measure}), the most the mock keeps: remove them (${remove}) first`,
  );
}

/**
 * A value given to be kept (a fault rule, a wait's `match`) as JSON the mock owns: within the JSON
 * bounds (checked first: the walk is bounded even for a hand-built value with cycles or shared
 * parts), then a copy through its JSON text, as a value sent over HTTP is (so that a `match` is a
 * tree {@link matchHeapBytes} can measure, and that the caller changing its value later changes
 * nothing kept); a 400 `validation_failed` otherwise. `undefined` stays `undefined`.
 */
export function keptJson(raw: unknown): unknown {
  if (raw === undefined) return raw;
  const problem = checkJsonBounds(raw);
  if (problem) throw validationError([problem]);
  return JSON.parse(jsonText(raw));
}

/**
 * A value's JSON text (what keeps a copy without functions, `undefined` members or prototypes).
 * @throws HttpError 400 `validation_failed` for a value that has no JSON text (a cycle, a function).
 */
export function jsonText(raw: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(raw);
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    throw new HttpError(400, 'validation_failed', 'body: expected a JSON value (no cycles, no functions)');
  }
  return text;
}

/**
 * Which requests a one-off answer (or an endpoint fault) is for: every member given must equal (deep,
 * as JSON) the request's parsed value; members not given match anything.
 */
export interface OneOffMatch<N extends EndpointName = EndpointName> {
  /** Members of the request's body, as its schema parsed it (`{ searchValue: 'drift' }`). */
  body?: N extends EndpointName
    ? Endpoints[N]['body'] extends z.core.$ZodType
      ? Partial<z.output<Endpoints[N]['body']>>
      : never
    : never;
  /** Query parameters, as the endpoint's schema parsed them (`{ page: 1 }`: numbers, not text). */
  query?: Partial<z.output<Endpoints[N]['query']>>;
  /** The caller's account id. */
  accountId?: string;
}

/**
 * What a kept `match` is counted as in the heap, bytes: two a character of its JSON text (V8 keeps a
 * string of any character past Latin-1 at two bytes a character) and 64 a value (an object, list or
 * primitive as parsed, with its slot: a `match` of many empty objects takes about 20 times its text).
 */
export function matchHeapBytes(match: unknown): number {
  if (match === undefined) return 0;
  let values = 0;
  const stack: unknown[] = [match];
  // The value was parsed from JSON within the JSON bounds (1,000,000 values at most): no cycles.
  while (stack.length > 0) {
    const value = stack.pop();
    values += 1;
    if (value !== null && typeof value === 'object') stack.push(...Object.values(value));
  }
  return 2 * JSON.stringify(match).length + 64 * values;
}

/**
 * What a JSON value kept as its text takes by the heap's measure, bytes: two a character (V8 keeps a
 * string of any character past Latin-1 at two bytes a character); 0 for none. The measure of a
 * one-off answer's body and headers, and of a fault's (`faultHeapBytes`).
 */
export function keptTextBytes(text: string | undefined): number {
  return text === undefined ? 0 : 2 * text.length;
}

/**
 * A JSON value kept as its text ({@link keptTextBytes}) read back: a fresh copy for each use, so
 * that no answer shares its value with the kept one or with another answer. The text is the mock's
 * own (`JSON.stringify` of a checked value), never a request's.
 */
export function readKeptText(text: string): unknown {
  return JSON.parse(text);
}

/** A JSON object (members by name), as `match.body` and `match.query` are given. */
const JsonRecord = z.record(z.string(), z.unknown());

/** The shape of a `match` as JSON: `body`, `query` (objects) and `accountId`. */
export const MatchBody = z.strictObject({
  body: JsonRecord.optional(),
  query: JsonRecord.optional(),
  accountId: z.string().min(1).max(MATCH_LIMITS.maxAccountIdLength).optional(),
});

/** The member names of an object schema, or `undefined` for a schema that is not one. */
function memberNames(schema: z.core.$ZodType | undefined): readonly string[] | undefined {
  const shape = (schema?._zod.def as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : undefined;
}

/**
 * The issues of a `match` against its endpoint: a body or query member the endpoint does not have
 * (`body.match.body.serchValue: not a member of workspaces.search's body (its members: ...)`), a
 * `body` for an endpoint without one. `at` is the path of `match` in the checked value.
 */
export function matchIssues(
  definition: EndpointDefinition,
  match: z.output<typeof MatchBody> | undefined,
  at = 'match',
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const issue = (path: string, message: string) =>
    issues.push({ location: 'body', path, message: `body.${path}: ${message}` });
  for (const part of ['body', 'query'] as const) {
    const members = match?.[part];
    if (!members) continue;
    const schema = part === 'body' ? definition.body : definition.query;
    const known = memberNames(schema);
    if (schema === undefined) issue(`${at}.${part}`, `${definition.name} takes no ${part}`);
    else if (known) {
      for (const name of Object.keys(members)) {
        if (!known.includes(name)) {
          issue(
            `${at}.${part}.${clip(name, 60)}`,
            `not a member of ${definition.name}'s ${part} (its members: ${known.join(', ') || 'none'})`,
          );
        }
      }
    }
  }
  return issues;
}

/**
 * How many members each object of a kept `match` has, counted the first time it is compared: a kept
 * `match` is a JSON copy the mock owns and never changes (its listings are copies), so that comparing
 * it with a request's object costs what the request's object holds, not what the `match` holds.
 */
const MEMBER_COUNTS = new WeakMap<object, number>();

/** The number of members of an object of a `match` ({@link MEMBER_COUNTS}). */
function memberCount(value: Record<string, unknown>): number {
  let count = MEMBER_COUNTS.get(value);
  if (count === undefined) {
    count = Object.keys(value).length;
    MEMBER_COUNTS.set(value, count);
  }
  return count;
}

/**
 * Whether a JSON value (what `match` gives) equals a request's parsed value: primitives by `===`,
 * arrays item by item, objects member by member (a member whose value is `undefined` counts as absent).
 * The work is bounded by the request's value (`actual`), not by `expected`: arrays of other lengths and
 * objects of other member counts differ at once (a `match` is JSON: it has no `undefined` members).
 */
export function jsonEqual(expected: unknown, actual: unknown, depth = 0): boolean {
  if (depth > MATCH_LIMITS.maxDepth) return false;
  if (expected === null || typeof expected !== 'object') return expected === actual;
  if (actual === null || typeof actual !== 'object') return false;
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      expected.length === actual.length &&
      expected.every((item, i) => jsonEqual(item, actual[i], depth + 1))
    );
  }
  if (Array.isArray(actual)) return false;
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const present = Object.keys(a).filter((name) => a[name] !== undefined);
  // As many members, each of the request's one of the match's and equal: the same members.
  return (
    present.length === memberCount(e) &&
    present.every((name) => Object.hasOwn(e, name) && jsonEqual(e[name], a[name], depth + 1))
  );
}

/** Whether every member `partial` names equals the same member of `actual`. */
function partialMatch(partial: Record<string, unknown> | undefined, actual: unknown): boolean {
  if (partial === undefined) return true;
  if (actual === null || typeof actual !== 'object') return Object.keys(partial).length === 0;
  const a = actual as Record<string, unknown>;
  return Object.keys(partial).every((name) => jsonEqual(partial[name], a[name]));
}

/**
 * Whether a request satisfies `match` (absent: every request does): the caller's account, and the
 * members of its parsed query and body that `match` names.
 */
export function requestMatches(
  match: OneOffMatch | undefined,
  accountId: string | undefined,
  input: Pick<RouteInput, 'query' | 'body'>,
): boolean {
  return (
    match === undefined ||
    ((match.accountId === undefined || match.accountId === accountId) &&
      partialMatch(match.query as Record<string, unknown> | undefined, input.query) &&
      partialMatch(match.body as Record<string, unknown> | undefined, input.body))
  );
}
