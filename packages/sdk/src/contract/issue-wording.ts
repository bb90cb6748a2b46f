/**
 * The wording of validation issues: how a zod error becomes the {@link FieldIssue}s of a
 * `validation_failed` answer (the mock), a `RequestValidationError` (the SDK) or an
 * `invalid_payload` answer (the webhook receiver), and their one-line summary.
 *
 * Its own module, apart from the error table (`errors.ts`), because only a failed validation needs
 * it: the SDK's client imports it on its first failure, so that a first call that succeeds does not
 * load it (issue 25, point 6: the client's first-call bundle).
 *
 * @module
 */
import type * as z from 'zod/mini';
import type { FieldIssue, IssueLocation } from './errors.js';
import { MAX_LISTED_ISSUES } from './limits.js';
import { describe } from './primitives.js';
import { looksLikeSecretName } from './redaction.js';

/** Renders an issue path (`['filters', 'status', 0]`) as `filters.status[0]`. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** Whether a path passes through a member that looks like a credential: its content is never described, only its kind and length. */
function isSecretPath(path: ReadonlyArray<PropertyKey>): boolean {
  return path.some((part) => typeof part === 'string' && looksLikeSecretName(part));
}

function describeSafely(value: unknown, path: ReadonlyArray<PropertyKey>): string {
  if (typeof value === 'string' && isSecretPath(path)) return `a string of ${value.length} characters`;
  return describe(value);
}

/** Describes a value by its kind only (an unknown member may hold anything, a misplaced credential too). */
function describeKind(value: unknown): string {
  return typeof value === 'string' ? `a string of ${value.length} characters` : describe(value);
}

/** The value at a path inside a parsed input (undefined when the path leads nowhere). */
export function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = root;
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

/**
 * How {@link zodIssues} words the issues of one kind of input:
 * - `request` (the API's `validation_failed` issues, from the mock and the SDK): a message keeps
 *   zod's own wording unless it is the generic `Invalid input`; a string at a member that looks like
 *   a credential is described by its length only;
 * - `delivery` (the webhook receiver's `invalid_payload` issues): any message that starts with
 *   `Invalid` is reworded as what was expected, an open enumeration or a union of literals says what
 *   it takes, and an absent member that must stay absent reads `no such member`.
 */
export type IssueDialect = 'request' | 'delivery';

/** How {@link zodIssues} writes its issues. */
export interface IssueFormat {
  /** How a message names the field, from its dotted path (`""` for the whole input). */
  readonly label: (where: string) => string;
  /** The wording. Default `request`. */
  readonly dialect?: IssueDialect;
  /**
   * The most issues written; past it, one more issue with `omitted` counts the rest. Default
   * {@link MAX_LISTED_ISSUES} (100).
   */
  readonly max?: number;
}

/** One issue as {@link zodIssues} writes it: a {@link FieldIssue} without its location. */
export interface ZodIssueText {
  /** Dotted path of the field, `""` for the input itself (`filters.status[0]`). */
  path: string;
  /** What is wrong, naming the field (by the format's `label`), what was expected and what came. */
  message: string;
  /** What was expected, when it can be said briefly. */
  expected?: string | undefined;
  /** A short description of what came. */
  received: string;
  /** Only on the last issue of a list that was cut: how many more issues there were, not listed. */
  omitted?: number | undefined;
}

