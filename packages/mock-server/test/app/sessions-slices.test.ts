/**
 * A session's data generated in slices (issue 34, finding 21): one standalone mock serves a whole CI
 * run, so creating a session whose data takes seconds to generate must not hold every other request.
 * `prepareData` (`app/data.ts`) generates a seed's or a scene's data in slices and caches it (or, too
 * large to share, hands it to the next load of the same source), and the session host awaits it
 * before it makes the session's core, whose load then finds the data ready. Checked by what runs in
 * between (timers, other requests, progress counts), never by a stopwatch.
 */
import { describe, expect, it } from 'vitest';
import { dataKey, MockData, prepareData, SHARED_DATA_FRACTION } from '../../src/app/data.js';
import { KeyPairs } from '../../src/app/key-pairs.js';
import { MockCore } from '../../src/app/mock.js';
import type { SeededSource } from '../../src/control/data.js';
import { estimateDataBytes } from '../../src/control/data.js';
import { pause } from '../../src/query/pause.js';
import { DEFAULT_BUDGET_BYTES, unboundedLedger } from '../../src/store/budget.js';
import { estimateSeedBytes } from '../../src/store/seed/limits.js';
import { DEFAULT_SIZES, type SeedSizes } from '../../src/store/state.js';
import { hasTemplate, sceneKey, TEMPLATE_MAX_EVENTS } from '../../src/store/template.js';
import { rejection } from '../helpers.js';

const small = { sizes: { workspaces: 4, rules: 1 } };

/** Sizes of data too large to share (more events than `TEMPLATE_MAX_EVENTS`), small otherwise. */
const UNSHARED = {
  accounts: 1,
  workspaces: 5,
  rules: 4,
  stacks: 2,
  integrations: 1,
  events: TEMPLATE_MAX_EVENTS + 1,
};

/** A seed source at `sizes` over the defaults. */
function seedSource(seed: string, sizes: Partial<SeedSizes>): SeededSource {
  return { seed, sizes: { ...DEFAULT_SIZES, ...sizes } };
}

/** A mock's data alone, its generation progress reported to `report`. */
function mockData(report?: (done: number, total: number) => void): MockData {
  return new MockData(new KeyPairs({}), () => undefined, report, unboundedLedger('data'));
}

/** Progress reports, and how many of them came. */
function progressLog() {
  const reports: Array<[number, number]> = [];
  return { reports, report: (done: number, total: number) => void reports.push([done, total]) };
}

/** `POST path` with a JSON body, noting `label` in `order` once answered. */
function postNoted(core: MockCore, path: string, body: unknown, order: string[], label: string) {
  return core
    .handle({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body })
    .then((res) => {
      order.push(label);
      return res;
    });
}

/** The JSON of what `GET /__mock/state` answers (with `headers`). */
async function stateText(core: MockCore, headers: Record<string, string> = {}): Promise<string> {
  return JSON.stringify((await core.handle({ method: 'GET', path: '/__mock/state', headers })).body);
}

describe('a session made while its data is generated in slices', () => {
  it('lets a timer and another request run before the session creation answers', async () => {
    const core = new MockCore({ ...small, sessions: { max: 4 } });
    const sizes = { workspaces: 1500, runsPerWorkspace: 2, events: 15_000 };
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 0);
    const created = postNoted(core, '/__mock/sessions', { seed: 'slices-timer', sizes }, order, 'created');
    // Sent once the creation is under way: answered in between.
    await pause();
    const other = core.handle({ method: 'GET', path: '/__mock/accounts' }).then((res) => {
      order.push('other request');
      return res;
    });
    const [res, answer] = await Promise.all([created, other]);
    expect(res.status).toBe(201);
    expect(answer.status).toBe(200);
    expect(order).toHaveLength(3);
    expect(order.slice(0, 2)).toEqual(expect.arrayContaining(['timer', 'other request']));
    expect(order[2]).toBe('created');
    // The session has the data a whole generation gives.
    const id = (res.body as { id: string }).id;
    expect(await stateText(core, { 'x-iacm-mock-session': id })).toBe(
      await stateText(new MockCore({ seed: 'slices-timer', sizes })),
    );
  });

  it('generates the data of two sessions made at once once, charged whole to the first', async () => {
    const core = new MockCore({ ...small, sessions: { max: 4 } });
    const source = seedSource('slices-twice', { workspaces: 800, events: 5000 });
    expect(hasTemplate(dataKey(source))).toBe(false);
    const [a, b] = await Promise.all([
      core.control.createSession({ seed: source.seed, sizes: source.sizes }),
      core.control.createSession({ seed: source.seed, sizes: source.sizes }),
    ]);
    expect(a.accounts).toEqual(b.accounts.map((account) => expect.objectContaining({ id: account.id })));
    expect(hasTemplate(dataKey(source))).toBe(true);
    // The first load is charged as the one that generated it; the second shares it (a tenth).
    const estimate = estimateDataBytes(source);
    const sessions = core.control.budget().sessions ?? 0;
    expect(sessions).toBeGreaterThanOrEqual(estimate + Math.ceil(estimate / SHARED_DATA_FRACTION));
    expect(sessions).toBeLessThan(2 * estimate);
  });

  it('refuses a session past its budget or past sessions.max before generating anything', async () => {
    const core = new MockCore({ ...small, sessions: { max: 1 }, budget: { bytes: DEFAULT_BUDGET_BYTES } });
    // Under TEMPLATE_MAX_EVENTS: were it generated, its template would be cached.
    const huge = seedSource('slices-refused', { workspaces: 100_000, runsPerWorkspace: 10 });
    expect(huge.sizes.events).toBeLessThanOrEqual(TEMPLATE_MAX_EVENTS);
    expect(estimateSeedBytes(huge.sizes)).toBeGreaterThan(core.control.budget().limit / 4);
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const refused = await rejection(core.control.createSession({ seed: huge.seed, sizes: huge.sizes }));
    expect(refused.code).toBe('budget_exceeded');
    // Refused at once: no slice ran, nothing was generated or charged.
    expect(turned).toBe(false);
    expect(hasTemplate(dataKey(huge))).toBe(false);
    expect(core.control.budget().sessions).toBe(0);

    await core.control.createSession();
    const crowded = seedSource('slices-crowded', { workspaces: 50 });
    const conflict = await rejection(
      core.control.createSession({ seed: crowded.seed, sizes: crowded.sizes }),
    );
    expect(conflict.code).toBe('conflict');
    expect(hasTemplate(dataKey(crowded))).toBe(false);
  });
});

