import type { ApiErrorClassName } from '../contract/error-table.js';
import type { ErrorBody, FieldIssue } from '../contract/errors.js';
import { redactBody, redactHeaders } from '../contract/redaction.js';
import { parseRetryAfter } from '../contract/retry-after.js';

/**
 * The root of every error the SDK throws. Catch this to catch them all; check `instanceof` a
 * subclass (or `status`/`code` of an {@link APIError}) to branch.
 *
 * No error carries a credential: request headers are never kept, and the messages describe values
 * rather than echo them.
 */
export class IacmError extends Error {
  /** Creates an error; `cause` is kept as the standard `cause`. */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  /**
   * A plain object for logs and `JSON.stringify`: name, message, the error's own safe fields, and
   * a description of its `cause` when it has one. It never throws, holds only JSON values, and
   * carries no credential, whatever the cause is.
   */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = { name: this.name, message: this.message };
    if (this.cause !== undefined) json.cause = describeCause(this.cause);
    return json;
  }
}

/** A request failed the contract before it was sent: nothing left the client. */
export class RequestValidationError extends IacmError {
  /** The endpoint, like `workspaces.search`. */
  readonly endpoint: string;
  /** Every bad field, each with its location, path, what was expected and what came. */
  readonly issues: FieldIssue[];

  /** Creates the error. */
  constructor(endpoint: string, issues: FieldIssue[], message: string) {
    super(`${endpoint}: ${message}`);
    this.endpoint = endpoint;
    this.issues = issues;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), endpoint: this.endpoint, issues: this.issues };
  }
}

/** An answer broke the contract (wrong type of a known member, missing required member...). */
export class ResponseValidationError extends IacmError {
  /** The endpoint, like `workspaces.search`. */
  readonly endpoint: string;
  /** The request id of the answer, when it had one. */
  readonly requestId: string | undefined;
  /** Each problem: the JSON path inside the answer (`[3].createdAt`) and what is wrong. */
  readonly issues: Array<{ path: string; message: string }>;

  /** Creates the error. */
  constructor(
    endpoint: string,
    issues: Array<{ path: string; message: string }>,
    requestId: string | undefined,
  ) {
    const first = issues[0];
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(
      `${endpoint}: the answer does not match the contract at ${first?.path || '(root)'}: ${first?.message ?? 'invalid'}${more}`,
    );
    this.endpoint = endpoint;
    this.issues = issues;
    this.requestId = requestId;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), endpoint: this.endpoint, requestId: this.requestId, issues: this.issues };
  }
}

/** The service answered with an error status. Subclasses name the status. */
export class APIError extends IacmError {
  /** The HTTP status. */
  readonly status: number;
  /**
   * The parsed error body, when it was JSON (the one documented shape, or whatever came), with the
   * values of credential members (`secretKey`, `accessToken`...) replaced by `[redacted]`.
   */
  readonly body: ErrorBody | unknown;
  /** The error body's machine-readable `code`, when there was one. */
  readonly code: string | undefined;
  /** The answer's headers (lower-case names; `set-cookie` and other secret headers read `[redacted]`). */
  readonly headers: Record<string, string>;
  /** The answer's `x-request-id`. */
  readonly requestId: string | undefined;
  /** The endpoint, like `workspaces.search`. */
  readonly endpoint: string;

  /** Creates the error from an answer. */
  constructor(endpoint: string, status: number, body: unknown, headers: Record<string, string>) {
    const parsed = body && typeof body === 'object' ? (body as Partial<ErrorBody>) : undefined;
    const detail = typeof parsed?.message === 'string' ? parsed.message : `HTTP ${status}`;
    super(`${endpoint}: ${status}${typeof parsed?.code === 'string' ? ` ${parsed.code}` : ''}: ${detail}`);
    this.endpoint = endpoint;
    this.status = status;
    this.body = redactBody(body);
    this.code = typeof parsed?.code === 'string' ? parsed.code : undefined;
    this.headers = redactHeaders(headers);
    this.requestId =
      headers['x-request-id'] ?? (typeof parsed?.requestId === 'string' ? parsed.requestId : undefined);
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      endpoint: this.endpoint,
      status: this.status,
      code: this.code,
      requestId: this.requestId,
      body: this.body,
    };
  }
}

