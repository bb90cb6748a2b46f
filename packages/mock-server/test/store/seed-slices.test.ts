/**
 * The seed generator in slices (issue 34, finding 21): the generation is a generator that yields
 * every so often, so that `drive` (`query/pause.ts`) runs it in slices that give the event loop a
 * turn. What it generates is the same, byte for byte, run whole or in slices; the points where it
 * may stop come every few records (counted, not timed); a timer set before a large generation fires
 * while it runs; the template's freezing goes in steps too.
 */
import { describe, expect, it } from 'vitest';
import { checkSceneBody } from '../../src/control/scene.js';
import { drain, drive } from '../../src/query/pause.js';
import type { RunSource } from '../../src/store/runs.js';
import { STEP_RECORDS } from '../../src/store/seed/helpers.js';
import {
  generateLazyState,
  generateSceneState,
  type LazyState,
  lazyStateSteps,
  sceneStateSteps,
} from '../../src/store/seed.js';
import { DataTemplate } from '../../src/store/template.js';

/** Everything a lazily stored seed holds, as JSON: the state, every account's runs replayed and events. */
function lazyText({ state, runs, events }: LazyState): string {
  const replayed = (source: RunSource) => source.workspaceIds.map((_, i) => source.replay(i));
  return JSON.stringify({ state, runs: runs.map(replayed), events: events.map((log) => [...log.values()]) });
}

const SIZES = [
  {},
  { accounts: 2, workspaces: 300, runsPerWorkspace: 4, rules: 40, stacks: 50, events: 3000, integrations: 7 },
  { accounts: 1, workspaces: 0, rules: 0, stacks: 0, events: 0 },
  { accounts: 4, workspaces: 40, runsPerWorkspace: 0, rules: 300, stacks: 0, events: 200 },
];

describe('the seed generator in slices', () => {
  it.each(SIZES)('generates the same data in slices as whole (sizes %o)', async (sizes) => {
    const whole = generateLazyState({ seed: 'slices', sizes });
    const sliced = await drive(lazyStateSteps({ seed: 'slices', sizes }));
    expect(lazyText(sliced)).toBe(lazyText(whole));
    // Run whole through its steps too (what `generateLazyState` does).
    expect(lazyText(drain(lazyStateSteps({ seed: 'slices', sizes })))).toBe(lazyText(whole));
  });

  it("generates a scene's state in slices as whole", async () => {
    const scene = checkSceneBody({
      seed: 3,
      accounts: [
        {
          name: 'Pinned',
          workspaces: [{ name: 'api-prod', runs: [{ status: 'apply_success' }] }, { name: 'web' }],
        },
        {},
      ],
    });
    const whole = JSON.stringify(generateSceneState(scene));
    expect(JSON.stringify(await drive(sceneStateSteps(scene)))).toBe(whole);
    expect(JSON.stringify(drain(sceneStateSteps(scene)))).toBe(whole);
  });

  it('stops every few records: a bounded count of records between two points where it may stop', () => {
    // Progress counts every workspace (once its runs are made) and every event, one by one.
    let done = 0;
    const job = lazyStateSteps({
      seed: 'steps',
      sizes: { accounts: 2, workspaces: 2000, runsPerWorkspace: 3, rules: 30, events: 20_000 },
      onProgress: (d) => {
        done = d;
      },
      progressEvery: 1,
    });
    let stops = 0;
    let last = 0;
    let most = 0;
    for (let step = job.next(); !step.done; step = job.next()) {
      stops += 1;
      most = Math.max(most, done - last);
      last = done;
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(STEP_RECORDS);
    expect(stops).toBeGreaterThan((2000 + 200 + 20_000 + 2000) / STEP_RECORDS);
  });

  it('gives the event loop a turn: a timer set before a large generation fires before it ends, partway', async () => {
    let done = 0;
    let total = 0;
    let seenByTimer: number | undefined;
    let ended = false;
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        if (!ended) seenByTimer = done;
        resolve();
      }, 0),
    );
    const made = drive(
      lazyStateSteps({
        seed: 'turns',
        sizes: { accounts: 1, workspaces: 3000, runsPerWorkspace: 3, events: 40_000 },
        onProgress: (d, t) => {
          done = d;
          total = t;
        },
        progressEvery: 1,
      }),
    ).then((state) => {
      ended = true;
      return state;
    });
    await Promise.all([timer, made]);
    expect(seenByTimer).toBeDefined();
    expect(seenByTimer).toBeLessThan(total);
    expect(done).toBe(total);
  });

  it('rejects with the size check a generation in slices throws, as the whole one throws it', async () => {
    const sizes = { accounts: 0 };
    expect(() => generateLazyState({ sizes })).toThrow(RangeError);
    await expect(drive(lazyStateSteps({ sizes }))).rejects.toThrow(
      'generateState sizes.accounts: expected an integer from 1 to 50, received 0',
    );
  });
});

describe("a template's freezing in steps", () => {
  it('freezes the records in steps and makes the template the constructor makes', async () => {
    const make = () => {
      const { state, runs, events } = generateLazyState({
        seed: 'freeze',
        sizes: { workspaces: 6000, runsPerWorkspace: 1, events: 500 },
      });
      return { state, seeded: state.accounts.map((_, i) => ({ runs: runs[i], events: events[i] })) };
    };
    const direct = make();
    const stepped = make();
    const job = DataTemplate.build(stepped.state, stepped.seeded);
    let stops = 0;
    let step = job.next();
    for (; !step.done; step = job.next()) stops += 1;
    expect(stops).toBeGreaterThan(1);
    const built = step.value;
    const a = built.instance();
    const b = new DataTemplate(direct.state, direct.seeded).instance();
    expect(JSON.stringify(a.state)).toBe(JSON.stringify(b.state));
    const workspace = a.state.accounts[0]?.workspaces[0];
    expect(Object.isFrozen(workspace)).toBe(true);
    expect(Object.isFrozen(workspace?.labels)).toBe(true);
    expect(Object.isFrozen(a.state.accounts[0]?.rules[0]?.scope)).toBe(true);
    // Driven in slices too.
    const again = make();
    const sliced = await drive(DataTemplate.build(again.state, again.seeded));
    expect(JSON.stringify(sliced.instance().state)).toBe(JSON.stringify(b.state));
  });
});
