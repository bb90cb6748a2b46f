import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { buildOpenApiDocument, type OpenApiDocument } from '@iacm/sdk/openapi';
import { readNodeBody } from '@iacm/webhook-receiver/node';
import { MockCore, type MockOptions } from '../app/mock.js';
import { controlAccessOf } from '../app/options.js';
import { controlExposureOf } from '../control/access.js';
import { internalErrorResponse, type MockResponse } from '../http/message.js';
import { answerBytes } from '../pipeline/answer-text.js';
import { allowedHostNames, isLoopbackHost } from '../pipeline/host.js';
import { DEFAULT_SERVER_TIMEOUTS, resolveServerTimeouts } from './timeouts.js';

export { DEFAULT_SERVER_TIMEOUTS, isLoopbackHost };

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
   * More `Host` names to accept (a Docker service name, a proxy's name). Every request's `Host` must
   * be the bound address, `localhost`, `127.0.0.1`, `[::1]` (any of the machine's addresses when
   * bound to `0.0.0.0` or `::`) or one of these; others get 403 (a guard against DNS rebinding).
   */
  allowedHosts?: readonly string[];
  /**
   * How long a client may take to send a request's headers, ms (`server.headersTimeout`; past it: 408
   * and the connection closed, within a second). Default 20,000.
   */
  headersTimeoutMs?: number;
  /**
   * How long a client may take to send a whole request, ms (`server.requestTimeout`; past it: 408 and
   * the connection closed, within a second). Default 120,000.
   */
  requestTimeoutMs?: number;
  /**
   * How long an idle keep-alive connection stays open, ms (`server.keepAliveTimeout`, advertised in
   * `Keep-Alive: timeout=`; Node closes it one second later, so that a client reusing it at the limit
   * is not cut off). Default 5,000.
   */
  keepAliveTimeoutMs?: number;
  /**
   * How long a connection may stay silent (no byte either way, e.g. one that never sends a request)
   * before it is closed, ms (`server.timeout`). Default 60,000.
   */
  idleTimeoutMs?: number;
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
  /**
   * Stops listening and closes open connections; pending waits (`control.waitFor`, long polls) are
   * rejected, and every session is ended.
   */
  close(): Promise<void>;
}

/**
 * How often the standalone server checks the headers and whole-request timeouts, at most, ms. Node
 * checks them on a timer (`connectionsCheckingInterval`, 30 s by default, so a 2 s headers timeout
 * fired at up to 32 s); `listen` sets it to the smallest of these two timeouts, between
 * {@link MIN_CONNECTIONS_CHECK_MS} and this, so each fires within a second of its setting.
 */
export const MAX_CONNECTIONS_CHECK_MS = 1_000;

/** How often the standalone server checks its connections' timeouts, at least, ms (a floor for tiny timeouts). */
export const MIN_CONNECTIONS_CHECK_MS = 50;

/**
 * The interval of Node's connection checks for these timeouts (0 or less: off): the smallest, between
 * {@link MIN_CONNECTIONS_CHECK_MS} and {@link MAX_CONNECTIONS_CHECK_MS}.
 */
export function connectionsCheckInterval(headersTimeoutMs: number, requestTimeoutMs: number): number {
  const set = [headersTimeoutMs, requestTimeoutMs].filter((ms) => ms > 0);
  return Math.floor(Math.max(MIN_CONNECTIONS_CHECK_MS, Math.min(MAX_CONNECTIONS_CHECK_MS, ...set)));
}

/**
 * `listen` refuses a non-loopback bind whose control plane is open (neither a control token nor
 * `control: false`): `code` is `IACM_UNSAFE_BIND`.
 */
export class UnsafeBindError extends Error {
  /** `IACM_UNSAFE_BIND`. */
  readonly code = 'IACM_UNSAFE_BIND';
  override name = 'UnsafeBindError';
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
  // The answer's JSON text in UTF-8, stored records' texts reused (`JSON.stringify`'s bytes).
  const body = response.body === undefined ? undefined : answerBytes(response.body);
  const headers: Record<string, string | number> = { ...response.headers };
  if (body !== undefined) headers['content-length'] = body.length;
  if (!req.complete) headers.connection = 'close';
  res.writeHead(response.status, headers);
  res.end(body);
}

