import { readWebStream } from '@iacm/webhook-receiver';
import type { RequestHandler } from 'msw';
import { MockCore, type MockOptions } from '../app/mock.js';
import type { MockResponse } from '../http/message.js';
import { statusText } from '../http/status-text.js';
import { answerBytes } from '../pipeline/answer-text.js';
// `http` and `RequestHandler` of the installed msw; the published Node builds load them without
// msw 2's main entry (see the module).
import * as msw from './msw-http/index.js';
import { assertSupportedMsw } from './msw-support.js';

/** Options of {@link createMockServer}. */
export interface CreateMockServerOptions extends MockOptions {
  /** Base URL(s) the handlers answer for. Default `http://localhost:4010`. */
  baseUrl?: string | readonly string[];
}

/** A mock server for MSW: its handlers, its core and its control plane. */
export interface MockServer {
  /** The MSW handlers (one catch-all per base URL): pass them to `setupServer` or `setupWorker`. */
  handlers: RequestHandler[];
  /** The base URL(s) the handlers answer for. */
  baseUrls: string[];
  /** The transport-free core (call `core.handle` directly if you like). */
  core: MockCore;
  /** The control plane: reset, seed, state, accounts, journal, faults, rate limit. */
  control: MockCore['control'];
}

/** The statuses a Fetch `Response` cannot have a body with (the Fetch standard's null body statuses, 200 up). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

/** Converts a core response into a Fetch `Response` (or a network error for a dropped connection). */
export function toFetchResponse(response: MockResponse): Response {
  // A plain Fetch `Response`, as msw's `HttpResponse` is one (`HttpResponse.error()` is
  // `Response.error()`), with the reason phrase `HttpResponse` would give it.
  if (response.drop) return Response.error();
  // The answer's JSON text in UTF-8, stored records' texts reused (`JSON.stringify`'s bytes), in a
  // buffer the next answer reuses: the Response copies a buffer it is given (the Fetch standard).
  // A null-body status (204, 205, 304: a fault may give one a body) answers without it, as msw's
  // `HttpResponse` does, instead of throwing from the constructor.
  const body =
    response.body === undefined || NULL_BODY_STATUSES.has(response.status)
      ? null
      : (answerBytes(response.body, undefined, true) ?? null);
  // A Uint8Array over an ArrayBuffer (never a SharedArrayBuffer), which BodyInit's type asks for.
  return new Response(body as Uint8Array<ArrayBuffer> | null, {
    status: response.status,
    statusText: statusText(response.status),
    headers: response.headers,
  });
}

/** Hands a Fetch `Request` to the core; `basePath` is the base URL's path, stripped from the request path. */
export async function handleFetchRequest(core: MockCore, request: Request, basePath = ''): Promise<Response> {
  const url = new URL(request.url);
  const path =
    basePath && url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) || '/' : url.pathname;
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  // The body is read only if the request reaches the core's body stage, and never past its limit.
  const response = await core.handle(
    {
      method: request.method,
      path,
      query: url.searchParams,
      headers: request.headers,
      ...(hasBody ? { readBody: (limit: number) => readWebStream(request.body, limit) } : {}),
    },
    { signal: request.signal },
  );
  return toFetchResponse(response);
}

/**
 * Creates a mock server for MSW: one catch-all handler per base URL over one stateful core.
 *
 * msw is a peer dependency, `^2.15.0 || ^3.0.0` (msw 3 needs Node >= 22.12): the handlers are built
 * with the msw your `setupServer`/`setupWorker` comes from. Any other msw, or msw 3 on an older Node,
 * throws an `UnsupportedMswError` here, naming the supported range and the install line.
 *
 * @example
 * const mock = createMockServer({ baseUrl: 'http://localhost:4010', seed: 7 });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 */
export function createMockServer(options: CreateMockServerOptions = {}): MockServer {
  // The two members the check reads, not the namespace itself: that would keep all of msw in a bundle.
  assertSupportedMsw({ http: msw.http, RequestHandler: msw.RequestHandler });
  const { baseUrl = 'http://localhost:4010', ...coreOptions } = options;
  const core = new MockCore(coreOptions);
  const baseUrls = (typeof baseUrl === 'string' ? [baseUrl] : [...baseUrl]).map((u) => u.replace(/\/+$/, ''));
  const handlers = baseUrls.map((base) => {
    const basePath = new URL(base).pathname.replace(/\/+$/, '');
    return msw.http.all(`${base}/*`, ({ request }) => handleFetchRequest(core, request, basePath));
  });
  return { handlers, baseUrls, core, control: core.control };
}
