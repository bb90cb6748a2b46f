/**
 * The receiver: one transport-free core that verifies a delivery and answers it. Adapters for
 * frameworks are a few lines over {@link WebhookReceiver.handle}.
 *
 * @module
 */
import {
  type BodyReader,
  type BodyReadProblem,
  boundBody,
  checkJsonBounds,
  checkJsonMediaType,
  declaredLengthExceeds,
  type HeaderSource,
  isBodyReadProblem,
  MAX_LISTED_ISSUES,
  type RawBody,
  readHeader,
} from '@iacm/sdk/contract';
import { toBytes } from './body.js';
import {
  type AuthorizationCheck,
  type CredentialDigests,
  type CredentialsOption,
  checkAuthorization,
  digestCredentials,
  normalizeCredentials,
} from './credentials.js';
import { WebhookError, type WebhookIssue } from './errors.js';
import {
  parseDelivery,
  type WebhookKind,
  type WebhookNotification,
  type WebhookPayloadByKind,
} from './schema.js';
import { RECEIVER_STEPS, type ReceiverSteps } from './steps.js';

/** The default body size limit: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The default nesting limit of a delivery's JSON: 64 levels of arrays and objects. The service's
 * payloads are about 5 deep; a deeper body is refused (422) before its schema is checked, so a
 * verified payload never breaks `JSON.stringify` or other recursive code.
 */
export const DEFAULT_MAX_DEPTH = 64;

/** The default realm of the `WWW-Authenticate: Basic` challenge. */
export const DEFAULT_REALM = 'iacm-webhooks';

/** Options of {@link createWebhookReceiver}. */
export interface WebhookReceiverOptions {
  /**
   * The credentials the integration sends: `{ type: 'basic', username, password }`,
   * `{ type: 'header', value }` (the whole `Authorization` value, scheme included), a list of them
   * (every one is accepted: list the old and the new while rotating), or `"none"` when the
   * integration has no custom credentials. Required, so that "no credentials" is a decision.
   */
  readonly credentials: CredentialsOption;
  /** The largest body accepted, in bytes. Default {@link DEFAULT_MAX_BODY_BYTES} (1 MiB). */
  readonly maxBodyBytes?: number;
  /** The realm of the `WWW-Authenticate: Basic` challenge of a 401. Default {@link DEFAULT_REALM}. */
  readonly realm?: string;
  /**
   * The deepest nesting of arrays and objects accepted in a body, unknown members included (`{}` is
   * 1 level). Default {@link DEFAULT_MAX_DEPTH} (64); a deeper body is answered 422 `invalid_payload`.
   */
  readonly maxDepth?: number;
}

/** A request as the receiver sees it, whatever the framework. */
export interface WebhookRequest {
  /** The HTTP method. When omitted (the framework already routed POST only), the method is not checked. */
  readonly method?: string | undefined;
  /** The request headers. */
  readonly headers: HeaderSource;
  /**
   * The raw body exactly as it arrived (not parsed JSON), or a {@link BodyReader} that reads it with a
   * size limit. A reader is called only after the method, credentials and content type were accepted.
   */
  readonly body: RawBody | BodyReader;
}

/** The outcome of {@link WebhookReceiver.verify}: the typed notification, or why it was refused. */
export type VerifyResult =
  | {
      /** The delivery was accepted. */
      readonly ok: true;
      /** The verified delivery. */
      readonly notification: WebhookNotification;
    }
  | {
      /** The delivery was refused. */
      readonly ok: false;
      /** Why, with the HTTP status to answer. */
      readonly error: WebhookError;
    };

/** An HTTP answer, ready for any framework to write. */
export interface WebhookResponse {
  /** The HTTP status. */
  readonly status: number;
  /** Headers to send (lower-case names); always `content-type: application/json; charset=utf-8`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body: `{"ok":true,"kind":...}` on success, a {@link WebhookErrorBody} otherwise. */
  readonly body: string;
}

/**
 * What adapters need of a receiver: its {@link WebhookReceiver.handle} method. Any object with it
 * works, so adapters accept a receiver from another copy of this package.
 */
export interface WebhookReceiverLike {
  /** Verifies a delivery, runs its handlers and returns the HTTP answer. */
  handle(request: WebhookRequest): Promise<WebhookResponse>;
}

