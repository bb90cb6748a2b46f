import type { KyInstance } from 'ky';
import type * as z from 'zod/mini';
import type { LoginResponse } from '../contract/auth.js';
import {
  answerSchema,
  type EndpointSchemas,
  groupSchemas,
  loadGroupSchemas,
} from '../contract/endpoint-groups/load.js';
import type { EndpointName } from '../contract/endpoints.js';
import type { FieldIssue, IssueLocation } from '../contract/errors.js';
import { redactHeaders } from '../contract/redaction.js';
import { parseRetryAfter } from '../contract/retry-after.js';
import { buildPath, routes } from '../contract/routes.js';
import { TokenManager } from './auth.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type APIError,
  APIUserAbortError,
  ERROR_CLASSES,
  IacmError,
  RequestValidationError,
  ResponseValidationError,
} from './errors.js';
import { createKy, type Exchange, send, TimeoutError } from './exchange.js';
import { LOG_LEVELS, type Logger, leveledLogger } from './logger.js';
import {
  checkRequestOptions,
  mergeHeaders,
  type RequestInfo,
  type RequestOptions,
  type ResolvedOptions,
  type ValidationMode,
} from './options.js';

/** The result of a call with its raw answer. */
export interface WithResponse<T> {
  /** The parsed (and validated) body. */
  data: T;
  /** The raw `Response` (its body already read). */
  response: Response;
  /** The answer's `x-request-id`. */
  requestId: string | undefined;
}

/** The inputs of one call: path parameters, query parameters and body. */
export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

/** Whether a status is worth retrying (for requests that are safe to repeat): 408, 409, 429 and 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
/** First backoff delay, milliseconds. */
const INITIAL_RETRY_DELAY = 500;
/** Largest backoff delay, milliseconds. */
const MAX_RETRY_DELAY = 8_000;
/** Largest wait a `Retry-After` can impose, milliseconds. */
export const MAX_RETRY_AFTER = 60_000;

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * Whether the global timers are fake ones: `@sinonjs/fake-timers`, which vitest's `vi.useFakeTimers()`
 * and Jest's modern fake timers install, marks each function it puts in place with its `clock`.
 */
function fakeTimers(): boolean {
  const clock: unknown = (globalThis.setTimeout as unknown as { clock?: unknown } | undefined)?.clock;
  return typeof clock === 'object' && clock !== null;
}

/**
 * Where a retry's wait counts from (epoch milliseconds by `Date.now()`). With real timers: when the
 * answer arrived, as `Retry-After` means. Under fake timers the clock moves only when the test moves
 * it, so time it moved while the attempt was under way (its login, its schemas and its answer take
 * real turns of the event loop, and `vi.advanceTimersByTimeAsync` jumps the clock after one) was
 * moved for the wait: the wait counts from when the attempt began, the call's start for the first.
 */
function retryWaitSince(attemptBegan: number, answeredAt: number): number {
  return fakeTimers() ? attemptBegan : answeredAt;
}

/**
 * Waits until `ms` after `since` (epoch milliseconds by `Date.now()`: when the answer that asked for
 * the wait arrived), or rejects with the signal's reason when it aborts first. The time already
 * spent since then (reading the answer, loading what reads it) counts, and a wait already over
 * when it is set resolves without a timer. So under fake timers, a clock moved while the answer was
 * still being read (`await vi.advanceTimersByTimeAsync(2000)` right after starting a call that gets
 * a `Retry-After: 2`) ends the wait, as it would end a real one.
 */
function sleep(ms: number, signal: AbortSignal | undefined, since: number = Date.now()): Promise<void> {
  const left = since + ms - Date.now();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    if (!(left > 0)) return resolve();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, left);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits for a promise, or rejects when the signal aborts first (the promise itself goes on). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** What hooks and debug lines are told of a request: its headers with credentials redacted. */
function requestInfo(
  endpoint: EndpointName,
  method: RequestInfo['method'],
  url: URL,
  headers: Record<string, string>,
  attempt: number,
): RequestInfo {
  return { endpoint, method, url: url.toString(), headers: redactHeaders(headers), attempt };
}

