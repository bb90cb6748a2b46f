/**
 * What to do with a request that no MSW handler answers (a wrong host, a base URL the mock does not
 * serve), without writing its body down: MSW's own `'error'` and `'warn'` strategies print the body,
 * so a login's secret key sent to a wrong host ends up on stderr. {@link unhandledRequestStrategy}
 * names the method and the URL (credentials in it redacted) and never the body. Works with MSW 2
 * (`onUnhandledRequest: (request, print)`) and MSW 3 (`onUnhandledFrame: ({ frame, defaults })`).
 *
 * @module
 */
import { redactUrl } from '../domain/webhook-url.js';

/** The extensions of a static asset (msw's `isCommonAssetRequest`'s list). */
const ASSET_PATH =
  /\.(s?css|less|m?jsx?|m?tsx?|html|ttf|otf|woff|woff2|eot|gif|jpe?g|png|avif|webp|svg|mp4|webm|ogg|mov|mp3|wav|flac|aac|pdf|txt|csv|json|xml|md|zip|tar|gz|rar|7z)$/i;

/**
 * Whether a request is for a static asset: a `file:` URL, Google Fonts, a path with `node_modules` or
 * `@vite`, or a file extension of a page's assets. The same test as msw's `isCommonAssetRequest`
 * (msw 2.15 and 3), kept here so that the mock does not load msw's main entry for it.
 */
export function isCommonAssetRequest(request: Request): boolean {
  const url = new URL(request.url);
  if (url.protocol === 'file:') return true;
  if (url.hostname.includes('fonts.googleapis.com')) return true;
  if (url.pathname.includes('node_modules') || url.pathname.includes('@vite')) return true;
  return ASSET_PATH.test(url.pathname);
}

/** What MSW 3 hands an `onUnhandledFrame` callback, as far as it is read here. */
export interface UnhandledFrameArgs {
  /** The unhandled network frame: `http` (its `data.request`) or `ws` (its `data.connection.client.url`). */
  readonly frame: { readonly protocol: string; readonly data: unknown };
}

/**
 * The callback {@link unhandledRequestStrategy} makes: MSW 2's `onUnhandledRequest` callback (a
 * request and MSW's `print`, which it never calls) and MSW 3's `onUnhandledFrame` callback in one.
 */
export type MockUnhandledRequestCallback = (input: Request | UnhandledFrameArgs, print?: unknown) => void;

/**
 * The error {@link unhandledRequestStrategy}`('error')` throws for a request no handler answers: it
 * names the method and the URL, credentials in the URL redacted, and never the body. It is shaped like
 * a Node network error (`code`, `errno`), so that MSW's interceptors fail the request with it, as a
 * network error (`fetch` rejects, this error as its cause; the SDK throws `APIConnectionError`),
 * instead of answering 500 as they do for other errors.
 */
export class UnhandledRequestError extends Error {
  override readonly name = 'UnhandledRequestError';
  /** `ERR_IACM_UNHANDLED_REQUEST`. */
  readonly code = 'ERR_IACM_UNHANDLED_REQUEST';
  /** Present, as on Node's network errors (MSW's interceptors fail a request with an error that has `code` and `errno`). */
  readonly errno = -1;
  /** The request's method (`POST`). */
  readonly method: string;
  /** The request's URL, a user name, password and secret-looking query values replaced by `[redacted]`. */
  readonly url: string;

  /**
   * The error for a request no handler answers.
   *
   * @param method The request's method.
   * @param url Its URL, already redacted.
   */
  constructor(method: string, url: string) {
    super(
      `[@iacm/mock-server] no request handler matches ${method} ${url}: is the client's baseUrl one the mock ` +
        'serves (createMockServer({ baseUrl }))? The request body is not shown: it may hold credentials.',
    );
    this.method = method;
    this.url = url;
  }
}