/** 400: the service refused the request's input. */
export class BadRequestError extends APIError {}
/** 401: missing, invalid or expired credentials. */
export class AuthenticationError extends APIError {}
/** 403: the credentials may not do this. */
export class PermissionDeniedError extends APIError {}
/** 404: no such record (or route). */
export class NotFoundError extends APIError {}
/** 409: the request conflicts with the current state. */
export class ConflictError extends APIError {}
/** 422: well-formed but not processable. */
export class UnprocessableEntityError extends APIError {}

/** 429: rate limited. `retryAfter` is how long the service asked to wait, in seconds. */
export class RateLimitError extends APIError {
  /**
   * Seconds to wait before trying again, if the answer said: from `retry-after-ms`, or `Retry-After`
   * (seconds or an HTTP date), as the contract's `parseRetryAfter` reads them.
   */
  readonly retryAfter: number | undefined;

  /** Creates the error. */
  constructor(endpoint: string, status: number, body: unknown, headers: Record<string, string>) {
    super(endpoint, status, body, headers);
    const ms = parseRetryAfter(headers, Date.now());
    this.retryAfter = ms === undefined ? undefined : ms / 1000;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfter: this.retryAfter };
  }
}

/** 5xx: the service failed. */
export class InternalServerError extends APIError {}

/** The request could not reach the service (DNS, refused connection, reset...). `cause` holds why. */
export class APIConnectionError extends IacmError {
  /** The endpoint, like `workspaces.search`. */
  readonly endpoint: string;

  /** Creates the error. */
  constructor(endpoint: string, message: string, cause: unknown) {
    super(`${endpoint}: ${message}`, { cause });
    this.endpoint = endpoint;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), endpoint: this.endpoint };
  }
}

/** The request took longer than its timeout. */
export class APIConnectionTimeoutError extends APIConnectionError {}

/** The caller aborted the request through its `signal`. */
export class APIUserAbortError extends IacmError {
  /** The endpoint, like `workspaces.search`. */
  readonly endpoint: string;

  /** Creates the error. */
  constructor(endpoint: string, cause: unknown) {
    super(`${endpoint}: the request was aborted`, { cause });
    this.endpoint = endpoint;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), endpoint: this.endpoint };
  }
}

/** How deep {@link describeCause} follows a chain of causes. */
const MAX_CAUSE_DEPTH = 3;

/**
 * Describes an error's cause as JSON that is safe to log, without ever throwing: an error as
 * `{ name, message, cause? }` (its own cause followed a few levels), a string (shortened), a
 * number, boolean or bigint as text, and anything else by its kind only (`an object`, `a symbol`,
 * `a function`), since an arbitrary object may hold a credential.
 */
function describeCause(cause: unknown, depth = 0): unknown {
  try {
    if (isErrorLike(cause)) {
      const out: Record<string, unknown> = {
        name: stringOr(cause.name, 'Error'),
        message: stringOr(cause.message, ''),
      };
      const inner = cause.cause;
      if (inner !== undefined)
        out.cause = depth < MAX_CAUSE_DEPTH ? describeCause(inner, depth + 1) : '(more causes)';
      return out;
    }
    switch (typeof cause) {
      case 'undefined':
        return undefined;
      case 'string':
        return cause.length > 500 ? `${cause.slice(0, 500)}…` : cause;
      case 'number':
      case 'boolean':
        return String(cause);
      case 'bigint':
        return `${cause.toString()}n`;
      case 'symbol':
        return 'a symbol';
      case 'function':
        return 'a function';
      default:
        return cause === null ? 'null' : Array.isArray(cause) ? 'an array' : 'an object';
    }
  } catch {
    return 'an unreadable value';
  }
}

/** Whether a value is an Error (or a DOMException, or an error from another realm). */
function isErrorLike(value: unknown): value is { name?: unknown; message?: unknown; cause?: unknown } {
  if (value instanceof Error) return true;
  if (typeof DOMException === 'function' && value instanceof DOMException) return true;
  return Object.prototype.toString.call(value) === '[object Error]';
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** The class of each name the API error table can give (see `API_ERRORS` in the contract). */
export const ERROR_CLASSES = {
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  APIError,
} as const satisfies Record<
  ApiErrorClassName,
  new (
    ...args: ConstructorParameters<typeof APIError>
  ) => APIError
>;

/** The SDK's error class of each name of the API error table: {@link ERROR_CLASSES}' type. */
export type ErrorClasses = typeof ERROR_CLASSES;