/** Each connection's signal (see {@link clientGone}). */
const connectionSignals = new WeakMap<Socket, AbortSignal>();

/**
 * The signal that aborts when the client has gone: when its connection closes. One per connection,
 * made on its first request and shared by the requests it carries (an answer finished before is not
 * affected; a request in flight when the connection closes is abandoned), so that a request costs no
 * signal of its own. A connection already closed gets an aborted signal.
 */
function clientGone(socket: Socket): AbortSignal {
  let signal = connectionSignals.get(socket);
  if (signal === undefined) {
    if (socket.destroyed) return AbortSignal.abort();
    const controller = new AbortController();
    socket.once('close', () => controller.abort());
    signal = controller.signal;
    connectionSignals.set(socket, signal);
  }
  return signal;
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
  options: {
    serverUrl?: string | (() => string);
    onRequest?: ListenOptions['onRequest'];
    /** The `Host` names to accept (see `allowedHostNames`); default: any. */
    allowedHosts?: ReadonlySet<string>;
  } = {},
) {
  const { serverUrl, onRequest, allowedHosts } = options;
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
      const response = await core.handle(
        {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          readBody: (limit) => readNodeBody(req, limit),
          ...(req.socket.remoteAddress ? { clientAddress: req.socket.remoteAddress } : {}),
        },
        {
          signal: clientGone(req.socket),
          // Over HTTP, `Prefer: code=` needs an open control plane or the control token.
          preferHeader: 'control',
          ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
          ...(allowedHosts ? { allowedHosts } : {}),
        },
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
  const {
    port = 4010,
    host = '127.0.0.1',
    core: given,
    onRequest,
    allowedHosts,
    headersTimeoutMs: headers,
    requestTimeoutMs: whole,
    keepAliveTimeoutMs: keepAlive,
    idleTimeoutMs: idle,
    ...coreOptions
  } = options;
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, idleTimeoutMs } = resolveServerTimeouts({
    headersTimeoutMs: headers,
    requestTimeoutMs: whole,
    keepAliveTimeoutMs: keepAlive,
    idleTimeoutMs: idle,
  });
  const loopback = isLoopbackHost(host);
  const exposure = given ? given.controlExposure : controlExposureOf(controlAccessOf(coreOptions));
  if (!loopback && exposure === 'open') {
    throw new UnsafeBindError(
      `--host ${host} is not a loopback address: anyone who reaches it could use the control plane (reset the data, read every key pair); give --control-token <token> (or IACM_MOCK_CONTROL_TOKEN, or the controlToken option), or --no-control (control: false)`,
    );
  }
  // Off loopback, seeded key pairs (documented test fixtures, the same in every mock) would let anyone in.
  const core = given ?? new MockCore({ ...(loopback ? {} : { randomKeyPairs: true }), ...coreOptions });
  // With a given core, `maxBodyBytes` still applies to this server's requests.
  const maxBodyBytes = given ? options.maxBodyBytes : undefined;
  let url = '';
  const interfaceAddresses = Object.values(networkInterfaces())
    .flat()
    .map((i) => i?.address)
    .filter((a): a is string => typeof a === 'string');
  const listener = createRequestListener(core, maxBodyBytes, {
    serverUrl: () => url,
    ...(onRequest ? { onRequest } : {}),
    allowedHosts: allowedHostNames(host, allowedHosts, interfaceAddresses),
  });
  // The headers and whole-request timeouts are checked on this timer (the idle and keep-alive ones are
  // socket timers, on time already).
  const server = createServer(
    { connectionsCheckingInterval: connectionsCheckInterval(headersTimeoutMs, requestTimeoutMs) },
    (req, res) => {
      void listener(req, res);
    },
  );
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = requestTimeoutMs;
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.timeout = idleTimeoutMs;
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
        core.control.cancelWaits('the mock server was closed (close())');
        // Every session ends with it: their waits are rejected and their timers stopped.
        try {
          for (const session of core.control.sessions()) core.control.endSession(session.id);
        } catch {
          // A session's own core has no sessions to end.
        }
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
