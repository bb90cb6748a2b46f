/**
 * A scenario's check in slices (issue 34): 10,000 steps take 20 to 100 ms to check, so `control.play`
 * and `POST /__mock/scenario` check them a slice at a time (`scenarioCheckSteps`, run by `drive`).
 * The check in steps answers what the whole check answers, refuses with the same 400, and stops every
 * `CHECK_STEP` steps (counted, never timed).
 */
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { checkScenarioBody, scenarioCheckSteps } from '../../src/control/scenario.js';
import { CHECK_STEP } from '../../src/domain/scenario.js';
import { drain } from '../../src/query/pause.js';

const SCENE = { seed: 7, accounts: [{ name: 'Acme', workspaces: [{ name: 'payments-prod', runs: [] }] }] };

/** A timeline of `n` simulated runs, a minute apart. */
function timeline(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    at: `+${i + 1}m`,
    simulateRun: { workspace: 'payments-prod', title: `run ${i}` },
  }));
}

/** What the check throws, as its status, code and message. */
function thrown(check: () => unknown) {
  try {
    check();
  } catch (error) {
    const { status, code, message } = error as { status: number; code: string; message: string };
    return { status, code, message };
  }
  throw new Error('the check passed');
}

describe("a scenario's check in steps", () => {
  it('stops every CHECK_STEP steps of its timeline and answers what the whole check answers', () => {
    const scenario = { scene: SCENE, timeline: timeline(1000) };
    const steps = scenarioCheckSteps(scenario);
    let stops = 0;
    let step = steps.next();
    while (!step.done) {
      stops += 1;
      step = steps.next();
    }
    // Once per CHECK_STEP steps parsed, once after the scene, once per CHECK_STEP steps checked and
    // once per CHECK_STEP steps measured for the budget.
    expect(stops).toBe(3 * Math.floor((1000 - 1) / CHECK_STEP) + 1);
    expect(JSON.stringify(step.value)).toBe(JSON.stringify(checkScenarioBody(scenario)));
  });

  it('refuses a bad step, a bad reference or an unknown member with the 400 the schema gives', () => {
    const steps = timeline(700);
    const cases = [
      { scene: SCENE, timeline: steps.map((s, i) => (i === 600 ? { ...s, at: { later: true } } : s)) },
      { scene: SCENE, timeline: steps.map((s, i) => (i === 650 ? { ...s, extra: 1 } : s)) },
      {
        scene: SCENE,
        timeline: steps.map((s, i) => (i === 300 ? { at: s.at, simulateRun: { workspace: 'nowhere' } } : s)),
      },
      { scene: SCENE, timeline: steps, more: true },
      { scene: SCENE, timeline: timeline(10_001) },
    ];
    for (const scenario of cases) {
      const error = thrown(() => drain(scenarioCheckSteps(scenario)));
      expect(error.status).toBe(400);
      expect(error.code).toBe('validation_failed');
      expect(error.message).toMatch(/^scenario\./);
    }
    expect(thrown(() => drain(scenarioCheckSteps(cases[0]))).message).toMatch(
      /^scenario\.timeline\[600\]\.at/,
    );
    expect(thrown(() => drain(scenarioCheckSteps(cases[2]))).message).toMatch(
      /^scenario\.timeline\[300\]\.simulateRun\.workspace: expected the name of one of/,
    );
  });

  it('lets a timer run while POST /__mock/scenario checks 10,000 steps, then plays them', async () => {
    const core = new MockCore({ sizes: { workspaces: 3, events: 0 } });
    let fired = false;
    setTimeout(() => {
      fired = true;
    }, 0);
    // Fired before the check is done: the answer comes after it.
    const res = await core.handle({
      method: 'POST',
      path: '/__mock/scenario',
      headers: { 'content-type': 'application/json' },
      body: { scene: SCENE, timeline: timeline(10_000) },
    });
    expect(res.status).toBe(200);
    expect(fired).toBe(true);
    expect((await core.control.scenarioProgress()) as { pending?: number }).toMatchObject({
      pending: 10_000,
    });
  });
});