/** A handler of one kind of delivery; it gets the payload typed for that kind. */
export type WebhookHandler<K extends WebhookKind> = (
  payload: WebhookPayloadByKind[K],
  notification: Extract<WebhookNotification, { kind: K }>,
) => unknown;

/** A handler of every delivery; switch on `notification.kind` to narrow the payload. */
export type WebhookAnyHandler = (notification: WebhookNotification) => unknown;

/**
 * Called with every refused delivery and every handler failure (`handler_failed`, whose `cause` is
 * what the handler threw). Log from here: the error never contains a credential. What it throws is
 * ignored.
 */
export type WebhookErrorHandler = (error: WebhookError) => unknown;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

/** UTF-8 (the default encoding), refusing malformed bytes. */
const decoder = new TextDecoder(undefined, { fatal: true });

/**
 * Verifies webhook deliveries of the IaC management service and dispatches them to handlers.
 *
 * Checks, in this order (the first failure answers): method (POST, else 405), credentials (401 when
 * missing or wrong, 400 when a Basic header is malformed), content type (JSON, else 415), size
 * (`maxBodyBytes`, else 413, counted while reading), JSON (else 400), nesting (`maxDepth`, else 422),
 * schema (else 422 listing the bad fields, at most 100: validation stops there). Handlers run after
 * that; if one throws, the answer is 500. Success is 200.
 *
 * @example
 * const receiver = createWebhookReceiver({ credentials: { type: 'header', value: `Bearer ${process.env.WEBHOOK_TOKEN}` } });
 * receiver.on('Drift', (payload) => console.log(payload.samples.map((s) => s.drifts)));
 */
export class WebhookReceiver {
  /** The largest body accepted, in bytes. */
  readonly maxBodyBytes: number;
  /** The deepest nesting of arrays and objects accepted in a body. */
  readonly maxDepth: number;
  /** The nesting bound of step 6 (only the depth is bounded: the body's size bounds the rest). */
  readonly #bounds: Parameters<typeof checkJsonBounds>[1];
  readonly #digests: CredentialDigests;
  readonly #challenge: Readonly<Record<string, string>>;
  readonly #handlers = new Map<WebhookKind, WebhookHandler<WebhookKind>[]>();
  readonly #anyHandlers: WebhookAnyHandler[] = [];
  // Stryker disable next-line ArrayDeclaration: equivalent, calling a handler that is not a function throws, which #refuse ignores.
  readonly #errorHandlers: WebhookErrorHandler[] = [];

