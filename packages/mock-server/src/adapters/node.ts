import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildOpenApiDocument, type OpenApiDocument } from '@iacm/sdk/openapi';
import { readNodeBody } from '@iacm/webhook-receiver/node';
import { internalErrorResponse, type MockResponse } from '../core/http.js';
import { MockCore, type MockOptions } from '../core/mock.js';
import { landingAnswer } from './landing.js';

/** Options of {@link listen}. */
export interface ListenOptions extends MockOptions {
  /** Port; 0 picks a free one. Default 4010. */
  port?: number;
  /** Host to bind. Default `127.0.0.1`. */
  host?: string;
  /** Use this core instead of creating one. */
  core?: MockCore;
  /**
   * Called once per request when its answer has ended, for a request log: the method, the request
   * target (path and query as received, secrets included: mask them before printing), the status
   * (`undefined` when the connection closed without a complete answer) and the milliseconds from
   * arrival to the end. An exception it throws is ignored.
   */
  onRequest?: (request: {
    method: string;
    url: string;
    status: number | undefined;
    durationMs: number;
  }) => void;
}

type OnRequest = NonNullable<ListenOptions['onRequest']>;

/** A running standalone mock server. */
export interface RunningMockServer {
  /** The base URL, like `http://127.0.0.1:4010`. */
  url: string;
  /** The port it listens on. */
  port: number;
  /** The core answering the requests. */
  core: MockCore;
  /** The control plane. */
  control: MockCore['control'];
  /** The underlying `node:http` server. */
  server: Server;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** Where the standalone server serves the API's OpenAPI document (no auth). */
const OPENAPI_PATH = '/openapi.json';

let openApiDocument: OpenApiDocument | undefined;

/** The OpenAPI document naming `serverUrl` as its server; the document is built once, on first use. */
function openApiFor(serverUrl: string): OpenApiDocument {
  openApiDocument ??= buildOpenApiDocument();
  return {
    ...openApiDocument,
    servers: openApiDocument.servers.map((server) => ({ ...server, url: serverUrl })),
  };
}

/** Calls `onRequest` once the answer to `req` has ended (sent in full, or the connection closed). */
function observe(req: IncomingMessage, res: ServerResponse, onRequest: OnRequest): void {
  const started = performance.now();
  res.once('close', () => {
    try {
      onRequest({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        status: res.writableFinished ? res.statusCode : undefined,
        durationMs: performance.now() - started,
      });
    } catch {
      // A failing log must not affect the server.
    }
  });
}

/**
 * Writes a core answer. When the request's body has not fully arrived (the answer came before the
 * body stage, or the body stage stopped past the size limit), the answer closes the connection, so
 * that the rest of the body is never read.
 */
function send(req: IncomingMessage, res: ServerResponse, response: MockResponse): void {
  if (response.drop) {
    res.socket?.destroy();
    return;
  }
  if (res.headersSent || res.writableEnded) return;
  const body = response.body === undefined ? undefined : JSON.stringify(response.body);
  const headers: Record<string, string | number> = { ...response.headers };
  if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
  if (!req.complete) headers.connection = 'close';
  res.writeHead(response.status, headers);
  res.end(body);
}

/**
 * Creates the `node:http` request listener of a core (it calls the core directly, no Fetch objects).
 * Besides the API and the control plane, it answers `GET /openapi.json` with the API's OpenAPI 3.1
 * document (no auth), whose server is this server, and `GET /` with a landing page (HTML for a
 * browser, JSON otherwise: the routes, how to log in, where the OpenAPI document is; no keys).
 * The body is read only when the request reaches the core's body stage, and never past the size
 * limit (413 from `Content-Length` before reading, or as soon as more arrives).
 * @param core the core answering the requests.
 * @param maxBodyBytes the largest API request body, bytes (default: the core's `maxBodyBytes`).
 * @param options `serverUrl`: the base URL `GET /openapi.json` and `GET /` name (a function is asked
 *   on each request); default `http://` and the request's `Host` header. `onRequest`: called when
 *   each answer has ended (a request log).
 */
export function createRequestListener(
  core: MockCore,
  maxBodyBytes?: number,
  options: { serverUrl?: string | (() => string); onRequest?: ListenOptions['onRequest'] } = {},
) {
  const { serverUrl, onRequest } = options;
  const baseOf = (req: IncomingMessage) =>
    typeof serverUrl === 'function'
      ? serverUrl()
      : (serverUrl ?? `http://${req.headers.host ?? 'localhost'}`);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (onRequest) observe(req, res, onRequest);
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (req.method === 'GET' && url.pathname === OPENAPI_PATH) {
        send(req, res, {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: openApiFor(baseOf(req)),
        });
        return;
      }
      if (req.method === 'GET' && url.pathname === '/') {
        const answer = landingAnswer(baseOf(req), req.headers.accept);
        res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
        res.end(answer.body);
        return;
      }
      // The client has gone when the connection closes before the answer is complete.
      const gone = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) gone.abort();
      });
      const response = await core.handle(
        {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          readBody: (limit) => readNodeBody(req, limit),
          ...(req.socket.remoteAddress ? { clientAddress: req.socket.remoteAddress } : {}),
        },
        { signal: gone.signal, ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}) },
      );
      send(req, res, response);
    } catch {
      if (!res.headersSent) {
        send(req, res, internalErrorResponse());
      } else res.destroy();
    }
  };
}

/**
 * Starts the standalone mock server on `node:http`.
 *
 * @example
 * const mock = await listen({ port: 0 });
 * console.log(mock.url); // http://127.0.0.1:<port>
 * await mock.close();
 */
export async function listen(options: ListenOptions = {}): Promise<RunningMockServer> {
  const { port = 4010, host = '127.0.0.1', core: given, onRequest, ...coreOptions } = options;
  const core = given ?? new MockCore(coreOptions);
  // With a given core, `maxBodyBytes` still applies to this server's requests.
  const maxBodyBytes = given ? options.maxBodyBytes : undefined;
  let url = '';
  const listener = createRequestListener(core, maxBodyBytes, {
    serverUrl: () => url,
    ...(onRequest ? { onRequest } : {}),
  });
  const server = createServer((req, res) => {
    void listener(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `http://${shownHost}:${address.port}`;
  return {
    url,
    port: address.port,
    core,
    control: core.control,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
