/**
 * Runs that live in time: a simulated run with `timing` goes through its statuses on the mock's
 * clock. It does not exist before `startAfterMs`; then it is `planning`; at the plan's end the
 * guardrails are evaluated against the rules as they are then (`plan_error`, `blocked`,
 * `plan_success`, `plan_no_changes`, or `applying` when an apply follows); at the apply's end it is
 * `apply_success`, `apply_error` or `apply_no_changes`. Each step stamps the run, its tasks, its events
 * and its notifications with the step's own instant.
 *
 * - Settled when read: each run has one pending step in a {@link Timeline}; {@link TimedRuns.settle}
 *   applies the steps due by the clock (the mock calls it before each request, each control read or
 *   write, and after each move of the clock). Without a request, a wall-time timer (captured at import,
 *   so a test's fake timers do not replace it; unref'd) settles the steps while the clock runs.
 * - Bounded: at most {@link TIMED_RUN_LIMITS} `maxInFlight` runs pending at once (a further one is a
 *   409 `conflict`), and by the memory budget: each pending run is charged its checked body's measure
 *   ({@link flightBytes}) to the `timedRuns` ledger when it is scheduled (a 409 `budget_exceeded`
 *   past it, before any id is drawn), given back when it finishes or is dropped. The run it makes is
 *   a record: charged to the data's ledger (`DomainServices.records`) when it appears, as it grows.
 * - A workspace (or run) gone by the time a step is due: its steps are dropped quietly. Replacing the
 *   data (reset, seed, snapshot, scene) drops every pending step ({@link TimedRuns.clear}).
 *
 * @module
 */

import { toTimestamp, type WorkspaceRun, type WorkspaceSummary } from '@iacm/sdk/contract';
import { HttpError } from '../errors.js';
import { type Slice, WHOLE } from '../query/pause.js';
import { heapBytes, KEPT_ITEM_BYTES, type Ledger, unboundedLedger } from '../store/budget.js';
import type { FoundRun } from '../store/runs.js';
import type { AccountStore } from '../store/store.js';
import type { GuardrailEvaluation } from './evaluate.js';
import {
  applyOutcome,
  backendOf,
  type CheckedSimulatedRun,
  type DomainServices,
  evaluateRun,
  findWorkspace,
  managedAfter,
  planOutcome,
  type RunTiming,
  recordStatusChange,
  recordViolations,
  runRecord,
  runTask,
} from './simulate.js';
import { DueTimer, Timeline } from './timeline.js';

/** The bounds of timed runs. */
export const TIMED_RUN_LIMITS = Object.freeze({
  /** Timed runs not yet finished, all accounts together (a further `simulateRun` with `timing` is a 409). */
  maxInFlight: 10_000,
});

/**
 * What a pending timed run is charged to the `timedRuns` ledger, bytes: its checked body's heap
 * measure (`heapBytes`: the body is kept whole until the run finishes) and `KEPT_ITEM_BYTES` (its
 * flight: ids, build, instants, phase, and its entry in the timeline's heap).
 */
export function flightBytes(input: CheckedSimulatedRun): number {
  return heapBytes(input) + KEPT_ITEM_BYTES;
}

/** When a timed run's steps are due (ISO 8601, on the mock's clock). */
export interface RunSchedule {
  /** When the run starts, `planning`. */
  startsAt: string;
  /** When its plan ends (and the guardrails are evaluated). */
  planEndsAt: string;
  /** When its apply ends, if the plan lets it apply; `null` without `apply`. */
  applyEndsAt: string | null;
}

/**
 * The answer of a simulated run with `timing` (`202`): the id the run will have, its schedule, and
 * the run as it is now (`null` until it starts).
 */
export interface TimedRunAnswer {
  /** The run's id (the run exists from `schedule.startsAt`). */
  runId: string;
  /** The workspace's id. */
  workspaceId: string;
  /** The account's id. */
  accountId: string;
  /** When each step is due. */
  schedule: RunSchedule;
  /** The run now: `null` before `startsAt`; with `startAfterMs: 0`, `planning` (or further). */
  run: WorkspaceRun | null;
}

