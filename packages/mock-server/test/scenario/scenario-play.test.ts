/**
 * Playing a scenario: each step applies when the mock's clock passes its `at` (in `at` order, ties in
 * timeline order), stamped with its own instant; references go by name (account by name or index,
 * workspace by name, stack by its workspace's name); timed runs of a step start from the step's
 * instant; what a reset does (an in-process play holds until it, a `scenario` option plays again); a
 * second play, a scene or a seed drops the pending steps; the bound of 10,000 steps; the HTTP route.
 * Only the mock's clock moves (no wall time).
 */
import type { Event, WorkspaceRun, WorkspaceSummary } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { MockCore, type MockOptions } from '../../src/app/mock.js';
import {
  MAX_LISTED_SKIPS,
  SCENARIO_LIMITS,
  type Scenario,
  type ScenarioStep,
} from '../../src/domain/scenario.js';
import { loginToken } from '../helpers.js';

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const SCENE: Scenario['scene'] = {
  seed: 3,
  accounts: [
    {
      name: 'Acme',
      workspaces: [
        { name: 'payments-prod', labels: ['prod'], runs: [] },
        { name: 'payments-dev', runs: [] },
      ],
      stacks: [{ workspace: 'payments-prod', status: 'active' }],
    },
    { name: 'Globex', workspaces: [{ name: 'search-prod', runs: [] }] },
  ],
};