describe('data loaded over the control plane, generated in slices', () => {
  it('lets a timer run before POST /__mock/seed answers, and the mock holds the whole data after', async () => {
    const core = new MockCore(small);
    const sizes = { workspaces: 1500, runsPerWorkspace: 2, events: 15_000 };
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 0);
    const loaded = postNoted(core, '/__mock/seed', { seed: 'slices-seed', sizes }, order, 'loaded');
    expect((await loaded).status).toBe(200);
    expect(order).toEqual(['timer', 'loaded']);
    expect(await stateText(core)).toBe(await stateText(new MockCore({ seed: 'slices-seed', sizes })));
  });

  it('refuses data past the budget before generating any of it', async () => {
    const core = new MockCore({ ...small, budget: { bytes: 16 * 1024 * 1024 } });
    const huge = seedSource('slices-seed-refused', { workspaces: 50_000 });
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const refused = await rejection(core.control.seed(huge.seed, huge.sizes));
    expect(refused.code).toBe('budget_exceeded');
    expect(turned).toBe(false);
    expect(hasTemplate(dataKey(huge))).toBe(false);
  });

  it('generates the start data again in slices on reset when its template is gone', async () => {
    // Too many events to share: no template, so each reset generates the start data anew.
    const sizes = UNSHARED;
    const core = new MockCore({ seed: 'slices-reset', sizes });
    const before = await stateText(core);
    let fired = false;
    setTimeout(() => {
      fired = true;
    }, 0);
    const reset = core.control.reset().then(() => fired);
    expect(await reset).toBe(true);
    expect(await stateText(core)).toBe(before);
  });
});