  /**
   * Creates a receiver (same as {@link createWebhookReceiver}).
   * @param options credentials (required), body size limit, realm, nesting limit. Throws a
   * `TypeError` saying what to fix when the credentials or a limit cannot work.
   */
  constructor(options: WebhookReceiverOptions) {
    const credentials = normalizeCredentials(options?.credentials);
    const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 0) {
      throw new TypeError(
        'createWebhookReceiver: `maxBodyBytes` must be a whole number of bytes, 0 or more.',
      );
    }
    const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    if (!Number.isSafeInteger(maxDepth) || maxDepth < 1) {
      throw new TypeError('createWebhookReceiver: `maxDepth` must be a whole number of levels, 1 or more.');
    }
    const realm = options.realm ?? DEFAULT_REALM;
    if (!/^[\x20-\x7e]*$/.test(realm) || /["\\]/.test(realm)) {
      throw new TypeError(
        'createWebhookReceiver: `realm` must be printable ASCII without quotes or backslashes.',
      );
    }
    this.maxBodyBytes = maxBodyBytes;
    this.maxDepth = maxDepth;
    this.#bounds = {
      maxDepth,
      maxArrayLength: Number.POSITIVE_INFINITY,
      maxMembers: Number.POSITIVE_INFINITY,
      maxNodes: Number.POSITIVE_INFINITY,
    };
    const hasBasic = credentials !== 'none' && credentials.some((c) => c.type === 'basic');
    this.#challenge = hasBasic ? { 'www-authenticate': `Basic realm="${realm}", charset="UTF-8"` } : {};
    // Only the SHA-256 digests of the credentials are kept.
    this.#digests = digestCredentials(credentials);
    // The steps of handle() for the Node adapter (steps.ts); not enumerable, not in the types.
    const steps: ReceiverSteps<WebhookResponse> = {
      maxBodyBytes,
      head: (method, headers) => this.#head(method, headers),
      body: (read) => this.#body(read),
      readFailed: (cause) => this.#refuse(bodyReadFailed(cause)),
    };
    Object.defineProperty(this, RECEIVER_STEPS, { value: steps });
  }

  /**
   * Registers a handler for one kind of delivery (or several): `'Drift'`, `'UnmanagedResource'`,
   * `'GhostResource'`, `'InsightDetected'`, or `'test'` for the integration's test delivery. The
   * payload is typed for the kind. Handlers may be async; the answer waits for them.
   * @param kind the kind, or a list of kinds.
   * @param handler gets the typed payload and the whole notification.
   * @returns the receiver, to chain calls.
   */
  on<K extends WebhookKind>(kind: K | readonly K[], handler: WebhookHandler<K>): this {
    for (const one of typeof kind === 'string' ? [kind] : kind) {
      const list = this.#handlers.get(one) ?? [];
      list.push(handler as unknown as WebhookHandler<WebhookKind>);
      this.#handlers.set(one, list);
    }
    return this;
  }

  /**
   * Registers a handler for every accepted delivery, the test delivery included.
   * @param handler gets the notification; switch on `kind` to narrow its payload.
   * @returns the receiver, to chain calls.
   */
  onAny(handler: WebhookAnyHandler): this {
    this.#anyHandlers.push(handler);
    return this;
  }

  /**
   * Registers a handler for every refused delivery and every handler failure, to log them. The
   * answer is sent whatever this handler does.
   * @param handler gets the {@link WebhookError}.
   * @returns the receiver, to chain calls.
   */
  onError(handler: WebhookErrorHandler): this {
    this.#errorHandlers.push(handler);
    return this;
  }

  /**
   * Verifies a delivery without running handlers: method, credentials, content type, size, JSON and
   * schema, in that order. Never throws for anything a client can send.
   * @param request the method (optional), the headers and the raw body (or a body reader).
   * @returns the typed notification, or a {@link WebhookError} with the status to answer.
   */
  async verify(request: WebhookRequest): Promise<VerifyResult> {
    try {
      return { ok: true, notification: await this.#verify(request) };
    } catch (error) {
      if (error instanceof WebhookError) return { ok: false, error };
      throw error;
    }
  }

  /**
   * Verifies a delivery, runs its handlers, and returns the HTTP answer to send. This is what
   * adapters call; use it to mount the receiver in a framework without an adapter. Never throws.
   * @param request the method, the headers and the raw body (or a body reader).
   */
  handle(request: WebhookRequest): Promise<WebhookResponse> {
    return this.#verify(request).then(
      (notification) => this.#dispatch(notification),
      (error: unknown) => this.#refuseThrown(error),
    );
  }

  /** Steps 1 to 4's declared `Content-Length` for the Node adapter's steps: the refusal, or `undefined`. */
  #head(method: string | undefined, headers: HeaderSource): WebhookResponse | undefined {
    try {
      this.#checkHead(method, headers);
    } catch (error) {
      return this.#refuseThrown(error);
    }
    return undefined;
  }

  /** Steps 4 to 6 and the handlers, once the Node adapter's reader answered. */
  #body(read: unknown): WebhookResponse | Promise<WebhookResponse> {
    let notification: WebhookNotification;
    try {
      notification = this.#checkBody(boundBody(read, true, this.maxBodyBytes), true);
    } catch (error) {
      return this.#refuseThrown(error);
    }
    return this.#dispatch(notification);
  }

  /**
   * Runs the handlers of a verified delivery and makes the answer: at once when no handler returned a
   * promise (or another thenable), else once they all settled.
   */
  #dispatch(notification: WebhookNotification): WebhookResponse | Promise<WebhookResponse> {
    // Every handler is called now, in order (those registered while they run are not); a sync throw
    // is a failure like a rejection, and the answer waits for the promises (thenables) they return.
    const kindHandlers = this.#handlers.get(notification.kind) ?? [];
    const anyHandlers = this.#anyHandlers;
    const kindCount = kindHandlers.length;
    const count = kindCount + anyHandlers.length;
    /** Per handler: `undefined` (it returned), the thenable it returned, or what it threw. */
    let outcomes: Array<PromiseLike<unknown> | HandlerFailure | undefined> | undefined;
    let waits = false;
    for (let i = 0; i < count; i++) {
      let outcome: PromiseLike<unknown> | HandlerFailure | undefined;
      try {
        // Called as plain functions (`this` undefined), as before.
        let result: unknown;
        if (i < kindCount) {
          const handler = kindHandlers[i] as WebhookHandler<WebhookKind>;
          result = handler(notification.payload, notification as never);
        } else {
          const handler = anyHandlers[i - kindCount] as WebhookAnyHandler;
          result = handler(notification);
        }
        if (isThenable(result)) {
          outcome = result;
          waits = true;
        }
      } catch (error) {
        outcome = new HandlerFailure(error);
      }
      if (outcome !== undefined) {
        outcomes ??= new Array<undefined>(count).fill(undefined);
        outcomes[i] = outcome;
      }
    }
    if (outcomes === undefined) return this.#answer(notification, []);
    const handled = outcomes;
    if (!waits) return this.#answer(notification, failuresOf(handled, undefined));
    return Promise.allSettled(
      handled.map((outcome) => (outcome instanceof HandlerFailure ? undefined : outcome)),
    ).then((settled) => this.#answer(notification, failuresOf(handled, settled)));
  }

  /** The answer to a verified delivery: 200, or 500 `handler_failed` when a handler failed. */
  #answer(notification: WebhookNotification, failures: readonly unknown[]): WebhookResponse {
    if (failures.length > 0) {
      return this.#refuse(
        new WebhookError(
          'handler_failed',
          `a handler of the ${notification.kind} delivery threw; the receiver's onError handlers got the error`,
          {
            cause:
              failures.length === 1
                ? failures[0]
                : new AggregateError(failures, `${failures.length} handlers threw`),
          },
        ),
      );
    }
    return { status: 200, headers: { ...JSON_HEADERS }, body: successBody(notification.kind) };
  }

  /** The refusal of what a check threw: its own `WebhookError`, or 500 for anything unexpected. */
  #refuseThrown(error: unknown): WebhookResponse {
    return this.#refuse(
      error instanceof WebhookError
        ? error
        : new WebhookError(
            'internal_error',
            'the receiver failed unexpectedly; its onError handlers got the error',
            { cause: error },
          ),
    );
  }

  #refuse(error: WebhookError): WebhookResponse {
    for (const handler of this.#errorHandlers) {
      try {
        Promise.resolve(handler(error)).catch(() => {});
      } catch {
        // An error handler's failure must not change the answer.
      }
    }
    return {
      status: error.status,
      headers: { ...JSON_HEADERS, ...error.headers },
      body: JSON.stringify(error.toJSON()),
    };
  }

  /**
   * Every check of a delivery (its handlers not run): the notification, or throws the refusal. The
   * body (or its reader) is looked at only once the head passed.
   */
  async #verify(request: WebhookRequest): Promise<WebhookNotification> {
    this.#checkHead(request.method, request.headers);
    const body = request.body;
    const fromReader = typeof body === 'function';
    let read: unknown;
    try {
      read = fromReader ? await body(this.maxBodyBytes) : body;
    } catch (error) {
      throw bodyReadFailed(error);
    }
    return this.#checkBody(boundBody(read, fromReader, this.maxBodyBytes), fromReader);
  }

  /**
   * Steps 1 to 3 of a delivery's checks (method, credentials, content type), and step 4's declared
   * `Content-Length` (over the limit: refused before anything is read). Throws the refusal.
   */
  #checkHead(method: string | undefined, headers: HeaderSource): void {
    // 1. Method.
    if (method !== undefined && method.toUpperCase() !== 'POST') {
      throw new WebhookError(
        'method_not_allowed',
        `webhook deliveries are POST requests; this endpoint does not answer ${describeMethod(method)}`,
        { headers: { allow: 'POST' } },
      );
    }

    // 2. Credentials: only 'ok' goes on; every other result, one this code does not know included, is refused.
    const check = checkAuthorization(readHeader(headers, 'authorization'), this.#digests);
    if (check !== 'ok') throw credentialsRefused(check, this.#challenge);

    // 3. Content type: the contract's rule (`application/json` or `application/<name>+json`, UTF-8).
    const contentType = readHeader(headers, 'content-type');
    const mediaProblem = checkJsonMediaType(contentType);
    if (mediaProblem !== undefined) {
      throw new WebhookError(
        'unsupported_media_type',
        mediaProblem === 'charset'
          ? 'webhook deliveries are JSON in UTF-8; the Content-Type names another charset'
          : `webhook deliveries are JSON: expected Content-Type application/json, received ${
              contentType === undefined ? 'none' : describeMediaType(contentType)
            }`,
      );
    }

    // 4. Size, first by the declared Content-Length (the reader and the body come after).
    if (declaredLengthExceeds(readHeader(headers, 'content-length'), this.maxBodyBytes)) {
      throw tooLarge(this.maxBodyBytes);
    }
  }

  /**
   * Steps 4 to 6 once the body is read (size, JSON, nesting and schema): the notification, or throws
   * the refusal. Step 4's reading, by the contract's rule (`boundBody`): a reader stops past the
   * limit; a given or read body is counted.
   */
  #checkBody(read: RawBody | BodyReadProblem, fromReader: boolean): WebhookNotification {
    if (isBodyReadProblem(read)) {
      if (read.problem === 'too_large') throw tooLarge(this.maxBodyBytes);
      throw new WebhookError(
        'body_already_parsed',
        read.hint ??
          (fromReader
            ? 'the body is not the raw request body: something parsed or read it before the receiver; give the receiver the raw body'
            : 'the body is not the raw request body (was it parsed as JSON first, e.g. by express.json()?): ' +
              'pass the raw body as a string, Uint8Array or ArrayBuffer, exactly as it arrived'),
      );
    }
    const bytes = toBytes(read);

    // 5. JSON.
    if (bytes.byteLength === 0) {
      throw new WebhookError('invalid_json', 'the body is empty; a webhook delivery is a JSON object');
    }
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new WebhookError(
        'invalid_json',
        'the body is not valid UTF-8; a webhook delivery is JSON in UTF-8',
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      // The parser's message may quote the body: only the kind of error and its position are repeated.
      throw new WebhookError('invalid_json', `the body is not valid JSON${jsonErrorDetail(error)}`);
    }

    // 6. Schema: first the nesting (one linear, iterative walk), then the members, stopping at
    // MAX_LISTED_ISSUES issues.
    const tooDeep = checkJsonBounds(value, this.#bounds);
    if (tooDeep) {
      // Stryker disable next-line StringLiteral: unreachable, the body itself is level 1 and maxDepth at least 1.
      const where = tooDeep.path || 'body';
      const message = `${where}: expected ${tooDeep.expected}, received ${tooDeep.received}`;
      throw new WebhookError(
        'invalid_payload',
        `the body is not a webhook notification of the expected shape: ${message}; raise maxDepth if deliveries are this deep`,
        { issues: [{ path: tooDeep.path, message, expected: tooDeep.expected, received: tooDeep.received }] },
      );
    }
    const parsed = parseDelivery(value, MAX_LISTED_ISSUES);
    if (!parsed.ok) {
      // A refusal lists at least one issue.
      const [first, ...rest] = parsed.issues as [WebhookIssue, ...WebhookIssue[]];
      const count = `${rest.length} more issue${rest.length === 1 ? '' : 's'}`;
      const more = parsed.stopped
        ? ` (and ${count} listed; validation stopped at ${MAX_LISTED_ISSUES} issues, so there may be more)`
        : rest.length > 0
          ? ` (and ${count})`
          : '';
      throw new WebhookError(
        'invalid_payload',
        `the body is not a webhook notification of the expected shape: ${first.message}${more}`,
        { issues: parsed.issues },
      );
    }
    return parsed.notification;
  }
}

