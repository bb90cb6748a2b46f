/**
 * A scenario that would end after the clock's last instant is refused as a timed run is (issue 34,
 * finding 19): a 400 naming the step, before anything changes, in process, over HTTP and as the
 * `scenario` option; one that ends by then plays.
 */
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import type { Scenario } from '../../src/domain/scenario.js';
import { MAX_CLOCK_MS } from '../../src/pipeline/clock.js';
import { expectError, rejection, setup } from '../helpers.js';

const SCENE = { accounts: [{ name: 'Acme', workspaces: [{ name: 'payments-prod' }] }] };
/** A minute before the clock's last instant. */
const clock = () => MAX_CLOCK_MS - 60_000;
const last = new Date(MAX_CLOCK_MS).toISOString();

describe("a scenario past the clock's last instant", () => {
  it('is refused naming the step, in process and over HTTP alike, and the data stays', async () => {
    const m = await setup({ clock, seed: 4, sizes: { workspaces: 3, events: 0 } });
    const before = JSON.stringify(await m.core.control.getState());
    const scenario: Scenario = {
      scene: SCENE,
      timeline: [
        { at: '+30s', simulateRun: { workspace: 'payments-prod' } },
        { at: '+2m', simulateRun: { workspace: 'payments-prod' } },
      ],
    };
    const local = await rejection(m.core.control.play(scenario));
    expect(local.status).toBe(400);
    expect(local.message).toBe(
      `scenario.timeline[1].at: expected a step that ends by ${last} (the clock's last instant) when played from the clock's now, received one ending at epoch milliseconds ${MAX_CLOCK_MS + 60_000}`,
    );
    expect(local.issues?.map((i) => i.path)).toEqual(['timeline[1].at']);
    const http = expectError(
      await m.call('POST', '/__mock/scenario', { token: null, body: scenario }),
      400,
      'validation_failed',
    );
    expect(http.issues).toEqual(local.issues);
    expect(JSON.stringify(await m.core.control.getState())).toBe(before);
    expect(m.core.control.scenarioProgress()).toEqual({ status: 'none' });
  });

  it("counts a timed run's steps: a run started in time whose apply would end after it is refused", async () => {
    const core = new MockCore({ clock, sizes: { workspaces: 3, events: 0 } });
    const timing = { planningMs: 30_000, applyingMs: 40_000 };
    const late: Scenario = {
      scene: SCENE,
      timeline: [{ at: '+0ms', simulateRun: { workspace: 'payments-prod', apply: true, timing } }],
    };
    const error = await rejection(core.control.play(late));
    expect(error.issues?.[0]?.path).toBe('timeline[0].at');
    // Without the apply, the plan ends in time.
    const planOnly: Scenario = {
      scene: SCENE,
      timeline: [{ at: '+0ms', simulateRun: { workspace: 'payments-prod', timing } }],
    };
    await expect(core.control.play(planOnly)).resolves.toMatchObject({ status: 'playing', steps: 1 });
  });

  it('is refused as the scenario option, and one that ends in time starts', () => {
    const past: Scenario = {
      scene: SCENE,
      timeline: [{ at: '+1h', simulateRun: { workspace: 'payments-prod' } }],
    };
    expect(() => new MockCore({ clock, scenario: past })).toThrow(
      /^scenario\.timeline\[0\]\.at: expected a step that ends by/,
    );
    const inTime: Scenario = {
      scene: SCENE,
      timeline: [{ at: '+59s', simulateRun: { workspace: 'payments-prod' } }],
    };
    expect(new MockCore({ clock, scenario: inTime }).control.scenarioProgress()).toMatchObject({
      status: 'playing',
    });
  });
});