/** What a timed run carries from step to step. */
interface Flight {
  readonly account: AccountStore;
  readonly workspaceId: string;
  readonly runId: string;
  readonly input: CheckedSimulatedRun;
  readonly build: string;
  readonly commitId: string;
  readonly planEndsAt: number;
  readonly applyingMs: number;
  /** What it is charged to the `timedRuns` ledger ({@link flightBytes}); 0 once given back. */
  bytes: number;
  /** What its run record is charged to the data's ledger (`DomainServices.records`), once it appears. */
  recordBytes: number;
  /** The next step. */
  phase: 'start' | 'plan' | 'apply';
  planTaskId?: string;
  evaluation?: GuardrailEvaluation;
}

/** The timed runs of one mock: their pending steps, and the timer that settles them. */
export class TimedRuns {
  readonly #services: DomainServices;
  readonly #latest: number;
  readonly #timeline = new Timeline<Flight>();
  readonly #timer: DueTimer;
  readonly #ledger: Ledger;
  /** What the pending runs are charged together (what {@link clear} gives back). */
  #charged = 0;

  /**
   * @param services the mock's domain services (clock, ids, build numbers, events; `records`, the
   *   data's ledger, charged each run record as it appears).
   * @param latest the latest instant of the mock's clock: a run whose steps would fall after it is a 400.
   * @param onDue what the wall-time timer calls when a step comes due (default: {@link TimedRuns.settle};
   *   the mock settles its scenario's steps with them, in order).
   * @param ledger the memory budget's `timedRuns` ledger, charged {@link flightBytes} for each pending
   *   run. Default: `unboundedLedger('timedRuns')`.
   */
  constructor(services: DomainServices, latest: number, onDue?: () => void, ledger?: Ledger) {
    this.#services = services;
    this.#latest = latest;
    this.#timer = new DueTimer(onDue ?? (() => this.settle()));
    this.#ledger = ledger ?? unboundedLedger('timedRuns');
  }

  /** How many timed runs are not yet finished. */
  get inFlight(): number {
    return this.#timeline.size;
  }

  /** The bytes the pending runs are charged to the `timedRuns` ledger together. */
  get chargedBytes(): number {
    return this.#charged;
  }

