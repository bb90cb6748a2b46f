/**
 * The top of the mock: {@link MockCore} wires every part (options, the stages' state, login, the
 * store, webhooks, the control plane) and hands a request to the stage sequence of `pipeline/`.
 *
 * @module
 */

import { readHeader, type WorkspaceRun } from '@iacm/sdk/contract';
import { Login, LoginThrottle } from '../auth/login.js';
import { type ControlExposure, checkControlAccess, controlExposureOf } from '../control/access.js';
import { type ControlPlane, createControlPlane } from '../control/plane.js';
import { RESET_STAGES, type ResetStage, type Resettable } from '../control/reset.js';
import type { CheckedSessionSource, CoreView, SessionControl } from '../control/route.js';
import { serveControl } from '../control/serve.js';
import { dryRunGuardrails } from '../domain/dry-run.js';
import type { GuardrailEvaluation } from '../domain/evaluate.js';
import { EventRecorder } from '../domain/events.js';
import { type FindingInput, recordFindingOnStack } from '../domain/findings.js';
import { setWorkspaceLabels } from '../domain/labels.js';
import { dispatchNotification, outboxOf, queueNotification } from '../domain/notify.js';
import type { CheckedScenario, ScenarioAnswer } from '../domain/scenario.js';
import { type PlayedStep, ScenarioPlayer } from '../domain/scenario-player.js';
import {
  type DomainServices,
  type RunTimingInput,
  type SimulatedRunInput,
  simulateRunOnWorkspace,
} from '../domain/simulate.js';
import { type TimedRunAnswer, TimedRuns } from '../domain/timed-runs.js';
import { IntegrationCreateBody, WebhookHub } from '../domain/webhooks.js';
import { HttpError } from '../errors.js';
import {
  type HandleOptions,
  internalErrorResponse,
  type MockRequest,
  type MockResponse,
} from '../http/message.js';
import { EventCursor } from '../operations/event-cursor.js';
import type { HandlerServices } from '../operations/index.js';
import { MAX_CLOCK_MS, type MockClock, MovableClock, notifyingMoves } from '../pipeline/clock.js';
import { FaultBook } from '../pipeline/faults.js';
import { handleRequest, type PipelineParts } from '../pipeline/handle.js';
import { checkHost } from '../pipeline/host.js';
import { Journal } from '../pipeline/journal.js';
import { OneOffStage } from '../pipeline/one-off.js';
import { RateLimiter } from '../pipeline/rate-limit.js';
import { readRequestLine } from '../pipeline/request.js';
import { errorResponse, withRequestId } from '../pipeline/respond.js';
import { Waiters } from '../pipeline/waiters.js';
import { Random } from '../store/random.js';
import { estimateSeedBytes } from '../store/seed/limits.js';
import { DEFAULT_SEED, DEFAULT_SIZES, type MockAccount } from '../store/state.js';
import type { Store } from '../store/store.js';
import { hasTemplate } from '../store/template.js';
import { dataKey, MockData } from './data.js';
import { KeyPairs } from './key-pairs.js';
import { type DataSource, type MockOptions, type StartConfiguration, startConfiguration } from './options.js';
import { randomHex } from './secrets.js';
import { MockSessions, SESSION_HEADER } from './sessions.js';

export type { MockOptions } from './options.js';

/**
 * The memory a new session's data is estimated to take (`estimateSeedBytes`): the whole estimate
 * when its data is generated, a twentieth (its own containers) when data generated before is in
 * memory and shared with it (`store/template.ts`). A scene's data is its records and the default
 * sizes around them (its records are bounded).
 */
function sessionBytes(options: MockOptions, data: DataSource): number {
  const sizes = { ...DEFAULT_SIZES, ...(options.scene ? {} : options.sizes) };
  const estimate = estimateSeedBytes(sizes);
  const shared = !('snapshot' in data) && hasTemplate(dataKey(data));
  return shared ? Math.ceil(estimate / SHARED_DATA_FRACTION) : estimate;
}

/** What part of its estimate a session's data takes when it shares data generated before: 1/20. */
const SHARED_DATA_FRACTION = 20;

/**
 * Marks the options of a session's core (module-private: a session does not make sessions), with
 * its start configuration, resolved once by the mock that makes it (for its memory estimate too).
 */
const IN_SESSION: unique symbol = Symbol('iacm-mock-session');

/** The options of a session's core, as the mock that owns it makes them. */
type SessionOptions = MockOptions & { [IN_SESSION]?: StartConfiguration };