/**
 * An `onUnhandledRequest` strategy that never writes a request's body down: pass it where MSW's
 * `'error'` or `'warn'` would go, `server.listen({ onUnhandledRequest: unhandledRequestStrategy('error') })`
 * or `worker.start({ onUnhandledRequest: unhandledRequestStrategy('warn') })` (with MSW 3,
 * `onUnhandledFrame: unhandledRequestStrategy('error')`).
 *
 * MSW's own strategies print the whole request, body included: a login sent to a wrong host would put
 * its secret key on stderr. This one names the method and the URL only, a user name, password and the
 * values of secret-looking query parameters (`?token=`, `?api_key=`, `?sig=`...) replaced by
 * `[redacted]`, and never calls MSW's `print`. As MSW's own strategies do, it lets requests for common
static assets pass untouched (MSW's `isCommonAssetRequest`: fonts, images, scripts, Vite's internals).
 *
 * @param mode `'error'` (default): throws an {@link UnhandledRequestError}, so the request fails and
 * nothing reaches the network. `'warn'`: writes the same message with `console.warn` and lets the
 * request go on to the network, as MSW's `'warn'` does.
 * @returns The callback, for MSW 2's `onUnhandledRequest` and MSW 3's `onUnhandledFrame`.
 * @example
 * ```ts
 * server.listen({ onUnhandledRequest: unhandledRequestStrategy('error') });
 * ```
 */
export function unhandledRequestStrategy(mode: 'error' | 'warn' = 'error'): MockUnhandledRequestCallback {
  if (mode !== 'error' && mode !== 'warn') {
    throw new TypeError(
      `unhandledRequestStrategy: expected 'error' or 'warn', received ${describe(mode)} ` +
        "(for 'bypass', pass MSW's own 'bypass': it prints nothing)",
    );
  }
  return (input) => {
    const request = requestOf(input);
    // As MSW's own strategies do: a page's fonts, images, scripts and Vite internals pass untouched.
    if (request && isCommonAssetRequest(request)) return;
    const { method, url } = described(input, request);
    const error = new UnhandledRequestError(method, redactUrl(url));
    if (mode === 'error') throw error;
    console.warn(error.message);
  };
}

/**
 * The options {@link unhandledRequestOptions} makes: the same strategy under MSW 2's name and MSW 3's.
 * Each major reads its own member and ignores the other.
 */
export interface MockUnhandledRequestOptions {
  /** MSW 2's option (`setupServer().listen`, `setupWorker().start`). */
  readonly onUnhandledRequest: MockUnhandledRequestCallback;
  /** MSW 3's option. */
  readonly onUnhandledFrame: MockUnhandledRequestCallback;
}

/**
 * MSW's options for requests no handler answers, for MSW 2 and MSW 3 alike: one test file, either
 * major. MSW 2 names the option `onUnhandledRequest`, MSW 3 `onUnhandledFrame`, and each major's types
 * refuse the other's name in an object literal; this object holds {@link unhandledRequestStrategy}'s
 * callback under both names. Spread it to add options of your own.
 *
 * @param mode As {@link unhandledRequestStrategy}: `'error'` (default) or `'warn'`.
 * @returns `{ onUnhandledRequest, onUnhandledFrame }`, one callback under both names.
 * @example
 * ```ts
 * server.listen(unhandledRequestOptions('error'));
 * worker.start({ ...unhandledRequestOptions('warn'), quiet: true });
 * ```
 */
export function unhandledRequestOptions(mode: 'error' | 'warn' = 'error'): MockUnhandledRequestOptions {
  const strategy = unhandledRequestStrategy(mode);
  return { onUnhandledRequest: strategy, onUnhandledFrame: strategy };
}

/** The request MSW could not handle: MSW 2 passes it, MSW 3 an `http` frame holding it. */
function requestOf(input: Request | UnhandledFrameArgs): Request | undefined {
  if (!('frame' in input)) return input;
  const data = input.frame.data as { request?: unknown } | null | undefined;
  return isRequestLike(data?.request) ? (data.request as Request) : undefined;
}

/** The method and URL of what MSW could not handle: a request, or MSW 3's WebSocket frame. */
function described(
  input: Request | UnhandledFrameArgs,
  request: Request | undefined,
): { method: string; url: string } {
  if (request) return { method: request.method, url: request.url };
  const data =
    'frame' in input ? (input.frame.data as { connection?: { client?: { url?: unknown } } } | null) : null;
  const socket = data?.connection?.client?.url;
  return { method: 'WEBSOCKET', url: socket === undefined ? '' : String(socket) };
}

function isRequestLike(value: unknown): value is { method: string; url: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { method?: unknown }).method === 'string' &&
    typeof (value as { url?: unknown }).url === 'string'
  );
}

/** A wrong argument, described without echoing a long value. */
function describe(value: unknown): string {
  if (typeof value !== 'string') return typeof value;
  return value.length <= 20 ? JSON.stringify(value) : `a string of ${value.length} characters`;
}