function expectedOf(issue: z.core.$ZodIssue, dialect: IssueDialect): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return dialect === 'delivery' && issue.expected === 'undefined' ? 'no such member' : issue.expected;
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_big':
      if (dialect === 'delivery') return undefined;
      return issue.origin === 'array' || issue.origin === 'string'
        ? `at most ${String(issue.maximum)} ${issue.origin === 'array' ? 'items' : 'characters'}`
        : `at most ${String(issue.maximum)}`;
    case 'too_small':
      if (dialect === 'delivery') return undefined;
      return issue.origin === 'array' || issue.origin === 'string'
        ? `at least ${String(issue.minimum)} ${issue.origin === 'array' ? 'items' : 'characters'}`
        : `at least ${String(issue.minimum)}`;
    case 'invalid_format':
      return issue.format === 'regex' ? `a value matching ${issue.pattern ?? 'the pattern'}` : issue.format;
    case 'unrecognized_keys':
      return dialect === 'delivery' ? undefined : 'only documented members';
    case 'invalid_union': {
      if (dialect === 'request') return undefined;
      if ('options' in issue && Array.isArray(issue.options)) {
        return `one of ${issue.options.map((v: unknown) => JSON.stringify(v)).join(', ')}`;
      }
      // An open enumeration (known values or any string): the string branch says what is required.
      for (const branch of issue.errors) {
        for (const inner of branch)
          if (inner.path.length === 0 && inner.code === 'invalid_type') return inner.expected;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The one issue formatter of the contract, the mock and the receiver: turns a zod error into
 * issues, one per problem, each naming the field (its dotted path), what was expected and what
 * came. Members a strict schema does not know are reported one by one and described by their kind
 * only. Of a union that failed, the branch that got furthest is reported.
 *
 * At most `format.max` issues (default {@link MAX_LISTED_ISSUES}, 100) are written; when there are
 * more, one last issue (path `""`) says how many more there are, in its message and in `omitted`.
 * The work is linear in the size of the zod error, without recursion: only the listed issues are
 * formatted, the rest are only counted.
 * @param error the zod error of parsing `input`.
 * @param input the value that was parsed, to describe what came.
 * @param format how to name the field in a message, the wording ({@link IssueDialect}) and the cap.
 */
export function zodIssues(error: z.core.$ZodError, input: unknown, format: IssueFormat): ZodIssueText[] {
  const dialect = format.dialect ?? 'request';
  const max = format.max ?? MAX_LISTED_ISSUES;
  const issues: ZodIssueText[] = [];
  let omitted = 0;
  /** The issue lists still to read, innermost last: a union's best branch is read where it stands. */
  const stack: Array<{ list: ReadonlyArray<z.core.$ZodIssue>; index: number; prefix: PropertyKey[] }> = [
    { list: error.issues, index: 0, prefix: [] },
  ];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as (typeof stack)[number];
    const issue = frame.list[frame.index++];
    if (issue === undefined) {
      stack.pop();
      continue;
    }
    if (issue.code === 'unrecognized_keys') {
      for (let i = 0; i < issue.keys.length; i++) {
        if (issues.length >= max) {
          omitted += issue.keys.length - i;
          break;
        }
        const key = issue.keys[i] as string;
        const path = [...frame.prefix, ...issue.path, key];
        const where = formatIssuePath(path);
        issues.push({
          path: where,
          message: `${format.label(where)}: unknown member "${key}"; expected only documented members`,
          expected: 'only documented members',
          received: describeKind(valueAt(input, path)),
        });
      }
      continue;
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // Report the branch that got furthest (the one with the fewest, deepest issues), or, when
      // every branch failed at the value itself, the one branch whose type matched.
      const furthest = furthestBranch(issue.errors);
      const best = furthest && depth(furthest) > 0 ? furthest : matchedBranch(issue.errors);
      if (best) {
        stack.push({ list: best, index: 0, prefix: [...frame.prefix, ...issue.path] });
        continue;
      }
    }
    if (issues.length >= max) {
      omitted++;
      continue;
    }
    const path = [...frame.prefix, ...issue.path];
    const where = formatIssuePath(path);
    const value = valueAt(input, path);
    const received = dialect === 'request' ? describeSafely(value, path) : describe(value);
    const expected = expectedOf(issue, dialect);
    const generic = issue.message.startsWith(dialect === 'request' ? 'Invalid input' : 'Invalid');
    const base = generic && expected ? `expected ${expected}` : issue.message;
    // A schema's own message may already say what came (`PathId`'s does): not said twice.
    const message = base.includes(', received ')
      ? `${format.label(where)}: ${base}`
      : `${format.label(where)}: ${base}, received ${received}`;
    // (Members in the order each wording has always written them.)
    if (expected === undefined) issues.push({ path: where, message, received });
    else if (dialect === 'request') issues.push({ path: where, message, received, expected });
    else issues.push({ path: where, message, expected, received });
  }
  if (omitted > 0) issues.push(omittedIssue(format.label(''), omitted, max));
  return issues;
}

/** The last issue of a list cut at `max`: how many more there were. */
function omittedIssue(label: string, omitted: number, max: number): ZodIssueText & { omitted: number } {
  const more = `${omitted} more issue${omitted > 1 ? 's' : ''}`;
  return {
    path: '',
    message: `${label}: ${more} not listed (an answer lists at most ${max})`,
    received: more,
    omitted,
  };
}

/**
 * Turns a zod error into field issues ({@link zodIssues} in the `request` wording): one per
 * problem, each naming the field (its location and dotted path, as in `body.filters.status[0]`),
 * what was expected and what came. Values are described, not echoed, when long, when the member
 * looks like a credential (`secretKey`, `password`, `token`, ...) or when the member is unknown.
 * At most {@link MAX_LISTED_ISSUES} issues are listed; past them, one last issue with `omitted`
 * counts the rest (see {@link limitIssues} to cap issues of several parts together).
 * @param error the zod error of parsing `input`.
 * @param location which part of the request `input` is.
 * @param input the value that was parsed, to describe what came.
 */
export function fieldIssuesFromZod(
  error: z.core.$ZodError,
  location: IssueLocation,
  input: unknown,
): FieldIssue[] {
  const label = (where: string) => `${location}${where ? `.${where}` : ''}`;
  return zodIssues(error, input, { label }).map((issue) => ({ location, ...issue }));
}

/**
 * Caps a list of field issues gathered from several parts of a request (path, query, body) at `max`:
 * the first `max` issues are kept and one last issue (path `""`, `omitted` set) counts the others,
 * including those that the lists' own `omitted` issues counted. A list within the cap is returned as
 * it is (its `omitted` issues merged into one). Linear in the list.
 * @param issues the issues, in the order to list them.
 * @param max the most issues to keep. Default {@link MAX_LISTED_ISSUES} (100).
 */
export function limitIssues(
  issues: ReadonlyArray<FieldIssue>,
  max: number = MAX_LISTED_ISSUES,
): FieldIssue[] {
  const kept: FieldIssue[] = [];
  let omitted = 0;
  let location: IssueLocation | undefined;
  for (const issue of issues) {
    if (issue.omitted !== undefined) {
      omitted += issue.omitted;
      location ??= issue.location;
    } else if (kept.length < max) {
      kept.push(issue);
    } else {
      omitted++;
      location ??= issue.location;
    }
  }
  if (omitted > 0 && location !== undefined) {
    kept.push({ location, ...omittedIssue(location, omitted, max) });
  }
  return kept;
}

/** The branch of a failed union that got furthest: the deepest, then the one with the fewest issues. */
function furthestBranch(
  branches: ReadonlyArray<ReadonlyArray<z.core.$ZodIssue>>,
): ReadonlyArray<z.core.$ZodIssue> | undefined {
  let best: ReadonlyArray<z.core.$ZodIssue> | undefined;
  let bestDepth = -1;
  for (const branch of branches) {
    const d = depth(branch);
    if (d > bestDepth || (d === bestDepth && best !== undefined && branch.length < best.length)) {
      best = branch;
      bestDepth = d;
    }
  }
  return best;
}

/**
 * The one branch of a union that failed only on its own checks (its type matched: no `invalid_type`
 * issue), when exactly one did: an array over its maximum in a union of an array and an object.
 */
function matchedBranch(
  branches: ReadonlyArray<ReadonlyArray<z.core.$ZodIssue>>,
): ReadonlyArray<z.core.$ZodIssue> | undefined {
  let matched: ReadonlyArray<z.core.$ZodIssue> | undefined;
  for (const branch of branches) {
    if (branch.length === 0 || branch.some((issue) => issue.code === 'invalid_type')) continue;
    if (matched !== undefined) return undefined;
    matched = branch;
  }
  return matched;
}

/** The longest path of a list of issues (a loop: a list may hold any number of issues). */
function depth(issues: ReadonlyArray<z.core.$ZodIssue>): number {
  let deepest = 0;
  for (const issue of issues) if (issue.path.length > deepest) deepest = issue.path.length;
  return deepest;
}

/**
 * Summarises field issues as one message: the first issue's message, and how many more there are
 * (those listed and those an `omitted` issue counts).
 */
export function summariseIssues(issues: ReadonlyArray<FieldIssue>): string {
  let first: FieldIssue | undefined;
  let more = 0;
  for (const issue of issues) {
    if (issue.omitted !== undefined) more += issue.omitted;
    else if (first === undefined) first = issue;
    else more++;
  }
  if (!first) return 'the request is invalid';
  return more === 0 ? first.message : `${first.message} (and ${more} more issue${more > 1 ? 's' : ''})`;
}
