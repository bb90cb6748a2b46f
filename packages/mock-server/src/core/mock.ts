import {
  type EndpointDefinition,
  type EndpointName,
  type Event,
  endpointList,
  type FieldIssue,
  fieldIssuesFromZod,
  GuardrailCreateBody,
  type GuardrailRule,
  type IacStack,
  type IssueLocation,
  matchPath,
  ObjectId,
  pathIdToObjectId,
  WebhookPayload,
  type WorkspaceRun,
} from '@iacm/sdk/contract';
import { generateNotification } from '@iacm/webhook-receiver';
import { z } from 'zod';
import { evaluateGuardrails, type GuardrailEvaluation } from '../domain/evaluate.js';
import { EventRecorder, type OutboxEntry } from '../domain/events.js';
import { FindingBody, recordFinding } from '../domain/findings.js';
import {
  type DomainServices,
  PlanContentSchema,
  RunScopeSchema,
  SimulatedRunBody,
  simulateRun,
} from '../domain/simulate.js';
import {
  DEFAULT_DELIVERY_POLICY,
  type DeliveryPolicy,
  NotificationBody,
  WebhookHub,
} from '../domain/webhooks.js';
import { Random } from '../store/random.js';
import { generateState } from '../store/seed.js';
import {
  DEFAULT_SEED,
  DEFAULT_SIZES,
  type MockAccount,
  type MockState,
  type SeedSizes,
} from '../store/state.js';
import { type AccountStore, Store } from '../store/store.js';
import {
  type ControlPlane,
  createControlPlane,
  FaultBook,
  Journal,
  type MockClock,
  MovableClock,
  type RateLimit,
  RateLimiter,
  RESET_STAGES,
  type ResetStage,
  type Resettable,
  toRateLimit,
} from './control.js';
import { type HandlerServices, handlers } from './handlers.js';
import {
  HttpError,
  internalErrorResponse,
  type MockRequest,
  type MockResponse,
  notFound,
  parseOr400,
  readHeader,
  readQuery,
  validationError,
} from './http.js';
import { constantTimeEqual, TokenSigner } from './jwt.js';
import { REDACTED, redactBody, redactQuery, SECRET_HEADERS } from './redact.js';

/** Options of a mock server core. */
export interface MockOptions {
  /** Seed of the generated data. Default 1. */
  seed?: number | string;
  /** Sizes of the generated data (merged with the defaults). */
  sizes?: Partial<SeedSizes>;
  /** Start from this snapshot instead of generating data. */
  state?: MockState;
  /**
   * Called while data is generated (at the start, and again on `reset()` and `seed()`), for a
   * progress display: `done` of `total` workspaces and events are generated (as `generateState`'s
   * `onProgress`: every 5,000, then `total` of `total`). Not called for a snapshot (`state`).
   */
  onSeedProgress?: (done: number, total: number) => void;
  /** Key pair of the primary account, replacing the generated one. */
  primaryKeys?: { accessKey: string; secretKey: string };
  /** The clock, epoch milliseconds. Default `Date.now`. */
  clock?: () => number;
  /** Lifetime of a login token, seconds. Default 3600. */
  tokenTtlSeconds?: number;
  /** How many requests the journal keeps (oldest dropped first). Default 500. */
  journalLimit?: number;
  /** A delay added to every API answer, milliseconds. Default 0. */
  delayMs?: number;
  /** The `fetch` webhook deliveries use. Default: the global `fetch`. */
  webhookFetch?: typeof fetch;
  /** Delivery retries: attempts (5), first delay (1000 ms, doubled each time), timeout per attempt (10000 ms). */
  deliveryPolicy?: Partial<DeliveryPolicy>;
  /** A rate limit per client address; off by default. `true` is the service's 500 per 60 s. */
  rateLimit?: boolean | { limit: number; windowSeconds: number };
}

/** Where the data comes from: a seed and sizes, or a snapshot (kept as JSON so each load gets fresh records). */
type DataSource = { seed: number | string; sizes: SeedSizes } | { snapshot: string };

/**
 * What a mock starts with, resolved once from its options: `reset()` returns every part of the state
 * to it, and nothing at run time changes it.
 */
