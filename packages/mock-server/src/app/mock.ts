import {
  Login,
  LoginThrottle,
  type LoginThrottleOption,
  type LoginThrottleSetting,
  toLoginThrottle,
} from '../auth/login.js';
import { type ControlAccess, checkControlAccess } from '../control/access.js';
import { createControlPlane } from '../control/plane.js';
import type { ControlBodyReader, ControlPlane } from '../control/route.js';
import { checkSnapshot } from '../control/state.js';
import { type AccountLimits, toAccountLimits } from '../domain/caps.js';
import { type DeliveryPolicy, toDeliveryPolicy } from '../domain/delivery-policy.js';
import { dryRunGuardrails } from '../domain/dry-run.js';
import { EventRecorder } from '../domain/events.js';
import { recordFindingOnStack } from '../domain/findings.js';
import { dispatchNotification, outboxOf, queueNotification } from '../domain/notify.js';
import { type RetentionBounds, toRetentionBounds } from '../domain/retention.js';
import { type DomainServices, simulateRunOnWorkspace } from '../domain/simulate.js';
import { WebhookHub } from '../domain/webhooks.js';
import { type HandleOptions, type MockRequest, type MockResponse, readHeader } from '../http/message.js';
import { EventCursor } from '../operations/event-cursor.js';
import { type HandlerServices, operations } from '../operations/index.js';
import { authenticate } from '../pipeline/authenticate.js';
import { DEFAULT_MAX_BODY_BYTES, RequestBody } from '../pipeline/body.js';
import { type MockClock, MovableClock } from '../pipeline/clock.js';
import { FaultBook } from '../pipeline/faults.js';
import { checkHost } from '../pipeline/host.js';
import {
  DEFAULT_JOURNAL_BODY_BYTES,
  DEFAULT_JOURNAL_LIMIT,
  DEFAULT_JOURNAL_MAX_BYTES,
  Journal,
  type JournalBounds,
} from '../pipeline/journal.js';
import {
  clientOf,
  type RateLimit,
  RateLimiter,
  type TrustProxy,
  toRateLimit,
} from '../pipeline/rate-limit.js';
import { type RequestLine, readRequestLine } from '../pipeline/request.js';
import { clientGoneResponse, errorResponse, successResponse, withRequestId } from '../pipeline/respond.js';
import { resolveRoute, validateInput } from '../pipeline/route.js';
import { IdFactory } from '../store/ids.js';
import { Random } from '../store/random.js';
import { checkSeedSizes } from '../store/seed/limits.js';
import { generateLazyState } from '../store/seed.js';
import {
  DEFAULT_SEED,
  DEFAULT_SIZES,
  type MockAccount,
  type MockState,
  type SeedSizes,
} from '../store/state.js';
import type { SeededParts } from '../store/store.js';
import { Store } from '../store/store.js';
import { RESET_STAGES, type ResetStage, type Resettable } from './reset.js';
import { randomHex } from './secrets.js';

