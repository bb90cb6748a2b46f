/**
 * A seed stored lazily: runs made again on demand from where the seed's random streams stood, equal
 * to the generator's runs whatever the sizes, cached within a bound, and kept for good once changed;
 * events kept as columns, read back equal to the generator's.
 */
import type { WorkspaceRun } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { RunStore } from '../../src/store/runs.js';
import { generateLazyState, generateState } from '../../src/store/seed.js';

describe('lazily stored seeded runs', () => {
  it.each([
    ['small', { workspaces: 40, runsPerWorkspace: 9, accounts: 2 }],
    [7, { workspaces: 300, runsPerWorkspace: 3, rules: 30, stacks: 5, events: 200 }],
    ['no stacks', { workspaces: 25, stacks: 0, runsPerWorkspace: 12, accounts: 3 }],
  ])('are the generated runs, workspace by workspace (seed %s)', (seed, sizes) => {
    const eager = generateState({ seed, sizes });
    const lazy = generateLazyState({ seed, sizes });
    // The lazy state is the eager one without its runs and events; its event logs hold the events.
    const without = (state: typeof eager) => ({
      ...state,
      accounts: state.accounts.map((a) => ({ ...a, runs: [], events: [] })),
    });
    expect(JSON.stringify(without(lazy.state))).toBe(JSON.stringify(without(eager)));
    eager.accounts.forEach((account, i) => {
      expect(lazy.state.accounts[i]?.runs).toEqual([]);
      expect(lazy.state.accounts[i]?.events).toEqual([]);
      expect(JSON.stringify([...(lazy.events[i]?.values() ?? [])])).toBe(JSON.stringify(account.events));
      const store = new RunStore([], lazy.runs[i], 4);
      // Read in a scrambled order, through a cache smaller than the workspaces: every list is equal.
      const ids = [...new Set(account.runs.map((r) => r.workspaceId))];
      for (const id of [...ids].reverse().concat(ids)) {
        expect(JSON.stringify(store.get(id))).toBe(
          JSON.stringify(account.runs.filter((r) => r.workspaceId === id)),
        );
      }
      expect(JSON.stringify([...store.values()])).toBe(JSON.stringify(account.runs));
    });
  });

  it('keeps runs changed through the store for good, in the order workspaces got their first run', () => {
    const lazy = generateLazyState({ seed: 3, sizes: { workspaces: 12, runsPerWorkspace: 2, accounts: 1 } });
    const source = lazy.runs[0];
    if (!source) throw new Error('no run source');
    const store = new RunStore([], source, 1);
    const [first, second] = source.workspaceIds as [string, string];
    const extra = { ...(store.get(first)?.[0] as WorkspaceRun), id: 'ffffffffffffffffffffffff' };
    store.set(first, [...(store.get(first) ?? []), extra]);
    // Other reads evict every cached list; the changed one stays.
    for (const id of source.workspaceIds) store.get(id);
    expect(store.get(first)?.at(-1)).toBe(extra);
    store.delete(second);
    expect(store.get(second)).toBeUndefined();
    const all = [...store.values()];
    expect(all.filter((r) => r.id === extra.id)).toHaveLength(1);
    expect(all.some((r) => r.workspaceId === second)).toBe(false);
    expect(all[0]?.workspaceId).toBe(first);
  });

  it('gives a mock whose snapshot is the generator output, also after its runs were read', async () => {
    const sizes = { workspaces: 30, runsPerWorkspace: 4, accounts: 2 };
    const core = new MockCore({ seed: 11, sizes });
    const state = async () => (await core.handle({ method: 'GET', path: '/__mock/state' })).body;
    const expected = JSON.stringify(generateState({ seed: 11, sizes }));
    expect(JSON.stringify(await state())).toBe(expected);
    for (const account of core.store.accounts.values()) {
      for (const workspace of account.workspaces.values()) account.runs.get(workspace.id);
    }
    expect(JSON.stringify(await state())).toBe(expected);
  });
});

