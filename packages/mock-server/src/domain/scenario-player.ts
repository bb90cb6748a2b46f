/**
 * Playing a scenario's timeline on the mock's clock: {@link ScenarioPlayer.play} resolves each
 * checked step's names (account, workspace, stack) to the ids of the data just loaded from the
 * scene, and schedules it at the start plus its `at` in a {@link Timeline}; {@link
 * ScenarioPlayer.settle} hands the mock every step due by an instant, in `at` order (ties in timeline
 * order), so that the mock applies it with the same domain functions as the control plane, stamped
 * with the step's own instant. Settled when read, as timed runs are: the mock settles before each
 * request, each control read or write and after each move of the clock; a wall-time timer
 * ({@link DueTimer}) settles while the clock runs.
 *
 * The pending steps are charged to the memory budget's `scenario` ledger when played (each by
 * {@link stepBytes}: a 409 `budget_exceeded` past the budget, before anything changes), and given
 * back as each step is applied (or skipped) and when the steps are dropped.
 *
 * @module
 */
import { toTimestamp } from '@iacm/sdk/contract';
import { type Slice, type Steps, WHOLE } from '../query/pause.js';
import { heapBytes, type Ledger, unboundedLedger } from '../store/budget.js';
import type { AccountStore, Store } from '../store/store.js';
import type { CheckedFinding } from './findings.js';
import type { CheckedNotification } from './notify.js';
import {
  CHECK_STEP,
  type CheckedScenario,
  MAX_LISTED_SKIPS,
  type ScenarioAnswer,
  type ScenarioProgress,
  type SkippedStep,
} from './scenario.js';
import type { CheckedSimulatedRun } from './simulate.js';
import { DueTimer, Timeline } from './timeline.js';

/** A step of a played scenario, its names resolved to the ids of the loaded data. */
export type PlayedStep = { index: number } & (
  | {
      kind: 'simulateRun';
      account: AccountStore;
      workspaceId: string;
      name: string;
      run: CheckedSimulatedRun;
    }
  | { kind: 'finding'; account: AccountStore; stackId: string; name: string; finding: CheckedFinding }
  | { kind: 'labels'; account: AccountStore; workspaceId: string; name: string; labels: string[] }
  | { kind: 'notify'; account: AccountStore; notification: CheckedNotification }
);

/**
 * What a pending step takes besides its checked step, bytes: the played step (names resolved to
 * ids) and its entry in the timeline's heap: 256.
 */
export const STEP_OVERHEAD_BYTES = 256;

/**
 * What a pending step of a scenario is charged to the `scenario` ledger, bytes: its checked step's
 * heap measure (`heapBytes`: the step keeps its action, a simulated run's whole body included) and
 * {@link STEP_OVERHEAD_BYTES}.
 */
export function stepBytes(step: CheckedScenario['timeline'][number]): number {
  let bytes = STEP_BYTES.get(step);
  if (bytes === undefined) {
    bytes = heapBytes(step) + STEP_OVERHEAD_BYTES;
    STEP_BYTES.set(step, bytes);
  }
  return bytes;
}

/**
 * Each checked step's {@link stepBytes}, measured once: a scenario is measured when it is checked
 * against the budget, again when played, and at each reset that plays it again.
 */
const STEP_BYTES = new WeakMap<CheckedScenario['timeline'][number], number>();

/**
 * Measures every step of a checked scenario ({@link stepBytes}) in steps of `CHECK_STEP` steps
 * (`query/pause.ts`), so that the check in slices (`scenarioCheckSteps`) pays for it a slice at a
 * time rather than the budget check that follows in one go.
 */
export function* measureSteps(scenario: CheckedScenario): Steps {
  const { timeline } = scenario;
  for (let i = 0; i < timeline.length; i++) {
    if (i > 0 && i % CHECK_STEP === 0) yield;
    stepBytes(timeline[i] as CheckedScenario['timeline'][number]);
  }
}

/** A pending step, with what it is charged. */
interface Charged {
  readonly step: PlayedStep;
  readonly bytes: number;
}

/** What a played scenario has done so far (see {@link ScenarioProgress}). */
interface Played {
  answer: ScenarioAnswer;
  applied: number;
  skippedCount: number;
  skipped: SkippedStep[];
}

/** Names to ids in one account, each map made once per play (one pass over the records). */
class AccountNames {
  #workspaces: Map<string, string> | undefined;
  #stacks: Map<string, string> | undefined;

  constructor(readonly account: AccountStore) {}

