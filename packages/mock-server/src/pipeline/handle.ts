/**
 * The stage sequence of one request, in one function ({@link handleRequest}): each stage gets what the
 * stages before it produced, and nothing is read twice (the request line and its query once, the body
 * once, after authentication).
 *
 * ```
 * journal (request id) -> host -> request line -+-> control plane (/__mock: access, route, body, handler)
 *                                               +-> rate limit -> faults (path) -> route -> authenticate
 *                                                   -> body -> validate -> one-off (endpoint faults, Prefer,
 *                                                   one-off answers) -> operation -> respond
 * -> request id on the answer -> journal (the entry, once answered)
 * ```
 *
 * The control plane sits above the pipeline, so the mock hands it in as a function
 * ({@link PipelineParts.control}); everything else is a stage of this folder.
 *
 * @module
 */
import type { Login } from '../auth/login.js';
import { droppedResponse, type HandleOptions, type MockRequest, type MockResponse } from '../http/message.js';
import { type HandlerServices, operations } from '../operations/index.js';
import type { Ledger } from '../store/budget.js';
import type { AccountStore } from '../store/store.js';
import { authenticate, knownCaller } from './authenticate.js';
import { RequestBody } from './body.js';
import type { FaultBook } from './faults.js';
import { checkHost } from './host.js';
import type { Journal, JournalRoute } from './journal.js';
import type { OneOffStage } from './one-off.js';
import { clientOf, type RateLimiter, type TrustProxy } from './rate-limit.js';
import { type RequestLine, readRequestLine } from './request.js';
import { errorResponse, successResponse, withRequestId } from './respond.js';
import { endpointAt, resolveRoute, validateInput } from './route.js';

/** The stages' state and settings, as the mock that runs the sequence holds them. */
export interface PipelineParts {
  /** The journal stage. */
  readonly journal: Journal;
  /** The rate-limit stage. */
  readonly rateLimiter: RateLimiter;
  /** How many proxies name the client (for the rate limit). */
  readonly trustProxy: TrustProxy;
  /** The faults stage. */
  readonly faults: FaultBook;
  /** The one-off slot (before the operation): `Prefer: code=` and one-off answers. */
  readonly oneOff: OneOffStage;
  /** Login, for the authenticate stage. */
  readonly login: Login;
  /** The largest API request body, bytes (a request's `HandleOptions.maxBodyBytes` wins). */
  readonly maxBodyBytes: number;
  /** The memory budget's `requests` ledger: each body read is charged while its request is handled. */
  readonly requests?: Ledger | undefined;
  /** The services operations get. */
  readonly services: HandlerServices;
  /** The current time of the mock's clock, epoch milliseconds. */
  now(): number;
  /** The accounts by id (the current store's). */
  accounts(): ReadonlyMap<string, AccountStore>;
  /**
   * How many resets so far: a request answered across a reset belongs to the history the reset
   * cleared, and is not journalled.
   */
  resets(): number;
  /** Serves a control-plane request (`/__mock`): access, route, body and handler. */
  control(
    request: MockRequest,
    line: RequestLine,
    body: RequestBody,
    requestId: string,
    signal?: AbortSignal,
  ): Promise<MockResponse>;
}

/**
 * Handles one request and never throws: every failure becomes an error answer. When
 * `options.signal` aborts (the client has gone), the request stops at the next stage and is
 * answered with nothing ({@link droppedResponse}).
 */
export async function handleRequest(
  parts: PipelineParts,
  request: MockRequest,
  options: HandleOptions = {},
): Promise<MockResponse> {
  const started = parts.now();
  const resets = parts.resets();
  const requestId = parts.journal.nextRequestId();
  const body = new RequestBody(request, parts.requests);
  const line = readRequestLine(request);
  // What the stages learn of the request (endpoint, account, validated inputs), for the journal.
  const seen: Seen = line.control ? { endpoint: 'control' } : {};
  let response: MockResponse;
  try {
    checkHost(request, options.allowedHosts);
    response = line.control
      ? await parts.control(request, line, body, requestId, options.signal)
      : await api(parts, request, line, body, requestId, options, seen);
  } catch (error) {
    response = errorResponse(error, requestId);
  }
  if (options.signal?.aborted) response = droppedResponse();
  withRequestId(response, requestId);
  seen.preferIgnored = parts.oneOff.markAnswer(request, response);
  // A poll of the journal itself (the live page's) is not written down: it would push out what it reads.
  if (parts.resets() === resets && response.unjournalled !== true) {
    // A request answered before the route stage (a fault, a 429) is journalled with its endpoint too.
    if (!line.control && !seen.routed) seen.endpoint = endpointAt(line.method, line.path);
    // Only a body a stage read is recorded: a request refused before the body stage (429, 401, 404,
    // 413) is journalled with `[not read]`, its body never parsed; one read for a sender who never
    // authenticated (a failed login) with `[not kept]`.
    parts.journal.record(
      { method: line.method, path: request.path, query: line.query, headers: request.headers },
      response,
      requestId,
      started,
      parts.now(),
      body.forJournal(),
      seen,
    );
  }
  // Answered: the body's charge goes back (the journal keeps its own text, charged to its store).
  body.release();
  return response;
}

/** What the stages learnt of a request for the journal, and whether the route stage ran. */
type Seen = JournalRoute & { routed?: boolean };

/** The stages of an API request, after the request line; what they learn goes into `seen`. */
async function api(
  parts: PipelineParts,
  request: MockRequest,
  line: RequestLine,
  body: RequestBody,
  requestId: string,
  { signal, maxBodyBytes, preferHeader }: HandleOptions,
  seen: Seen,
): Promise<MockResponse> {
  parts.rateLimiter.check(clientOf(request, parts.trustProxy), parts.now());
  // Each stage is awaited only when it may wait (a fault, a delay, a token not verified before, a
  // `Prefer` header): an await costs every request a turn of the microtask queue.
  const { faults } = parts;
  if (!faults.idle) {
    const injected = await faults.apply(line.method, line.path, requestId);
    if (injected) return injected;
  }
  seen.routed = true;
  const route = resolveRoute(line.method, line.path);
  seen.endpoint = route.name;
  seen.params = route.params;
  const account = route.definition.auth
    ? (knownCaller(request.headers, parts.login, parts.accounts(), parts.now()) ??
      (await authenticate(request.headers, parts.login, parts.accounts(), parts.now())))
    : undefined;
  if (account) body.trust();
  seen.accountId = account?.account.id;
  // An open route (login) takes only a body declared JSON: no page can send one without a preflight.
  const sent = await body.value(maxBodyBytes ?? parts.maxBodyBytes, {
    requireContentType: !route.definition.auth,
  });
  const input = validateInput(route, line, sent);
  // Checked: the body's charge goes back (what the operation keeps, it charges itself).
  body.release();
  seen.input = input;
  // The one-off slot: endpoint faults, then `Prefer: code=` and one-off answers.
  if (!faults.idle) {
    const faulted = await faults.applyToEndpoint(route.name, account?.account.id, input, requestId);
    if (faulted) return faulted;
  }
  if (signal?.aborted) return droppedResponse();
  const slot = parts.oneOff.apply(request, route, account, input, requestId, preferHeader);
  const oneOff = slot instanceof Promise ? await slot : slot;
  if (oneOff) return oneOff;
  const result = await operations[route.name]({ account, ...input, services: parts.services, signal });
  // An open route's sender proved who it is by succeeding (a login with the right keys).
  body.trust();
  if (signal?.aborted) return droppedResponse();
  return successResponse(route.definition, result);
}
