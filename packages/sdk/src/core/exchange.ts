/**
 * One HTTP exchange of the transport: the `fetch` call with the call's signal and a deadline for the
 * answer's head (the client's `timeout`). Retries, hooks, errors and validation are the transport's
 * own; this is all the SDK used ky for, and ky built a second `Request` (a clone), merged options and
 * chained promises per call for it (issue 25: docs/performance.md, P3 and P6).
 *
 * @module
 */

/** The largest delay `setTimeout` keeps (about 24.8 days); a longer timeout waits that long. */
const MAX_TIMER_MS = 2_147_483_647;

/** The deadline passed before the answer's head arrived (the transport turns it into `APIConnectionTimeoutError`). */
export class TimeoutError extends Error {
  /** @param timeoutMs the deadline, milliseconds. */
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

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
 * Sends one request and resolves with the answer once its head arrived. Rejects with
 * {@link TimeoutError} when `timeoutMs` passes first (the request is aborted, and the promise rejects
 * even when a custom `fetch` ignores the abort), and with what `fetch` rejected with otherwise (an
 * abort of the call's signal included). The `fetch` is called as `fetch(url, init)`: the URL as a
 * string and a `RequestInit` (a `Request` built here would be built again by `fetch`: about a sixth
 * of a call's CPU time, P3).
 * @param fetchImpl the `fetch` to call.
 * @param url the request's URL.
 * @param exchange the method, headers, body and signal.
 * @param timeoutMs the deadline for the answer's head, milliseconds.
 */
export function send(
  fetchImpl: typeof fetch,
  url: URL,
  exchange: Exchange,
  timeoutMs: number,
): Promise<Response> {
  const deadline = new AbortController();
  const init: RequestInit = {
    method: exchange.method,
    headers: exchange.headers,
    signal: exchange.signal ? AbortSignal.any([exchange.signal, deadline.signal]) : deadline.signal,
  };
  if (exchange.body !== undefined) init.body = exchange.body;
  return new Promise<Response>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        const timeout = new TimeoutError(timeoutMs);
        deadline.abort(timeout);
        reject(timeout);
      },
      Math.min(timeoutMs, MAX_TIMER_MS),
    );
    let answer: Promise<Response>;
    try {
      answer = Promise.resolve(fetchImpl(url.href, init));
    } catch (error) {
      clearTimeout(timer);
      reject(error);
      return;
    }
    answer.then(
      (response) => {
        clearTimeout(timer);
        resolve(response);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
