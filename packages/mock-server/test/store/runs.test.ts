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