  workspace(name: string): string | undefined {
    this.#workspaces ??= new Map([...this.account.workspaces.values()].map((w) => [w.workspaceName, w.id]));
    return this.#workspaces.get(name);
  }

  stack(name: string): string | undefined {
    this.#stacks ??= new Map(this.account.explorer.stacks.map((s) => [s.name, s.id]));
    return this.#stacks.get(name);
  }
}

/** The pending steps of the scenario a mock plays (one at a time: playing again replaces them). */
export class ScenarioPlayer {
  readonly #timeline = new Timeline<Charged>();
  readonly #timer: DueTimer;
  readonly #ledger: Ledger;
  /** What the pending steps are charged together. */
  #charged = 0;
  #settling = false;
  /** The scenario being played (or played to its end), until the data is replaced. */
  #played: Played | undefined;

  /**
   * @param onDue what the wall-time timer calls when a step comes due (the mock settles then).
   * @param ledger the memory budget's `scenario` ledger, charged {@link stepBytes} for each pending
   *   step. Default: `unboundedLedger('scenario')`.
   */
  constructor(onDue: () => void, ledger?: Ledger) {
    this.#timer = new DueTimer(onDue);
    this.#ledger = ledger ?? unboundedLedger('scenario');
  }

  /** How many steps are pending. */
  get pending(): number {
    return this.#timeline.size;
  }

  /** The bytes the pending steps are charged to the `scenario` ledger together. */
  get chargedBytes(): number {
    return this.#charged;
  }

  /**
   * Checks that a scenario's steps fit the memory budget in place of the pending ones, before its
   * scene is loaded (as {@link play} would charge them, all steps counted).
   * @throws HttpError 409 `budget_exceeded` naming the `scenario` store (nothing changes).
   */
  checkRoom(scenario: CheckedScenario): void {
    const change = scenarioBytes(scenario) - this.#charged;
    if (change <= 0 || this.#ledger.fits(change)) return;
    // The budget's own refusal (the charge throws; nothing is charged).
    this.#ledger.charge(change);
    this.#ledger.release(change);
  }

  /** When the earliest pending step is due (epoch milliseconds), or `undefined` when none is. */
  nextAt(): number | undefined {
    return this.#timeline.nextAt();
  }

  /**
   * Schedules a checked scenario's steps from `start` (epoch milliseconds), its names resolved in
   * `store` (the data loaded from its scene: accounts in the scene's order), after dropping any
   * pending step. A name the data does not hold (it always does: the scene was checked) drops its step.
   * The steps kept are charged to the `scenario` ledger in place of the pending ones.
   * `force` charges them whatever the budget says (a reset playing the start scenario again).
   * @throws HttpError 409 `budget_exceeded` when they do not fit the budget: nothing changes (the
   *   pending steps stay).
   */
  play(store: Store, scenario: CheckedScenario, start: number, force = false): ScenarioAnswer {
    const accounts = [...store.accounts.values()].map((account) => new AccountNames(account));
    let last = start;
    const unresolved: SkippedStep[] = [];
    const resolved: Array<{ at: number; charged: Charged }> = [];
    let bytes = 0;
    scenario.timeline.forEach((step, index) => {
      const at = start + step.at;
      last = Math.max(last, at);
      const names = accounts[step.account];
      const played = names ? resolve(names, step.action, index) : undefined;
      if (played) {
        const charged = { step: played, bytes: stepBytes(step) };
        bytes += charged.bytes;
        resolved.push({ at, charged });
      } else unresolved.push(skip(index, step.action.kind, at, 'a name it uses is not in the data'));
    });
    // In place of the pending steps: only the difference must fit (a 409 changes nothing).
    const change = bytes - this.#charged;
    if (change > 0) this.#ledger.charge(change, force);
    else this.#ledger.release(-change);
    this.#charged = bytes;
    this.#drop();
    for (const { at, charged } of resolved) this.#timeline.add(at, charged);
    const answer: ScenarioAnswer = {
      status: 'playing',
      steps: scenario.timeline.length,
      startsAt: toTimestamp(start),
      endsAt: toTimestamp(last),
    };
    this.#played = { answer, applied: 0, skippedCount: 0, skipped: [] };
    for (const skipped of unresolved) this.#skipped(skipped);
    return answer;
  }

  /** How far the scenario has gone: steps applied, skipped (the first ones listed, with why) and pending. */
  progress(): ScenarioProgress {
    const played = this.#played;
    if (!played) return { status: 'none' };
    const { answer, applied, skippedCount, skipped } = played;
    return {
      status: this.#timeline.size > 0 ? 'playing' : 'finished',
      steps: answer.steps,
      applied,
      pending: this.#timeline.size,
      skippedCount,
      skipped: skipped.map((s) => ({ ...s })),
      startsAt: answer.startsAt,
      endsAt: answer.endsAt,
    };
  }

  /** Counts a skipped step, and lists it while fewer than {@link MAX_LISTED_SKIPS} are. */
  #skipped(step: SkippedStep): void {
    const played = this.#played;
    if (!played) return;
    played.skippedCount += 1;
    if (played.skipped.length < MAX_LISTED_SKIPS) played.skipped.push(step);
  }

