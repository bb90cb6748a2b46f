/**
 * Which requests of an endpoint an injected answer or a wait is for: the one matcher of one-off
 * answers (`one-off.ts`), endpoint faults (`faults.ts`) and waits (`waiters.ts`). A `match` names
 * members of the request's path parameters, body and query as the endpoint's schemas parsed them, and
 * the caller's account; it is partial at every depth (objects by the members named, arrays as
 * `expect.arrayContaining` or exactly, {@link ArrayMatching}); members not given match anything.
 * {@link explainMiss} says why a request missed. No regular expression.
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
import { memberNamesAt, suggestMember } from '../errors/suggest.js';
import { HttpError, validationError } from '../errors.js';
import { clip } from '../http/objects.js';
import type { EndpointParams } from '../operations/operation.js';
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
   * Items of a `match`'s arrays, all its arrays together (a 400 naming the array past it): each item
   * is looked for among the request's items, so that matching a request costs at most this many times
   * what the request holds at that path.
   */
  maxArrayItems: 100,
  /** Characters of a path parameter's value in `match.params`. */
  maxParamLength: 256,
  /**
   * Bytes by the heap's measure (`matchHeapBytes`: two a character of the JSON text, 64 a
   * value) that the waiting one-off answers take together (with their bodies: `ONE_OFF_LIMITS
   * .maxTotalBytes`), and that the waiting endpoint faults' `match`es and answers take together
   * (their bodies and headers at two bytes a character of their JSON: `FaultBook.add`): 64 MiB each
   * (a further one past it is a 409, `checkKeptBytes`). As every request to an endpoint is
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
 * How a `match` compares arrays: `'contain'` (the default: as `expect.arrayContaining`, each item the
 * `match` gives matches some item of the request's array, in any order, others allowed) or `'exact'`
 * (as many items, in the same order, each matching its own). Either way an object matches by the
 * members it names, recursively.
 */
export type ArrayMatching = 'contain' | 'exact';

/**
 * Which requests a one-off answer, an endpoint fault or a wait is for: a recursive partial match.
 * Each member given must match the request's parsed value: a primitive by `===`, an object by the
 * members it names (the request may have more), an array as {@link ArrayMatching} says; members not
 * given match anything.
 */
export interface OneOffMatch<N extends EndpointName = EndpointName> {
  /** Path parameters (`{ workspaceId: '64f…' }`), as the endpoint's schema parsed them. */
  params?: Partial<EndpointParams<N>>;
  /**
   * Members of the request's body, as its schema parsed it, to any depth
   * (`{ query: { filters: [{ field: 'type' }] } }` names one filter of an event-center search).
   */
  body?: N extends EndpointName
    ? Endpoints[N]['body'] extends z.core.$ZodType
      ? DeepPartial<z.output<Endpoints[N]['body']>>
      : never
    : never;
  /** Query parameters, as the endpoint's schema parsed them (`{ page: 1 }`: numbers, not text). */
  query?: DeepPartial<z.output<Endpoints[N]['query']>>;
  /** The caller's account id. */
  accountId?: string;
  /** How arrays compare ({@link ArrayMatching}): `'contain'` (the default) or `'exact'`. */
  arrays?: ArrayMatching;
}

/**
 * A value of which any member, at any depth, may be left out (what a `match` names of a request);
 * an array's items are partial too.
 */
export type DeepPartial<T> = T extends readonly (infer I)[]
  ? readonly DeepPartial<I>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

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

/** The shape of a `match` as JSON: `params`, `body`, `query` (objects), `accountId` and `arrays`. */
export const MatchBody = z.strictObject({
  params: z.record(z.string(), z.string().max(MATCH_LIMITS.maxParamLength)).optional(),
  body: JsonRecord.optional(),
  query: JsonRecord.optional(),
  accountId: z.string().min(1).max(MATCH_LIMITS.maxAccountIdLength).optional(),
  arrays: z.enum(['contain', 'exact']).optional(),
});

/** The most object members of one `match` checked against the endpoint's schemas (the rest are taken as they are; their arrays still count towards `maxArrayItems`). */
const MAX_CHECKED_MEMBERS = 10_000;

/**
 * The issues of a `match` against its endpoint: a member, at any depth, that the endpoint's body,
 * query or path parameters do not have where the `match` names it
 * (`body.match.body.query.filters[0].feild: not a member of ... (did you mean "field"?)`), a `body`
 * for an endpoint without one, and arrays holding more than {@link MATCH_LIMITS} `maxArrayItems`
 * items together. `at` is the path of `match` in the checked value. Where the schema has no object
 * (a record, free JSON), any member is taken.
 */
