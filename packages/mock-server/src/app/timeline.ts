/**
 * A mock's timeline: what happens on its clock without a request. The timed runs' pending steps
 * (`simulateRun` with `timing`) and the scenario being played (`control.play`, the `scenario`
 * option), settled in time order before each request, each control read or write, and after each
 * move of the clock; and the domain services, whose clock reads the instant of the step being applied.
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
import { type CheckedSimulatedRun, type DomainServices, simulateRunOnWorkspace } from '../domain/simulate.js';
import { type TimedRunAnswer, TimedRuns } from '../domain/timed-runs.js';
import { HttpError } from '../errors.js';
import { MAX_CLOCK_MS } from '../pipeline/clock.js';
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
    };
    this.#timedRuns = new TimedRuns(
      this.domain,
      MAX_CLOCK_MS,
      () => this.settle(),
      parts.budget.ledger('timedRuns'),
    );
    this.#scenario = new ScenarioPlayer(() => this.settle(), parts.budget.ledger('scenario'));
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
   * Schedules a checked scenario's timeline (its scene just loaded) from the clock's now; applies what
   * is due. `force`: its steps charged whatever the budget says (a reset's start scenario).
   */
  play(scenario: CheckedScenario, force = false): ScenarioAnswer {
    const answer = this.#scenario.play(this.#parts.data().store, scenario, this.#parts.now(), force);
    this.settle();
    return answer;
  }

  /** How far the scenario being played has gone (after what is due). */
  progress(): ScenarioProgress {
    this.settle();
    return this.#scenario.progress();
  }

  /**
   * Applies every pending step due by the clock's now, the scenario's and the timed runs', in time
   * order: before the scenario's steps of an instant, the timed runs' steps due by then.
   */
  settle(): void {
    const now = this.#parts.now();
    this.#scenario.settle(
      now,
      (at) => this.#timedRuns.settle(at),
      (step, at) => this.#apply(step, at),
    );
    this.#timedRuns.settle(now);
  }

  /** Drops every pending step, the timed runs' and the scenario's (the data they belong to is replaced). */
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
        if (!workspace) return `the workspace ${step.workspaceId} no longer exists`;
        setWorkspaceLabels(step.account, workspace, step.labels, this.domain);
      } else {
        queueNotification(this.#parts.data().store, step.notification, this.events);
      }
      return undefined;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return `${error.status} ${error.code}: ${error.message}`;
    } finally {
      this.#stepAt = undefined;
    }
  }
}