/** What a handler threw (synchronously, or as a rejection), kept apart from what it returned. */
class HandlerFailure {
  constructor(readonly reason: unknown) {}
}

/** Whether a handler's result is a promise or another thenable (the answer waits for it). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** The success bodies, made once per kind (the kinds are the schema's few known ones). */
const SUCCESS_BODIES = new Map<string, string>();

/** `{"ok":true,"kind":...}` for a verified delivery of `kind`. */
function successBody(kind: string): string {
  let body = SUCCESS_BODIES.get(kind);
  if (body === undefined) {
    body = JSON.stringify({ ok: true, kind });
    // Bounded: only the known kinds verify; the bound is a second guard.
    if (SUCCESS_BODIES.size < 16) SUCCESS_BODIES.set(kind, body);
  }
  return body;
}

/**
 * The refusal of a delivery whose credentials did not check out: 401 `missing_credentials` without
 * a header, 400 `malformed_authorization` for a Basic value that is not base64 of `username:password`
 * or a value holding a control character, and 401 `invalid_credentials` for anything else (a wrong
 * credential, or a result this function does not know: the receiver fails closed).
 */
function credentialsRefused(
  check: Exclude<AuthorizationCheck, 'ok'>,
  challenge: Readonly<Record<string, string>>,
): WebhookError {
  switch (check) {
    case 'missing':
      return new WebhookError(
        'missing_credentials',
        'no Authorization header: the integration must be configured with credentials, or configure the receiver with credentials: "none"',
        { headers: challenge },
      );
    case 'malformed':
      return new WebhookError(
        'malformed_authorization',
        'the Authorization header uses the Basic scheme but its value is not the base64 of "username:password"',
      );
    case 'control':
      return new WebhookError(
        'malformed_authorization',
        'the Authorization header holds a control character (CR, LF, NUL, DEL...)',
      );
    default:
      return new WebhookError(
        'invalid_credentials',
        "the Authorization header matches none of the receiver's credentials: check the integration's credentials " +
          "(Basic username and password, or the whole header value with its scheme) against the receiver's; " +
          'while rotating, configure the receiver with both the old and the new',
        { headers: challenge },
      );
  }
}

