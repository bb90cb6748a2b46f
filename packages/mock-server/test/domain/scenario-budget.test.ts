/**
 * The scenario player charges the memory budget: its pending steps are charged to `scenario` when
 * played (each `stepBytes`), given back as each is applied and when they are dropped; a play past
 * the budget is a 409 `budget_exceeded` naming the store, and the steps pending before stay.
 * Counted, never timed.
 */
import { describe, expect, it } from 'vitest';
import type { CheckedScenario, CheckedScenarioStep } from '../../src/domain/scenario.js';
import {
  type PlayedStep,
  ScenarioPlayer,
  STEP_OVERHEAD_BYTES,
  stepBytes,
} from '../../src/domain/scenario-player.js';
import { heapBytes, MemoryBudget } from '../../src/store/budget.js';
import { generateState } from '../../src/store/seed.js';
import { Store } from '../../src/store/store.js';
import { refusal } from '../helpers.js';

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);

function world(limit = Number.POSITIVE_INFINITY) {
  const store = new Store(generateState({ seed: 9, sizes: { accounts: 1, workspaces: 2 } }));
  const workspace = [...(store.accounts.values().next().value?.workspaces.values() ?? [])][0];
  if (!workspace) throw new Error('expected a workspace');
  const budget = new MemoryBudget(limit);
  const player = new ScenarioPlayer(() => {}, budget.ledger('scenario'));
  /** A scenario of `n` labels steps, one a second, of `size` labels of 128 characters. */
  const scenario = (n: number, size = 10): CheckedScenario => ({
    scene: {} as CheckedScenario['scene'],
    timeline: Array.from(
      { length: n },
      (_, i): CheckedScenarioStep => ({
        at: (i + 1) * 1000,
        account: 0,
        action: {
          kind: 'labels',
          workspace: workspace.workspaceName,
          labels: Array.from({ length: size }, (_, k) => `${i}-${k}-`.padEnd(128, 'l')),
        },
      }),
    ),
  });
  const applied: PlayedStep[] = [];
  const settle = (now: number) =>
    player.settle(
      now,
      () => true,
      (step) => {
        applied.push(step);
        return undefined;
      },
    );
  return { store, budget, player, scenario, settle, applied };
}

const total = (scenario: CheckedScenario) =>
  scenario.timeline.reduce((sum, step) => sum + stepBytes(step), 0);

describe('the scenario player and the memory budget', () => {
  it('charges the pending steps when played, and gives each back as it is applied', () => {
    const w = world();
    const scenario = w.scenario(4);
    const step = scenario.timeline[0] as CheckedScenarioStep;
    expect(stepBytes(step)).toBe(heapBytes(step) + STEP_OVERHEAD_BYTES);
    w.player.play(w.store, scenario, T0);
    expect(w.budget.view().stores.scenario).toBe(total(scenario));
    w.settle(T0 + 2000);
    expect(w.applied).toHaveLength(2);
    expect(w.budget.view().stores.scenario).toBe(
      total({ ...scenario, timeline: scenario.timeline.slice(2) }),
    );
    w.settle(T0 + 10_000);
    expect(w.player.pending).toBe(0);
    expect(w.budget.view().stores.scenario).toBe(0);
  });

  it('charges a new play in place of the pending steps, and gives everything back on clear', () => {
    const w = world();
    w.player.play(w.store, w.scenario(4), T0);
    const second = w.scenario(2);
    w.player.play(w.store, second, T0);
    expect(w.budget.view().stores.scenario).toBe(total(second));
    w.player.clear();
    expect(w.budget.view().stores.scenario).toBe(0);
    expect(w.budget.used).toBe(0);
  });

  it('refuses a play past the budget with a 409 naming scenario, the pending steps kept', () => {
    const w = world(64 * 1024);
    const first = w.scenario(2);
    w.player.play(w.store, first, T0);
    const big = w.scenario(40, 50);
    expect(total(big)).toBeGreaterThan(64 * 1024);
    const checked = refusal(() => w.player.checkRoom(big));
    expect([checked.status, checked.code]).toEqual([409, 'budget_exceeded']);
    const error = refusal(() => w.player.play(w.store, big, T0));
    expect([error.status, error.code]).toEqual([409, 'budget_exceeded']);
    expect(error.message).toMatch(/^scenario \(the scenario’s pending steps\) would take/);
    expect(w.player.pending).toBe(2);
    expect(w.player.progress()).toMatchObject({ status: 'playing', steps: 2, pending: 2 });
    expect(w.budget.view().stores.scenario).toBe(total(first));
    // One that fits in place of the pending steps passes the check.
    w.player.checkRoom(w.scenario(3));
  });
});