/** The delay before retry number `retry` (1-based): exponential backoff with jitter, or what `Retry-After` asks (capped). */
export function retryDelay(
  retry: number,
  headers: Record<string, string> | undefined,
  now: number,
  random = Math.random,
): number {
  const asked = headers ? parseRetryAfter(headers, now) : undefined;
  if (asked !== undefined) return Math.min(asked, MAX_RETRY_AFTER);
  const base = Math.min(INITIAL_RETRY_DELAY * 2 ** (retry - 1), MAX_RETRY_DELAY);
  return Math.round(base * (1 - random() * 0.25));
}

/**
 * The one request pipeline every call goes through: validate → authenticate → send (with a timeout)
 * → decide on a retry → read and validate the answer.
 */
export class Transport {
  /** The resolved client options. */
  readonly options: ResolvedOptions;
  /** The logger, already filtered by level. */
  readonly log: Logger;
  /** The token source. */
  readonly tokens: TokenManager;
  /** Whether debug lines are logged: their text is built only then. */
  readonly #debug: boolean;
  /**
   * The `fetch` the transport calls, made once: called as a plain function (browsers refuse a `fetch` called as
   * a method of another object), and the global one looked up at each call, so that one MSW
   * installed after the client was created is used.
   */
  readonly #fetch: typeof fetch;
  /** The client's ky instance (`exchange.ts`): every attempt goes through it, with {@link Transport.#fetch}. */
  readonly #ky: KyInstance;

  /** Creates the pipeline; `tokens` may be shared with a parent client. */
  constructor(options: ResolvedOptions, tokens?: TokenManager) {
    this.options = options;
    this.log = leveledLogger(options.logger, options.logLevel, options.loggerStyle);
    this.#debug = LOG_LEVELS.indexOf(options.logLevel) >= LOG_LEVELS.indexOf('debug');
    const fetchImpl = options.fetch;
    this.#fetch = (input, init) => (fetchImpl ?? globalThis.fetch)(input, init);
    this.#ky = createKy(this.#fetch, options.ky);
    this.tokens =
      tokens ??
      new TokenManager(
        options.auth,
        async (accessKey, secretKey) =>
          (await this.call('auth.login', { body: { accessKey, secretKey } })).data as LoginResponse,
      );
  }