/**
 * What went wrong in `JSON.parse`, without quoting the body: the position of the error when the
 * engine says it, else whether the text ended too early (`Unexpected end of JSON input`), else an
 * unexpected character. (`JSON.parse` throws a `SyntaxError`.)
 */
function jsonErrorDetail(error: unknown): string {
  const message = (error as SyntaxError).message;
  const position = /position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return ` (syntax error at character ${position})`;
  return /end of/i.test(message) ? ': it ends too early (truncated?)' : ': it has an unexpected character';
}

/** The refusal of a body whose reader threw: the connection closed or broke while it was sent. */
function bodyReadFailed(cause: unknown): WebhookError {
  return new WebhookError(
    'body_read_failed',
    'the request body could not be read (the connection closed or broke while it was sent)',
    { cause },
  );
}

/** `failures` of the handlers' outcomes, in handler order: what they threw, then how they rejected. */
function failuresOf(
  outcomes: ReadonlyArray<PromiseLike<unknown> | HandlerFailure | undefined>,
  settled: ReadonlyArray<PromiseSettledResult<unknown>> | undefined,
): unknown[] {
  const failures: unknown[] = [];
  outcomes.forEach((outcome, i) => {
    const result = settled?.[i];
    if (outcome instanceof HandlerFailure) failures.push(outcome.reason);
    else if (result?.status === 'rejected') failures.push(result.reason);
  });
  return failures;
}

function tooLarge(limit: number): WebhookError {
  return new WebhookError(
    'payload_too_large',
    `the body is larger than the receiver's limit of ${limit} bytes; raise maxBodyBytes if deliveries are this large`,
  );
}

function describeMethod(method: string): string {
  return /^[A-Za-z]{1,20}$/.test(method) ? method.toUpperCase() : 'this method';
}

function describeMediaType(contentType: string): string {
  const media = (contentType.split(';')[0] as string).trim();
  return /^[\w.+-]{1,60}\/[\w.+-]{1,60}$/.test(media) ? media : 'another media type';
}

/**
 * Creates a {@link WebhookReceiver}.
 * @param options credentials (required: one, several while rotating, or `"none"`), `maxBodyBytes`, `realm`, `maxDepth`.
 * @example
 * const receiver = createWebhookReceiver({ credentials: { type: 'basic', username: 'iacm', password: process.env.WEBHOOK_PASSWORD! } });
 * receiver.on('Drift', (payload) => { ... });
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  return new WebhookReceiver(options);
}
