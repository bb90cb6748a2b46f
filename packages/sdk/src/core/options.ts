import { IacmError } from './errors.js';
import type { KyPassThroughOptions, SDK_OWNED_KY_OPTIONS } from './exchange.js';
import {
  type DetailsFirstLogger,
  isPinoLike,
  LOG_LEVELS,
  LOGGER_STYLES,
  type Logger,
  type LoggerStyle,
  type LogLevel,
} from './logger.js';

/** How validation failures are handled. */
export type ValidationMode = 'strict' | 'warn' | 'off';

/**
 * How the client authenticates:
 * - `{ token }`: a static bearer token;
 * - a function returning a token (called for every request; cache inside it if it is costly);
 * - `{ accessKey, secretKey }`: the client logs in through `POST /v2/login`, caches the token until
 *   shortly before it expires, refreshes it once for any number of concurrent calls, and logs in
 *   again once when a call answers 401.
 */
export type AuthOption =
  | { token: string }
  | (() => string | Promise<string>)
  | { accessKey: string; secretKey: string };

/** What a hook sees of a request about to be sent (secret headers redacted). */
export interface RequestInfo {
  /** The endpoint, like `workspaces.search`. */
  endpoint: string;
  /** HTTP method. */
  method: string;
  /** The full URL. */
  url: string;
  /** Request headers, with `authorization` and other secrets redacted. */
  headers: Record<string, string>;
  /** Attempt number, 1 for the first try. */
  attempt: number;
}

/** What a hook sees of an answer. */
export interface ResponseInfo extends RequestInfo {
  /** The HTTP status. */
  status: number;
  /** The answer's `x-request-id`. */
  requestId: string | undefined;
  /** How long the attempt took, milliseconds. */
  durationMs: number;
}

/** What a hook sees of a retry about to happen. */
export interface RetryInfo extends RequestInfo {
  /** Why: the status that answered, or the error that happened. */
  reason: { status: number } | { error: Error };
  /** How long the client waits before the next attempt, milliseconds. */
  delayMs: number;
}

/** Hooks that observe every request. A hook that throws fails the call with its error. */
export interface Hooks {
  /** Before each attempt is sent. */
  beforeRequest?: (info: RequestInfo) => void | Promise<void>;
  /** After each answer arrives (any status). */
  afterResponse?: (info: ResponseInfo) => void | Promise<void>;
  /** Before each retry. */
  onRetry?: (info: RetryInfo) => void | Promise<void>;
}

/** Options of {@link IacmClient}. Every member is optional where an environment variable can fill it. */
export interface ClientOptions {
  /** The service's base URL (`https://api.example.com`). Default: `IACM_BASE_URL`. Required one way or the other. */
  baseUrl?: string;
  /** How to authenticate. Default: `IACM_TOKEN`, else `IACM_ACCESS_KEY` + `IACM_SECRET_KEY`. */
  auth?: AuthOption;
  /** Timeout of each attempt, milliseconds. Default 60000. */
  timeout?: number;
  /** How many times a failed request that is safe to repeat is retried. Default 2. */
  maxRetries?: number;
  /**
   * The `fetch` to use. Default: `globalThis.fetch`, looked up at each request, so that one installed
   * after the client was created (MSW's `server.listen()`) is used.
   */
  fetch?: typeof fetch;
  /**
   * Waits between retries: resolves after `ms` milliseconds (or rejects when `signal` aborts). Default:
   * a `setTimeout` until `ms` after the answer that asked for the wait arrived (by `Date.now()`; the
   * time spent reading the answer counts), which vitest's fake timers drive. A test may pass one that
   * records the waits: it is given the whole wait.
   */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Headers sent with every request. A `null` value removes a header the client would send. */
  headers?: Record<string, string | null>;
  /** Validation of requests and answers: `strict` (default) throws, `warn` logs and goes on, `off` skips it. */
  validation?: ValidationMode;
  /**
   * Where log lines go. Default `console`. A logger that takes `(message, details)` (console,
   * winston...) or `(details, message)` (pino, bunyan: see `loggerStyle`).
   */
  logger?: Logger | DetailsFirstLogger;
  /**
   * Whether the logger takes the message or the details first. Default: `'details-first'` for a
   * pino instance, else `'message-first'`. Give `'details-first'` for bunyan.
   */
  loggerStyle?: LoggerStyle;
  /**
   * Which log lines are written. Default: `IACM_LOG` when set, else `warn` (which shows contract
   * mismatches let through by `validation: 'warn'`). Errors the client throws are logged at `debug`
   * only, since the caller receives them.
   */
  logLevel?: LogLevel;
  /** Hooks that observe requests, answers and retries. */
  hooks?: Hooks;
  /**
   * ky's own options, as ky types them, for the client's `ky.create()` instance (every request goes
   * through it): ky's `hooks` (`beforeRequest` may change the `Request`, `afterResponse` the
   * `Response`), `credentials`, `keepalive`, `onDownloadProgress` and the other `fetch` options.
   * The SDK sets the rest itself and refuses them here by name: the URL and method, `headers` (the
   * `headers` option), `timeout` and `fetch` (the options of those names), `retry` (`maxRetries`),
   * `throwHttpErrors` (the SDK's error classes), the body, `searchParams`, `signal` and the JSON
   * functions.
   */
  ky?: KyPassThroughOptions;
}