export function matchIssues(
  definition: EndpointDefinition,
  match: z.output<typeof MatchBody> | undefined,
  at = 'match',
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const issue = (path: string, message: string) =>
    issues.push({ location: 'body', path, message: `body.${path}: ${message}` });
  let checked = 0;
  let items = 0;
  for (const part of ['params', 'body', 'query'] as const) {
    const given = match?.[part];
    if (!given) continue;
    const schema =
      part === 'body' ? definition.body : part === 'query' ? definition.query : definition.params;
    const noun = part === 'params' ? 'path parameters' : part;
    if (schema === undefined) {
      if (part !== 'params' || Object.keys(given).length > 0)
        issue(`${at}.${part}`, `${definition.name} takes no ${noun}`);
      continue;
    }
    // Depth first, each object's members against the schema's members at the same path.
    const stack: { value: unknown; path: PropertyKey[]; text: string }[] = [
      { value: given, path: [], text: `${at}.${part}` },
    ];
    while (stack.length > 0 && issues.length < 20) {
      const { value, path, text } = stack.pop() as (typeof stack)[number];
      if (value === null || typeof value !== 'object') continue;
      if (Array.isArray(value)) {
        items += value.length;
        if (items > MATCH_LIMITS.maxArrayItems) {
          issue(
            text,
            `expected arrays of at most ${MATCH_LIMITS.maxArrayItems} items in all in one match (MATCH_LIMITS.maxArrayItems), received ${items} so far`,
          );
          return issues;
        }
        value.forEach((item, i) => {
          stack.push({ value: item, path: [...path, i], text: `${text}[${i}]` });
        });
        continue;
      }
      const names = Object.keys(value);
      // Past the checked members, the rest are walked for their arrays only (every array counts
      // towards the items' bound, wherever it is).
      const known = checked > MAX_CHECKED_MEMBERS ? undefined : memberNamesAt(schema as z.ZodType, path);
      checked += names.length;
      for (const name of names) {
        const where = `${text}.${clip(name, 60)}`;
        if (known && !known.includes(name)) {
          const suggestion = suggestMember(name, known);
          issue(
            where,
            `not a member of ${definition.name}'s ${noun}${path.length > 0 ? ` at ${text}` : ''} (its members: ${clip(known.join(', '), 300) || 'none'}${suggestion === undefined ? '' : `; did you mean "${suggestion}"?`})`,
          );
          continue;
        }
        stack.push({ value: (value as Record<string, unknown>)[name], path: [...path, name], text: where });
      }
    }
  }
  return issues;
}

/**
 * The member names of each object of a kept `match`, listed the first time it is compared: a kept
 * `match` is a JSON copy the mock owns and never changes (its listings are copies).
 */
const MEMBER_NAMES = new WeakMap<object, readonly string[]>();

/** The member names of an object of a `match` ({@link MEMBER_NAMES}). */
function namesOf(value: object): readonly string[] {
  let names = MEMBER_NAMES.get(value);
  if (names === undefined) {
    names = Object.keys(value);
    MEMBER_NAMES.set(value, names);
  }
  return names;
}

/** A request's own member `name` (never one of its prototype's), or `undefined`. */
function own(actual: object, name: string): unknown {
  return Object.hasOwn(actual, name) ? (actual as Record<string, unknown>)[name] : undefined;
}

/**
 * Whether a value of a `match` (JSON) matches a request's parsed value: primitives by `===`, objects
 * by the members `expected` names (recursively; the request may have more), arrays as `arrays` says
 * ({@link ArrayMatching}). Bounded by the request: an object's comparison stops at its first member
 * the request lacks or that differs, so it reads at most one more member than the request has; an
 * array item of the `match` is looked for among the request's items (at most
 * {@link MATCH_LIMITS} `maxArrayItems` of them in one `match`).
 */
export function valueMatches(
  expected: unknown,
  actual: unknown,
  arrays: ArrayMatching = 'contain',
  depth = 0,
): boolean {
  if (depth > MATCH_LIMITS.maxDepth) return false;
  if (expected === null || typeof expected !== 'object') return expected === actual;
  if (actual === null || typeof actual !== 'object') return false;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return false;
    if (arrays === 'exact') {
      return (
        expected.length === actual.length &&
        expected.every((item, i) => valueMatches(item, actual[i], arrays, depth + 1))
      );
    }
    return expected.every((item) => actual.some((a) => valueMatches(item, a, arrays, depth + 1)));
  }
  if (Array.isArray(actual)) return false;
  for (const name of namesOf(expected)) {
    if (!Object.hasOwn(actual, name)) return false;
    const value = (actual as Record<string, unknown>)[name];
    if (!valueMatches((expected as Record<string, unknown>)[name], value, arrays, depth + 1)) {
      return false;
    }
  }
  return true;
}

/** What a request gives a `match`: its parsed path parameters, query and body. */
export type MatchedInput = Pick<RouteInput, 'query' | 'body'> & {
  readonly params?: RouteInput['params'] | undefined;
};

/** The parts of a request a `match` names, in the order they are compared (and a miss is told). */
const PARTS = ['params', 'query', 'body'] as const;

/**
 * Whether a request satisfies `match` (absent: every request does): the caller's account, and the
 * members of its parsed path parameters, query and body that `match` names, recursively
 * ({@link valueMatches}).
 */
export function requestMatches(
  match: OneOffMatch | undefined,
  accountId: string | undefined,
  input: MatchedInput,
): boolean {
  if (match === undefined) return true;
  if (match.accountId !== undefined && match.accountId !== accountId) return false;
  const arrays = match.arrays ?? 'contain';
  for (const part of PARTS) {
    const expected = match[part];
    if (expected !== undefined && !valueMatches(expected, input[part] ?? {}, arrays)) return false;
  }
  return true;
}

