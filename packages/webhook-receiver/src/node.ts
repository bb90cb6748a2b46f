/**
 * `@iacm/webhook-receiver/node`: adapters for Node servers (node:http, Express, Fastify). Each reads
 * the raw body from the Node request itself, stopping past the receiver's `maxBodyBytes`.
 *
 * @packageDocumentation
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { BodyCollector, type BodyReadProblem, type RawBody } from '@iacm/sdk/contract';
import type { WebhookReceiverLike, WebhookResponse } from './receiver.js';
import { stepsOf } from './steps.js';

/** A Node request, possibly after a framework's body parser set `body` (and `_body`, as body-parser does). */
export type NodeRequest = IncomingMessage & {
  /** What a body parser left; a string or bytes (express.raw(), express.text()) are used as the raw body. */
  body?: unknown;
  /** Set to `true` by Express's body parsers once they read the body. */
  _body?: unknown;
};

/** Requests whose body reading stopped past the limit: their connection is closed after the answer. */
const stoppedEarly = new WeakSet<IncomingMessage>();

/** Whether the answer must close the connection: the rest of the body was not (and will not be) read. */
function mustClose(req: IncomingMessage): boolean {
  return !req.complete || stoppedEarly.has(req);
}

const PARSED_HINT =
  'the body is not the raw request body (express.json() ran first?): mount the receiver before express.json(), ' +
  "or give its route express.raw({ type: 'application/json' })";

const CONSUMED_HINT =
  'the request body was already read by another middleware before the receiver: mount the receiver before it';

/**
 * Reads the raw body of a Node request, keeping at most `limit` bytes: as soon as more arrive it stops
 * reading (the stream is paused, never buffered further) and resolves to `{ problem: 'too_large' }`.
 * A body a framework already read into `req.body` as a string or bytes is used as is; one it parsed
 * into an object is reported as `already_parsed`.
 * @param req the Node request.
 * @param limit the largest body accepted, in bytes.
 */
export function readNodeBody(req: NodeRequest, limit: number): Promise<RawBody | BodyReadProblem> {
  return new Promise((resolve, reject) => collectNodeBody(req, limit, resolve, reject));
}

/**
 * {@link readNodeBody} with callbacks: `onRead` gets the body (or why there is none) in the turn its
 * last chunk arrives, `onError` what broke the connection. Exactly one of them is called.
 */
function collectNodeBody(
  req: NodeRequest,
  limit: number,
  onRead: (read: RawBody | BodyReadProblem) => void,
  onError: (error: unknown) => void,
): void {
  if (req.body !== undefined || req._body === true) {
    const body = req.body;
    onRead(
      typeof body === 'string' || body instanceof Uint8Array
        ? body
        : { problem: 'already_parsed', hint: PARSED_HINT },
    );
    return;
  }
  if (req.readableEnded) {
    onRead({ problem: 'already_parsed', hint: CONSUMED_HINT });
    return;
  }
  const body = new BodyCollector(limit);
  const cleanup = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onFailure);
    req.off('close', onClose);
  };
  const onData = (chunk: Uint8Array | string) => {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    if (!body.add(bytes)) {
      cleanup();
      req.pause();
      stoppedEarly.add(req);
      onRead({ problem: 'too_large' });
    }
  };
  const onEnd = () => {
    cleanup();
    onRead(body.bytes());
  };
  const onFailure = (error: unknown) => {
    cleanup();
    onError(error);
  };
  const onClose = () => {
    cleanup();
    onError(new Error('the connection closed before the request body ended'));
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onFailure);
  req.on('close', onClose);
}

/**
 * Writes an answer to a Node response, with its `Content-Length` (one write, not a chunked answer).
 * When the request body has not fully arrived (it was refused before reading, or reading stopped
 * past the limit), the answer closes the connection so that the rest of the body is never read.
 */
