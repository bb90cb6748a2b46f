/**
 * The top of the mock: {@link MockCore} wires every part (options, the stages' state, login, the
 * store, the timeline, webhooks, the control plane) and hands a request to the stage sequence of
 * `pipeline/`.
 *
 * @module
 */

import { readHeader } from '@iacm/sdk/contract';
import { Login, LoginThrottle } from '../auth/login.js';
import { type ControlExposure, controlExposureOf } from '../control/access.js';
import { type CheckedData, estimateDataBytes } from '../control/data.js';
import { type ControlPlane, createControlPlane } from '../control/plane.js';
import { RESET_STAGES, type ResetStage, type Resettable } from '../control/reset.js';
import type { ControlDeps } from '../control/route.js';
import { serveControl } from '../control/serve.js';
import { dispatchNotification } from '../domain/notify.js';
import type { ScenarioAnswer } from '../domain/scenario.js';
import { WebhookHub } from '../domain/webhooks.js';
import { HttpError } from '../errors.js';
import {
  type HandleOptions,
  internalErrorResponse,
  type MockRequest,
  type MockResponse,
} from '../http/message.js';
import { EventCursor } from '../operations/event-cursor.js';
import { type MockClock, MovableClock, notifyingMoves } from '../pipeline/clock.js';
import { handleRequest, type PipelineParts } from '../pipeline/handle.js';
import { Waiters } from '../pipeline/waiters.js';
import type { MemoryBudget } from '../store/budget.js';
import { Random } from '../store/random.js';
import { DEFAULT_SEED, type MockAccount } from '../store/state.js';
import type { Store } from '../store/store.js';
import { coreView } from './core-view.js';
import { dataReady, installSceneWebhooks, MockData, type PreparedData, prepareData } from './data.js';
import { KeyPairs } from './key-pairs.js';
import type { MockOptions, StartConfiguration } from './options.js';
import { pipelineParts } from './pipeline-parts.js';
import { randomHex } from './secrets.js';
import { budgetOf, preparedOf, type SessionHost, sessionHostOf, startOf } from './session-host.js';
import { SESSION_HEADER } from './sessions.js';
import { Timeline } from './timeline.js';

export type { MockOptions } from './options.js';

/**
 * The transport-free mock server: a plain request in, a plain response out. Routes through the
 * contract's endpoint table, validates with the contract's schemas, authenticates, and answers from
 * an in-memory, per-account store. Adapters (MSW, node:http) are thin layers over {@link MockCore.handle}.
 */
export class MockCore {
  /** The control plane: every capability of the control table (`control/table.ts`), in process. */
  readonly control: ControlPlane;
  /** @deprecated The same as `control.simulateRun` (one row of the control table): use that. */
  declare readonly simulateRun: ControlPlane['simulateRun'];
  /** @deprecated The same as `control.recordFinding`: use that. */
  declare readonly recordFinding: ControlPlane['recordFinding'];
  /** @deprecated The same as `control.evaluate`: use that. */
  declare readonly evaluate: ControlPlane['evaluate'];
  /** @deprecated The same as `control.notify`: use that. */
  declare readonly notify: ControlPlane['notify'];
  /** @deprecated The same as `control.outbox`: use that. */
  declare readonly outbox: ControlPlane['outbox'];
  /** Webhook integrations and deliveries. */
  readonly webhooks: WebhookHub;
  /** The mock's clock, which `control.clock` reads and moves (a reset puts back the options' clock). */
  readonly clock: MockClock;

  readonly #start: StartConfiguration;
  /** The start data a reset made ready (`prepareData`), for its data stage to take; else `undefined`. */
  #resetData: PreparedData | undefined;
  /** A reset generating the start data (the next reset waits for it); else `undefined`. */
  #resetGenerating: Promise<void> | undefined;
  /** Whether this (session's) core was ended. */
  #stopped = false;
  /** The `onSeedProgress` option. */
  readonly #onSeedProgress: MockOptions['onSeedProgress'];
  /** The memory budget every store charges (a session's: its share of its mock's). */
  readonly #budget: MemoryBudget;
  /** The sessions (`X-Iacm-Mock-Session`); `undefined` in a session's own core. */
  readonly #sessions: SessionHost<MockCore> | undefined;
  readonly #data: MockData;
  readonly #pipeline: PipelineParts;
  /** The timed runs and the scenario: settled before each request, control call and clock move. */
  readonly #timeline: Timeline;
  /** The pending waits (`control.waitFor`, `control.nextDelivery`): told by the journal and the hub. */
  readonly #waiters: Waiters;
  /** How many resets so far: a request that started before a reset is not journaled after it. */
  #resets = 0;
  /** Every part of the state, each able to go back to its start value; `reset()` walks `RESET_STAGES`. */
  readonly #resettable: Readonly<Record<ResetStage, Resettable>>;