interface StartConfiguration {
  /** The start data. */
  readonly data: DataSource;
  /** The rate limit (`undefined`: off). */
  readonly rateLimit: RateLimit | undefined;
  /** The webhook delivery retry policy. */
  readonly deliveryPolicy: DeliveryPolicy;
  /** The delay added to every API answer, milliseconds. */
  readonly delayMs: number;
  /** How many requests the journal keeps. */
  readonly journalLimit: number;
}

function startConfiguration(options: MockOptions): StartConfiguration {
  return Object.freeze({
    data: options.state
      ? { snapshot: JSON.stringify(options.state) }
      : { seed: options.seed ?? DEFAULT_SEED, sizes: { ...DEFAULT_SIZES, ...options.sizes } },
    rateLimit: toRateLimit(options.rateLimit),
    deliveryPolicy: { ...DEFAULT_DELIVERY_POLICY, ...options.deliveryPolicy },
    delayMs: options.delayMs ?? 0,
    journalLimit: options.journalLimit ?? 500,
  });
}

interface ResolvedRoute {
  name: EndpointName;
  definition: EndpointDefinition;
  params: Record<string, string>;
}

/**
 * The transport-free mock server: a plain request in, a plain response out. Routes through the
 * contract's endpoint table, validates with the contract's schemas, authenticates, and answers from
 * an in-memory, per-account store. Adapters (MSW, node:http) are thin layers over {@link MockCore.handle}.
 */
export class MockCore {
  /** The control plane: reset, seed, snapshots, accounts, journal, faults, rate limit. */
  readonly control: ControlPlane;
  /** The current indexed state. */
  store!: Store;