describe('data generated at once by several requests', () => {
  const json = { 'content-type': 'application/json' };

  it('never gives a scene the data of another scene of the same key generated at the same time', async () => {
    // Two workspace names of 128 characters that differ where the key's hash does not look.
    const nameA = 'w'.repeat(128);
    const nameB = `${nameA.slice(0, 60)}X${nameA.slice(61)}`;
    const scene = (name: string) => ({ seed: 'collision', accounts: [{ workspaces: [{ name }] }] });
    expect(sceneKey(scene(nameA))).toBe(sceneKey(scene(nameB)));
    const [a, b] = [new MockCore(small), new MockCore(small)];
    const answers = await Promise.all(
      [a, b].map((core, i) =>
        core.handle({ method: 'POST', path: '/__mock/scene', headers: json, body: scene(i ? nameB : nameA) }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual([200, 200]);
    const names = (core: MockCore) =>
      core.store.toState().accounts[0]?.workspaces.map((w) => w.workspaceName);
    expect(names(a)).toEqual([nameA]);
    expect(names(b)).toEqual([nameB]);
  });

  it('counts the loads being generated against each other: past the budget, the rest are refused', async () => {
    const core = new MockCore({ ...small, budget: { bytes: 48 * 1024 * 1024 } });
    const sizes = { workspaces: 4000 };
    expect(estimateSeedBytes({ ...DEFAULT_SIZES, ...sizes })).toBeLessThan(48 * 1024 * 1024);
    const answers = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        core.handle({
          method: 'POST',
          path: '/__mock/seed',
          headers: json,
          body: { seed: `held-${n}`, sizes },
        }),
      ),
    );
    const codes = answers.map((res) => (res.status === 200 ? 200 : (res.body as { code: string }).code));
    expect(codes[0]).toBe(200);
    expect(codes.filter((code) => code === 'budget_exceeded').length).toBeGreaterThan(0);
    expect(codes.every((code) => code === 200 || code === 'budget_exceeded')).toBe(true);
    expect(core.control.budget().used).toBeLessThanOrEqual(48 * 1024 * 1024);
  });

  it('generates the start data of resets asked at once one after the other', async () => {
    const sizes = UNSHARED;
    const reports: Array<[number, number]> = [];
    const core = new MockCore({
      seed: 'resets-at-once',
      sizes,
      onSeedProgress: (d, t) => void reports.push([d, t]),
    });
    reports.length = 0;
    await Promise.all([core.control.reset(), core.control.reset(), core.control.reset()]);
    // Each generation is told from its start to its end before the next one starts.
    const total = reports.at(-1)?.[1] ?? 0;
    const ends = reports.flatMap(([done], i) => (done === total ? [i] : []));
    expect(ends).toHaveLength(3);
    for (let i = 1; i < reports.length; i++) {
      const [done] = reports[i] as [number, number];
      const [before] = reports[i - 1] as [number, number];
      expect(done > before || before === total).toBe(true);
    }
  });

  it('loads nothing into a session ended while its data was generated', async () => {
    const core = new MockCore({ ...small, sessions: { max: 4 } });
    const { id } = await core.control.createSession();
    const seeding = core.handle({
      method: 'POST',
      path: '/__mock/seed',
      headers: { ...json, 'x-iacm-mock-session': id },
      body: { seed: 'ended-mid-seed', sizes: { workspaces: 1500, events: 15_000 } },
    });
    await pause();
    await core.control.endSession(id);
    const res = await seeding;
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
  });
});

describe('prepareData', () => {
  it('generates shared data once for prepares made at once, and the load after finds it cached', async () => {
    const source = seedSource('prepare-once', { workspaces: 600, events: 4000 });
    const first = progressLog();
    const second = progressLog();
    const [made, shared] = await Promise.all([
      prepareData(source, first.report),
      prepareData(source, second.report),
    ]);
    expect(hasTemplate(dataKey(source))).toBe(true);
    // One generation, told to the prepare that started it, to its end.
    const total = first.reports.at(-1)?.[1] ?? 0;
    expect(first.reports.at(-1)).toEqual([total, total]);
    expect(first.reports.length).toBeGreaterThan(0);
    expect(second.reports).toEqual([]);
    // The load that takes the first prepare's data is charged whole (it was generated for it), and
    // the progress it would tell is told already.
    const told = first.reports.length;
    const data = mockData(first.report);
    data.load(source, false, made);
    expect(first.reports).toHaveLength(told);
    expect(data.ledger.held).toBe(estimateDataBytes(source));
    const other = mockData(second.report);
    other.load(source, false, shared);
    expect(second.reports).toEqual([[total, total]]);
    expect(other.ledger.held).toBe(Math.ceil(estimateDataBytes(source) / SHARED_DATA_FRACTION));
    expect(JSON.stringify(data.store.toState())).toBe(JSON.stringify(other.store.toState()));
  });

  it('rejects when the generation fails, caching nothing, and generates on the next prepare', async () => {
    const bad = { seed: 'prepare-bad', sizes: { ...DEFAULT_SIZES, accounts: 0 } };
    await expect(prepareData(bad)).rejects.toThrow(RangeError);
    expect(hasTemplate(dataKey(bad))).toBe(false);
    await expect(prepareData(bad)).rejects.toThrow(RangeError);
    const good = seedSource('prepare-bad', { workspaces: 20 });
    await prepareData(good);
    expect(hasTemplate(dataKey(good))).toBe(true);
  });

  it('does nothing for a snapshot', async () => {
    await expect(prepareData({ snapshot: '{}' })).resolves.toBeUndefined();
  });

  it('hands data too large to share to the load it is given to, once', async () => {
    const source = seedSource('prepare-unshared', UNSHARED);
    const log = progressLog();
    const prepared = await prepareData(source, log.report);
    const generated = log.reports.length;
    expect(generated).toBeGreaterThan(1);
    expect(hasTemplate(dataKey(source))).toBe(false);
    const data = mockData(log.report);
    data.load(source, false, prepared);
    // Handed over: not generated again, its progress not told again.
    expect(log.reports).toHaveLength(generated);
    const handed = JSON.stringify(data.store.toState());
    // Taken on use: a second load with the same token generates its own (the same data).
    data.load(source, false, prepared);
    expect(log.reports).toHaveLength(2 * generated);
    expect(JSON.stringify(data.store.toState())).toBe(handed);
  });

  it('is taken only by a load of the data it was made for', async () => {
    const source = seedSource('prepare-other', { workspaces: 30 });
    const prepared = await prepareData(source);
    expect(prepared?.freshFor(dataKey(source))).toBe(true);
    const other = seedSource('prepare-other-2', { workspaces: 30 });
    expect(hasTemplate(dataKey(other))).toBe(false);
    const data = mockData();
    data.load(other, false, prepared);
    // Another source: generated by the load itself, charged whole, the token emptied.
    expect(hasTemplate(dataKey(other))).toBe(true);
    expect(data.ledger.held).toBe(estimateDataBytes(other));
    expect(prepared?.take(dataKey(source))).toBeUndefined();
  });
});