function writeNodeResponse(req: IncomingMessage, res: ServerResponse, answer: WebhookResponse): void {
  if (res.headersSent || res.writableEnded) return;
  const headers: Record<string, string> = { ...answer.headers };
  headers['content-length'] = String(Buffer.byteLength(answer.body));
  if (mustClose(req)) headers.connection = 'close';
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

/**
 * Creates a `node:http` request handler, `(req, res) => Promise<void>`, that answers every request it
 * gets (any method other than POST gets 405). Use it as the whole server, or call it from your own
 * router for the webhook path.
 * @param receiver the receiver (see `createWebhookReceiver`).
 * @example
 * import { createServer } from 'node:http';
 * createServer(createNodeMiddleware(receiver)).listen(3000);
 */
export function createNodeMiddleware(
  receiver: WebhookReceiverLike,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const steps = stepsOf<WebhookResponse>(receiver);
  if (steps === undefined) {
    // A receiver without steps (another implementation of WebhookReceiverLike): its handle().
    return async (req, res) => {
      const answer = await receiver.handle({
        method: req.method,
        headers: req.headers,
        body: (limit) => readNodeBody(req, limit),
      });
      writeNodeResponse(req, res, answer);
    };
  }
  // handle()'s steps with callbacks: the answer is written in the turn the body's last chunk arrives
  // (unless a handler returned a promise), without a promise per step (P5, docs/performance.md).
  return (req, res) => {
    const refusal = steps.head(req.method, req.headers);
    if (refusal !== undefined) {
      // After the parser's turn, as handle() answers: a request without a body is complete by then,
      // and keeps its connection (one whose body was not read is closed).
      return Promise.resolve().then(() => writeNodeResponse(req, res, refusal));
    }
    return new Promise<void>((resolve, reject) => {
      const write = (answer: WebhookResponse) => {
        try {
          writeNodeResponse(req, res, answer);
          resolve();
        } catch (error) {
          reject(error);
        }
      };
      collectNodeBody(
        req,
        steps.maxBodyBytes,
        (read) => {
          const answer = steps.body(read);
          if (answer instanceof Promise) answer.then(write, reject);
          else write(answer);
        },
        (error) => write(steps.readFailed(error)),
      );
    });
  };
}

/**
 * Creates an Express middleware (tested with Express 5) that answers every request it gets. Mount it on the
 * webhook path **before** `express.json()`, with `app.use` or `app.all` so that other methods get 405.
 * When `express.json()` already parsed the body, it answers 500 `body_already_parsed` with a message
 * saying to mount the receiver first or to use `express.raw({ type: 'application/json' })` (whose
 * bytes it accepts).
 * @param receiver the receiver (see `createWebhookReceiver`).
 * @example
 * app.use('/webhooks', createExpressMiddleware(receiver));
 * app.use(express.json()); // after the receiver
 */
export function createExpressMiddleware(
  receiver: WebhookReceiverLike,
): (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void {
  const middleware = createNodeMiddleware(receiver);
  return (req, res, next) => {
    middleware(req, res).catch((error: unknown) => {
      if (next) next(error);
      else if (!res.headersSent) res.writeHead(500).end();
    });
  };
}

/** The parts of a Fastify request the plugin reads. */
export interface FastifyRequestLike {
  /** The Node request, whose body stream the plugin reads. */
  readonly raw: IncomingMessage;
  /** The HTTP method. */
  readonly method: string;
  /** The request headers. */
  readonly headers: IncomingHttpHeaders;
}

/** The parts of a Fastify reply the plugin writes. */
export interface FastifyReplyLike {
  /** Sets the status. */
  code(statusCode: number): unknown;
  /** Sets headers. */
  headers(values: Record<string, string>): unknown;
  /** Sends the body. */
  send(payload: string): unknown;
}

/** The parts of a Fastify instance the plugin uses. */
export interface FastifyInstanceLike {
  /** Removes the parsers of this (encapsulated) context. */
  removeAllContentTypeParsers(): void;
  /** Adds a body parser to this (encapsulated) context. */
  addContentTypeParser(
    contentType: string,
    parser: (request: never, payload: never, done: (error: Error | null, body?: unknown) => void) => void,
  ): void;
  /** Registers a route for every method. */
  all(
    path: string,
    handler: (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<unknown>,
  ): unknown;
}

/** Options of {@link createFastifyPlugin}. */
export interface FastifyPluginOptions {
  /** The route, relative to the plugin's prefix. Default `"/"` (use `register(plugin, { prefix: '/webhooks' })`). */
  readonly path?: string;
}

/**
 * Creates a Fastify plugin (tested with Fastify 5) with one route that answers every method (POST is
 * verified, others get 405). Inside the plugin's own encapsulated context it replaces the body
 * parsers with one that leaves the body unread, so the receiver reads the raw bytes itself; your
 * other routes keep Fastify's JSON parser.
 * @param receiver the receiver (see `createWebhookReceiver`).
 * @param options the route path inside the plugin (default `"/"`).
 * @example
 * await app.register(createFastifyPlugin(receiver), { prefix: '/webhooks' });
 */
export function createFastifyPlugin(
  receiver: WebhookReceiverLike,
  options: FastifyPluginOptions = {},
): (fastify: FastifyInstanceLike) => Promise<void> {
  const path = options.path ?? '/';
  return async (fastify) => {
    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    fastify.all(path, async (request, reply) => {
      const req = request.raw;
      const answer = await receiver.handle({
        method: request.method,
        headers: request.headers,
        body: (limit) => readNodeBody(req, limit),
      });
      const headers: Record<string, string> = { ...answer.headers };
      if (mustClose(req)) headers.connection = 'close';
      reply.code(answer.status);
      reply.headers(headers);
      return reply.send(answer.body);
    });
  };
}
