import {
  fieldIssuesFromZod,
  type GuardrailRule,
  type IacStack,
  pathIdToObjectId,
  WebhookPayload,
  type WorkspaceRun,
} from '@iacm/sdk/contract';
import { generateNotification } from '@iacm/webhook-receiver';
import { EvaluateBody } from '../control/guardrails-evaluate.js';
import { createControlPlane } from '../control/plane.js';
import type { ControlPlane } from '../control/route.js';
import { evaluateGuardrails, type GuardrailEvaluation } from '../domain/evaluate.js';
import { EventRecorder, type OutboxEntry } from '../domain/events.js';
import { FindingBody, recordFinding } from '../domain/findings.js';
import { type DomainServices, SimulatedRunBody, simulateRun } from '../domain/simulate.js';
import {
  DEFAULT_DELIVERY_POLICY,
  type DeliveryPolicy,
  NotificationBody,
  WebhookHub,
} from '../domain/webhooks.js';
import { notFound, parseOr400, validationError } from '../errors.js';
import { type HandlerServices, operations } from '../operations/index.js';
import { authenticate } from '../pipeline/authenticate.js';
import { RequestBody } from '../pipeline/body.js';
import { type MockClock, MovableClock } from '../pipeline/clock.js';
import { FaultBook } from '../pipeline/faults.js';
import { DEFAULT_JOURNAL_LIMIT, Journal } from '../pipeline/journal.js';
import { clientOf, type RateLimit, RateLimiter, toRateLimit } from '../pipeline/rate-limit.js';
import { type RequestLine, readRequestLine } from '../pipeline/request.js';
import { errorResponse, successResponse, withRequestId } from '../pipeline/respond.js';
import { resolveRoute, validateInput } from '../pipeline/route.js';
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
import { EventCursor } from './event-cursor.js';
import type { MockRequest, MockResponse } from './http.js';
import { Login } from './login.js';
import { RESET_STAGES, type ResetStage, type Resettable } from './reset.js';

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
    journalLimit: options.journalLimit ?? DEFAULT_JOURNAL_LIMIT,
  });
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
  /** Login: issues and checks bearer tokens; kept across resets, so earlier tokens stay valid. */
  readonly #login: Login;
  /** The event center's continuation tokens; kept across resets too, so earlier tokens stay valid. */
  readonly #cursor: EventCursor;
  #random!: Random;
  #buildCount = 0;
  readonly #journal: Journal;
  readonly #faults: FaultBook;
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
    this.#login = new Login(secretSource.hex(64), options.tokenTtlSeconds);
    this.#cursor = new EventCursor(secretSource.hex(64));
    this.#journal = new Journal(this.#start.journalLimit);
    this.#faults = new FaultBook({ delayMs: this.#start.delayMs });
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
    login: (accessKey, secretKey) =>
      this.#login.login(this.store.accounts.values(), accessKey, secretKey, this.now(), () =>
        this.#random.hex(16),
      ),
    encodeCursor: (hash, last) => this.#cursor.encode(hash, last),
    decodeCursor: (token, hash) => this.#cursor.decode(token, hash),
    events: this.#events,
  };

  #idTaken(id: string): boolean {
    for (const account of this.store.accounts.values()) {
      if (account.workspaces.get(id) || account.rules.has(id) || account.notifications.has(id)) return true;
    }
    return false;
  }

  /**
   * Handles one request and never throws: every failure becomes an error answer. The request walks
   * the stages of `pipeline/`: journal (the request id now, the entry once answered) -> read the
   * request line and headers -> rate limit -> faults -> route -> authenticate -> read and parse the
   * body, validate the inputs -> operation -> respond. The control plane (`/__mock`) is neither
   * rate-limited nor faulted, and has no authentication.
   */
  async handle(request: MockRequest): Promise<MockResponse> {
    const started = this.now();
    const resets = this.#resets;
    const requestId = this.#journal.nextRequestId();
    const body = new RequestBody(request);
    let response: MockResponse;
    try {
      const line = readRequestLine(request);
      response = line.control
        ? await this.control.handle(line.method, line.path, line.query, () => body.value(), requestId)
        : await this.#api(request, line, body, requestId);
    } catch (error) {
      response = errorResponse(error, requestId);
    }
    withRequestId(response, requestId);
    // A request answered across a reset (`POST /__mock/reset` itself, or one in flight) belongs to the
    // history the reset cleared: the journal starts empty, as in a fresh mock.
    if (this.#resets === resets) {
      // Only a body a stage read is recorded: a request refused before the body stage (429, 401, 404)
      // is journalled with `[not read]`, its body never parsed.
      const read = body.read ? () => body.value() : undefined;
      this.#journal.record(request, response, requestId, started, this.now(), read);
    }
    return response;
  }

  /** The stages of an API request after the journal. */
  async #api(
    request: MockRequest,
    line: RequestLine,
    body: RequestBody,
    requestId: string,
  ): Promise<MockResponse> {
    this.#rateLimiter.check(clientOf(request), this.now());
    const injected = await this.#faults.apply(line.method, line.path, requestId);
    if (injected) return injected;
    const route = resolveRoute(line.method, line.path);
    const account = route.definition.auth
      ? await authenticate(request.headers, this.#login, this.store.accounts, this.now())
      : undefined;
    const input = validateInput(route, line.method, line.query, () => body.value());
    const result = await operations[route.name]({ account, ...input, services: this.#services });
    return successResponse(route.definition, result);
  }
}