/** Options of a mock server core. */
export interface MockOptions {
  /** Seed of the generated data. Default 1. */
  seed?: number | string;
  /** Sizes of the generated data (merged with the defaults). */
  sizes?: Partial<SeedSizes>;
  /**
   * Start from this snapshot instead of generating data. Checked as `control.setState` and `PUT
   * /__mock/state` check one: an `HttpError` 400 naming the first bad record and field.
   */
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
  /**
   * How many bytes of memory the journal's entries take at most (oldest dropped first): each entry is
   * kept as JSON text and counted as 2 bytes per character plus a fixed overhead, at least what it
   * takes in the heap. Default 16 MiB.
   */
  journalMaxBytes?: number;
  /**
   * The largest request body the journal keeps, in characters of its redacted JSON text; larger ones
   * are written as `[too large to keep: ...]`. Default 64 KiB.
   */
  journalBodyBytes?: number;
  /** A delay added to every API answer, milliseconds. Default 0. */
  delayMs?: number;
  /** The `fetch` webhook deliveries use. Default: the global `fetch`. */
  webhookFetch?: typeof fetch;
  /**
   * Delivery retries: `attempts` (1 to 10, default 5), `baseDelayMs` (the first delay, doubled each
   * time, with seeded jitter; 100 to 60,000, default 1,000), `maxDelayMs` (the longest delay, which also
   * caps a `Retry-After`; 100 to 600,000, default 60,000), `maxTotalMs` (all retries of one delivery;
   * 1,000 to 3,600,000, default 600,000), `timeoutMs` (per attempt; 100 to 120,000, default 10,000).
   * Out of range: a `RangeError` naming the member.
   */
  deliveryPolicy?: Partial<DeliveryPolicy>;
  /**
   * Retention bounds, oldest dropped first: `eventsPerAccount` (1,100,000), `outboxPerAccount`
   * (1,000), `deliveryAttempts` (10,000), `waitingRetries` (10,000). Out of range: a `RangeError`
   * naming the bound.
   */
  retention?: Partial<RetentionBounds>;
  /**
   * Per-account caps on what the API adds, each a 409 `conflict` naming it past its limit:
   * `rulesPerAccount` (10,000), `ruleBytesPerAccount` (128 MiB), `notificationsPerAccount` (20,000). A
   * loaded state that holds more is kept whole. Out of range: a `RangeError` naming the cap.
   */
  limits?: Partial<AccountLimits>;
  /** A rate limit per client address; off by default. `true` is the service's 500 per 60 s. */
  rateLimit?: boolean | { limit: number; windowSeconds: number };
  /** The largest API request body, bytes (413 beyond, before it is read in full). Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Failed logins per access key: after `maxFailures` (20) in `windowSeconds` (60) of the mock's
   * clock, 429 with Retry-After; at most `maxKeys` (10,000) keys tracked. `false`: off.
   */
  loginThrottle?: LoginThrottleOption;
  /**
   * Proxies trusted to name the client (for the rate limit) by `X-Forwarded-For`: `true` one, a
   * number that many. Default `false`: the client is the socket address.
   */
  trustProxy?: TrustProxy;
  /**
   * The key login tokens are signed with (HS256). By default each mock draws a random one from
   * `crypto.getRandomValues` when it is created and keeps it across `reset()` (it is never part of a
   * snapshot). **Unsafe outside tests:** anyone who knows the key can forge a token for any account.
   * Give one only to get byte-identical tokens across runs.
   */
  unsafeTokenSigningKey?: string;
  /**
   * Serve the control plane over HTTP (`/__mock`). Default `true`; with `false` every `/__mock` path
   * answers 404 (the in-process `control` methods still work).
   */
  control?: boolean;
  /**
   * A bearer token every `/__mock` request over HTTP must carry (`Authorization: Bearer <token>`;
   * 403 otherwise). Default: none. `listen` requires one (or `control: false`) on a non-loopback bind.
   */
  controlToken?: string;
  /**
   * Give every account a random key pair (from `crypto.getRandomValues`) instead of the seed's or a
   * snapshot's (`state`, `setState`, `PUT /__mock/state`: a snapshot saved from a loopback mock holds
   * the public demo pairs), kept across resets and reseeds (`primaryKeys` still wins for the primary
   * account). `listen` turns it on for a non-loopback bind. Default `false`: the seeded pairs are
   * documented test fixtures.
   */
  randomKeyPairs?: boolean;
  /**
   * With `randomKeyPairs`, a snapshot keeps its own key pairs (the CLI's `--keep-state-keys`): whoever
   * has the snapshot can log in. Default `false`.
   */
  keepStateKeys?: boolean;
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
  /** The retention bounds. */
  readonly retention: RetentionBounds;
  /** The per-account caps. */
  readonly limits: AccountLimits;
  /** The delay added to every API answer, milliseconds. */
  readonly delayMs: number;
  /** The journal's bounds. */
  readonly journal: Required<JournalBounds>;
  /** The largest API request body, bytes. */
  readonly maxBodyBytes: number;
  /** Who may use the control plane over HTTP. */
  readonly controlAccess: ControlAccess;
  /** The failed-login throttle (`undefined`: off). */
  readonly loginThrottle: LoginThrottleSetting | undefined;
  /** How many proxies name the client. */
  readonly trustProxy: TrustProxy;
}