/** Per-request options: the trailing argument of every method. */
export interface RequestOptions {
  /** Aborts the request (and a pagination in progress). */
  signal?: AbortSignal;
  /** Timeout of each attempt, milliseconds. */
  timeout?: number;
  /** Retries of this request. */
  maxRetries?: number;
  /** Headers of this request; `null` removes a header. */
  headers?: Record<string, string | null>;
  /** Validation of this request and its answer. */
  validation?: ValidationMode;
  /**
   * Treat this request as safe to repeat, so it may be retried even when its endpoint is not (only
   * guardrail create is not). Use it when repeating cannot harm, such as when a duplicate rule would
   * be caught by your own code.
   */
  idempotent?: boolean;
}

/** The names of the client options, for the unknown-option check. */
const OPTION_NAMES = [
  'baseUrl',
  'auth',
  'timeout',
  'maxRetries',
  'fetch',
  'sleep',
  'headers',
  'validation',
  'logger',
  'loggerStyle',
  'logLevel',
  'hooks',
  'ky',
] as const satisfies ReadonlyArray<keyof ClientOptions>;

const REQUEST_OPTION_NAMES = [
  'signal',
  'timeout',
  'maxRetries',
  'headers',
  'validation',
  'idempotent',
] as const satisfies ReadonlyArray<keyof RequestOptions>;

/** Client options with the defaults and the environment applied. */
export interface ResolvedOptions {
  baseUrl: string;
  auth: AuthOption | undefined;
  timeout: number;
  maxRetries: number;
  fetch: typeof fetch | undefined;
  sleep: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  headers: Record<string, string | null>;
  validation: ValidationMode;
  logger: Logger | DetailsFirstLogger;
  loggerStyle: LoggerStyle;
  logLevel: LogLevel;
  hooks: Hooks;
  ky: KyPassThroughOptions | undefined;
}

/** Defaults of the client options. */
export const DEFAULTS = { timeout: 60_000, maxRetries: 2, validation: 'strict', logLevel: 'warn' } as const;

/**
 * Reads an environment variable where there is one (Node, Bun, Deno); undefined in browsers and
 * edge runtimes without `process`, and where reading the environment is not permitted.
 */
function env(name: string): string | undefined {
  let value: string | undefined;
  try {
    value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  } catch {
    return undefined;
  }
  return typeof value !== 'string' || value === '' ? undefined : value;
}

