/**
 * The API error table: the error codes, the status each is answered with and the SDK's error class
 * for it. Apart from the error body's schemas (`errors.ts`, which re-exports it) so that the client,
 * which maps a status to its class on every error answer, does not load those schemas with it.
 *
 * @module
 */

/** A code of {@link ERROR_CODES} (the `ErrorCode` of `errors.ts`, which adds the open schema). */
type ErrorCode = (typeof ERROR_CODES)[number];

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
  'budget_exceeded',
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
  budget_exceeded: { status: 409, errorClass: 'ConflictError' },
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
