/**
 * One HTTP exchange of the transport, through ky: one `ky.create()` instance per client sends each
 * attempt with the call's signal and ky's `timeout` as the deadline for the answer's head (the
 * client's `timeout`, per attempt). ky's own retry is off (`retry: 0`) and so are its HTTP errors
 * (`throwHttpErrors: false`): the transport's retry loop keeps what ky's cannot express (the
 * contract's `Retry-After` parser shared with the mock, a login renewed between attempts on a 401,
 * `onRetry`, the `sleep` option, the fake-timer rule), and maps every answer to the SDK's errors
 * (`docs/compatibility.md`, "How the SDK uses ky").
 *
 * @module
 */
import ky, { type KyInstance, type Options, TimeoutError } from 'ky';

export { TimeoutError };

/** The longest timeout ky takes (the largest delay `setTimeout` keeps, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * ky's options the SDK leaves to the caller, as ky types them (`ky: { hooks, credentials, ... }`
 * in the client's options): every one but those the SDK sets itself, which the client refuses by
 * name ({@link SDK_OWNED_KY_OPTIONS}).
 */
export type KyPassThroughOptions = Omit<Options, (typeof SDK_OWNED_KY_OPTIONS)[number]>;

/**
 * ky's options the SDK sets on every request: the URL, method, headers, body and signal of the call,
 * the deadline (the client's `timeout`), the `fetch` (the client's, looked up per call), and no
 * retry nor HTTP error of ky's own (the SDK's `maxRetries` and error classes stand for them).
 */
export const SDK_OWNED_KY_OPTIONS = [
  'prefixUrl',
  'method',
  'headers',
  'body',
  'json',
  'searchParams',
  'signal',
  'timeout',
  'retry',
  'throwHttpErrors',
  'fetch',
  'parseJson',
  'stringifyJson',
] as const;

/** What one exchange sends. */
export interface Exchange {
  /** The HTTP method. */
  readonly method: string;
  /** The request headers (their names lower-case). */
  readonly headers: Record<string, string>;
  /** The JSON body, when the endpoint has one. */
  readonly body?: string;
  /** The call's signal: aborting it aborts the request. */
  readonly signal?: AbortSignal;
}

/**
 * The client's ky instance: `passThrough` (the caller's `ky` option) with the SDK's own settings
 * over it, sending with `fetchImpl`.
 */
export function createKy(fetchImpl: typeof fetch, passThrough: KyPassThroughOptions = {}): KyInstance {
  return ky.create({
    ...passThrough,
    retry: 0,
    throwHttpErrors: false,
    // A `fetch` that throws at once rejects instead: ky then clears its deadline's timer.
    fetch: (input, init) => {
      try {
        return Promise.resolve(fetchImpl(input, init));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  });
}

/**
 * Sends one request through `instance` and resolves with the answer once its head arrived. Rejects
 * with ky's `TimeoutError` when `timeoutMs` passes first (ky aborts the request), and with what
 * `fetch` rejected with otherwise (an abort of the call's signal included). The `fetch` is called
 * as ky calls it: `fetch(request, init)`, a `Request` and the init members a `Request` does not keep.
 */
export function send(
  instance: KyInstance,
  url: URL,
  exchange: Exchange,
  timeoutMs: number,
): Promise<Response> {
  const init: Options = {
    method: exchange.method,
    headers: exchange.headers,
    timeout: Math.min(timeoutMs, MAX_TIMER_MS),
  };
  if (exchange.body !== undefined) init.body = exchange.body;
  if (exchange.signal) init.signal = exchange.signal;
  return instance(url, init);
}
