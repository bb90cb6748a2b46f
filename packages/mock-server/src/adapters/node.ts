import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildOpenApiDocument, type OpenApiDocument } from '@iacm/sdk/openapi';
import { internalErrorResponse, type MockResponse } from '../core/http.js';
import { MockCore, type MockOptions } from '../core/mock.js';
import { landingAnswer } from './landing.js';

/** Options of {@link listen}. */
export interface ListenOptions extends MockOptions {
  /** Port; 0 picks a free one. Default 4010. */
  port?: number;
  /** Host to bind. Default `127.0.0.1`. */
  host?: string;
  /** Largest API request body, bytes. Default 1 MiB (control-plane bodies may be 256 MiB). */
  maxBodyBytes?: number;
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

const CONTROL_BODY_LIMIT = 256 * 1024 * 1024;

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

class BodyTooLarge extends Error {}

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

function readBody(request: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(res: ServerResponse, response: MockResponse): void {
  if (response.drop) {
    res.socket?.destroy();
    return;
  }
  const body = response.body === undefined ? undefined : JSON.stringify(response.body);
  res.writeHead(
    response.status,
    body === undefined
      ? response.headers
      : { ...response.headers, 'content-length': Buffer.byteLength(body) },
  );
  res.end(body);
}

/**
 * Creates the `node:http` request listener of a core (it calls the core directly, no Fetch objects).
 * Besides the API and the control plane, it answers `GET /openapi.json` with the API's OpenAPI 3.1
 * document (no auth), whose server is this server, and `GET /` with a landing page (HTML for a
 * browser, JSON otherwise: the routes, how to log in, where the OpenAPI document is; no keys).
 * @param core the core answering the requests.
 * @param maxBodyBytes the largest API request body, bytes.
 * @param options `serverUrl`: the base URL `GET /openapi.json` and `GET /` name (a function is asked
 *   on each request); default `http://` and the request's `Host` header. `onRequest`: called when
 *   each answer has ended (a request log).
 */
export function createRequestListener(
  core: MockCore,
  maxBodyBytes = 1024 * 1024,
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
        send(res, {
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
      const limit = url.pathname.startsWith('/__mock/') ? CONTROL_BODY_LIMIT : maxBodyBytes;
      let rawBody: string | undefined;
      try {
        rawBody = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req, limit);
      } catch (error) {
        if (!(error instanceof BodyTooLarge)) throw error;
        send(res, {
          status: 413,
          headers: { 'content-type': 'application/json', connection: 'close' },
          body: { status: 413, code: 'payload_too_large', message: `the body is larger than ${limit} bytes` },
        });
        return;
      }
      const response = await core.handle({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        ...(rawBody !== undefined ? { rawBody } : {}),
      });
      send(res, response);
    } catch {
      if (!res.headersSent) {
        send(res, internalErrorResponse());
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
  const { port = 4010, host = '127.0.0.1', maxBodyBytes, core: given, onRequest, ...coreOptions } = options;
  const core = given ?? new MockCore(coreOptions);
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