  /** Creates a core with its seeded state. */
  constructor(options: MockOptions = {}) {
    const start = startOf(options);
    this.#start = start;
    this.#onSeedProgress = options.onSeedProgress;
    const budget = budgetOf(options, start);
    this.#budget = budget;
    this.#waiters = new Waiters(budget.ledger('waits'));
    // Sessions end (by DELETE or idleness) with their waits cancelled and their timers stopped.
    this.#sessions = sessionHostOf(
      options,
      start,
      budget,
      (own) => new MockCore(own),
      (core, why) => core.#stop(why),
    );
    // The token key is a secret: random per mock, kept across resets (earlier tokens stay valid). The
    // cursor key is not (a forged cursor pages only its own account): the same seed, the same tokens.
    const loginThrottle = new LoginThrottle(start.loginThrottle);
    const key = options.unsafeTokenSigningKey ?? randomHex(32);
    const login = new Login(key, start.tokenTtlSeconds, loginThrottle);
    const cursor = new EventCursor(new Random(`cursor:${String(options.seed ?? DEFAULT_SEED)}`).hex(64));
    const clock = new MovableClock(options.clock ?? Date.now);
    // A move of the clock (in process or over POST /__mock/clock) settles the steps that became due,
    // then sends the delivery retries that became due.
    this.clock = notifyingMoves(clock, () => {
      // (In slices: the first one now, the rest in the background; requests wait for them.)
      const steps = this.#timeline.settled();
      const retries = () => void this.webhooks.runDue();
      if (steps) steps.then(retries, () => undefined);
      else retries();
    });
    this.webhooks = new WebhookHub({
      now: () => this.now(),
      newId: () => this.#data.newId(this.now()),
      ...(options.webhookFetch ? { fetch: options.webhookFetch } : {}),
      policy: start.deliveryPolicy,
      seed: () => this.#data.store.origin.seed,
      retention: start.retention,
      onAttempt: (attempt, integration) => this.#waiters.attempted(attempt, integration),
      ledgers: { webhooks: budget.ledger('webhooks'), attempts: budget.ledger('attempts') },
    });
    this.#timeline = new Timeline({
      budget,
      data: () => this.#data,
      queued: (account, entry) => dispatchNotification(this.webhooks, account, entry),
      retention: () => start.retention,
      now: () => this.now(),
      runChanged: (change) => this.#waiters.runChanged(change),
    });
    this.#pipeline = pipelineParts(start, {
      budget,
      login,
      cursor,
      events: this.#timeline.events,
      data: () => this.#data,
      now: () => this.now(),
      resets: () => this.#resets,
      control: (request, line, body, requestId, signal) =>
        serveControl(this.control, start.controlAccess, request, line, body, requestId, signal),
    });
    const { journal, faults, rateLimiter, oneOff } = this.#pipeline;
    journal.listen((endpoint, read) => this.#waiters.journalled(endpoint, read));
    this.#resettable = {
      // The start data made ready first (`#reset`), in slices when its template is gone.
      data: { reset: () => this.#data.load(start.data, true, this.#resetData) },
      // A scene's integrations are part of its start: back after the hub is reset.
      webhooks: {
        reset: () => [
          this.webhooks.reset(),
          installSceneWebhooks(this.webhooks, this.#data.store, start.data),
        ],
      },
      // The journal, and the waits on it and on deliveries (rejected).
      journal: { reset: () => [journal.reset(), this.#waiters.reset()] },
      // The injected answers: the faults and the one-off answers.
      faults: { reset: () => [faults.reset(), oneOff.reset()] },
      rateLimit: rateLimiter,
      clock,
      loginThrottle,
    };
    // Replacing the data drops what belonged to it: verified tokens, deliveries, pending steps.
    const replaced = () => [login.forgetVerified(), this.webhooks.clear(), this.#timeline.clear()];
    // The start data is outside a mock's budget (what it takes beyond it is charged); a session's is its own.
    const baseline = this.#sessions ? estimateDataBytes(start.data) : 0;
    this.#data = new MockData(
      new KeyPairs(options),
      replaced,
      options.onSeedProgress,
      budget.ledger('data'),
      baseline,
    );
    this.control = createControlPlane(coreView(this.#timeline, this), {
      journal,
      faults,
      oneOff: oneOff.book,
      rateLimiter,
      waiters: this.#waiters,
      reset: () => this.#reset(),
      // Until the next reset, which returns to the start data.
      // Refused (budget, clock) before anything is generated; then generated in slices that yield.
      // Data to generate holds its room meanwhile, so that loads prepared at once count each other.
      load: async (data) => {
        if (data.scenario) this.#timeline.checkFits(data.scenario);
        let prepared: PreparedData | undefined;
        if (!dataReady(data.source)) {
          const hold = this.#data.reserve(data.source);
          try {
            prepared = await prepareData(data.source, options.onSeedProgress);
          } finally {
            hold.releaseAll();
          }
          this.#checkLive();
        }
        const answer = this.#load(data, prepared);
        await this.#timeline.settled();
        return answer;
      },
      sessions: this.#sessions?.control(),
      scenarioProgress: () => this.#timeline.progress(),
      budget: () => budget.view(),
    } satisfies ControlDeps);
    this.#load({ source: start.data, scenario: start.scenario }, preparedOf(options));
  }

  /**
   * The one apply path of the mock's data, whatever its form (`control/data.ts`): the data loaded,
   * a scene's webhook integrations stored, a scenario's timeline played from the clock's now.
   * `reset()` walks the same steps in its stages (data, webhooks, then the timeline).
   */
  #load(data: CheckedData, prepared?: PreparedData): ScenarioAnswer | undefined {
    // A scenario that would end after the clock's last instant is refused before anything changes.
    if (data.scenario) this.#timeline.checkFits(data.scenario);
    this.#data.load(data.source, false, prepared);
    installSceneWebhooks(this.webhooks, this.#data.store, data.source);
    return data.scenario && this.#timeline.play(data.scenario);
  }

  /** Ends this (session's) core: its pending waits rejected, its deliveries and pending steps dropped with their timers. */
  #stop(reason: string): void {
    this.#stopped = true;
    this.#waiters.rejectAll(reason);
    this.webhooks.clear();
    this.#timeline.clear();
    // What the session kept goes back to its mock's budget.
    this.#budget.close();
  }

  /** A 404 when this (session's) core was ended while a load or a reset generated its data. */
  #checkLive(): void {
    if (this.#stopped)
      throw new HttpError(
        404,
        'not_found',
        'the session was ended while its data was generated: nothing was loaded',
      );
  }

  /** The parts of the state `control.reset()` restores, in order (`docs/mock-server.md`, "Reset"). */
  get resetStages(): string[] {
    return [...RESET_STAGES];
  }

  /**
   * Puts every part of the state back to its start value; answers the parts, in order, once the
   * start scenario's steps due are applied (in slices).
   */
  async #reset(): Promise<readonly ResetStage[]> {
    // One reset generating at a time (the start data is outside the budget: resets at once must not
    // each hold a copy); a reset with nothing to generate runs at once, in the turn it was asked in.
    while (this.#resetGenerating) await this.#resetGenerating;
    // Generated again in slices when no template of the start data is in memory (then the stages
    // run in one go): requests answered meanwhile see the state before the reset.
    if (!dataReady(this.#start.data)) {
      const job = prepareData(this.#start.data, this.#onSeedProgress);
      this.#resetGenerating = job.then(
        () => undefined,
        () => undefined,
      );
      try {
        this.#resetData = await job;
      } finally {
        this.#resetGenerating = undefined;
      }
      this.#checkLive();
    }
    this.#resets += 1;
    for (const stage of RESET_STAGES) this.#resettable[stage].reset();
    // A mock started with a scenario plays its timeline again, from the clock's now after the reset.
    // (Its steps are start data: charged whatever the budget says, as the start data is.)
    if (this.#start.scenario) this.#timeline.play(this.#start.scenario, true);
    this.#resetData = undefined;
    await this.#timeline.settled();
    return RESET_STAGES;
  }

  /** How the control plane is reached over HTTP: `off`, `token` (`controlToken`) or `open` (loopback only). */
  get controlExposure(): ControlExposure {
    return controlExposureOf(this.#start.controlAccess);
  }

  /**
   * The current indexed state, as it is at the clock's now: the steps due (timed runs, a scenario's)
   * are applied first, in one go, as a synchronous control method applies them.
   */
  get store(): Store {
    this.#timeline.settle();
    return this.#data.store;
  }

  /** The current time of the mock's clock, epoch milliseconds. */
  now(): number {
    return this.clock.now();
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
    if (sessionId !== undefined && this.#sessions) return this.#sessions.handle(sessionId, request, options);
    // Every request (API and control plane) sees the steps due by the clock's now (timed runs,
    // scenario), applied in slices that give the event loop a turn (other sessions go on meanwhile).
    let steps: Promise<void> | undefined;
    try {
      steps = this.#timeline.settled();
    } catch {
      return Promise.resolve(internalErrorResponse());
    }
    if (!steps) return handleRequest(this.#pipeline, request, options);
    return steps.then(
      () => handleRequest(this.#pipeline, request, options),
      () => internalErrorResponse(),
    );
  }
}

// The core's methods of the first releases, now rows of the control table: the plane's own methods.
for (const name of ['simulateRun', 'recordFinding', 'evaluate', 'notify', 'outbox'] as const) {
  Object.defineProperty(MockCore.prototype, name, {
    get(this: MockCore) {
      return this.control[name];
    },
  });
}
