import { z } from 'zod';
import { describe, openEnum } from './primitives.js';

/**
 * The stable, machine-readable error codes of the error body. Clients branch on `code`, never on
 * `message`. See `docs/api-semantics.md`, "Errors".
 */
export const ERROR_CODES = [
  'validation_failed',
  'invalid_json',
  'unsupported_media_type',
  'payload_too_large',
  'unauthorized',
  'invalid_credentials',
  'token_expired',
  'forbidden',
  'not_found',
  'route_not_found',
  'method_not_allowed',
  'conflict',
  'unprocessable_entity',
  'rate_limited',
  'internal_error',
  'service_unavailable',
] as const;

/** A machine-readable error code: one of {@link ERROR_CODES}, or a code this version does not know yet. */
export const ErrorCode = openEnum(ERROR_CODES);
/**
 * A machine-readable error code: one of {@link ERROR_CODES}. A service version newer than this
 * package may send others, which pass validation.
 */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Where a bad value can be found in a request. */
export const ISSUE_LOCATIONS = ['path', 'query', 'body', 'header'] as const;
/** Where a bad value was found in a request. */
export const IssueLocation = openEnum(ISSUE_LOCATIONS);
/** Where a bad value was found in a request. */
export type IssueLocation = (typeof ISSUE_LOCATIONS)[number];

/**
 * One field-level problem of a request that failed validation.
 * @example { "location": "body", "path": "filters.status[0]", "message": "...", "expected": "one of ...", "received": "\"done\"" }
 */
export const FieldIssue = z.looseObject({
  /** Which part of the request holds the field. */
  location: IssueLocation,
  /** Dotted path of the field inside that part, `""` for the part itself (`filters.status[0]`). */
  path: z.string(),
  /** What is wrong and how to fix it, naming the field, what was expected and what came. */
  message: z.string(),
  /** What was expected, when it can be said briefly. */
  expected: z.string().optional(),
  /** A short description of what came (never a secret value; long strings are summarised). */
  received: z.string().optional(),
});
/** One field-level problem of a request that failed validation. */
export interface FieldIssue {
  /** Which part of the request holds the field. */
  location: IssueLocation;
  /** Dotted path of the field inside that part, `""` for the part itself (`filters.status[0]`). */
  path: string;
  /** What is wrong and how to fix it, naming the field, what was expected and what came. */
  message: string;
  /** What was expected, when it can be said briefly. */
  expected?: string | undefined;
  /** A short description of what came (never a secret value; long strings are summarised). */
  received?: string | undefined;
}

/**
 * The one error body every error answer carries (status 4xx and 5xx), the mock's and what the SDK reads.
 * @example { "status": 400, "code": "validation_failed", "message": "body.size: expected at most 150, received number 151", "requestId": "req_000001", "issues": [...] }
 */
export const ErrorBody = z.looseObject({
  /** The HTTP status, repeated in the body. */
  status: z.number().int().min(400).max(599),
  /** Stable machine-readable code. */
  code: ErrorCode,
  /** Human-readable explanation that says what to fix. */
  message: z.string(),
  /** The `x-request-id` of the answer. */
  requestId: z.string().optional(),
  /** Field-level problems, for `validation_failed`. */
  issues: z.array(FieldIssue).optional(),
});
/** The one error body of every error answer (status 4xx and 5xx). */
export interface ErrorBody {
  /** The HTTP status, repeated in the body. */
  status: number;
  /** Stable machine-readable code: branch on it, never on `message`. */
  code: ErrorCode;
  /** Human-readable explanation that says what to fix. */
  message: string;
  /** The `x-request-id` of the answer. */
  requestId?: string | undefined;
  /** Field-level problems, for `validation_failed`. */
  issues?: FieldIssue[] | undefined;
}

/** Renders an issue path (`['filters', 'status', 0]`) as `filters.status[0]`. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** Member names whose values are credentials: their content is never described, only their kind and length. */
const SECRET_MEMBER = /key|secret|password|token|authori[sz]ation|credential/i;

function isSecretPath(path: ReadonlyArray<PropertyKey>): boolean {
  return path.some((part) => typeof part === 'string' && SECRET_MEMBER.test(part));
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

function expectedOf(issue: z.core.$ZodIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected;
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_big':
      return issue.origin === 'array' || issue.origin === 'string'
        ? `at most ${String(issue.maximum)} ${issue.origin === 'array' ? 'items' : 'characters'}`
        : `at most ${String(issue.maximum)}`;
    case 'too_small':
      return issue.origin === 'array' || issue.origin === 'string'
        ? `at least ${String(issue.minimum)} ${issue.origin === 'array' ? 'items' : 'characters'}`
        : `at least ${String(issue.minimum)}`;
    case 'invalid_format':
      return issue.format === 'regex' ? `a value matching ${issue.pattern ?? 'the pattern'}` : issue.format;
    case 'unrecognized_keys':
      return 'only documented members';
    default:
      return undefined;
  }
}

/**
 * Turns a zod error into field issues: one per problem, each naming the field (its location and
 * dotted path), what was expected and what came. Members a strict schema does not know are reported
 * one by one. Values are described, not echoed, when long, when the member looks like a credential
 * (`secretKey`, `password`, `token`, ...) or when the member is unknown.
 * @param error the zod error of parsing `input`.
 * @param location which part of the request `input` is.
 * @param input the value that was parsed, to describe what came.
 */
export function fieldIssuesFromZod(error: z.ZodError, location: IssueLocation, input: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const visit = (list: ReadonlyArray<z.core.$ZodIssue>, prefix: ReadonlyArray<PropertyKey>) => {
    for (const issue of list) {
      const path = [...prefix, ...issue.path];
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const where = formatIssuePath([...path, key]);
          issues.push({
            location,
            path: where,
            message: `${location}${where ? `.${where}` : ''}: unknown member "${key}"; expected only documented members`,
            expected: 'only documented members',
            received: describeKind(valueAt(input, [...path, key])),
          });
        }
        continue;
      }
      if (issue.code === 'invalid_union' && issue.errors.length > 0) {
        // Report the branch that got furthest (the one with the fewest, deepest issues).
        const best = [...issue.errors].sort((a, b) => depth(b) - depth(a) || a.length - b.length)[0];
        if (best && depth(best) > 0) {
          visit(best, path);
          continue;
        }
      }
      const where = formatIssuePath(path);
      const received = describeSafely(valueAt(input, path), path);
      const expected = expectedOf(issue);
      const label = `${location}${where ? `.${where}` : ''}`;
      const base =
        issue.message.startsWith('Invalid input') && expected ? `expected ${expected}` : issue.message;
      const message = `${label}: ${base}, received ${received}`;
      const entry: FieldIssue = { location, path: where, message, received };
      if (expected !== undefined) entry.expected = expected;
      issues.push(entry);
    }
  };
  visit(error.issues, []);
  return issues;
}

function depth(issues: ReadonlyArray<z.core.$ZodIssue>): number {
  return Math.max(0, ...issues.map((issue) => issue.path.length));
}

/**
 * Summarises field issues as one message: the first issue's message, and how many more there are.
 */
export function summariseIssues(issues: ReadonlyArray<FieldIssue>): string {
  const [first, ...rest] = issues;
  if (!first) return 'the request is invalid';
  return rest.length === 0
    ? first.message
    : `${first.message} (and ${rest.length} more issue${rest.length > 1 ? 's' : ''})`;
}
