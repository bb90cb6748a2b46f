import * as z from 'zod/mini';
import { openEnum } from './primitives.js';
import { looseObject } from './zod.js';

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

/**
 * The names of the SDK's error classes that an error answer becomes (`@iacm/sdk` exports each): one
 * per status the API gives a class of its own, and `APIError` for the others.
 */
export type ApiErrorClassName =
  | 'BadRequestError'
  | 'AuthenticationError'
  | 'PermissionDeniedError'
  | 'NotFoundError'
  | 'ConflictError'
  | 'UnprocessableEntityError'
  | 'RateLimitError'
  | 'InternalServerError'
  | 'APIError';

/** One row of {@link API_ERRORS}: the status an error code is answered with, and the SDK's class for it. */
export interface ApiErrorEntry {
  /** The HTTP status of an answer with this code. */
  readonly status: number;
  /** The SDK error class an answer with this status becomes. */
  readonly errorClass: ApiErrorClassName;
}

/**
 * The API error table, the one home of status <-> code <-> class: for each code of
 * {@link ERROR_CODES}, the HTTP status it is answered with and the SDK error class that status
 * becomes. The mock answers by it, the SDK maps statuses to classes by it and the OpenAPI document
 * lists the codes of each error response by it. Several codes can share a status (the first one
 * listed is the status's general code, see {@link codeOfStatus}); codes of one status share a class.
 */
export const API_ERRORS = {
  validation_failed: { status: 400, errorClass: 'BadRequestError' },
  invalid_json: { status: 400, errorClass: 'BadRequestError' },
  unsupported_media_type: { status: 415, errorClass: 'APIError' },
  payload_too_large: { status: 413, errorClass: 'APIError' },
  unauthorized: { status: 401, errorClass: 'AuthenticationError' },
  invalid_credentials: { status: 401, errorClass: 'AuthenticationError' },
  token_expired: { status: 401, errorClass: 'AuthenticationError' },
  forbidden: { status: 403, errorClass: 'PermissionDeniedError' },
  not_found: { status: 404, errorClass: 'NotFoundError' },
  route_not_found: { status: 404, errorClass: 'NotFoundError' },
  method_not_allowed: { status: 405, errorClass: 'APIError' },
  conflict: { status: 409, errorClass: 'ConflictError' },
  unprocessable_entity: { status: 422, errorClass: 'UnprocessableEntityError' },
  rate_limited: { status: 429, errorClass: 'RateLimitError' },
  internal_error: { status: 500, errorClass: 'InternalServerError' },
  service_unavailable: { status: 503, errorClass: 'InternalServerError' },
} as const satisfies Record<ErrorCode, ApiErrorEntry>;

/** The HTTP status an error code is answered with, or undefined for a code not in {@link API_ERRORS}. */
export function statusOfCode(code: string): number | undefined {
  return Object.hasOwn(API_ERRORS, code) ? API_ERRORS[code as ErrorCode].status : undefined;
}

/**
 * The general error code of an HTTP status: the first code of {@link API_ERRORS} with that status
 * (`400` -> `validation_failed`, `401` -> `unauthorized`), or undefined for a status the table does
 * not list.
 */
export function codeOfStatus(status: number): ErrorCode | undefined {
  return ERROR_CODES.find((code) => API_ERRORS[code].status === status);
}

/**
 * The SDK error class name of an HTTP error status: the class of its codes in {@link API_ERRORS};
 * for a status the table does not list, `InternalServerError` for 5xx and `APIError` otherwise.
 */
export function errorClassOfStatus(status: number): ApiErrorClassName {
  const code = codeOfStatus(status);
  if (code !== undefined) return API_ERRORS[code].errorClass;
  return status >= 500 ? 'InternalServerError' : 'APIError';
}

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

/**
 * At most this many issues are listed in one answer or error (`validation_failed`,
 * `RequestValidationError`): past it, one last issue with `omitted` counts the rest. The webhook
 * receiver's `invalid_payload` lists at most as many, and stops validating there.
 */
export const MAX_LISTED_ISSUES = 100;

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