  readonly #options: MockOptions;
  readonly #start: StartConfiguration;
  /** Signs login tokens; made once per instance and kept across resets, so earlier tokens stay valid. */
  readonly #signer: TokenSigner;
  /** Signs continuation tokens; kept across resets too, so earlier continuation tokens stay valid. */
  readonly #cursorSigner: TokenSigner;
  #random!: Random;
  #buildCount = 0;
  readonly #journal: Journal;
  readonly #faults = new FaultBook();
  readonly #rateLimiter: RateLimiter;
  readonly #clock: MovableClock;
  readonly #events = new EventRecorder(
    () => this.#random,
    () => this.now(),
    (account, entry) => this.#dispatch(account, entry),
  );
  /** Webhook integrations and deliveries. */
  readonly webhooks: WebhookHub;
  readonly #domain: DomainServices = {
    now: () => this.now(),
    newId: () => this.#services.newId(),
    nextBuild: () => 9_000_000_000 + ++this.#buildCount,
    events: this.#events,
  };
  /**
   * Every part of the state, each able to go back to its start value; `reset()` walks this list.
   * A new piece of state belongs to one of these parts, or adds one (to `RESET_STAGES` too).
   */
  readonly #resettable: Readonly<Record<ResetStage, Resettable>>;
  /** How many resets so far: a request that started before a reset is not journaled after it. */
  #resets = 0;

  /** Creates a core with its seeded state. */
  constructor(options: MockOptions = {}) {
    this.#options = options;
    this.#start = startConfiguration(options);
    const secretSource = new Random(`jwt:${String(options.seed ?? DEFAULT_SEED)}:${Math.random()}`);
    this.#signer = new TokenSigner(secretSource.hex(64));
    this.#cursorSigner = new TokenSigner(secretSource.hex(64));
    this.#journal = new Journal(this.#start.journalLimit);
    this.#rateLimiter = new RateLimiter(this.#start.rateLimit);
    this.#clock = new MovableClock(options.clock ?? Date.now);
    this.clock = this.#clock;
    this.webhooks = new WebhookHub({
      now: () => this.now(),
      newId: () => this.#services.newId(),
      ...(options.webhookFetch ? { fetch: options.webhookFetch } : {}),
      policy: this.#start.deliveryPolicy,
    });
    this.#resettable = {
      data: { reset: () => this.#load(this.#start.data) },
      webhooks: this.webhooks,
      journal: this.#journal,
      faults: this.#faults,
      rateLimit: this.#rateLimiter,
      clock: this.#clock,
    };
    this.#load(this.#start.data);
    this.control = createControlPlane(this, {
      journal: this.#journal,
      faults: this.#faults,
      rateLimiter: this.#rateLimiter,
      reset: () => this.#reset(),
      reseed: (seed, sizes) => this.#load({ seed, sizes: { ...DEFAULT_SIZES, ...sizes } }),
      setState: (state) => this.#install(state),
    });
  }

  /**
   * The parts of the state `control.reset()` restores, in the order it restores them: `data`,
   * `webhooks`, `journal`, `faults`, `rateLimit`, `clock` (`docs/mock-server.md`, "Reset").
   */
  get resetStages(): string[] {
    return [...RESET_STAGES];
  }

  /** Puts every part of the state back to its start value; answers the parts, in order. */
  #reset(): readonly ResetStage[] {
    this.#resets += 1;
    for (const stage of RESET_STAGES) this.#resettable[stage].reset();
    return RESET_STAGES;
  }

  /** The current time of the mock's clock, epoch milliseconds. */
  now(): number {
    return this.#clock.now();
  }

  /**
   * Moves the mock's clock: `set` stops it at an instant (later `advance` calls move it from there);
   * `advance` moves it forward (or back, with a negative number); `resume` lets it run again
   * from the underlying clock. Tokens, timestamps and rate limits all read this clock. `reset()`
   * puts it back to the clock of the options.
   */
  readonly clock: MockClock;

  /** Simulates a CI run on a workspace of any account (see `docs/guardrails.md`). */
  simulateRun(workspaceId: string, body: unknown): { run: WorkspaceRun; evaluation: GuardrailEvaluation } {
    const input = parseOr400(SimulatedRunBody, body ?? {});
    const id = pathIdToObjectId(workspaceId);
    for (const account of this.store.accounts.values()) {
      const workspace = id === undefined ? undefined : account.workspaces.get(id);
      if (workspace) return simulateRun(account, workspace, input, this.#domain);
    }
    throw notFound('workspace', workspaceId);
  }

  /** Records a finding on an IaC stack of any account. */
  recordFinding(stackId: string, body: unknown): { stack: IacStack; notification: WebhookPayload } {
    const input = parseOr400(FindingBody, body ?? {});
    for (const account of this.store.accounts.values()) {
      const result = recordFinding(account, stackId, input, this.#events);
      if (result) return result;
    }
    throw notFound('IaC stack', stackId);
  }

  /**
   * Dry-runs guardrail rules against a plan: the given rules (create bodies), or the account's own
   * (primary by default), in the given run scope. Nothing is stored.
   */
  evaluate(body: unknown): GuardrailEvaluation {
    const input = parseOr400(EvaluateBody, body ?? {});
    const account = this.#account(input.accountId);
    const now = new Date(this.now()).toISOString();
    const rules: GuardrailRule[] = input.rules
      ? input.rules.map((r, i) => ({
          ...r,
          id: String(i + 1).padStart(24, '0'),
          accountId: account.account.id,
          isEnabled: r.isEnabled ?? true,
          createdAt: now,
          updatedAt: now,
        }))
      : [...account.rules.values()];
    return evaluateGuardrails(rules, input.run, input.plan);
  }

  /** The account with this id, or the primary account when none is named; 404 for an unknown id. */
  #account(accountId: string | undefined): AccountStore {
    const account = accountId ? this.store.accounts.get(accountId) : [...this.store.accounts.values()][0];
    if (!account) throw notFound('account', accountId ?? '');
    return account;
  }

  /** Delivers a queued notification: a rule's violation through its notification configuration, a finding to every integration. */
  #dispatch(account: AccountStore, entry: OutboxEntry): void {
    const configured =
      entry.source.kind === 'guardrail_violation' && entry.source.notificationId
        ? (account.notifications.get(entry.source.notificationId)?.integrationIds ?? [])
        : [];
    if (entry.source.kind === 'guardrail_violation' && !entry.source.notificationId) return;
    this.webhooks.deliver(account.account.id, entry, configured);
  }

  /** Queues and delivers a notification given by kind (generated) or as a whole payload. */
  notify(body: unknown): OutboxEntry {
    const input = parseOr400(NotificationBody, body ?? {});
    const account = this.#account(input.accountId);
    const { accountId: _a, ...given } = input;
    const payload = {
      ...generateNotification(input.notificationType, {
        accountId: account.account.id,
        accountName: account.account.name,
      }),
      ...given,
    };
    const checked = WebhookPayload.safeParse(payload);
    if (!checked.success) throw validationError(fieldIssuesFromZod(checked.error, 'body', payload));
    return this.#events.queue(account, { kind: 'manual' }, checked.data);
  }

  /** Notifications waiting for delivery, oldest first: of one account, or of all. */
  outbox(accountId?: string): OutboxEntry[] {
    const accounts = accountId
      ? [this.store.accounts.get(accountId)].filter((a) => a !== undefined)
      : [...this.store.accounts.values()];
    return accounts.flatMap((a) => a.outbox);
  }

  /** The accounts and their key pairs (the primary account first). */
  accounts(): MockAccount[] {
    return [...this.store.accounts.values()].map((a) => ({ ...a.account }));
  }

  #load(source: DataSource): void {
    if ('snapshot' in source) {
      this.#install(JSON.parse(source.snapshot) as MockState);
      return;
    }
    const state = generateState({
      seed: source.seed,
      sizes: source.sizes,
      onProgress: this.#options.onSeedProgress,
    });
    const primary = state.accounts[0];
    if (primary && this.#options.primaryKeys) {
      primary.account = { ...primary.account, ...this.#options.primaryKeys };
    }
    this.#install(state);
  }

  #install(state: MockState): void {
    this.webhooks.clear();
    this.store = new Store(state);
    this.#random = new Random(`runtime:${String(state.seed)}`);
    this.#buildCount = 0;
  }

  /** The services handlers use. */
  readonly #services: HandlerServices = {
    now: () => this.now(),
    newId: () => {
      for (;;) {
        const id = this.#random.hex(24);
        if (!this.#idTaken(id)) return id;
      }
    },
    login: async (accessKey, secretKey) => {
      let match: AccountStore | undefined;
      for (const account of this.store.accounts.values()) {
        // Compare every account's pair so the time taken does not tell which key was wrong.
        const [a, s] = await Promise.all([
          constantTimeEqual(accessKey, account.account.accessKey),
          constantTimeEqual(secretKey, account.account.secretKey),
        ]);
        if (a && s) match = account;
      }
      if (!match)
        throw new HttpError(
          401,
          'invalid_credentials',
          'the access key and secret key do not match any account',
        );
      const iat = Math.floor(this.now() / 1000);
      const exp = iat + (this.#options.tokenTtlSeconds ?? 3600);
      const accessToken = await this.#signer.sign({
        sub: match.account.id,
        iat,
        exp,
        jti: this.#random.hex(16),
      });
      return { accessToken, expiresAt: exp, tokenType: 'Bearer' };
    },
    encodeCursor: async (hash: string, last: Event) => {
      // A JWT-shaped token: signed, so any change is detected; bound to the query's hash.
      return this.#cursorSigner.sign({
        sub: `${hash}|${last.event_timestamp}|${last.id}`,
        iat: 0,
        exp: 4102444800,
        jti: 'c',
      });
    },
    events: this.#events,
    decodeCursor: async (token: string, hash: string) => {
      const result = await this.#cursorSigner.verify(token, 0);
      const [tokenHash, timestamp, id] = 'claims' in result ? result.claims.sub.split('|') : [];
      if (!tokenHash || !timestamp || !id) {
        throw invalid(
          'body',
          'continuationToken',
          'body.continuationToken: this token was not issued by this server or was altered; send back the token of the previous page unchanged',
        );
      }
      if (tokenHash !== hash) {
        throw invalid(
          'body',
          'continuationToken',
          'body.continuationToken: this token belongs to a different query; send it with the same query (filters, time window, search text) as the page it came from',
        );
      }
      return { timestamp, id };
    },
  };

  #idTaken(id: string): boolean {
    for (const account of this.store.accounts.values()) {
      if (account.workspaces.get(id) || account.rules.has(id) || account.notifications.has(id)) return true;
    }
    return false;
  }

  /** Handles one request and never throws: every failure becomes an error answer. */
  async handle(request: MockRequest): Promise<MockResponse> {
    const started = this.now();
    const resets = this.#resets;
    const requestId = this.#journal.nextRequestId();
    let response: MockResponse;
    try {
      response = await this.#handle(request, requestId);
    } catch (error) {
      response = errorResponse(error, requestId);
    }
    response.headers['x-request-id'] = requestId;
    // A request answered across a reset (`POST /__mock/reset` itself, or one in flight) belongs to the
    // history the reset cleared: the journal starts empty, as in a fresh mock.
    if (this.#resets === resets) this.#record(request, response, requestId, started);
    return response;
  }

  async #handle(request: MockRequest, requestId: string): Promise<MockResponse> {
    const method = request.method.toUpperCase();
    const path = request.path.length > 1 ? request.path.replace(/\/+$/, '') : request.path;
    if (path === '/__mock' || path.startsWith('/__mock/')) {
      const body = parseBody(request);
      return this.control.handle(method, path, readQuery(request.query), body, requestId);
    }

    const fault = this.#faults.take(method, path);
    if (fault?.delayMs) await sleep(fault.delayMs);
    if (fault?.drop) return { status: 0, headers: {}, body: undefined, drop: true };
    if (fault?.status !== undefined) {
      const body =
        fault.body !== undefined
          ? fault.body
          : {
              status: fault.status,
              code: codeFor(fault.status),
              message: `fault injected by the mock's control plane (status ${fault.status})`,
              requestId,
            };
      return {
        status: fault.status,
        headers: { 'content-type': 'application/json', ...lower(fault.headers) },
        body,
      };
    }

    const client = readHeader(request.headers, 'x-forwarded-for')?.split(',')[0]?.trim() || 'local';
    this.#rateLimiter.check(client, this.now());
    if (this.#start.delayMs) await sleep(this.#start.delayMs);

    const route = resolve(method, path);
    const { definition } = route;
    const account = definition.auth ? await this.#authenticate(request) : undefined;
    const body = parseBody(request);
    const issues: FieldIssue[] = [];
    const params = definition.params ? check(definition.params, route.params, 'path', issues) : {};
    const query = check(definition.query, readQuery(request.query), 'query', issues) as Record<
      string,
      unknown
    >;
    let input: unknown;
    if (definition.body === undefined) {
      if (body !== undefined && !(isObject(body) && Object.keys(body).length === 0)) {
        issues.push({
          location: 'body',
          path: '',
          message: `body: ${method} ${definition.path} takes no body`,
        });
      }
    } else if (body === undefined && definition.bodyRequired) {
      issues.push({
        location: 'body',
        path: '',
        message: `body: ${method} ${definition.path} needs a JSON body`,
      });
    } else {
      input = check(definition.body, body ?? {}, 'body', issues);
    }
    if (issues.length > 0) throw validationError(issues);
    const result = await handlers[route.name]({
      account,
      params: params as Record<string, string>,
      query,
      body: input,
      services: this.#services,
    });
    if (definition.successStatus === 204) return { status: 204, headers: {}, body: undefined };
    return { status: 200, headers: { 'content-type': 'application/json' }, body: result };
  }

  async #authenticate(request: MockRequest): Promise<AccountStore> {
    const header = readHeader(request.headers, 'authorization');
    if (header === undefined) {
      throw new HttpError(
        401,
        'unauthorized',
        'missing Authorization header; send "Authorization: Bearer <token>" with a token from POST /v2/login',
        {
          headers: { 'www-authenticate': 'Bearer' },
        },
      );
    }
    const match = /^Bearer +([^\s]+)$/i.exec(header.trim());
    if (!match) {
      throw new HttpError(401, 'unauthorized', 'malformed Authorization header; expected "Bearer <token>"', {
        headers: { 'www-authenticate': 'Bearer error="invalid_request"' },
      });
    }
    const result = await this.#signer.verify(match[1] as string, Math.floor(this.now() / 1000));
    if ('problem' in result) {
      const expired = result.problem === 'expired';
      throw new HttpError(
        401,
        expired ? 'token_expired' : 'unauthorized',
        expired
          ? 'the bearer token has expired; log in again with POST /v2/login'
          : 'the bearer token is not valid (malformed or not signed by this server); log in with POST /v2/login',
        { headers: { 'www-authenticate': `Bearer error="invalid_token"` } },
      );
    }
    const account = this.store.accounts.get(result.claims.sub);
    if (!account) {
      throw new HttpError(
        401,
        'unauthorized',
        'the bearer token names an account this server does not have (was the state reset?)',
        {
          headers: { 'www-authenticate': `Bearer error="invalid_token"` },
        },
      );
    }
    return account;
  }

  #record(request: MockRequest, response: MockResponse, requestId: string, started: number): void {
    if (!this.#journal.enabled) return;
    const headers: Record<string, string> = {};
    const source =
      request.headers instanceof Headers ? Object.fromEntries(request.headers) : (request.headers ?? {});
    for (const [name, value] of Object.entries(source)) {
      if (value === undefined) continue;
      const key = name.toLowerCase();
      headers[key] = SECRET_HEADERS.has(key)
        ? REDACTED
        : typeof value === 'string'
          ? value
          : value.join(', ');
    }
    let body: unknown;
    try {
      body = redactBody(parseBody(request));
    } catch {
      body = '[not JSON]';
    }
    this.#journal.add({
      id: requestId,
      time: new Date(started).toISOString(),
      method: request.method.toUpperCase(),
      path: request.path,
      query: redactQuery(readQuery(request.query)),
      headers,
      body,
      status: response.drop ? 0 : response.status,
      durationMs: Math.max(0, this.now() - started),
      ...(response.drop ? { dropped: true } : {}),
    });
  }
}