  /**
   * Schedules a run with `timing` on the workspace of id `workspaceId` (any account; 404 otherwise):
   * its id, build number and commit are drawn now; the run appears at `startAfterMs`. 409 past
   * {@link TIMED_RUN_LIMITS}; 400 naming `timing` when a step would fall after the clock's last
   * instant; 409 `budget_exceeded` when its body ({@link flightBytes}) does not fit the memory budget.
   * Each refusal comes before any id is drawn: nothing changes.
   */
  schedule(
    accounts: Iterable<AccountStore>,
    workspaceId: string,
    input: CheckedSimulatedRun,
    timing: RunTiming,
  ): TimedRunAnswer {
    this.settle();
    const { account, workspace } = findWorkspace(accounts, workspaceId);
    if (this.#timeline.size >= TIMED_RUN_LIMITS.maxInFlight) {
      throw new HttpError(
        409,
        'conflict',
        `${TIMED_RUN_LIMITS.maxInFlight} timed runs are in flight already, the most the mock keeps (TIMED_RUN_LIMITS.maxInFlight): move the clock on (POST /__mock/clock, control.clock.advance()) to finish them, or reset`,
      );
    }
    const now = this.#services.now();
    const startsAt = now + timing.startAfterMs;
    const planEndsAt = startsAt + timing.planningMs;
    const applyEndsAt = input.apply ? planEndsAt + timing.applyingMs : undefined;
    const last = applyEndsAt ?? planEndsAt;
    if (last > this.#latest) {
      const message = `body.timing: expected steps that end by ${new Date(this.#latest).toISOString()} (the clock's last instant), received a run ending at epoch milliseconds ${last}`;
      throw new HttpError(400, 'validation_failed', message, {
        issues: [
          {
            location: 'body',
            path: 'timing',
            message,
            expected: `steps that end by ${new Date(this.#latest).toISOString()}`,
            received: `a run ending at epoch milliseconds ${last}`,
          },
        ],
      });
    }
    // Charged before anything is drawn or stored: a 409 leaves the ids and the build numbers unchanged.
    const bytes = flightBytes(input);
    this.#ledger.charge(bytes);
    this.#charged += bytes;
    // Drawn now, in the order an immediate run draws them: the same seed gives the same ids.
    const commitId = input.commitId ?? this.#services.newId(startsAt).slice(0, 7);
    const build = String(this.#services.nextBuild());
    const runId = this.#services.newId(startsAt);
    this.#timeline.add(startsAt, {
      account,
      workspaceId: workspace.id,
      runId,
      input,
      build,
      commitId,
      planEndsAt,
      applyingMs: timing.applyingMs,
      bytes,
      recordBytes: 0,
      phase: 'start',
    });
    this.settle();
    return {
      runId,
      workspaceId: workspace.id,
      accountId: account.account.id,
      schedule: {
        startsAt: toTimestamp(startsAt),
        planEndsAt: toTimestamp(planEndsAt),
        applyEndsAt: applyEndsAt === undefined ? null : toTimestamp(applyEndsAt),
      },
      run: account.runs.find(workspace.id, runId)?.run ?? null,
    };
  }

  /** When the earliest pending step is due (epoch milliseconds), or `undefined` when none is. */
  nextAt(): number | undefined {
    return this.#timeline.nextAt();
  }

  /**
   * Applies every step due by the clock (`now`, default the mock's now), earliest first; then sets
   * the timer for the next one. With a `slice`, stops when it is spent (see {@link Timeline.settle}):
   * the rest stays pending. Answers how many steps were applied.
   */
  settle(now: number = this.#services.now(), slice: Slice = WHOLE): number {
    if (this.#timeline.size === 0) return 0;
    const applied = this.#timeline.settle(
      now,
      (flight, at) => {
        const phase = flight.phase;
        try {
          this.#step(flight, at);
        } finally {
          // A step that did not move the run on to a next one was its last: the run is finished (or dropped).
          if (flight.phase === phase) this.#finish(flight);
        }
      },
      slice,
    );
    this.#arm();
    return applied;
  }

  /**
   * Drops every pending step (the data was replaced: reset, seed, snapshot, scene) and the timer;
   * what the pending runs were charged is given back.
   */
  clear(): void {
    this.#timeline.clear();
    this.#ledger.release(this.#charged);
    this.#charged = 0;
    this.#disarm();
  }

  /** A run finished (or was dropped): what it was charged goes back to the `timedRuns` ledger. */
  #finish(flight: Flight): void {
    const bytes = Math.min(flight.bytes, this.#charged);
    flight.bytes = 0;
    this.#charged -= bytes;
    this.#ledger.release(bytes);
  }

  /**
   * Charges the data's ledger for the run record as it is now (the difference from what it was
   * charged before): whatever the budget says, since the run was admitted when it was scheduled.
   */
  #chargeRecord(flight: Flight, run: WorkspaceRun): void {
    const records = this.#services.records;
    if (!records) return;
    const bytes = heapBytes(run);
    const change = bytes - flight.recordBytes;
    if (change > 0) records.charge(change, true);
    else records.release(-change);
    flight.recordBytes = bytes;
  }

  /** Applies one step of a run at its instant `at`; a run whose workspace or record is gone is dropped. */
  #step(flight: Flight, at: number): void {
    const { account, workspaceId } = flight;
    const workspace = account.workspaces.get(workspaceId);
    if (!workspace) return;
    if (flight.phase === 'start') {
      this.#start(flight, workspace, at);
      return;
    }
    const found = account.runs.find(workspaceId, flight.runId);
    if (!found) return;
    if (flight.phase === 'plan') this.#planEnd(flight, workspace, found, at);
    else this.#applyEnd(flight, workspace, found, at);
  }

  /** The run appears, `planning`. */
  #start(flight: Flight, workspace: WorkspaceSummary, at: number): void {
    const { account, input } = flight;
    const planTaskId = this.#services.newId(at);
    const resources = backendOf(workspace).managedResourceCount;
    const plan = runTask(account, workspace, input, {
      kind: 'post-plan',
      id: planTaskId,
      createdAt: at,
      updatedAt: at,
      status: 'planning',
      resources,
    });
    const run = runRecord(account, workspace, input, {
      id: flight.runId,
      build: flight.build,
      commitId: flight.commitId,
      createdAt: at,
      updatedAt: at,
      status: 'planning',
      managed: resources,
      plan,
    });
    this.#chargeRecord(flight, run);
    account.runs.append(workspace.id, run);
    account.workspaces.update({
      ...workspace,
      updatedAt: toTimestamp(at),
      lastRunStatus: { description: 'planning' },
      lastRunTime: toTimestamp(at),
      runsCount: workspace.runsCount + 1,
    });
    const from = workspace.lastRunStatus?.description ?? 'none';
    recordStatusChange(account, workspace, run.id, { from, to: 'planning' }, this.#services, at);
    flight.planTaskId = planTaskId;
    flight.phase = 'plan';
    this.#timeline.add(flight.planEndsAt, flight);
  }

  /** The plan ends: the guardrails as they are now, its outcome, and `applying` when an apply follows. */
  #planEnd(flight: Flight, workspace: WorkspaceSummary, found: FoundRun, at: number): void {
    const { account, input } = flight;
    const evaluation = evaluateRun(account, workspace, input);
    const { status, applies } = planOutcome(input, evaluation);
    const resources = backendOf(workspace).managedResourceCount;
    const plan = runTask(account, workspace, input, {
      kind: 'post-plan',
      id: flight.planTaskId ?? found.run.planTaskId,
      createdAt: Date.parse(found.run.createdAt),
      updatedAt: at,
      status,
      evaluation,
      resources,
    });
    const apply = applies
      ? runTask(account, workspace, input, {
          kind: 'post-apply',
          id: this.#services.newId(at),
          createdAt: at,
          updatedAt: at,
          status: 'applying',
          evaluation,
          resources,
        })
      : undefined;
    const to = applies ? 'applying' : status;
    const run: WorkspaceRun = {
      ...found.run,
      updatedAt: toTimestamp(at),
      status: to,
      planTaskId: plan.id,
      ...(apply ? { applyTaskId: apply.id } : {}),
      plan: [plan],
      apply: apply ? [apply] : [],
    };
    this.#chargeRecord(flight, run);
    account.runs.replace(workspace.id, found.index, run);
    account.workspaces.update({
      ...workspace,
      updatedAt: toTimestamp(at),
      lastRunStatus: { description: to },
      lastPlanTime: toTimestamp(at),
      guardrails: evaluation.outcomes.map((o) => o.ruleId),
      ...(applies ? {} : { backendSummary: { ...backendOf(workspace), managedResourceCount: resources } }),
    });
    recordViolations(account, workspace, run, evaluation, this.#services, at);
    recordStatusChange(account, workspace, run.id, { from: 'planning', to }, this.#services, at);
    if (!applies) return;
    flight.evaluation = evaluation;
    flight.phase = 'apply';
    this.#timeline.add(at + flight.applyingMs, flight);
  }

  /** The apply ends: its outcome, the backend's resources, `lastApplyTime`. */
  #applyEnd(flight: Flight, workspace: WorkspaceSummary, found: FoundRun, at: number): void {
    const { account, input } = flight;
    const status = applyOutcome(input);
    const managed = managedAfter(workspace, input, status);
    const started = found.run.apply?.[0];
    const apply = runTask(account, workspace, input, {
      kind: 'post-apply',
      id: started?.id ?? found.run.applyTaskId ?? this.#services.newId(at),
      createdAt: started ? Date.parse(started.createdAt) : at,
      updatedAt: at,
      status,
      evaluation: flight.evaluation,
      resources: managed,
    });
    const backendSummary = { ...backendOf(workspace), managedResourceCount: managed };
    const run: WorkspaceRun = {
      ...found.run,
      updatedAt: toTimestamp(at),
      status,
      backendSummary,
      applyTaskId: apply.id,
      apply: [apply],
    };
    this.#chargeRecord(flight, run);
    account.runs.replace(workspace.id, found.index, run);
    account.workspaces.update({
      ...workspace,
      updatedAt: toTimestamp(at),
      lastRunStatus: { description: status },
      lastApplyTime: toTimestamp(at),
      backendSummary,
    });
    recordStatusChange(account, workspace, run.id, { from: 'applying', to: status }, this.#services, at);
  }

  /** Sets the wall-time timer for the earliest pending step (`DueTimer`). */
  #arm(): void {
    this.#timer.arm(this.#timeline.nextAt(), this.#services.now());
  }

  #disarm(): void {
    this.#timer.disarm();
  }
}
