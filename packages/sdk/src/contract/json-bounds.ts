/**
 * A cheap, bounded walk of parsed JSON, run before a schema sees it: it refuses values nested too
 * deeply, arrays and objects too long, and values with too many nodes in all, so that validation (zod
 * reports every bad element, and recursion in zod, `JSON.stringify` or user code overflows the stack
 * on deep values) never works on absurd input.
 *
 * @module
 */
import type { FieldIssue, IssueLocation } from './errors.js';

/**
 * The bounds {@link checkJsonBounds} checks. Each is a whole number, or `Infinity` for no bound;
 * omitted members take their value from {@link DEFAULT_JSON_BOUNDS}.
 */
export interface JsonBounds {
  /**
   * The deepest nesting of arrays and objects: `{}` and `[]` are 1 level, `{"a":[1]}` 2. Default 64.
   */
  readonly maxDepth?: number;
  /** The most items one array may hold. Default 10,000. */
  readonly maxArrayLength?: number;
  /** The most members one object may hold. Default 10,000. */
  readonly maxMembers?: number;
  /**
   * The most values in all (every array, object, string, number, boolean and null counts one).
   * Default 1,000,000. Values that come from `JSON.parse` are trees; an object that appears several
   * times in a hand-built value is counted (and walked) each time, so this bound also caps such values.
   */
  readonly maxNodes?: number;
  /** Which part of a request the value is, for the issue's `location` and message. Default `body`. */
  readonly location?: IssueLocation;
}

/**
 * The default bounds of {@link checkJsonBounds}: nesting 64 levels deep, 10,000 items per array,
 * 10,000 members per object, 1,000,000 values in all. No request or delivery of the API comes near
 * them; a 1 MiB body holds at most about 500,000 values.
 */
export const DEFAULT_JSON_BOUNDS: Readonly<{
  maxDepth: number;
  maxArrayLength: number;
  maxMembers: number;
  maxNodes: number;
}> = Object.freeze({ maxDepth: 64, maxArrayLength: 10_000, maxMembers: 10_000, maxNodes: 1_000_000 });

/** Which bound of {@link JsonBounds} a value broke. */
export type JsonBound = 'maxDepth' | 'maxArrayLength' | 'maxMembers' | 'maxNodes';

/**
 * The first bound a value broke, as a {@link FieldIssue} (so it can be answered as a 400
 * `validation_failed` with `issues: [problem]`), plus which bound and its limit.
 * @example { "location": "body", "path": "filters.labels", "message": "body.filters.labels: expected at most 10000 items, received an array of 20000 items", "expected": "at most 10000 items", "received": "an array of 20000 items", "bound": "maxArrayLength", "limit": 10000 }
 */
export interface JsonBoundsProblem extends FieldIssue {
  /**
   * The dotted path of the array or object that broke the bound, `""` for the whole value (and for
   * `maxNodes`).
   */
  path: string;
  /** What the limit is: `at most 64 levels of nesting`, `at most 10000 items`, ... */
  expected: string;
  /** What came: `more than 64 levels`, `an array of 20000 items`, `an object of 20000 members`, ... */
  received: string;
  /** The bound that was broken. */
  readonly bound: JsonBound;
  /** The bound's value. */
  readonly limit: number;
}

/** One array or object waiting to be walked, with the link to its parent to rebuild its path. */
interface Frame {
  readonly value: object;
  readonly depth: number;
  /** The array or object holding it; `undefined` for the whole value. */
  readonly parent: Frame | undefined;
  /** Its key or index in its parent (the whole value has none). */
  readonly key?: string | number;
}

/** Keys in a reported path are cut to this many characters (a key can be any length). */
const MAX_KEY_CHARS = 60;

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function boundOf(bounds: JsonBounds | undefined, name: JsonBound): number {
  const value = bounds?.[name] ?? DEFAULT_JSON_BOUNDS[name];
  if (value === Number.POSITIVE_INFINITY) return value;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`checkJsonBounds: ${name} must be a whole number, 0 or more, or Infinity`);
  }
  return value;
}

/** The dotted path of a frame's value (at most `depth` segments: never more than maxDepth + 1). */
function pathOf(frame: Frame, last?: string | number): string {
  const parts: Array<string | number> = last === undefined ? [] : [last];
  for (let at = frame; at.parent !== undefined; at = at.parent) parts.push(at.key as string | number);
  let out = '';
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i] as string | number;
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const key = part.length > MAX_KEY_CHARS ? `${part.slice(0, MAX_KEY_CHARS)}…` : part;
      out += out === '' ? key : `.${key}`;
    }
  }
  return out;
}