  /** Runs one call of an endpoint and returns its validated answer with the raw response. */
  async call(
    name: EndpointName,
    input: CallInput,
    requestOptions?: RequestOptions,
  ): Promise<WithResponse<unknown>> {
    checkRequestOptions(requestOptions);
    const endpoint = routes[name];
    const opts = requestOptions ?? {};
    const mode: ValidationMode = opts.validation ?? this.options.validation;
    const signal = opts.signal;
    // When the call began (before its schemas load and its login): under fake timers the first
    // attempt's retry wait counts from here (see `retryWaitSince`).
    const began = Date.now();

    // The endpoint's schemas: its group's module, imported on the group's first call that validates.
    let schemas: EndpointSchemas | undefined;
    if (mode !== 'off') {
      const group =
        groupSchemas(endpoint.group) ??
        (await loadPart(
          name,
          () => loadGroupSchemas(endpoint.group),
          signal,
          `could not load the schemas of the ${endpoint.group} endpoints to validate the call`,
          ", or set validation: 'off'",
        ));
      schemas = group[name] as EndpointSchemas;
      const failures: Array<{ error: z.core.$ZodError; location: IssueLocation; value: unknown }> = [];
      const check = (schema: z.ZodMiniType | undefined, value: unknown, location: IssueLocation) => {
        if (!schema) return;
        const result = schema.safeParse(value);
        if (!result.success) failures.push({ error: result.error, location, value });
      };
      check(schemas.params, input.params ?? {}, 'path');
      check(schemas.query, stripUndefined(input.query ?? {}), 'query');
      if (schemas.body) check(schemas.body, input.body ?? (endpoint.bodyRequired ? undefined : {}), 'body');
      if (failures.length > 0) {
        const { fieldIssuesFromZod, limitIssues, summariseIssues } = await issueWording(name, signal);
        const issues: FieldIssue[] = failures.flatMap((f) =>
          fieldIssuesFromZod(f.error, f.location, f.value),
        );
        const listed = limitIssues(issues);
        if (mode === 'strict') throw new RequestValidationError(name, listed, summariseIssues(listed));
        this.log.warn(`${name}: sending a request that does not match the contract`, { issues: listed });
      }
    }

    const url = new URL(`${this.options.baseUrl}${buildPath(endpoint.path, input.params ?? {})}`);
    for (const [key, value] of Object.entries(input.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    const retrySafe = endpoint.retrySafe || opts.idempotent === true;
    const maxRetries = retrySafe ? (opts.maxRetries ?? this.options.maxRetries) : 0;
    const timeout = opts.timeout ?? this.options.timeout;
    const hooks = this.options.hooks;
    // The request's description for hooks and debug lines, made only when one of them wants it.
    const describes =
      this.#debug ||
      hooks.beforeRequest !== undefined ||
      hooks.afterResponse !== undefined ||
      hooks.onRetry !== undefined;
    let renewed = false;

    for (let attempt = 1; ; attempt++) {
      const attemptBegan = attempt === 1 ? began : Date.now();
      const token = endpoint.auth ? await this.#token(name, signal) : undefined;
      const headers = mergeHeaders(
        { accept: 'application/json' },
        endpoint.hasBody ? { 'content-type': 'application/json' } : undefined,
        token ? { authorization: `Bearer ${token}` } : undefined,
        this.options.headers,
        opts.headers,
      );
      const info = describes ? requestInfo(name, endpoint.method, url, headers, attempt) : undefined;
      if (info !== undefined) {
        await hooks.beforeRequest?.(info);
        if (this.#debug) {
          this.log.debug(`${endpoint.method} ${url.pathname} (attempt ${attempt})`, {
            headers: info.headers,
          });
        }
      }
      const started = Date.now();
      let response: Response;
      // When the answer (or the failure) came: a retry's wait counts from then.
      let answeredAt: number;
      try {
        const exchange: { -readonly [K in keyof Exchange]: Exchange[K] } = {
          method: endpoint.method,
          headers,
        };
        if (endpoint.hasBody) exchange.body = JSON.stringify(input.body ?? {});
        if (signal) exchange.signal = signal;
        response = await send(this.#ky, url, exchange, timeout);
        answeredAt = Date.now();
      } catch (error) {
        answeredAt = Date.now();
        const cause = withoutRequest(error);
        if (signal?.aborted) throw new APIUserAbortError(name, cause);
        const failure =
          error instanceof TimeoutError
            ? new APIConnectionTimeoutError(name, `no answer within ${timeout} ms`, cause)
            : new APIConnectionError(
                name,
                `could not reach ${url.origin}: ${reasonOf(error)}${unresolvedHint(error)}`,
                cause,
              );
        if (attempt <= maxRetries) {
          await this.#retry(
            info ?? requestInfo(name, endpoint.method, url, headers, attempt),
            { error: failure },
            retryDelay(attempt, undefined, answeredAt),
            signal,
            name,
            retryWaitSince(attemptBegan, answeredAt),
          );
          continue;
        }
        // The caller receives the error: logging it above debug would report it twice.
        this.log.debug(failure.message);
        throw failure;
      }
      const requestId = response.headers.get('x-request-id') ?? undefined;
      if (info !== undefined) {
        await hooks.afterResponse?.({
          ...info,
          status: response.status,
          requestId,
          durationMs: Date.now() - started,
        });
        if (this.#debug)
          this.log.debug(`${response.status} ${endpoint.method} ${url.pathname}`, { requestId });
      }

      if (response.ok) {
        const data = await this.#readAnswer(name, response, input.body, mode, requestId, schemas);
        return { data, response, requestId };
      }
      // An error answer: what reads it is imported on the first one (a successful call never needs it).
      let answers: typeof import('./answer-error.js');
      try {
        answers = await loadPart(
          name,
          () => import('./answer-error.js'),
          signal,
          `the service answered ${response.status}, and the SDK could not load what reads its error answers`,
        );
      } catch (error) {
        await response.body?.cancel().catch(() => undefined);
        throw error;
      }
      const responseHeaders = answers.headersOf(response);
      const body = await answers.readJson(response);
      if (response.status === 401 && endpoint.auth && !renewed && this.tokens.canRenew) {
        // The token may have expired or been revoked: get a new one once and repeat (nothing was done).
        renewed = true;
        if (token) this.tokens.invalidate(token);
        attempt -= 1;
        this.log.info(`${name}: 401, getting a new token and trying once more`, { requestId });
        continue;
      }
      const ErrorClass = answers.errorClassFor(response.status, ERROR_CLASSES);
      const failure: APIError = new ErrorClass(name, response.status, body, responseHeaders);
      if (attempt <= maxRetries && isRetryableStatus(response.status)) {
        await this.#retry(
          info ?? requestInfo(name, endpoint.method, url, headers, attempt),
          { status: response.status },
          retryDelay(attempt, responseHeaders, answeredAt),
          signal,
          name,
          retryWaitSince(attemptBegan, answeredAt),
        );
        continue;
      }
      this.log.debug(failure.message, { requestId });
      throw failure;
    }
  }

  async #token(name: string, signal: AbortSignal | undefined): Promise<string> {
    try {
      return await abortable(this.tokens.token(), signal);
    } catch (error) {
      if (signal?.aborted) throw new APIUserAbortError(name, error);
      throw error;
    }
  }

  async #retry(
    info: RequestInfo,
    reason: { status: number } | { error: Error },
    delayMs: number,
    signal: AbortSignal | undefined,
    name: string,
    since: number,
  ) {
    await this.options.hooks.onRetry?.({ ...info, reason, delayMs });
    this.log.info(`${name}: retrying in ${delayMs} ms (attempt ${info.attempt + 1})`, {
      reason: 'status' in reason ? reason.status : safeMessage(reason.error),
    });
    try {
      // A `sleep` option is given the whole wait, as documented; the built-in one counts from the answer.
      const custom = this.options.sleep;
      await abortable(custom ? custom(delayMs, signal) : sleep(delayMs, signal, since), signal);
    } catch (error) {
      if (signal?.aborted) throw new APIUserAbortError(name, error);
      throw error;
    }
  }

