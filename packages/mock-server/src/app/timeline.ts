/**
 * A mock's timeline: what happens on its clock without a request. The timed runs' pending steps
 * (`simulateRun` with `timing`) and the scenario being played (`control.play`, the `scenario`
 * option), settled in time order before each request, each control read or write, and after each
 * move of the clock; and the domain services, whose clock reads the instant of the step being applied.
 *
 * Many steps due at once (a scenario's 10,000 steps at `+0ms`, a clock jump over thousands of timed
 * runs) are applied in slices of about {@link SLICE_MS} that give the event loop a turn between them
 * ({@link Timeline.settled}), so that other sessions and other requests go on meanwhile. A request to
 * this mock waits for them: it sees every step due when it arrived. A synchronous in-process method
 * (`control.scenario()`, `control.simulateRun()` ...) applies what is still due in one go, in the
 * caller's own process.
 *
 * @module
 */
import { EventRecorder, type OutboxEntry } from '../domain/events.js';
import { recordFindingOnStack } from '../domain/findings.js';
import { setWorkspaceLabels } from '../domain/labels.js';
import { queueNotification } from '../domain/notify.js';
import type { RetentionBounds } from '../domain/retention.js';
import {
  type CheckedScenario,
  checkScenarioFits,
  type ScenarioAnswer,
  type ScenarioProgress,
} from '../domain/scenario.js';
import { type PlayedStep, ScenarioPlayer } from '../domain/scenario-player.js';
import {
  type CheckedSimulatedRun,
  type DomainServices,
  type RunStatusChange,
  simulateRunOnWorkspace,
} from '../domain/simulate.js';
import { type TimedRunAnswer, TimedRuns } from '../domain/timed-runs.js';
import { HttpError } from '../errors.js';
import { MAX_CLOCK_MS } from '../pipeline/clock.js';
import { pause, SLICE_MS, type Slice, slice, WHOLE } from '../query/pause.js';
import type { Ledger, MemoryBudget } from '../store/budget.js';
import type { AccountStore } from '../store/store.js';
import type { MockData } from './data.js';

/** What a timeline reads of the mock it belongs to. */
export interface TimelineParts {
  /** The mock's data: its store, generator, ids and build numbers (read at each use: a reset replaces them). */
  data(): Pick<MockData, 'store' | 'random' | 'newId' | 'nextBuild' | 'ledger'>;
  /** The mock's memory budget: the events, the timed runs and the scenario's steps charge what they keep. */
  readonly budget: MemoryBudget;
  /** Called for each queued notification (the webhook hub delivers it). */
  queued(account: AccountStore, entry: OutboxEntry): void;
  /** The retention bounds. */
  retention(): RetentionBounds;
  /** The mock's clock, epoch milliseconds. */
  now(): number;
  /** Told of each status a run takes (the waits for a run's status: `control.waitForRun`). Must not throw. */
  runChanged?(change: RunStatusChange): void;
}

/** The timed runs and the scenario of one mock, and the domain services its requests and steps use. */
export class Timeline {
  readonly #parts: TimelineParts;
  /**
   * The instant of the scenario step being applied (`undefined` otherwise): while a step applies, the
   * domain's clock reads it, so that what the step records is stamped with its own instant.
   */
  #stepAt: number | undefined;
  /** Events and notifications, stamped with the domain's instant. */
  readonly events: EventRecorder;
  /** The services of the domain functions (simulated runs, findings, labels). */
  readonly domain: DomainServices;
  readonly #timedRuns: TimedRuns;
  readonly #scenario: ScenarioPlayer;
  /** The budget's `events` ledger: the run-time events and the outbox entries of every account. */
  readonly #events: Ledger;
  /** The steps due being applied in slices ({@link settled}), until none is due. */
  #job: Promise<void> | undefined;