function startConfiguration(options: MockOptions): StartConfiguration {
  if (!options.state) {
    const problem = checkSeedSizes({ ...DEFAULT_SIZES, ...options.sizes });
    if (problem) throw new RangeError(`MockOptions ${problem.field}: ${problem.message}`);
  }
  return Object.freeze({
    data: options.state
      ? { snapshot: JSON.stringify(checkSnapshot(options.state)) }
      : { seed: options.seed ?? DEFAULT_SEED, sizes: { ...DEFAULT_SIZES, ...options.sizes } },
    rateLimit: toRateLimit(options.rateLimit),
    deliveryPolicy: toDeliveryPolicy(options.deliveryPolicy),
    retention: toRetentionBounds(options.retention),
    limits: toAccountLimits(options.limits),
    delayMs: options.delayMs ?? 0,
    journal: {
      limit: options.journalLimit ?? DEFAULT_JOURNAL_LIMIT,
      maxBytes: options.journalMaxBytes ?? DEFAULT_JOURNAL_MAX_BYTES,
      maxBodyBytes: options.journalBodyBytes ?? DEFAULT_JOURNAL_BODY_BYTES,
    },
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    controlAccess: { enabled: options.control !== false, token: options.controlToken },
    loginThrottle: toLoginThrottle(options.loginThrottle),
    trustProxy: options.trustProxy ?? false,
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
  /** Failed logins per access key (a reset stage). */
  readonly #loginThrottle: LoginThrottle;
  /** The event center's continuation tokens; kept across resets too, so earlier tokens stay valid. */
  readonly #cursor: EventCursor;
  #random!: Random;
  /** Ids of records created at run time (the seed's generator, with its own stream). */
  #ids!: { factory: IdFactory; random: Random };
  #buildCount = 0;
  readonly #journal: Journal;
  readonly #faults: FaultBook;
  readonly #rateLimiter: RateLimiter;
  readonly #clock: MovableClock;
  readonly #events = new EventRecorder(
    () => this.#random,
    () => this.now(),
    (account, entry) => dispatchNotification(this.webhooks, account, entry),
    () => this.#start.retention,
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
    // The token key is a secret: random per mock (never the seeded generator). The continuation-token
    // key is not a secret (a forged cursor pages only the caller's own account): it derives from the
    // seed, so that the same seed and query give the same tokens.
    this.#loginThrottle = new LoginThrottle(this.#start.loginThrottle);
    this.#login = new Login(
      options.unsafeTokenSigningKey ?? randomHex(32),
      options.tokenTtlSeconds,
      this.#loginThrottle,
    );
    this.#cursor = new EventCursor(new Random(`cursor:${String(options.seed ?? DEFAULT_SEED)}`).hex(64));
    this.#journal = new Journal(this.#start.journal);
    this.#faults = new FaultBook({ delayMs: this.#start.delayMs });
    this.#rateLimiter = new RateLimiter(this.#start.rateLimit);
    this.#clock = new MovableClock(options.clock ?? Date.now);
    // Moving the clock (in process or over POST /__mock/clock) sends the delivery retries that became due.
    const clock = this.#clock;
    this.clock = {
      now: clock.now,
      set: (instant) => {
        clock.set(instant);
        void this.webhooks.runDue();
      },
      advance: (ms) => {
        clock.advance(ms);
        void this.webhooks.runDue();
      },
      resume: () => {
        clock.resume();
        void this.webhooks.runDue();
      },
    };
    this.webhooks = new WebhookHub({
      now: () => this.now(),
      newId: () => this.#services.newId(),
      ...(options.webhookFetch ? { fetch: options.webhookFetch } : {}),
      policy: this.#start.deliveryPolicy,
      seed: () => this.store.origin.seed,
      retention: this.#start.retention,
    });
    this.#resettable = {
      data: { reset: () => this.#load(this.#start.data) },
      webhooks: this.webhooks,
      journal: this.#journal,
      faults: this.#faults,
      rateLimit: this.#rateLimiter,
      clock: this.#clock,
      loginThrottle: this.#loginThrottle,
    };
    this.#load(this.#start.data);
    this.control = createControlPlane(this, {
      journal: this.#journal,
      faults: this.#faults,
      rateLimiter: this.#rateLimiter,
      reset: () => this.#reset(),
      reseed: (seed, sizes) => this.#load({ seed, sizes: { ...DEFAULT_SIZES, ...sizes } }),
      setState: (state) => this.#install(this.#ownKeyPairs(state, true)),
    });
  }

  /**
   * The parts of the state `control.reset()` restores, in the order it restores them: `data`,
   * `webhooks`, `journal`, `faults`, `rateLimit`, `clock`, `loginThrottle` (`docs/mock-server.md`,
   * "Reset").
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

  /**
   * How the control plane is reached over HTTP: `off` (`control: false`), `token` (`controlToken`)
   * or `open` (neither: only for a loopback bind).
   */
  get controlExposure(): 'off' | 'token' | 'open' {
    const access = this.#start.controlAccess;
    return !access.enabled ? 'off' : access.token !== undefined ? 'token' : 'open';
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
  simulateRun(workspaceId: string, body: unknown) {
    return simulateRunOnWorkspace(this.store.accounts.values(), workspaceId, body, this.#domain);
  }

  /** Records a finding on an IaC stack of any account. */
  recordFinding(stackId: string, body: unknown) {
    return recordFindingOnStack(this.store.accounts.values(), stackId, body, this.#events);
  }

  /**
   * Dry-runs guardrail rules against a plan: the given rules (create bodies), or the account's own
   * (primary by default), in the given run scope. Nothing is stored.
   */
  evaluate(body: unknown) {
    return dryRunGuardrails(this.store, body, this.now());
  }

  /** Queues and delivers a notification given by kind (generated) or as a whole payload. */
  notify(body: unknown) {
    return queueNotification(this.store, body, this.#events);
  }

  /** Notifications waiting for delivery, oldest first: of one account, or of all. */
  outbox(accountId?: string) {
    return outboxOf(this.store, accountId);
  }

  /** The accounts and their key pairs (the primary account first). */
  accounts(): MockAccount[] {
    return [...this.store.accounts.values()].map((a) => ({ ...a.account }));
  }

  #load(source: DataSource): void {
    if ('snapshot' in source) {
      const state = JSON.parse(source.snapshot) as MockState;
      this.#install(this.#ownKeyPairs(state, true));
      return;
    }
    const { state, runs, events } = generateLazyState({
      seed: source.seed,
      sizes: source.sizes,
      onProgress: this.#options.onSeedProgress,
    });
    this.#install(
      this.#ownKeyPairs(state, false),
      state.accounts.map((_, index) => ({ runs: runs[index], events: events[index] })),
    );
  }

  /**
   * Gives the accounts of a state about to be installed their key pairs: with `randomKeyPairs` the
   * random ones, then `primaryKeys` for the primary account. A snapshot keeps its own pairs without
   * `randomKeyPairs` or with `keepStateKeys`. Answers the state with its accounts replaced (the
   * given one is not changed).
   */
  #ownKeyPairs<S extends { accounts: Array<{ account: MockAccount }> }>(state: S, snapshot: boolean): S {
    const { randomKeyPairs, keepStateKeys, primaryKeys } = this.#options;
    if (snapshot && (!randomKeyPairs || keepStateKeys)) return state;
    const accounts = state.accounts.map((entry, index) => {
      const given = index === 0 ? primaryKeys : undefined;
      const random = randomKeyPairs ? this.#randomKeyPair(index) : undefined;
      return given || random ? { ...entry, account: { ...entry.account, ...random, ...given } } : entry;
    });
    return { ...state, accounts };
  }

  /** Random key pairs by account position, drawn once and kept across resets and reseeds. */
  readonly #keyPairs: { accessKey: string; secretKey: string }[] = [];

  #randomKeyPair(index: number): { accessKey: string; secretKey: string } {
    for (let i = this.#keyPairs.length; i <= index; i++) {
      this.#keyPairs.push({ accessKey: `iacm_ak_${randomHex(12)}`, secretKey: `iacm_sk_${randomHex(24)}` });
    }
    return this.#keyPairs[index] as { accessKey: string; secretKey: string };
  }

  #install(state: MockState, seeded: ReadonlyArray<SeededParts> = []): void {
    this.#login.forgetVerified();
    this.webhooks.clear();
    this.store = new Store(state, seeded);
    this.#random = new Random(`runtime:${String(state.seed)}`);
    const idRandom = new Random(`runtime:ids:${String(state.seed)}`);
    this.#ids = { factory: new IdFactory(idRandom), random: idRandom };
    this.#buildCount = 0;
  }

  /** The services handlers use. */
  readonly #services: HandlerServices = {
    now: () => this.now(),
    newId: () => {
      // One id generator for the seed and the API; a snapshot may hold ids from anywhere, hence the check.
      for (;;) {
        const id = this.#ids.factory.objectId(this.#ids.random, this.now());
        if (!this.store.hasObjectId(id)) return id;
      }
    },
    login: (accessKey, secretKey) =>
      this.#login.login(this.store.accounts.values(), accessKey, secretKey, this.now(), () =>
        this.#random.hex(16),
      ),
    encodeCursor: (hash, last) => this.#cursor.encode(hash, last),
    decodeCursor: (token, hash) => this.#cursor.decode(token, hash),
    events: this.#events,
    limits: () => this.#start.limits,
  };

  /**
   * Handles one request and never throws: every failure becomes an error answer. The request walks
   * the stages of `pipeline/`: journal (the request id now, the entry once answered) -> read the
   * request line and headers -> rate limit -> faults -> route -> authenticate -> read, size-check and
   * parse the body, validate the inputs -> operation -> respond. The control plane (`/__mock`) is
   * neither rate-limited nor faulted, and has no authentication. When `options.signal` aborts (the
   * client has gone), the request stops at the next stage and is answered with nothing.
   */
  async handle(request: MockRequest, options: HandleOptions = {}): Promise<MockResponse> {
    const started = this.now();
    const resets = this.#resets;
    const requestId = this.#journal.nextRequestId();
    const body = new RequestBody(request);
    const { signal } = options;
    let response: MockResponse;
    try {
      checkHost(request, options.allowedHosts);
      const line = readRequestLine(request);
      if (line.control) {
        await checkControlAccess(request, this.#start.controlAccess);
        body.trust();
        response = await this.control.handle(
          line.method,
          line.path,
          line.query,
          ((limit, jsonBounds) => body.value(limit, { jsonBounds })) satisfies ControlBodyReader,
          requestId,
          { contentType: readHeader(request.headers, 'content-type') },
        );
      } else response = await this.#api(request, line, body, requestId, options);
    } catch (error) {
      response = errorResponse(error, requestId);
    }
    if (signal?.aborted) response = clientGoneResponse();
    withRequestId(response, requestId);
    // A request answered across a reset (`POST /__mock/reset` itself, or one in flight) belongs to the
    // history the reset cleared: the journal starts empty, as in a fresh mock.
    if (this.#resets === resets) {
      // Only a body a stage read is recorded: a request refused before the body stage (429, 401, 404,
      // 413) is journalled with `[not read]`, its body never parsed; one read for a sender who never
      // authenticated (a failed login) with `[not kept]`.
      this.#journal.record(request, response, requestId, started, this.now(), body.forJournal());
    }
    return response;
  }

  /** The stages of an API request after the journal. */
  async #api(
    request: MockRequest,
    line: RequestLine,
    body: RequestBody,
    requestId: string,
    options: HandleOptions,
  ): Promise<MockResponse> {
    const { signal } = options;
    this.#rateLimiter.check(clientOf(request, this.#start.trustProxy), this.now());
    const injected = await this.#faults.apply(line.method, line.path, requestId);
    if (injected) return injected;
    const route = resolveRoute(line.method, line.path);
    const account = route.definition.auth
      ? await authenticate(request.headers, this.#login, this.store.accounts, this.now())
      : undefined;
    if (account) body.trust();
    const limit = options.maxBodyBytes ?? this.#start.maxBodyBytes;
    // An open route (login) takes only a body declared JSON: no page can send one without a preflight.
    const parsed = await body.value(limit, { requireContentType: !route.definition.auth });
    const input = validateInput(route, line.method, line.query, () => parsed);
    if (signal?.aborted) return clientGoneResponse();
    const result = await operations[route.name]({ account, ...input, services: this.#services, signal });
    // An open route's sender proved who it is by succeeding (a login with the right keys).
    body.trust();
    if (signal?.aborted) return clientGoneResponse();
    return successResponse(route.definition, result);
  }
}