/**
 * The transport-free mock server: a plain request in, a plain response out. Routes through the
 * contract's endpoint table, validates with the contract's schemas, authenticates, and answers from
 * an in-memory, per-account store. Adapters (MSW, node:http) are thin layers over {@link MockCore.handle}.
 */
export class MockCore {
  /** The control plane: reset, seed, snapshots, accounts, journal, faults, rate limit. */
  readonly control: ControlPlane;
  /** Webhook integrations and deliveries. */
  readonly webhooks: WebhookHub;
  /**
   * Moves the mock's clock: `set` stops it at an instant (later `advance` calls move it from there);
   * `advance` moves it forward (or back, with a negative number); `resume` lets it run again
   * from the underlying clock. Tokens, timestamps and rate limits all read this clock. `reset()`
   * puts it back to the clock of the options.
   */
  readonly clock: MockClock;

  readonly #start: StartConfiguration;
  /** The options as given: a session's core is made with them (and its own data source). */
  readonly #options: MockOptions;
  /** The sessions (`X-Iacm-Mock-Session`); `undefined` in a session's own core. */
  readonly #sessions: MockSessions<MockCore> | undefined;
  readonly #data: MockData;
  readonly #pipeline: PipelineParts;
  /**
   * The instant of the scenario step being applied (`undefined` otherwise): while a step applies, the
   * domain's clock reads it, so that what the step records is stamped with its own instant.
   */
  #stepAt: number | undefined;
  readonly #events = new EventRecorder(
    () => this.#data.random,
    () => this.#stepAt ?? this.now(),
    (account, entry) => dispatchNotification(this.webhooks, account, entry),
    () => this.#start.retention,
  );
  readonly #domain: DomainServices = {
    now: () => this.#stepAt ?? this.now(),
    newId: (at) => this.#data.newId(at ?? this.#stepAt ?? this.now()),
    nextBuild: () => this.#data.nextBuild(),
    events: this.#events,
  };
  /**
   * The timed runs' pending steps (`simulateRun` with `timing`), settled before each request, each
   * control read or write, and after each move of the clock; dropped when the data is replaced.
   */
  readonly #timedRuns = new TimedRuns(this.#domain, MAX_CLOCK_MS, () => this.#settle());
  /**
   * The pending steps of the scenario being played (`control.play`, the `scenario` option), settled
   * with the timed runs' steps, in time order; dropped when the data is replaced.
   */
  readonly #scenario = new ScenarioPlayer(() => this.#settle());
  /** The pending waits (`control.waitFor`, `control.nextDelivery`): told by the journal and the hub. */
  readonly #waiters = new Waiters();
  /** How many resets so far: a request that started before a reset is not journaled after it. */
  #resets = 0;
  /**
   * Every part of the state, each able to go back to its start value; `reset()` walks this list.
   * A new piece of state belongs to one of these parts, or adds one (to `RESET_STAGES` too).
   */
  readonly #resettable: Readonly<Record<ResetStage, Resettable>>;

  /** Creates a core with its seeded state. */
  constructor(options: MockOptions = {}) {
    const start = (options as SessionOptions)[IN_SESSION] ?? startConfiguration(options);
    this.#start = start;
    this.#options = options;
    // Sessions end (by DELETE or idleness) with their waits cancelled and their timers stopped.
    this.#sessions = (options as SessionOptions)[IN_SESSION]
      ? undefined
      : new MockSessions<MockCore>(start.sessions, (core, reason) => core.#stop(reason));
    // The token key is a secret: random per mock (never the seeded generator), kept across resets so
    // earlier tokens stay valid. The continuation-token key is not a secret (a forged cursor pages
    // only the caller's own account): it derives from the seed, so the same seed and query give the
    // same tokens.
    const loginThrottle = new LoginThrottle(start.loginThrottle);
    const login = new Login(
      options.unsafeTokenSigningKey ?? randomHex(32),
      start.tokenTtlSeconds,
      loginThrottle,
    );
    const cursor = new EventCursor(new Random(`cursor:${String(options.seed ?? DEFAULT_SEED)}`).hex(64));
    const clock = new MovableClock(options.clock ?? Date.now);
    // Moving the clock (in process or over POST /__mock/clock) settles the timed runs' steps that became
    // due, then sends the delivery retries that became due.
    this.clock = notifyingMoves(clock, () => {
      this.#settle();
      void this.webhooks.runDue();
    });
    this.webhooks = new WebhookHub({
      now: () => this.now(),
      newId: () => this.#data.newId(this.now()),
      ...(options.webhookFetch ? { fetch: options.webhookFetch } : {}),
      policy: start.deliveryPolicy,
      seed: () => this.store.origin.seed,
      retention: start.retention,
      onAttempt: (attempt, integration) => this.#waiters.attempted(attempt, integration),
    });
    const services: HandlerServices = {
      now: () => this.now(),
      newId: () => this.#data.newId(this.now()),
      login: (accessKey, secretKey) =>
        login.login(this.store.accounts.values(), accessKey, secretKey, this.now(), () =>
          this.#data.random.hex(16),
        ),
      encodeCursor: (hash, last) => cursor.encode(hash, last),
      decodeCursor: (token, hash) => cursor.decode(token, hash),
      events: this.#events,
      limits: () => start.limits,
    };
    this.#pipeline = {
      journal: new Journal(start.journal),
      rateLimiter: new RateLimiter(start.rateLimit),
      trustProxy: start.trustProxy,
      faults: new FaultBook({ delayMs: start.delayMs }),
      // Over HTTP, `Prefer: code=` is for whoever may use the control plane (open, or with its token).
      oneOff: new OneOffStage({
        open: controlExposureOf(start.controlAccess) === 'open',
        token: start.controlAccess.enabled ? start.controlAccess.token : undefined,
      }),
      login,
      maxBodyBytes: start.maxBodyBytes,
      services,
      now: () => this.now(),
      accounts: () => this.store.accounts,
      resets: () => this.#resets,
      control: (request, line, body, requestId, signal) =>
        serveControl(this.control, start.controlAccess, request, line, body, requestId, signal),
    };
    const { journal, faults, rateLimiter, oneOff } = this.#pipeline;
    const waiters = this.#waiters;
    journal.listen((endpoint, read) => waiters.journalled(endpoint, read));
    this.#resettable = {
      data: { reset: () => this.#data.load(start.data) },
      // A scene's integrations are part of its start: back after the hub is reset.
      webhooks: {
        reset: () => {
          this.webhooks.reset();
          this.#installSceneWebhooks(start.data);
        },
      },
      // The journal, and the waits on it and on deliveries (rejected).
      journal: {
        reset: () => {
          journal.reset();
          waiters.reset();
        },
      },
      // The injected answers: the faults and the one-off answers.
      faults: {
        reset: () => {
          faults.reset();
          oneOff.reset();
        },
      },
      rateLimit: rateLimiter,
      clock,
      loginThrottle,
    };
    this.#data = new MockData(
      new KeyPairs(options),
      () => {
        login.forgetVerified();
        this.webhooks.clear();
        // The timed runs' and the scenario's pending steps belong to the data replaced (reset's `data`
        // part, seed, state, scene, scenario).
        this.#timedRuns.clear();
        this.#scenario.clear();
      },
      options.onSeedProgress,
    );
    this.#data.load(start.data);
    this.#installSceneWebhooks(start.data);
    // The control plane reaches the domain with checked values only (it checks every body once).
    // Each reads or writes the data as it is at the clock's now: the timed runs' due steps first.
    const settled = <T>(read: () => T): T => {
      this.#settle();
      return read();
    };
    const core: CoreView = {
      store: { toState: () => settled(() => this.store.toState()) },
      accounts: () => this.accounts(),
      outbox: (accountId) => this.outbox(accountId),
      clock: this.clock,
      webhooks: this.webhooks,
      simulateRun: (workspaceId, run) =>
        settled(() =>
          run.timing
            ? this.#timedRuns.schedule(this.store.accounts.values(), workspaceId, run, run.timing)
            : simulateRunOnWorkspace(this.store.accounts.values(), workspaceId, run, this.#domain),
        ),
      recordFinding: (stackId, finding) =>
        settled(() => recordFindingOnStack(this.store.accounts.values(), stackId, finding, this.#events)),
      evaluate: (evaluation) => settled(() => dryRunGuardrails(this.store, evaluation, this.now())),
      notify: (notification) => settled(() => queueNotification(this.store, notification, this.#events)),
    };
    this.control = createControlPlane(core, {
      journal,
      faults,
      oneOff: oneOff.book,
      rateLimiter,
      waiters,
      reset: () => this.#reset(),
      reseed: (seed, sizes) => this.#data.load({ seed, sizes: { ...DEFAULT_SIZES, ...sizes } }),
      setState: (state) => this.#data.install(state),
      setScene: (scene) => {
        // Until the next reset, as `seed()` and `setState()`: a reset returns to the start data.
        this.#data.load({ scene });
        this.#installSceneWebhooks({ scene });
      },
      sessions: this.#sessionControl(),
      scenarioProgress: () => settled(() => this.#scenario.progress()),
      play: (scenario) => {
        // As `setScene`, then the timeline from the clock's now; a reset returns to the start data.
        this.#data.load({ scene: scenario.scene });
        this.#installSceneWebhooks({ scene: scenario.scene });
        return this.#play(scenario);
      },
    });
    if (start.scenario) this.#play(start.scenario);
  }

  /** The registry as the control plane reaches it (`undefined` in a session's own core). */
  #sessionControl(): SessionControl | undefined {
    const sessions = this.#sessions;
    if (!sessions) return undefined;
    return {
      create: (source) => {
        const options = this.#sessionOptions(source);
        const start = startConfiguration(options);
        const { id, core } = sessions.create(
          () => new MockCore({ ...options, [IN_SESSION]: start } as SessionOptions),
          sessionBytes(options, start.data),
        );
        return { id, accounts: core.accounts() };
      },
      list: () => sessions.list(),
      end: (id) => sessions.end(id),
    };
  }

  /**
   * A session's options: this mock's (control access, bounds, policies, clock...) without its data
   * source, its signing key or its sessions, and the session's source (default: the `seed` and
   * `sizes` options).
   */
  #sessionOptions(source: CheckedSessionSource): MockOptions {
    const {
      seed,
      sizes,
      state: _state,
      scene: _scene,
      scenario: _scenario,
      onSeedProgress: _progress,
      unsafeTokenSigningKey: _key,
      sessions: _sessions,
      ...shared
    } = this.#options;
    const own = Object.keys(source).length > 0 ? source : { seed, sizes };
    const data = Object.fromEntries(Object.entries(own).filter(([, v]) => v !== undefined));
    return { ...shared, ...data };
  }

  /** Ends this (session's) core: its pending waits rejected, its deliveries and pending steps dropped with their timers. */
  #stop(reason: string): void {
    this.control.cancelWaits(reason);
    this.webhooks.clear();
    this.#timedRuns.clear();
    this.#scenario.clear();
  }

  /**
   * A request that names a session (`X-Iacm-Mock-Session`): handed whole to that session's core; for
   * an unknown or ended one, 404 `not_found` (after the host check, and the control access check for
   * a `/__mock` path: the header selects data, it does not authorise). Not journalled: no session
   * holds it.
   */
  async #handleSession(
    sessions: MockSessions<MockCore>,
    id: string,
    request: MockRequest,
    options: HandleOptions,
  ): Promise<MockResponse> {
    let core: MockCore;
    try {
      core = sessions.use(id);
    } catch (unknown) {
      const requestId = `req_session_${randomHex(4)}`;
      try {
        checkHost(request, options.allowedHosts);
        if (readRequestLine(request).control) await checkControlAccess(request, this.#start.controlAccess);
      } catch (error) {
        return withRequestId(errorResponse(error, requestId), requestId);
      }
      return withRequestId(errorResponse(unknown, requestId), requestId);
    }
    return core.handle(request, options);
  }

  /** Schedules a checked scenario's timeline (its scene just loaded) from the clock's now; applies what is due. */
  #play(scenario: CheckedScenario): ScenarioAnswer {
    const answer = this.#scenario.play(this.store, scenario, this.now());
    this.#settle();
    return answer;
  }

  /**
   * Applies every pending step due by the clock's now, the scenario's and the timed runs', in time
   * order: before the scenario's steps of an instant, the timed runs' steps due by then.
   */
  #settle(): void {
    const now = this.now();
    this.#scenario.settle(
      now,
      (at) => this.#timedRuns.settle(at),
      (step, at) => this.#applyStep(step, at),
    );
    this.#timedRuns.settle(now);
  }

  /**
   * Applies one step of a scenario at its instant, with the domain functions the control plane and
   * the API use. A step that no longer applies (its workspace or stack deleted through the API, a
   * bound full: an `HttpError`) is skipped: the answer says why (the scenario's progress lists it).
   */
  #applyStep(step: PlayedStep, at: number): string | undefined {
    this.#stepAt = at;
    try {
      const accounts = [step.account];
      if (step.kind === 'simulateRun') {
        if (step.run.timing) this.#timedRuns.schedule(accounts, step.workspaceId, step.run, step.run.timing);
        else simulateRunOnWorkspace(accounts, step.workspaceId, step.run, this.#domain);
      } else if (step.kind === 'finding') {
        recordFindingOnStack(accounts, step.stackId, step.finding, this.#events);
      } else if (step.kind === 'labels') {
        const workspace = step.account.workspaces.get(step.workspaceId);
        if (!workspace) return `the workspace ${step.workspaceId} no longer exists`;
        setWorkspaceLabels(step.account, workspace, step.labels, this.#domain);
      } else {
        queueNotification(this.store, step.notification, this.#events);
      }
      return undefined;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return `${error.status} ${error.code}: ${error.message}`;
    } finally {
      this.#stepAt = undefined;
    }
  }

  /** Stores the webhook integrations of the scene the data came from (none for other data). */
  #installSceneWebhooks(source: DataSource): void {
    // Called right after the data was loaded from `source` (the start, `control.scene`, a reset).
    if (!('scene' in source)) return;
    const accounts = [...this.store.accounts.values()];
    source.scene.accounts?.forEach((account, index) => {
      const accountId = accounts[index]?.account.id;
      if (!accountId) return;
      for (const webhook of account.webhooks ?? []) {
        this.webhooks.install(accountId, IntegrationCreateBody.parse(webhook));
      }
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
    // A mock started with a scenario plays its timeline again, from the clock's now after the reset.
    if (this.#start.scenario) this.#play(this.#start.scenario);
    return RESET_STAGES;
  }

  /**
   * How the control plane is reached over HTTP: `off` (`control: false`), `token` (`controlToken`)
   * or `open` (neither: only for a loopback bind).
   */
  get controlExposure(): ControlExposure {
    return controlExposureOf(this.#start.controlAccess);
  }

  /** The current indexed state. */
  get store(): Store {
    return this.#data.store;
  }

  /** The current time of the mock's clock, epoch milliseconds. */
  now(): number {
    return this.clock.now();
  }

  /**
   * Simulates a CI run on a workspace of any account (see `docs/guardrails.md`); the body is checked
   * as `control.simulateRun` checks it (a 400 naming each bad field).
   */
  simulateRun(workspaceId: string, body: SimulatedRunInput & { timing: RunTimingInput }): TimedRunAnswer;
  /** As above, without `timing`: the run is finished at once (`201` over HTTP). */
  simulateRun(
    workspaceId: string,
    body: SimulatedRunInput & { timing?: undefined },
  ): { run: WorkspaceRun; evaluation: GuardrailEvaluation };
  /** As above, for a body not known to have or lack `timing`. */
  simulateRun(
    workspaceId: string,
    body: unknown,
  ): { run: WorkspaceRun; evaluation: GuardrailEvaluation } | TimedRunAnswer;
  simulateRun(workspaceId: string, body: unknown) {
    return this.control.simulateRun(workspaceId, body as SimulatedRunInput);
  }

  /** Records a finding on an IaC stack of any account; checked as `control.recordFinding` checks it. */
  recordFinding(stackId: string, body: unknown) {
    return this.control.recordFinding(stackId, body as FindingInput);
  }

  /**
   * Dry-runs guardrail rules against a plan: the given rules (create bodies), or the account's own
   * (primary by default), in the given run scope. Nothing is stored. Checked as `control.evaluate`.
   */
  evaluate(body: unknown) {
    return this.control.evaluate(body);
  }

  /** Queues and delivers a notification given by kind (generated) or as a whole payload; checked as `control.notify`. */
  notify(body: unknown) {
    return this.control.notify(body);
  }

  /** Notifications waiting for delivery, oldest first: of one account, or of all (due timed-run steps settled first). */
  outbox(accountId?: string) {
    this.#settle();
    return outboxOf(this.store, accountId);
  }

  /** The accounts and their key pairs (the primary account first). */
  accounts(): MockAccount[] {
    return [...this.store.accounts.values()].map((a) => ({ ...a.account }));
  }

  /**
   * Handles one request and never throws: every failure becomes an error answer. The request walks
   * the stages of `pipeline/` (`pipeline/handle.ts`): journal -> host -> request line -> rate limit ->
   * faults -> route -> authenticate -> body -> validate -> operation -> respond. The control plane
   * (`/__mock`) is neither rate-limited nor faulted, and has no authentication. When `options.signal`
   * aborts (the client has gone), the request stops at the next stage and is answered with nothing.
   */
  handle(request: MockRequest, options: HandleOptions = {}): Promise<MockResponse> {
    // A request naming a session goes to it whole (a session's own core reads no such header).
    const sessionId = this.#sessions ? readHeader(request.headers, SESSION_HEADER) : undefined;
    if (sessionId !== undefined && this.#sessions) {
      return this.#handleSession(this.#sessions, sessionId, request, options);
    }
    // Every request (API and control plane) sees the steps due by the clock's now (timed runs, scenario).
    try {
      this.#settle();
    } catch {
      return Promise.resolve(internalErrorResponse());
    }
    return handleRequest(this.#pipeline, request, options);
  }
}