/** A mock on a stopped clock at T0 (tokens that outlive the test's moves) and an API caller per account. */
async function mock(options: MockOptions = {}) {
  const core = new MockCore({ tokenTtlSeconds: 86_400, ...options });
  core.clock.set(T0);
  const tokens = new Map<number, string>();
  const api = async <T>(method: string, path: string, body: unknown = {}, account = 0): Promise<T> => {
    const token = tokens.get(account) ?? (await loginToken(core, core.accounts()[account]));
    tokens.set(account, token);
    const res = await core.handle({
      method,
      path,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as T;
  };
  const workspace = async (name: string, account = 0) => {
    const list = await api<WorkspaceSummary[]>(
      'POST',
      '/v2/workspaces/search',
      { searchValue: name },
      account,
    );
    const found = list.find((w) => w.workspaceName === name);
    if (!found) throw new Error(`no workspace ${name}`);
    return found;
  };
  const runs = async (name: string, account = 0) =>
    api<WorkspaceRun[]>(
      'POST',
      `/v2/workspaces/${(await workspace(name, account)).id}/runs/search`,
      {},
      account,
    );
  const events = (account = 0) =>
    [...(core.store.accounts.get(core.accounts()[account]?.id ?? '')?.events.values() ?? [])] as Event[];
  const attrs = (e: Event) => Object.fromEntries(e.event.attributes.map((a) => [a.key, a.value]));
  return { core, api, workspace, runs, events, attrs };
}

const labels = (at: ScenarioStep['at'], list: string[], workspace = 'payments-prod'): ScenarioStep => ({
  at,
  labels: { workspace, labels: list },
});

describe('steps apply as the clock passes them', () => {
  it('in at order, ties in timeline order, each stamped with its own instant', async () => {
    const { core, workspace, events, attrs } = await mock();
    const answer = await core.control.play({
      scene: SCENE,
      timeline: [labels('+5m', ['first-at-5m']), labels('+5m', ['second-at-5m']), labels('+2m', ['at-2m'])],
    });
    expect(answer).toEqual({ status: 'playing', steps: 3, startsAt: iso(T0), endsAt: iso(T0 + 5 * MINUTE) });

    expect((await workspace('payments-prod')).labels).toEqual(['prod']);
    core.clock.advance(2 * MINUTE - 1);
    expect((await workspace('payments-prod')).labels).toEqual(['prod']); // not yet
    core.clock.advance(1);
    expect((await workspace('payments-prod')).labels).toEqual(['at-2m']);
    core.clock.advance(60 * MINUTE); // jumps past both +5m steps
    const ws = await workspace('payments-prod');
    expect(ws.labels).toEqual(['second-at-5m']);
    expect(ws.updatedAt).toBe(iso(T0 + 5 * MINUTE)); // the step's instant, not the clock's

    const changes = events()
      .filter((e) => attrs(e).field === 'labels')
      .sort((a, b) => a.event_timestamp.localeCompare(b.event_timestamp))
      .map((e) => [e.event_timestamp, attrs(e).to]);
    expect(changes).toEqual([
      [iso(T0 + 2 * MINUTE), 'at-2m'],
      [iso(T0 + 5 * MINUTE), 'first-at-5m'],
      [iso(T0 + 5 * MINUTE), 'second-at-5m'],
    ]);
  });

  it('applies a step at +0 at once, and finds records by name: account by name or index, stack by workspace', async () => {
    const { core, runs, api } = await mock();
    await core.control.play({
      scene: SCENE,
      timeline: [
        { at: 0, simulateRun: { workspace: 'payments-dev', title: 'at once' } },
        { at: '+1m', simulateRun: { account: 'Globex', workspace: 'search-prod', title: 'by name' } },
        { at: '+2m', simulateRun: { account: 1, workspace: 'search-prod', title: 'by index' } },
        { at: '+3m', finding: { stack: 'payments-prod', kind: 'GhostResource' } },
        { at: '+4m', notify: { account: 'Globex', notificationType: 'UnmanagedResource' } },
      ],
    });
    expect((await runs('payments-dev')).map((r) => [r.title, r.createdAt])).toEqual([['at once', iso(T0)]]);
    core.clock.advance(10 * MINUTE);
    expect((await runs('search-prod', 1)).map((r) => r.title).sort()).toEqual(['by index', 'by name']);
    const { hits } = await api<{ hits: Array<{ name: string; status: string }> }>(
      'POST',
      '/api/iacStacks',
      {},
    );
    expect(hits.find((s) => s.name === 'payments-prod')?.status).toBe('contains_ghosts');
    const [acme, globex] = core.accounts();
    expect(core.outbox(acme?.id).map((e) => e.payload.notificationType)).toEqual(['GhostResource']);
    expect(core.outbox(globex?.id).map((e) => [e.payload.notificationType, e.createdAt])).toEqual([
      ['UnmanagedResource', iso(T0 + 4 * MINUTE)],
    ]);
  });

  it("starts a step's timed run from the step's instant, in time order with the other steps", async () => {
    const { core, runs, events, attrs } = await mock();
    await core.control.play({
      scene: SCENE,
      timeline: [
        {
          at: '+5m',
          simulateRun: {
            workspace: 'payments-prod',
            title: 'timed',
            apply: true,
            changes: [{ address: 'aws_sqs_queue.q', assetType: 'aws_sqs_queue', actions: ['create'] }],
            timing: { startAfterMs: MINUTE, planningMs: 2 * MINUTE, applyingMs: 3 * MINUTE },
          },
        },
        // Due between the run's plan end (+8m) and its apply end (+11m).
        labels('+9m', ['during-apply']),
      ],
    });
    core.clock.advance(7 * MINUTE);
    expect((await runs('payments-prod')).map((r) => r.status)).toEqual(['planning']);
    core.clock.advance(60 * MINUTE);
    const [run] = await runs('payments-prod');
    expect(run).toMatchObject({
      status: 'apply_success',
      createdAt: iso(T0 + 6 * MINUTE),
      updatedAt: iso(T0 + 11 * MINUTE),
    });
    const timeline = events()
      .filter((e) => e.asset_id === run?.id || attrs(e).field === 'labels')
      .sort((a, b) => a.event_timestamp.localeCompare(b.event_timestamp))
      .map((e) => [e.event_timestamp.slice(11, 16), attrs(e).to]);
    expect(timeline).toEqual([
      ['12:06', 'planning'],
      ['12:08', 'applying'],
      ['12:09', 'during-apply'],
      ['12:11', 'apply_success'],
    ]);
  });

  it('skips a step whose workspace was deleted through the API, and applies the others', async () => {
    const { core, api, workspace, runs } = await mock();
    await core.control.play({
      scene: SCENE,
      timeline: [
        { at: '+1m', simulateRun: { workspace: 'payments-dev' } },
        { at: '+2m', simulateRun: { workspace: 'payments-prod' } },
      ],
    });
    const dev = await workspace('payments-dev');
    await api('DELETE', `/v2/workspaces/${dev.id}`, undefined);
    core.clock.advance(5 * MINUTE);
    expect(await runs('payments-prod')).toHaveLength(1);
  });

  it('reports its progress: steps applied, pending and skipped, each skipped one with where, when and why (the workspace by its scene name)', async () => {
    const { core, api, workspace } = await mock();
    expect(core.control.scenarioProgress()).toEqual({ status: 'none' });
    await core.control.play({
      scene: SCENE,
      timeline: [
        { at: '+1m', simulateRun: { workspace: 'payments-dev' } },
        labels('+2m', ['gone'], 'payments-dev'),
        { at: '+3m', simulateRun: { workspace: 'payments-prod' } },
        labels('+1h', ['later']),
      ],
    });
    const dev = await workspace('payments-dev');
    await api('DELETE', `/v2/workspaces/${dev.id}`, undefined);
    core.clock.advance(5 * MINUTE);
    const progress = core.control.scenarioProgress();
    expect(progress).toEqual({
      status: 'playing',
      steps: 4,
      applied: 1,
      pending: 1,
      skippedCount: 2,
      skipped: [
        {
          step: 0,
          kind: 'simulateRun',
          at: iso(T0 + MINUTE),
          // Named as the scenario names it, with its id.
          reason: expect.stringMatching(
            new RegExp(`^the workspace "payments-dev" \\(${dev.id}\\): 404 not_found: .*workspace`, 'i'),
          ),
        },
        {
          step: 1,
          kind: 'labels',
          at: iso(T0 + 2 * MINUTE),
          reason: `the workspace "payments-dev" (${dev.id}) no longer exists`,
        },
      ],
      startsAt: iso(T0),
      endsAt: iso(T0 + 60 * MINUTE),
    });
    // The same over HTTP; and finished once the last step is due.
    core.clock.advance(60 * MINUTE);
    const res = await core.handle({ method: 'GET', path: '/__mock/scenario', headers: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'finished', applied: 2, pending: 0, skippedCount: 2 });
    // Replacing the data ends it.
    await core.control.reset();
    expect(core.control.scenarioProgress()).toEqual({ status: 'none' });
  });

  it('lists the first 100 skipped steps and counts them all', async () => {
    const { core, api, workspace } = await mock();
    const timeline = Array.from({ length: 150 }, (_, i) => labels(i * 1_000, [`l${i}`], 'payments-dev'));
    await core.control.play({ scene: SCENE, timeline });
    // Steps at +0 applied at once: delete before the others fall due.
    const dev = await workspace('payments-dev');
    await api('DELETE', `/v2/workspaces/${dev.id}`, undefined);
    core.clock.advance(200_000);
    const progress = core.control.scenarioProgress();
    if (progress.status === 'none') throw new Error('expected a scenario');
    expect(progress.applied + progress.skippedCount).toBe(150);
    expect(progress.skippedCount).toBe(149);
    expect(progress.skipped).toHaveLength(MAX_LISTED_SKIPS);
    expect(progress.skipped[0]?.step).toBe(1);
  });

  it('plays the bound, 10,000 steps, every one applied', async () => {
    const { core, events, attrs } = await mock();
    const timeline = Array.from({ length: SCENARIO_LIMITS.maxSteps }, (_, i) =>
      labels(i * 1_000, [`l${i}`], i % 2 ? 'payments-dev' : 'payments-prod'),
    );
    expect((await core.control.play({ scene: SCENE, timeline })).steps).toBe(10_000);
    core.clock.advance(SCENARIO_LIMITS.maxSteps * 1_000);
    expect(events().filter((e) => attrs(e).field === 'labels')).toHaveLength(10_000);
  });
});

describe('what replaces a played scenario', () => {
  it('an in-process play holds until the next reset, which returns to the start data and drops the steps', async () => {
    const { core, runs } = await mock({ sizes: { accounts: 2, workspaces: 3 } });
    const before = (await core.control.getState()).accounts.map((a) => a.account.name);
    await core.control.play({
      scene: SCENE,
      timeline: [{ at: '+1m', simulateRun: { workspace: 'payments-prod' } }],
    });
    expect(core.accounts().map((a) => a.name)).toEqual(['Acme', 'Globex']);
    await core.control.reset();
    expect((await core.control.getState()).accounts.map((a) => a.account.name)).toEqual(before);
    await core.control.scene(SCENE); // the same names again, without the timeline
    core.clock.advance(10 * MINUTE);
    expect(await runs('payments-prod')).toEqual([]);
  });

  it('a second play, a scene or a seed drops the pending steps', async () => {
    const { core, runs } = await mock();
    const step = { at: '+1m', simulateRun: { workspace: 'payments-prod', title: 'first' } } as const;
    await core.control.play({ scene: SCENE, timeline: [step] });
    await core.control.play({
      scene: SCENE,
      timeline: [{ at: '+2m', simulateRun: { workspace: 'payments-prod', title: 'second' } }],
    });
    core.clock.advance(5 * MINUTE);
    expect((await runs('payments-prod')).map((r) => r.title)).toEqual(['second']);

    for (const replace of [
      async () => await core.control.scene(SCENE),
      async () => await core.control.seed(1, { accounts: 2 }),
    ]) {
      await core.control.play({ scene: SCENE, timeline: [step] });
      await replace();
      await core.control.scene(SCENE);
      core.clock.advance(5 * MINUTE);
      expect(await runs('payments-prod')).toEqual([]);
    }
  });

  it('a mock started with a scenario loads its scene again on reset and plays the timeline again from then', async () => {
    const scenario: Scenario = {
      scene: SCENE,
      timeline: [{ at: '+10m', simulateRun: { workspace: 'payments-prod', title: 'scheduled' } }],
    };
    let wall = T0;
    const { core, runs } = await mock({ scenario, clock: () => wall });
    core.clock.advance(10 * MINUTE);
    expect((await runs('payments-prod')).map((r) => [r.title, r.createdAt])).toEqual([
      ['scheduled', iso(T0 + 10 * MINUTE)],
    ]);

    wall = T0 + 60 * MINUTE; // the clock of the options, which a reset returns to
    await core.control.reset();
    expect(await runs('payments-prod')).toEqual([]); // the scene again
    core.clock.advance(10 * MINUTE - 1);
    expect(await runs('payments-prod')).toEqual([]);
    core.clock.advance(1);
    expect((await runs('payments-prod')).map((r) => r.createdAt)).toEqual([iso(T0 + 70 * MINUTE)]);
  });
});

describe('POST /__mock/scenario', () => {
  it('plays a scenario sent as JSON; POST /__mock/clock moves it on', async () => {
    const { core, workspace } = await mock();
    const control = (path: string, body: unknown) =>
      core.handle({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body });
    const res = await control('/__mock/scenario', {
      scene: SCENE,
      timeline: [labels('+30s', ['from-http'])],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'playing', steps: 1, startsAt: iso(T0), endsAt: iso(T0 + 30_000) });
    expect((await control('/__mock/clock', { advanceMs: 30_000 })).status).toBe(200);
    expect((await workspace('payments-prod')).labels).toEqual(['from-http']);
  });
});