  async #readAnswer(
    name: EndpointName,
    response: Response,
    requestBody: unknown,
    mode: ValidationMode,
    requestId: string | undefined,
    schemas: EndpointSchemas | undefined,
  ): Promise<unknown> {
    const endpoint = routes[name];
    if (endpoint.successStatus === 204 || response.status === 204) {
      await response.body?.cancel();
      return undefined;
    }
    const text = await response.text();
    let data: unknown;
    try {
      data = text === '' ? undefined : JSON.parse(text);
    } catch {
      const issues = [
        {
          path: '',
          message: `the answer is not JSON (${text.length} characters of ${response.headers.get('content-type') ?? 'unknown type'})`,
        },
      ];
      if (mode === 'strict') throw new ResponseValidationError(name, issues, requestId);
      this.log.warn(`${name}: ${issues[0]?.message}`, { requestId });
      return text;
    }
    // `schemas` is undefined only when validation is off.
    if (mode === 'off' || schemas === undefined) return data;
    const result = answerSchema(
      { projection: endpoint.projection, response: schemas.response },
      requestBody,
    ).safeParse(data);
    if (result.success) return result.data;
    const { formatIssuePath } = await issueWording(name, undefined);
    const issues = result.error.issues.map((issue) => ({
      path: formatIssuePath(issue.path),
      message: issue.message,
    }));
    if (mode === 'strict') throw new ResponseValidationError(name, issues, requestId);
    this.log.warn(`${name}: the answer does not match the contract`, { requestId, issues });
    return data;
  }
}

/**
 * Imports a part of the SDK's build that a call needs only in some cases, on first use: a group's
 * schemas (`endpoint-schemas/load.ts`), the issue wording, what reads an error answer
 * (`answer-error.ts`). A part that cannot be loaded (a chunk
 * missing from a deployment, a network failure) fails the call with an {@link IacmError} that says
 * `what` failed and why, its cause attached; nothing is kept, so the next call tries again. The
 * call's signal stops the wait.
 */