function problem(
  location: IssueLocation,
  path: string,
  bound: JsonBound,
  limit: number,
  expected: string,
  received: string,
): JsonBoundsProblem {
  const label = `${location}${path ? `.${path}` : ''}`;
  return {
    location,
    path,
    message: `${label}: expected ${expected}, received ${received}`,
    expected,
    received,
    bound,
    limit,
  };
}

/**
 * Walks a parsed JSON value once, iteratively (no recursion, so a 200,000-level value cannot overflow
 * the stack), in time linear in its size, and stops at the first bound it breaks: nesting deeper than
 * `maxDepth`, an array longer than `maxArrayLength`, an object with more than `maxMembers` members, or
 * more than `maxNodes` values in all. Nothing is copied and the value is not changed.
 *
 * Run it right after `JSON.parse` and before any schema: a problem becomes a 400 `validation_failed`
 * whose `issues` is `[problem]` and whose message is `problem.message`.
 * @param value the parsed JSON value (any value; non-JSON objects are walked by their own enumerable keys).
 * @param bounds the bounds, each defaulting to {@link DEFAULT_JSON_BOUNDS}, and the issue's `location`.
 * @returns `undefined` when the value is within every bound, else the first {@link JsonBoundsProblem}.
 * @throws TypeError when a bound is not a whole number 0 or more (or `Infinity`).
 * @example
 * const problem = checkJsonBounds(JSON.parse(text));
 * if (problem) {
 *   const body = { status: 400, code: 'validation_failed', message: problem.message, issues: [problem] };
 *   return new Response(JSON.stringify(body), { status: 400 });
 * }
 */
export function checkJsonBounds(value: unknown, bounds?: JsonBounds): JsonBoundsProblem | undefined {
  const maxDepth = boundOf(bounds, 'maxDepth');
  const maxArrayLength = boundOf(bounds, 'maxArrayLength');
  const maxMembers = boundOf(bounds, 'maxMembers');
  const maxNodes = boundOf(bounds, 'maxNodes');
  const location = bounds?.location ?? 'body';

  const tooDeep = (path: string) =>
    problem(
      location,
      path,
      'maxDepth',
      maxDepth,
      `at most ${maxDepth} levels of nesting`,
      `more than ${maxDepth} levels`,
    );
  const tooMany = () =>
    problem(
      location,
      '',
      'maxNodes',
      maxNodes,
      `at most ${maxNodes} values in all`,
      `more than ${maxNodes} values`,
    );

  let nodes = 1;
  if (nodes > maxNodes) return tooMany();
  if (!isContainer(value)) return undefined;
  if (maxDepth < 1) return tooDeep('');
  const stack: Frame[] = [{ value, depth: 1, parent: undefined }];
  /** The containers of the frame being walked, pushed onto the stack once it is walked. */
  const children: Frame[] = [];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const container = frame.value;
    if (Array.isArray(container)) {
      const length = container.length;
      if (length > maxArrayLength) {
        return problem(
          location,
          pathOf(frame),
          'maxArrayLength',
          maxArrayLength,
          `at most ${maxArrayLength} items`,
          `an array of ${length} items`,
        );
      }
      nodes += length;
      if (nodes > maxNodes) return tooMany();
      // Stryker disable next-line EqualityOperator: `i <= length` also reads one past the end, which is undefined, not a container: the same walk.
      for (let i = 0; i < length; i++) {
        const child: unknown = container[i];
        if (!isContainer(child)) continue;
        if (frame.depth >= maxDepth) return tooDeep(pathOf(frame, i));
        children.push({ value: child, depth: frame.depth + 1, parent: frame, key: i });
      }
    } else {
      const keys = Object.keys(container);
      if (keys.length > maxMembers) {
        return problem(
          location,
          pathOf(frame),
          'maxMembers',
          maxMembers,
          `at most ${maxMembers} members`,
          `an object of ${keys.length} members`,
        );
      }
      nodes += keys.length;
      if (nodes > maxNodes) return tooMany();
      for (const key of keys) {
        const child: unknown = (container as Record<string, unknown>)[key];
        if (!isContainer(child)) continue;
        if (frame.depth >= maxDepth) return tooDeep(pathOf(frame, key));
        children.push({ value: child, depth: frame.depth + 1, parent: frame, key });
      }
    }
    // Pushed in reverse, so that the walk (and the first problem it finds) follows document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Frame);
    children.length = 0;
  }
  return undefined;
}
