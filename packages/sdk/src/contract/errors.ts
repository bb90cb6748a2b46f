import * as z from 'zod/mini';
import { ERROR_CODES } from './error-table.js';
import { openEnum } from './primitives.js';
import { looseObject } from './zod.js';

export {
  API_ERRORS,
  type ApiErrorClassName,
  type ApiErrorEntry,
  codeOfStatus,
  ERROR_CODES,
  errorClassOfStatus,
  statusOfCode,
} from './error-table.js';

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
export const FieldIssue = looseObject({
  /** Which part of the request holds the field. */
  location: IssueLocation,
  /** Dotted path of the field inside that part, `""` for the part itself (`filters.status[0]`). */
  path: z.string(),
  /** What is wrong and how to fix it, naming the field, what was expected and what came. */
  message: z.string(),
  /** What was expected, when it can be said briefly. */
  expected: z.optional(z.string()),
  /** A short description of what came (never a secret value; long strings are summarised). */
  received: z.optional(z.string()),
  /**
   * Only on the last issue of a list that was cut at {@link MAX_LISTED_ISSUES}: how many more issues
   * there were, not listed. That issue's `path` is `""` and its message says how many.
   */
  omitted: z.optional(z.number().check(z.int()).check(z.gte(1))),
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
  /**
   * Only on the last issue of a list that was cut at {@link MAX_LISTED_ISSUES}: how many more issues
   * there were, not listed. That issue's `path` is `""` and its message says how many.
   */
  omitted?: number | undefined;
}

// At most this many issues are listed in one answer or error: declared with the other limits, so
// that the issue wording (`issue-wording.ts`, which the client loads on a failed validation) reads it
// without this module's schemas.
export { MAX_LISTED_ISSUES } from './limits.js';

/**
 * The one error body every error answer carries (status 4xx and 5xx), the mock's and what the SDK reads.
 * @example { "status": 400, "code": "validation_failed", "message": "body.size: expected at most 150, received number 151", "requestId": "req_000001", "issues": [...] }
 */
export const ErrorBody = looseObject({
  /** The HTTP status, repeated in the body. */
  status: z.number().check(z.int()).check(z.gte(400)).check(z.lte(599)),
  /** Stable machine-readable code. */
  code: ErrorCode,
  /** Human-readable explanation that says what to fix. */
  message: z.string(),
  /** The `x-request-id` of the answer. */
  requestId: z.optional(z.string()),
  /** Field-level problems, for `validation_failed`. */
  issues: z.optional(z.array(FieldIssue)),
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