/** The log level: the option, else `IACM_LOG` (one of {@link LOG_LEVELS}, any case), else `warn`. */
function resolveLogLevel(option: unknown): LogLevel {
  if (option !== undefined) {
    if (!LOG_LEVELS.includes(option as LogLevel)) {
      throw new IacmError(
        `option logLevel: expected one of ${LOG_LEVELS.join(', ')}, received ${describeOption(option)}`,
      );
    }
    return option as LogLevel;
  }
  const fromEnv = env('IACM_LOG');
  if (fromEnv === undefined) return DEFAULTS.logLevel;
  const level = fromEnv.trim().toLowerCase();
  if (!LOG_LEVELS.includes(level as LogLevel)) {
    throw new IacmError(
      `environment variable IACM_LOG: expected one of ${LOG_LEVELS.join(', ')}, received ${JSON.stringify(fromEnv.slice(0, 40))}`,
    );
  }
  return level as LogLevel;
}

const LOG_METHODS = ['error', 'warn', 'info', 'debug'] as const;

/** Checks the logger option and decides how to call it. */
function resolveLogger(
  logger: unknown,
  style: unknown,
): { logger: Logger | DetailsFirstLogger; loggerStyle: LoggerStyle } {
  if (style !== undefined && !LOGGER_STYLES.includes(style as LoggerStyle)) {
    throw new IacmError(
      `option loggerStyle: expected "message-first" or "details-first", received ${describeOption(style)}`,
    );
  }
  if (logger === undefined)
    return { logger: console, loggerStyle: (style as LoggerStyle) ?? 'message-first' };
  if (logger === null || (typeof logger !== 'object' && typeof logger !== 'function')) {
    throw new IacmError(
      `option logger: expected an object with error, warn, info and debug methods, received ${describeOption(logger)}`,
    );
  }
  const missing = LOG_METHODS.filter(
    (name) => typeof (logger as Record<string, unknown>)[name] !== 'function',
  );
  if (missing.length > 0) {
    throw new IacmError(
      `option logger: expected an object with error, warn, info and debug methods; ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing`,
    );
  }
  return {
    logger: logger as Logger | DetailsFirstLogger,
    loggerStyle:
      (style as LoggerStyle | undefined) ?? (isPinoLike(logger) ? 'details-first' : 'message-first'),
  };
}

/** Describes an option's value for an error message without echoing long content. */
function describeOption(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (value === null) return 'null';
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : `a ${typeof value}`;
}

function checkKnown(given: object, known: readonly string[], what: string): void {
  const unknown = Object.keys(given).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw new IacmError(
      `unknown ${what} ${unknown.map((k) => `"${k}"`).join(', ')}; valid ${what}s are: ${known.join(', ')}`,
    );
  }
}

function checkNumber(value: unknown, name: string, min: number): void {
  if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < min)) {
    throw new IacmError(
      `option ${name}: expected a number ≥ ${min}, received ${typeof value === 'number' ? value : typeof value}`,
    );
  }
}

function checkFunction(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== 'function')
    throw new IacmError(`option ${name}: expected a function, received ${describeOption(value)}`);
}

function checkMode(value: unknown, name: string): void {
  if (value !== undefined && value !== 'strict' && value !== 'warn' && value !== 'off') {
    throw new IacmError(
      `option ${name}: expected "strict", "warn" or "off", received ${JSON.stringify(String(value))}`,
    );
  }
}

/** Checks per-request options; unknown ones are refused with the list of valid ones. */
export function checkRequestOptions(options: RequestOptions | undefined): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null)
    throw new IacmError('request options must be an object');
  checkKnown(options, REQUEST_OPTION_NAMES, 'request option');
  checkNumber(options.timeout, 'timeout', 1);
  checkNumber(options.maxRetries, 'maxRetries', 0);
  checkMode(options.validation, 'validation');
}

function resolveAuth(auth: AuthOption | undefined): AuthOption | undefined {
  if (auth !== undefined) {
    const ok =
      typeof auth === 'function' ||
      (typeof auth === 'object' &&
        auth !== null &&
        (('token' in auth && typeof auth.token === 'string' && auth.token !== '') ||
          ('accessKey' in auth && typeof auth.accessKey === 'string' && typeof auth.secretKey === 'string')));
    if (!ok) {
      throw new IacmError(
        'option auth: expected { token }, { accessKey, secretKey } or a function returning a token',
      );
    }
    return auth;
  }
  const token = env('IACM_TOKEN');
  if (token) return { token };
  const accessKey = env('IACM_ACCESS_KEY');
  const secretKey = env('IACM_SECRET_KEY');
  if (accessKey && secretKey) return { accessKey, secretKey };
  return undefined;
}