function resolve(method: string, path: string): ResolvedRoute {
  const candidates: Array<ResolvedRoute & { literal: number }> = [];
  for (const definition of endpointList) {
    const params = matchPath(definition.path, path);
    if (!params) continue;
    const literal = definition.path.split('/').filter((part) => !part.startsWith('{')).length;
    candidates.push({ name: definition.name as EndpointName, definition, params, literal });
  }
  if (candidates.length === 0) {
    throw new HttpError(
      404,
      'route_not_found',
      `no endpoint at ${truncate(path)}; see docs/api-semantics.md for the API's paths`,
    );
  }
  const best = Math.max(...candidates.map((c) => c.literal));
  const specific = candidates.filter((c) => c.literal === best);
  const hit = specific.find((c) => c.definition.method === method);
  if (hit) return hit;
  const allow = [...new Set(specific.map((c) => c.definition.method))].join(', ');
  throw new HttpError(
    405,
    'method_not_allowed',
    `${method} is not allowed on ${truncate(path)}; allowed: ${allow}`,
    {
      headers: { allow },
    },
  );
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** Body of `POST /__mock/guardrails/evaluate`. */
export const EvaluateBody = z.strictObject({
  accountId: ObjectId.optional(),
  rules: z.array(GuardrailCreateBody).max(1000).optional(),
  run: RunScopeSchema,
  plan: PlanContentSchema,
});

/** Parses `input`; on failure adds its field issues to `issues` (so one answer names every bad field). */
function check(schema: z.ZodType, input: unknown, location: IssueLocation, issues: FieldIssue[]): unknown {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  issues.push(...fieldIssuesFromZod(result.error, location, input));
  return undefined;
}

function invalid(location: IssueLocation, path: string, message: string): HttpError {
  return validationError([{ location, path, message }]);
}

function parseBody(request: MockRequest): unknown {
  if (request.rawBody === undefined) return request.body;
  const contentType = readHeader(request.headers, 'content-type');
  if (request.rawBody.trim() === '') return undefined;
  if (contentType && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim())) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      `expected a JSON body with Content-Type: application/json, received Content-Type: ${truncate(contentType)}`,
    );
  }
  try {
    return JSON.parse(request.rawBody);
  } catch (error) {
    throw new HttpError(400, 'invalid_json', `the body is not valid JSON: ${(error as Error).message}`);
  }
}

function errorResponse(error: unknown, requestId: string): MockResponse {
  if (error instanceof HttpError) {
    const body: Record<string, unknown> = {
      status: error.status,
      code: error.code,
      message: error.message,
      requestId,
    };
    if (error.issues) body.issues = error.issues;
    return { status: error.status, headers: { 'content-type': 'application/json', ...error.headers }, body };
  }
  return internalErrorResponse(requestId);
}

function codeFor(status: number): string {
  const codes: Record<number, string> = {
    400: 'validation_failed',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    408: 'request_timeout',
    409: 'conflict',
    422: 'unprocessable_entity',
    429: 'rate_limited',
    503: 'service_unavailable',
  };
  return codes[status] ?? (status >= 500 ? 'internal_error' : 'fault');
}

function lower(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
