/**
 * The receiver's one error type, its stable codes and the HTTP status each one answers.
 *
 * @module
 */

/**
 * Every reason a delivery is refused, with the HTTP status the receiver answers. Branch on `code`,
 * never on `message`. The order of the checks is: method, credentials, content type, size, JSON,
 * schema (see `docs/webhooks.md`).
 */
export const WEBHOOK_ERROR_STATUS = {
  /** The method is not POST. `Allow: POST` is sent. */
  method_not_allowed: 405,
  /** No `Authorization` header, while the receiver expects credentials. */
  missing_credentials: 401,
  /** The `Authorization` header matches none of the configured credentials. */
  invalid_credentials: 401,
  /**
   * The `Authorization` header uses the Basic scheme but is not base64 of `username:password`, or it
   * holds a control character (CR, LF, NUL, another C0 character or DEL; a tab is allowed).
   */
  malformed_authorization: 400,
  /** The `Content-Type` is missing or is not JSON. */
  unsupported_media_type: 415,
  /** The body is larger than `maxBodyBytes`. */
  payload_too_large: 413,
  /** The body could not be read (the connection broke while it was being read). */
  body_read_failed: 400,
  /** The body is empty, not UTF-8, or not JSON. */
  invalid_json: 400,
  /** The JSON is neither a notification of spec §2.11 nor the integration's test delivery. */
  invalid_payload: 422,
  /** The server parsed or consumed the body before the receiver saw it (a misconfigured server). */
  body_already_parsed: 500,
  /** A handler registered with `on` or `onAny` threw. */
  handler_failed: 500,
  /** The receiver itself failed (a bug). */
  internal_error: 500,
} as const satisfies Record<string, number>;

/** A stable, machine-readable reason a delivery was refused: a key of {@link WEBHOOK_ERROR_STATUS}. */
export type WebhookErrorCode = keyof typeof WEBHOOK_ERROR_STATUS;

/** One field of a payload that breaks the schema (a 422 `invalid_payload` answer lists them all). */
export interface WebhookIssue {
  /** Dotted path of the field in the JSON body, `""` for the body itself (`samples[0].firstSeen`). */
  readonly path: string;
  /** What is wrong, naming the field, what was expected and what came. */
  readonly message: string;
  /** What was expected, when it can be said briefly. */
  readonly expected?: string;
  /** A short description of what came (long strings are summarised by their length). */
  readonly received: string;
}

/** The JSON body of every error answer of the receiver. */
export interface WebhookErrorBody {
  /** The HTTP status, repeated in the body. */
  readonly status: number;
  /** Stable machine-readable code. */
  readonly code: WebhookErrorCode;
  /** What went wrong and how to fix it. Never contains a credential. */
  readonly message: string;
  /** The fields that break the schema (only for `invalid_payload`). */
  readonly issues?: readonly WebhookIssue[];
}

/** Options of a {@link WebhookError}. */
export interface WebhookErrorOptions {
  /** Headers the answer must carry (`Allow`, `WWW-Authenticate`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fields that break the schema. */
  readonly issues?: readonly WebhookIssue[];
  /** The error that caused this one (the exception a handler threw). Never sent to the client. */
  readonly cause?: unknown;
}

/**
 * Why a delivery was refused, with the HTTP answer to give. `code` is stable, `status` is the HTTP
 * status, `headers` are the headers the answer must carry, and `message` says what to fix. Neither the
 * message nor any other member ever contains a credential. `JSON.stringify(error)` gives the answer's
 * body ({@link WebhookErrorBody}); `cause` (a handler's exception) is never part of it.
 */
export class WebhookError extends Error {
  /** Always `"WebhookError"`. */
  override readonly name = 'WebhookError';
  /** Stable machine-readable code. */
  readonly code: WebhookErrorCode;
  /** The HTTP status to answer. */
  readonly status: number;
  /** Headers the answer must carry (lower-case names). */
  readonly headers: Readonly<Record<string, string>>;
  /** The fields that break the schema (only for `invalid_payload`). */
  readonly issues: readonly WebhookIssue[] | undefined;

  /**
   * Creates an error; the status follows from the code.
   * @param code the stable code; the status follows from it ({@link WEBHOOK_ERROR_STATUS}).
   * @param message what went wrong and how to fix it.
   * @param options headers of the answer, schema issues, cause.
   */
  constructor(code: WebhookErrorCode, message: string, options: WebhookErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = WEBHOOK_ERROR_STATUS[code];
    this.headers = { ...options.headers };
    this.issues = options.issues;
  }

  /** The answer's JSON body: status, code, message and, for `invalid_payload`, the issues. */
  toJSON(): WebhookErrorBody {
    return this.issues === undefined
      ? { status: this.status, code: this.code, message: this.message }
      : { status: this.status, code: this.code, message: this.message, issues: this.issues };
  }
}