/** Applies defaults and the environment to client options, refusing unknown or malformed ones. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null)
    throw new IacmError('client options must be an object');
  checkKnown(options, OPTION_NAMES, 'option');
  checkNumber(options.timeout, 'timeout', 1);
  checkNumber(options.maxRetries, 'maxRetries', 0);
  checkMode(options.validation, 'validation');
  const logLevel = resolveLogLevel(options.logLevel);
  const logging = resolveLogger(options.logger, options.loggerStyle);
  const baseUrl = options.baseUrl ?? env('IACM_BASE_URL');
  if (!baseUrl)
    throw new IacmError('option baseUrl is required (or set IACM_BASE_URL), like "https://api.example.com"');
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new IacmError(
      `option baseUrl: expected an absolute http(s) URL, received ${JSON.stringify(baseUrl.slice(0, 100))}`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new IacmError(`option baseUrl: expected an http(s) URL, received the scheme ${parsed.protocol}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new IacmError(
      'option baseUrl: expected a URL without a user name or password (fetch refuses them); pass credentials with the auth option',
    );
  }
  checkFunction(options.fetch, 'fetch');
  checkFunction(options.sleep, 'sleep');
  if (typeof (options.fetch ?? globalThis.fetch) !== 'function')
    throw new IacmError('no global fetch in this runtime: pass the fetch option');
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    auth: resolveAuth(options.auth),
    timeout: options.timeout ?? DEFAULTS.timeout,
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    fetch: options.fetch,
    sleep: options.sleep,
    headers: { ...options.headers },
    validation: options.validation ?? DEFAULTS.validation,
    logger: logging.logger,
    loggerStyle: logging.loggerStyle,
    logLevel,
    hooks: { ...options.hooks },
    ky: resolveKy(options.ky),
  };
}

/**
 * The `ky` option, checked: an object without the options the SDK sets itself
 * (`SDK_OWNED_KY_OPTIONS`: each refused by name, with what to use instead); copied.
 */
function resolveKy(option: unknown): KyPassThroughOptions | undefined {
  if (option === undefined) return undefined;
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new IacmError(`option ky: expected an object of ky's options, received ${describeOption(option)}`);
  }
  // Each of SDK_OWNED_KY_OPTIONS, in its order: KY_INSTEAD names every one.
  for (const [name, instead] of Object.entries(KY_INSTEAD)) {
    if (Object.hasOwn(option, name)) {
      throw new IacmError(
        `option ky.${name}: set by the SDK itself (${instead}), so ky may not take it here`,
      );
    }
  }
  return { ...(option as KyPassThroughOptions) };
}

/** What to use instead of each ky option the SDK sets itself ({@link SDK_OWNED_KY_OPTIONS}, in its order). */
const KY_INSTEAD: Record<(typeof SDK_OWNED_KY_OPTIONS)[number], string> = {
  prefixUrl: 'use baseUrl',
  method: "each endpoint's method",
  headers: 'use the headers option, or a header per request',
  body: "each call's body",
  json: "each call's body",
  searchParams: "each call's query",
  signal: 'pass a signal per request',
  timeout: 'use the timeout option',
  retry: 'use maxRetries; the SDK retries itself',
  throwHttpErrors: "the SDK's error classes stand for ky's HTTPError",
  fetch: 'use the fetch option',
  parseJson: 'the SDK reads and validates answers itself',
  stringifyJson: 'the SDK writes bodies itself',
};

/** Merges header layers in order; a `null` value removes the header. Names are lower-cased. */
export function mergeHeaders(
  ...layers: Array<Record<string, string | null> | undefined>
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer ?? {})) {
      const key = name.toLowerCase();
      if (value === null) delete out[key];
      else out[key] = value;
    }
  }
  return out;
}
