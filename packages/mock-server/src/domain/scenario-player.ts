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
 * @module
 */
import { toTimestamp } from '@iacm/sdk/contract';
import type { AccountStore, Store } from '../store/store.js';
import type { CheckedFinding } from './findings.js';
import type { CheckedNotification } from './notify.js';
import type { CheckedScenario, ScenarioAnswer } from './scenario.js';
import type { CheckedSimulatedRun } from './simulate.js';
import { DueTimer, Timeline } from './timeline.js';

/** A step of a played scenario, its names resolved to the ids of the loaded data. */
export type PlayedStep =
  | { kind: 'simulateRun'; account: AccountStore; workspaceId: string; run: CheckedSimulatedRun }
  | { kind: 'finding'; account: AccountStore; stackId: string; finding: CheckedFinding }
  | { kind: 'labels'; account: AccountStore; workspaceId: string; labels: string[] }
  | { kind: 'notify'; account: AccountStore; notification: CheckedNotification };

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
  readonly #timeline = new Timeline<PlayedStep>();
  readonly #timer: DueTimer;
  #settling = false;

  /** @param onDue what the wall-time timer calls when a step comes due (the mock settles then). */
  constructor(onDue: () => void) {
    this.#timer = new DueTimer(onDue);
  }

  /** How many steps are pending. */
  get pending(): number {
    return this.#timeline.size;
  }

  /** When the earliest pending step is due (epoch milliseconds), or `undefined` when none is. */
  nextAt(): number | undefined {
    return this.#timeline.nextAt();
  }

  /**
   * Schedules a checked scenario's steps from `start` (epoch milliseconds), its names resolved in
   * `store` (the data loaded from its scene: accounts in the scene's order), after dropping any
   * pending step. A name the data does not hold (it always does: the scene was checked) drops its step.
   */
  play(store: Store, scenario: CheckedScenario, start: number): ScenarioAnswer {
    this.clear();
    const accounts = [...store.accounts.values()].map((account) => new AccountNames(account));
    let last = start;
    for (const step of scenario.timeline) {
      const names = accounts[step.account];
      if (!names) continue;
      const played = resolve(names, step.action);
      if (!played) continue;
      const at = start + step.at;
      last = Math.max(last, at);
      this.#timeline.add(at, played);
    }
    return {
      status: 'playing',
      steps: scenario.timeline.length,
      startsAt: toTimestamp(start),
      endsAt: toTimestamp(last),
    };
  }

  /**
   * Hands `apply` every step due by `now`, earliest first (ties in timeline order); before the steps of
   * each instant, calls `before(at)` (the mock settles its timed runs up to that instant first, so
   * that both go in time order). A call made while settling does nothing. Then sets the timer for the
   * next step. Answers how many steps were handed.
   */
  settle(now: number, before: (at: number) => void, apply: (step: PlayedStep, at: number) => void): number {
    if (this.#settling || this.#timeline.size === 0) return 0;
    this.#settling = true;
    let applied = 0;
    try {
      for (;;) {
        const next = this.#timeline.nextAt();
        if (next === undefined || next > now) break;
        before(next);
        applied += this.#timeline.settle(next, apply);
      }
    } finally {
      this.#settling = false;
    }
    this.#timer.arm(this.#timeline.nextAt(), now);
    return applied;
  }

  /** Drops every pending step (the data was replaced: reset, seed, snapshot, scene) and the timer. */
  clear(): void {
    this.#timeline.clear();
    this.#timer.disarm();
  }
}

/** A checked step's action with its names resolved, or `undefined` when the data lacks a name. */
function resolve(
  names: AccountNames,
  action: CheckedScenario['timeline'][number]['action'],
): PlayedStep | undefined {
  const account = names.account;
  switch (action.kind) {
    case 'simulateRun': {
      const workspaceId = names.workspace(action.workspace);
      return workspaceId ? { kind: 'simulateRun', account, workspaceId, run: action.run } : undefined;
    }
    case 'labels': {
      const workspaceId = names.workspace(action.workspace);
      return workspaceId ? { kind: 'labels', account, workspaceId, labels: action.labels } : undefined;
    }
    case 'finding': {
      const stackId = names.stack(action.stack);
      return stackId ? { kind: 'finding', account, stackId, finding: action.finding } : undefined;
    }
    case 'notify':
      return {
        kind: 'notify',
        account,
        notification: { ...action.notification, accountId: account.account.id },
      };
  }
}