async function loadPart<T>(
  name: EndpointName,
  load: () => Promise<T>,
  signal: AbortSignal | undefined,
  what: string,
  advice = '',
): Promise<T> {
  try {
    return await abortable(load(), signal);
  } catch (error) {
    if (signal?.aborted) throw new APIUserAbortError(name, error);
    throw new IacmError(
      `${name}: ${what} (${reasonOf(error)}); deploy every chunk of the SDK's build${advice}`,
      { cause: error },
    );
  }
}

/**
 * The wording of validation issues (`contract/issue-wording.ts`), imported on the first failed
 * validation only: a call that validates cleanly never loads it (P6, the first call's bundle).
 */
function issueWording(
  name: EndpointName,
  signal: AbortSignal | undefined,
): Promise<typeof import('../contract/issue-wording.js')> {
  return loadPart(
    name,
    () => import('../contract/issue-wording.js'),
    signal,
    'the call did not match the contract, and the SDK could not load its issue wording to say how',
  );
}

/**
 * The error itself, or, for an error that holds the `request` it failed on (as ky's `TimeoutError`
 * did, and a custom `fetch` may), a copy without it: the request's headers hold the bearer token, and no error the client throws
 * may carry a credential, even when inspected in depth.
 */
function withoutRequest(error: unknown): unknown {
  if (!(error instanceof Error) || !Object.hasOwn(error, 'request')) return error;
  const copy = new Error(safeMessage(error));
  copy.name = error.name;
  if (typeof error.stack === 'string') copy.stack = error.stack;
  return copy;
}

/** An error's message, or `fallback` when it has none that is a string. */
function safeMessage(error: unknown, fallback = 'unknown error'): string {
  try {
    const message = (error as { message?: unknown } | null | undefined)?.message;
    return typeof message === 'string' ? message : fallback;
  } catch {
    return fallback;
  }
}

/** How many causes under a fetch's error {@link reasonOf} reads at most. */
const CAUSES_READ = 3;

/** How many characters of each message {@link reasonOf} keeps. */
const REASON_CHARS = 300;

function cutReason(text: string): string {
  return text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS)}…` : text;
}

/**
 * Why a fetch failed, as text: its message followed by its causes' (at most {@link CAUSES_READ} deep,
 * each told once, each cut to {@link REASON_CHARS} characters), else the kind of value it rejected
 * with. undici (Node's fetch) rejects with `TypeError: fetch failed` and puts why in `cause` (DNS, a
 * refused connection, or, under msw 3, the unhandled-request strategy's explanation).
 */
function reasonOf(error: unknown): string {
  if (typeof error === 'string') return error.length > 200 ? `${error.slice(0, 200)}…` : error;
  const kind = error === null ? 'null' : `${/^[aeiou]/.test(typeof error) ? 'an' : 'a'} ${typeof error}`;
  const parts = [cutReason(safeMessage(error, `it rejected with ${kind}`))];
  let cause = causeOf(error);
  for (let depth = 0; depth < CAUSES_READ && cause !== undefined; depth += 1) {
    const message = cutReason(safeMessage(cause, ''));
    if (message !== '' && !parts.includes(message)) parts.push(message);
    cause = causeOf(cause);
  }
  return parts.join(': ');
}

/** An error's `cause`, or `undefined` (a getter that throws reads as none). */
function causeOf(error: unknown): unknown {
  try {
    return typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What to check when the host name does not resolve: `ENOTFOUND` or `EAI_AGAIN` in the error's `code`,
 * or in its cause's, where undici puts it. Empty for any other failure.
 */
function unresolvedHint(error: unknown): string {
  try {
    const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
    const found = cause?.code ?? code;
    return /^E(NOTFOUND|AI_AGAIN)$/.test(String(found))
      ? ` (${found}: check the spelling of baseUrl, the network and DNS; in a test, start the mock (MSW) before the call)`
      : '';
  } catch {
    return '';
  }
}

function stripUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

/** Throws unless `value` is a non-empty string: the ids and names methods take. */
export function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new IacmError(
      `${name}: expected a non-empty string, received ${value === undefined ? 'nothing' : typeof value}`,
    );
  }
  return value;
}