/** Characters of a value's JSON text a miss quotes. */
const MISS_TEXT = 80;

/** A value in a miss: its JSON text, cut. */
function missText(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  return clip(text ?? String(value), MISS_TEXT);
}

/**
 * Why a request missed a `match`: how many of the values the `match` names it had as named (the
 * nearest miss has the most), and the first that differed (`path`, as `body.query.filters[0].field`,
 * what the `match` expected and what the request had, as JSON text cut to 80 characters).
 */
export interface MatchMiss {
  /** How many of the `match`'s values (primitives) the request had as named. */
  readonly matched: number;
  /** The path of the first value that differed (`accountId`, `params.workspaceId`, `body.…`). */
  readonly path: string;
  /** What the `match` expected there. */
  readonly expected: string;
  /** What the request had there (`nothing` for a member it lacks). */
  readonly received: string;
}

/** One comparison's account: values matched, and the first difference. */
interface Explained {
  matched: number;
  miss: { path: string; expected: unknown; received: unknown; note?: string } | undefined;
}

/** {@link valueMatches}, counting what matched and keeping the first difference (at `path`). */
function explain(
  expected: unknown,
  actual: unknown,
  arrays: ArrayMatching,
  path: string,
  depth: number,
): Explained {
  if (depth > MATCH_LIMITS.maxDepth)
    return { matched: 0, miss: { path, expected, received: actual, note: 'too deep' } };
  if (expected === null || typeof expected !== 'object') {
    return expected === actual
      ? { matched: 1, miss: undefined }
      : { matched: 0, miss: { path, expected, received: actual } };
  }
  const expectedArray = Array.isArray(expected);
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual) !== expectedArray) {
    return { matched: 0, miss: { path, expected, received: actual } };
  }
  const out: Explained = { matched: 0, miss: undefined };
  const add = (sub: Explained) => {
    out.matched += sub.matched;
    out.miss ??= sub.miss;
  };
  if (expectedArray) {
    const items = expected as unknown[];
    const got = actual as unknown[];
    if (arrays === 'exact') {
      if (items.length !== got.length) {
        out.miss = {
          path,
          expected,
          received: actual,
          note: `${items.length} items expected, ${got.length} received`,
        };
      }
      items.forEach((item, i) => {
        add(explain(item, got[i], arrays, `${path}[${i}]`, depth + 1));
      });
      return out;
    }
    for (const item of items) {
      if (item === null || typeof item !== 'object') {
        // A value looked for among the request's: no item is nearer than another.
        if (got.includes(item)) out.matched += 1;
        else out.miss ??= { path, expected: item, received: actual, note: 'no item matches' };
        continue;
      }
      let best: Explained | undefined;
      for (let j = 0; j < got.length; j += 1) {
        const sub = explain(item, got[j], arrays, `${path}[${j}]`, depth + 1);
        if (sub.miss === undefined) {
          best = sub;
          break;
        }
        if (best === undefined || sub.matched > best.matched) best = sub;
      }
      if (best === undefined)
        add({ matched: 0, miss: { path, expected: item, received: actual, note: 'no item matches' } });
      else {
        if (best.miss)
          best.miss.note ??= `no item of ${path} matches ${clip(missText(item), MISS_TEXT)}; the nearest is shown`;
        add(best);
      }
    }
    return out;
  }
  for (const name of namesOf(expected)) {
    add(explain(own(expected, name), own(actual, name), arrays, `${path}.${clip(name, 60)}`, depth + 1));
  }
  return out;
}

/**
 * Why a request does not satisfy `match`, or `undefined` when it does: the values it had as named
 * and the first that differed ({@link MatchMiss}). What a wait's timeout and a matcher's failure
 * name as the nearest miss. Costs what {@link requestMatches} costs, without stopping at the first
 * difference.
 */
export function explainMiss(
  match: OneOffMatch | undefined,
  accountId: string | undefined,
  input: MatchedInput,
): MatchMiss | undefined {
  if (match === undefined) return undefined;
  const total: Explained = { matched: 0, miss: undefined };
  if (match.accountId !== undefined) {
    if (match.accountId === accountId) total.matched += 1;
    else total.miss = { path: 'accountId', expected: match.accountId, received: accountId };
  }
  const arrays = match.arrays ?? 'contain';
  for (const part of PARTS) {
    const expected = match[part];
    if (expected === undefined) continue;
    const sub = explain(expected, input[part] ?? {}, arrays, part, 0);
    total.matched += sub.matched;
    total.miss ??= sub.miss;
  }
  const { miss } = total;
  if (miss === undefined) return undefined;
  return {
    matched: total.matched,
    path: miss.path,
    expected: missText(miss.expected) + (miss.note === undefined ? '' : ` (${miss.note})`),
    received: missText(miss.received),
  };
}

/** A miss in one line: `body.query.filters[0].field: expected "type", received "status"`. */
export function missLine(miss: MatchMiss): string {
  return `${miss.path}: expected ${miss.expected}, received ${miss.received}`;
}