  /** Creates the timeline of a mock. */
  constructor(parts: TimelineParts) {
    this.#parts = parts;
    const at = () => this.#stepAt ?? parts.now();
    this.#events = parts.budget.ledger('events');
    this.events = new EventRecorder(() => parts.data().random, at, parts.queued, parts.retention, {
      ledger: this.#events,
      // Within `retention.eventBytes`, and never more than a quarter of the budget: the event log
      // cannot take the room the refusing stores need (it is not asked to make room).
      maxBytes: () => Math.min(parts.retention().eventBytes, Math.floor(parts.budget.limit / 4)),
    });
    this.domain = {
      now: at,
      newId: (instant) => parts.data().newId(instant ?? at()),
      nextBuild: () => parts.data().nextBuild(),
      events: this.events,
      // What the domain adds to the records (runs, labels) is charged to the data's ledger.
      get records() {
        return parts.data().ledger;
      },
      onRunStatus: (change) => parts.runChanged?.(change),
    };
    this.#timedRuns = new TimedRuns(
      this.domain,
      MAX_CLOCK_MS,
      () => this.due(),
      parts.budget.ledger('timedRuns'),
    );
    this.#scenario = new ScenarioPlayer(() => this.due(), parts.budget.ledger('scenario'));
  }

  /** A simulated run on a workspace of `accounts`: finished at once, or (with `timing`) scheduled. */
  simulateRun(
    accounts: Iterable<AccountStore>,
    workspaceId: string,
    run: CheckedSimulatedRun,
  ): ReturnType<typeof simulateRunOnWorkspace> | TimedRunAnswer {
    return run.timing
      ? this.#timedRuns.schedule(accounts, workspaceId, run, run.timing)
      : simulateRunOnWorkspace(accounts, workspaceId, run, this.domain);
  }

  /**
   * Checks that a scenario played from the clock's now ends by the clock's last instant (as a timed
   * run is checked), before its scene is loaded.
   * @throws HttpError 400 naming the first step past it.
   */
  checkFits(scenario: CheckedScenario): void {
    checkScenarioFits(scenario, this.#parts.now(), MAX_CLOCK_MS);
    // And that its steps fit the memory budget (a 409 `budget_exceeded`), before its scene is loaded.
    this.#scenario.checkRoom(scenario);
  }

  /**
   * Schedules a checked scenario's timeline (its scene just loaded) from the clock's now; starts
   * applying what is due ({@link due}: the caller awaits {@link settled} to see it applied). `force`:
   * its steps charged whatever the budget says (a reset's start scenario).
   */
  play(scenario: CheckedScenario, force = false): ScenarioAnswer {
    const answer = this.#scenario.play(this.#parts.data().store, scenario, this.#parts.now(), force);
    this.due();
    return answer;
  }

  /** How far the scenario being played has gone (after what is due). */
  progress(): ScenarioProgress {
    this.settle();
    return this.#scenario.progress();
  }

  /**
   * Applies every pending step due by the clock's now, the scenario's and the timed runs', in time
   * order: before the scenario's steps of an instant, the timed runs' steps due by then. With a
   * `slice` (default {@link WHOLE}: all of them, in one go), stops when it is spent. Answers whether
   * every step due is applied.
   */
  settle(within: Slice = WHOLE): boolean {
    const now = this.#parts.now();
    const timed = this.#timedRuns;
    this.#scenario.settle(
      now,
      (at) => {
        timed.settle(at, within);
        return !isDue(timed.nextAt(), at);
      },
      (step, at) => this.#apply(step, at),
      within,
    );
    if (!within.spent()) timed.settle(now, within);
    return !isDue(this.#scenario.nextAt(), now) && !isDue(timed.nextAt(), now);
  }

  /**
   * The steps due by the clock's now applied in slices of about {@link SLICE_MS}, with a turn of the
   * event loop between two (other requests, sessions and timers go on meanwhile): the job under way,
   * or a new one; `undefined` when no step is due. A request awaits it before it is handled.
   * Rejects only on a bug (a step's refusal is listed as skipped, not thrown).
   */
  settled(): Promise<void> | undefined {
    if (this.#job) return this.#job;
    if (this.settle(slice())) return undefined;
    const job = this.#slices().finally(() => {
      if (this.#job === job) this.#job = undefined;
    });
    this.#job = job;
    return job;
  }

  /**
   * Steps may have come due (a scenario played, the clock moved, a step's timer fired): applies a
   * first slice at once and the rest in the background ({@link settled}); what a request reads
   * waits for them.
   */
  due(): void {
    // A bug in a step rejects the job: the next request awaiting it answers a 500.
    this.settled()?.catch(() => undefined);
  }

  /** Applies the steps due, a slice per turn of the event loop, until none is due. */
  async #slices(): Promise<void> {
    do await pause();
    while (!this.settle(slice()));
  }

  /** Drops every pending step, the timed runs' and the scenario's (the data they belong to is replaced); a job under way ends at its next slice. */
  clear(): void {
    this.#timedRuns.clear();
    this.#scenario.clear();
    // The events recorded at run time go with their data.
    this.#events.releaseAll();
  }

  /**
   * Applies one step of a scenario at its instant, with the domain functions the control plane and
   * the API use. A step that no longer applies (its workspace or stack deleted through the API, a
   * bound full: an `HttpError`) is skipped: the answer says why (the scenario's progress lists it).
   */
  #apply(step: PlayedStep, at: number): string | undefined {
    this.#stepAt = at;
    try {
      const accounts = [step.account];
      if (step.kind === 'simulateRun') {
        this.simulateRun(accounts, step.workspaceId, step.run);
      } else if (step.kind === 'finding') {
        recordFindingOnStack(accounts, step.stackId, step.finding, this.events);
      } else if (step.kind === 'labels') {
        const workspace = step.account.workspaces.get(step.workspaceId);
        if (!workspace) return `${stepTarget(step)} no longer exists`;
        setWorkspaceLabels(step.account, workspace, step.labels, this.domain);
      } else {
        queueNotification(this.#parts.data().store, step.notification, this.events);
      }
      return undefined;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const target = stepTarget(step);
      return `${target ? `${target}: ` : ''}${error.status} ${error.code}: ${error.message}`;
    } finally {
      this.#stepAt = undefined;
    }
  }
}

/**
 * What a step acts on, named as the scenario names it, with its id: `the workspace "payments-prod"
 * (65f0...)`; `''` for a notification, which names nothing of the data.
 */
function stepTarget(step: PlayedStep): string {
  const name = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
  if (step.kind === 'finding') return `the stack ${name(step.name)} (${step.stackId})`;
  if (step.kind === 'notify') return '';
  return `the workspace ${name(step.name)} (${step.workspaceId})`;
}

/** Whether a step due at `next` (`undefined`: none pending) is due by `now`. */
function isDue(next: number | undefined, now: number): boolean {
  return next !== undefined && next <= now;
}