describe('runs added and changed in place, found by id (issue 34, finding 4)', () => {
  const run = (id: string, workspaceId = 'w1', title = 'run'): WorkspaceRun =>
    ({ id, workspaceId, title }) as unknown as WorkspaceRun;

  it('finds a run by id and changes it at its place; a list a reader holds never changes', () => {
    const store = new RunStore([run('a'), run('b')]);
    expect(store.find('w1', 'b')).toEqual({ run: run('b'), index: 1 });
    expect(store.find('w1', 'zz')).toBeUndefined();
    expect(store.find('w2', 'a')).toBeUndefined();
    const held = store.get('w1');
    store.append('w1', run('c'));
    store.replace('w1', 0, run('a', 'w1', 'changed'));
    // The reader's list is as it read it; the store's has the new run and the change.
    expect(held?.map((r) => r.id)).toEqual(['a', 'b']);
    expect(held?.[0]?.title).toBe('run');
    const now = store.get('w1');
    expect(now).not.toBe(held);
    expect(now?.map((r) => [r.id, r.title])).toEqual([
      ['a', 'changed'],
      ['b', 'run'],
      ['c', 'run'],
    ]);
    expect(store.find('w1', 'c')).toEqual({ run: run('c'), index: 2 });
    // A run put in the place of another is found by its own id, the one it replaced no more.
    store.replace('w1', 1, run('d'));
    expect(store.find('w1', 'd')?.index).toBe(1);
    expect(store.find('w1', 'b')).toBeUndefined();
    // A listing under way (values, entries) keeps what it read too.
    const walking = store.values();
    expect(walking.next().value?.id).toBe('a');
    store.append('w1', run('e'));
    expect([...walking].map((r) => r.id)).toEqual(['d', 'c']);
  });

  it('appends to a workspace without runs, and to a seeded workspace (kept for good from then on)', () => {
    const lazy = generateLazyState({ seed: 5, sizes: { workspaces: 6, runsPerWorkspace: 3, accounts: 1 } });
    const source = lazy.runs[0];
    if (!source) throw new Error('no run source');
    const store = new RunStore([], source, 0);
    const [first] = source.workspaceIds as [string];
    const seeded = store.get(first) ?? [];
    const last = seeded.at(-1) as WorkspaceRun;
    expect(store.find(first, last.id)?.index).toBe(seeded.length - 1);
    store.append(first, run('new', first));
    expect(store.get(first)?.map((r) => r.id)).toEqual([...seeded.map((r) => r.id), 'new']);
    expect(store.find(first, 'new')?.index).toBe(seeded.length);
    store.append('fresh', run('x', 'fresh'));
    expect(store.get('fresh')?.map((r) => r.id)).toEqual(['x']);
  });

  it('settles many timed runs on one workspace, each finished, in order', async () => {
    const now = Date.UTC(2026, 0, 1);
    const core = new MockCore({ clock: () => now, sizes: { workspaces: 3, events: 0, runsPerWorkspace: 2 } });
    const ws = (await core.control.getState()).accounts[0]?.workspaces[0];
    if (!ws) throw new Error('no workspace');
    const ids: string[] = [];
    for (let i = 0; i < 500; i++) {
      const answer = core.control.simulateRun(ws.id, {
        apply: true,
        timing: { startAfterMs: i, planningMs: 1_000, applyingMs: 1_000 },
      });
      ids.push((answer as { runId: string }).runId);
    }
    core.control.clock.advance(3_600_000);
    const runs =
      (await core.control.getState()).accounts[0]?.runs.filter((r) => r.workspaceId === ws.id) ?? [];
    const timed = runs.filter((r) => ids.includes(r.id));
    expect(timed.map((r) => r.id)).toEqual(ids);
    expect(new Set(timed.map((r) => r.status))).toEqual(new Set(['apply_no_changes']));
  });
});
