import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { buildOpenApiDocument, type OpenApiDocument } from '@iacm/sdk/openapi';
import { readNodeBody } from '@iacm/webhook-receiver/node';
import { MockCore, type MockOptions } from '../app/mock.js';
import { controlAccessOf } from '../app/options.js';
import { controlExposureOf } from '../control/access.js';
import {
  type HandleOptions,
  internalErrorResponse,
  type MockRequest,
  type MockResponse,
} from '../http/message.js';
import { answerBytes, recordTexts } from '../pipeline/answer-text.js';
import { allowedHostNames, isLoopbackHost } from '../pipeline/host.js';
import { AnswerBuffers } from './answer-buffers.js';
import { DEFAULT_SERVER_TIMEOUTS, resolveServerTimeouts } from './timeouts.js';

export { DEFAULT_SERVER_TIMEOUTS, isLoopbackHost };

import { landingAnswer } from './landing.js';
import { livePageAnswer } from './live-page.js';

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
function send(
  req: IncomingMessage,
  res: ServerResponse,
  response: MockResponse,
  buffers?: AnswerBuffers,
): void {
  if (response.drop) {
    res.socket?.destroy();
    return;
  }
  if (res.headersSent || res.writableEnded) return;
  // The answer's JSON text in UTF-8, stored records' texts reused (`JSON.stringify`'s bytes), written
  // into a buffer of the pool that goes back to it once the answer is handed to the system.
  let taken: Buffer | undefined;
  const body =
    response.body === undefined
      ? undefined
      : answerBytes(
          response.body,
          recordTexts,
          buffers === undefined ? false : (bytes) => (taken = buffers.take(bytes)),
        );
  const headers: Record<string, string | number> = { ...response.headers };
  if (body !== undefined) headers['content-length'] = body.length;
  if (!req.complete) headers.connection = 'close';
  res.writeHead(response.status, headers);
  if (taken === undefined || buffers === undefined) res.end(body);
  else {
    const buffer = taken;
    res.end(body, () => buffers.give(buffer));
  }
}

/**
 * The path and query of a request target as `new URL(target, 'http://localhost')` reads them, without
 * making a URL for the usual target: a path of characters a URL keeps as they are (no `%`, no
 * backslash, no segment starting with a dot, not starting with `//`) and a query of printable ASCII
 * without `#`. Any other target is read by `URL` (percent-encoding, dot segments, a fragment).
 */
export function requestTarget(target: string): { path: string; query: URLSearchParams | undefined } {
  const mark = target.indexOf('?');
  const pathEnd = mark === -1 ? target.length : mark;
  if (plainPath(target, pathEnd) && (mark === -1 || plainQuery(target, mark + 1))) {
    return {
      path: mark === -1 ? target : target.slice(0, mark),
      query:
        mark === -1 || mark === target.length - 1 ? undefined : new URLSearchParams(target.slice(mark + 1)),
    };
  }
  const url = new URL(target, 'http://localhost');
  return { path: url.pathname, query: url.searchParams };
}

/** Whether `target` up to `end` is a path `URL` keeps as it is (see {@link requestTarget}). */
function plainPath(target: string, end: number): boolean {
  if (end === 0 || target.charCodeAt(0) !== 47 || target.charCodeAt(1) === 47) return false;
  for (let i = 1; i < end; i++) {
    const code = target.charCodeAt(i);
    // A-Z a-z 0-9 and - _ ~ ! $ & ' ( ) * + , ; = : @ /, and a dot not starting a segment.
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57)) continue;
    if (code === 46) {
      if (target.charCodeAt(i - 1) === 47) return false;
      continue;
    }
    if (PATH_MARKS.indexOf(target[i] as string) === -1) return false;
  }
  return true;
}

/** The query of a request target without one. */
const NO_QUERY: Readonly<Record<string, string>> = Object.freeze({});

/** The marks a URL path keeps as they are (besides letters, digits and a dot). */
const PATH_MARKS = "-_~!$&'()*+,;=:@/";

/**
 * Whether `target` from `start` is printable ASCII without `#`, not starting with `?` (a query
 * `URLSearchParams` reads as `URL` does).
 */
function plainQuery(target: string, start: number): boolean {
  // `URLSearchParams` drops a leading `?` of its text, where a URL's query keeps it.
  if (target.charCodeAt(start) === 63) return false;
  for (let i = start; i < target.length; i++) {
    const code = target.charCodeAt(i);
    if (code < 0x21 || code > 0x7e || code === 35) return false;
  }
  return true;
}

/**
 * A connection's handle options: the listener's, with the signal that aborts when the client has
 * gone (when its connection closes). One per connection, made on its first request and shared by the
 * requests it carries (an answer finished before is not affected; a request in flight when the
 * connection closes is abandoned), so that a request costs no signal or options of its own. A
 * connection already closed gets an aborted signal.
 */
function connectionOptions(
  known: WeakMap<Socket, HandleOptions>,
  socket: Socket,
  base: HandleOptions,
): HandleOptions {
  let options = known.get(socket);
  if (options === undefined) {
    if (socket.destroyed) return { ...base, signal: AbortSignal.abort() };
    const controller = new AbortController();
    socket.once('close', () => controller.abort());
    options = Object.freeze({ ...base, signal: controller.signal });
    known.set(socket, options);
  }
  return options;
}

/**
 * Creates the `node:http` request listener of a core (it calls the core directly, no Fetch objects).
 * Besides the API and the control plane, it answers `GET /openapi.json` with the API's OpenAPI 3.1
 * document (no auth), whose server is this server, `GET /` with a landing page (HTML for a
 * browser, JSON otherwise: the routes, how to log in, where the OpenAPI document is; no keys), and
 * `GET /__mock/live` (`.js`, `.css`) with the live page, unless the control plane is off.
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
  const handleOptions: HandleOptions = {
    // Over HTTP, `Prefer: code=` needs an open control plane or the control token.
    preferHeader: 'control',
    ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
    ...(allowedHosts ? { allowedHosts } : {}),
  };
  const connections = new WeakMap<Socket, HandleOptions>();
  const buffers = new AnswerBuffers();
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (onRequest) observe(req, res, onRequest);
    try {
      const target = requestTarget(req.url ?? '/');
      if (req.method === 'GET' && target.path === OPENAPI_PATH) {
        send(req, res, {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: openApiFor(baseOf(req)),
        });
        return;
      }
      // The live page (static text, no data: its script polls the control plane with the token).
      const live =
        req.method === 'GET' && core.controlExposure !== 'off' ? livePageAnswer(target.path) : undefined;
      if (live) {
        res.writeHead(live.status, { ...live.headers, 'content-length': Buffer.byteLength(live.body) });
        res.end(live.body);
        return;
      }
      if (req.method === 'GET' && target.path === '/') {
        const answer = landingAnswer(baseOf(req), req.headers.accept);
        res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
        res.end(answer.body);
        return;
      }
      const request: MockRequest = {
        method: req.method ?? 'GET',
        path: target.path,
        query: target.query ?? NO_QUERY,
        headers: req.headers,
        readBody: (limit) => readNodeBody(req, limit),
      };
      const clientAddress = req.socket.remoteAddress;
      if (clientAddress) request.clientAddress = clientAddress;
      const response = await core.handle(request, connectionOptions(connections, req.socket, handleOptions));
      send(req, res, response, buffers);
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