  /**
   * Hands `apply` every step due by `now`, earliest first (ties in timeline order); before the steps of
   * each instant, calls `before(at)` (the mock settles its timed runs up to that instant first, so
   * that both go in time order; it answers whether all of theirs due by then are applied). `apply`
   * answers why a step was skipped, or `undefined` when it was applied. A call made while settling
   * does nothing. With a `slice`, stops when it is spent (or when `before` could not finish): the
   * rest stays pending for the next call. Then sets the timer for the next step. Answers how many
   * steps were handed.
   */
  settle(
    now: number,
    before: (at: number) => boolean,
    apply: (step: PlayedStep, at: number) => string | undefined,
    slice: Slice = WHOLE,
  ): number {
    if (this.#settling || this.#timeline.size === 0) return 0;
    this.#settling = true;
    let applied = 0;
    try {
      for (;;) {
        const next = this.#timeline.nextAt();
        if (next === undefined || next > now) break;
        // The timed runs' steps due by this instant go first; a slice spent on them stops here.
        if (!before(next)) break;
        applied += this.#timeline.settle(
          next,
          ({ step, bytes }, at) => {
            // Out of the timeline: its charge goes back whatever the step does.
            this.#release(bytes);
            const reason = apply(step, at);
            if (reason === undefined) {
              if (this.#played) this.#played.applied += 1;
            } else {
              this.#skipped(skip(step.index, step.kind, at, reason));
            }
          },
          slice,
        );
        if (slice.spent()) break;
      }
    } finally {
      this.#settling = false;
    }
    this.#timer.arm(this.#timeline.nextAt(), now);
    return applied;
  }

  /**
   * Drops every pending step (the data was replaced: reset, seed, snapshot, scene) and the timer;
   * what they were charged is given back.
   */
  clear(): void {
    this.#release(this.#charged);
    this.#drop();
  }

  /** Forgets the scenario, its pending steps and the timer (their charges are the caller's). */
  #drop(): void {
    this.#played = undefined;
    this.#timeline.clear();
    this.#timer.disarm();
  }

  /** Gives back `bytes` of what the pending steps are charged. */
  #release(bytes: number): void {
    const released = Math.min(bytes, this.#charged);
    this.#charged -= released;
    this.#ledger.release(released);
  }
}

/** What every step of a scenario would be charged together ({@link stepBytes}). */
function scenarioBytes(scenario: CheckedScenario): number {
  let bytes = 0;
  for (const step of scenario.timeline) bytes += stepBytes(step);
  return bytes;
}

/** A skipped step as listed, its reason clipped to 300 characters. */
function skip(index: number, kind: string, at: number, reason: string): SkippedStep {
  return {
    step: index,
    kind,
    at: toTimestamp(at),
    reason: reason.length > 300 ? `${reason.slice(0, 297)}...` : reason,
  };
}

/**
 * The `index`-th step's action with its names resolved, or `undefined` when the data lacks a name.
 */
function resolve(
  names: AccountNames,
  action: CheckedScenario['timeline'][number]['action'],
  index: number,
): PlayedStep | undefined {
  const account = names.account;
  switch (action.kind) {
    case 'simulateRun': {
      const workspaceId = names.workspace(action.workspace);
      return workspaceId
        ? { index, kind: 'simulateRun', account, workspaceId, name: action.workspace, run: action.run }
        : undefined;
    }
    case 'labels': {
      const workspaceId = names.workspace(action.workspace);
      return workspaceId
        ? { index, kind: 'labels', account, workspaceId, name: action.workspace, labels: action.labels }
        : undefined;
    }
    case 'finding': {
      const stackId = names.stack(action.stack);
      return stackId
        ? { index, kind: 'finding', account, stackId, name: action.stack, finding: action.finding }
        : undefined;
    }
    case 'notify':
      return {
        index,
        kind: 'notify',
        account,
        notification: { ...action.notification, accountId: account.account.id },
      };
  }
}
