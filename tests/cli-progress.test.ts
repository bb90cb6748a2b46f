/**
 * Seeding progress: `generateState({ onProgress })` reports how many workspaces and events are done
 * without changing what it generates; `MockCore`/`listen()` pass `onSeedProgress` to every generation;
 * and `iacm-mock` prints a progress line at most about once a second while a generation runs long.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type RunningMockServer } from '../packages/mock-server/src/adapters/node.js';
import { progressLine, seedProgressPrinter } from '../packages/mock-server/src/adapters/progress.js';
import { generateState } from '../packages/mock-server/src/store/seed.js';
import type { MockState } from '../packages/mock-server/src/store/state.js';

const sizes = { accounts: 2, workspaces: 30, events: 200 };

/** The records `onProgress` counts: every account's workspaces and events. */
const recordsOf = (state: MockState) =>
  state.accounts.reduce((sum, account) => sum + account.workspaces.length + account.events.length, 0);

function reports(options: Parameters<typeof generateState>[0]) {
  const calls: Array<[number, number]> = [];
  const state = generateState({ ...options, onProgress: (done, total) => calls.push([done, total]) });
  return { calls, state };
}

describe('generateState onProgress', () => {
  it('reports every progressEvery records, done only growing, last done === total', () => {
    const { calls, state } = reports({ seed: 3, sizes, progressEvery: 7 });
    const total = recordsOf(state);
    expect(total).toBeGreaterThan(200);
    expect(calls.length).toBeGreaterThan(total / 7 - 2);
    for (const [done, reportedTotal] of calls) {
      expect(reportedTotal).toBe(total);
      expect(done).toBeGreaterThan(0);
      expect(done).toBeLessThanOrEqual(total);
    }
    const dones = calls.map(([done]) => done);
    for (let i = 1; i < dones.length; i++) expect(dones[i]).toBeGreaterThan(dones[i - 1] as number);
    expect(calls.at(-1)).toEqual([total, total]);
    expect(calls.filter(([done]) => done === total)).toHaveLength(1);
  });

  it('generates the same state, byte for byte, with or without it', () => {
    const plain = generateState({ seed: 3, sizes });
    const { state } = reports({ seed: 3, sizes, progressEvery: 1 });
    expect(JSON.stringify(state)).toBe(JSON.stringify(plain));
  });

  it('reports 0 of 0 once for data without workspaces or events', () => {
    const { calls } = reports({ sizes: { accounts: 1, workspaces: 0, events: 0 }, progressEvery: 1 });
    expect(calls).toEqual([[0, 0]]);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses progressEvery %s, naming it', (progressEvery) => {
    expect(() => generateState({ sizes, onProgress: () => {}, progressEvery })).toThrow(
      /progressEvery must be a whole number of at least 1, received/,
    );
  });
});

describe('onSeedProgress of listen() (MockCore)', () => {
  const servers: RunningMockServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  it('is told of the start generation and of each regeneration (reset, seed)', async () => {
    const calls: Array<[number, number]> = [];
    const server = await listen({
      port: 0,
      sizes,
      onSeedProgress: (done, total) => calls.push([done, total]),
    });
    servers.push(server);
    const total = recordsOf((await server.control.getState()) as MockState);
    expect(calls.at(-1)).toEqual([total, total]);
    const ends = () => calls.filter(([done, all]) => done === all).length;
    expect(ends()).toBe(1);
    expect(
      (
        await fetch(`${server.url}/__mock/reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(200);
    expect(ends()).toBe(2);
    await server.control.seed(9, { workspaces: 4, events: 40 });
    expect(ends()).toBe(3);
    expect(calls.at(-1)).toEqual([
      recordsOf((await server.control.getState()) as MockState),
      recordsOf((await server.control.getState()) as MockState),
    ]);
  });
});

describe('the CLI progress line', () => {
  it('text and json say how far, in percent and records', () => {
    expect(progressLine(450_000, 1_100_000)).toEqual({
      text: 'seeding: 40% (450,000 of 1,100,000 workspaces and events)',
      json: { msg: 'seeding progress', percent: 40, done: 450_000, total: 1_100_000 },
    });
  });

  /** A printer on a fake clock; `at(ms, done, total)` reports at that time. */
  function printer() {
    let time = 0;
    const printed: string[] = [];
    const report = seedProgressPrinter(
      (line) => printed.push(line.text),
      () => time,
      1000,
    );
    const at = (ms: number, done: number, total: number) => {
      time = ms;
      report(done, total);
    };
    return { at, printed };
  }

  it('prints nothing for a generation that ends within the interval', () => {
    const { at, printed } = printer();
    at(100, 5000, 20_000);
    at(500, 10_000, 20_000);
    at(900, 20_000, 20_000);
    expect(printed).toEqual([]);
  });

  it('prints at most once per interval while a generation runs long, never the final report', () => {
    const { at, printed } = printer();
    for (let ms = 250, done = 5000; done < 100_000; ms += 250, done += 5000) at(ms, done, 100_000);
    at(5000, 100_000, 100_000);
    // Reports every 250 ms from 250 to 4750 ms: lines at 1000, 2000, 3000 and 4000 ms.
    expect(printed).toEqual([
      'seeding: 20% (20,000 of 100,000 workspaces and events)',
      'seeding: 40% (40,000 of 100,000 workspaces and events)',
      'seeding: 60% (60,000 of 100,000 workspaces and events)',
      'seeding: 80% (80,000 of 100,000 workspaces and events)',
    ]);
  });

  it('counts the interval of a regeneration (reset) from its own start', () => {
    const { at, printed } = printer();
    at(100, 10_000, 10_000); // the start: quick, nothing printed
    at(60_000, 5000, 50_000); // a reset a minute later: its first report is not late
    expect(printed).toEqual([]);
    at(61_000, 20_000, 50_000);
    expect(printed).toEqual(['seeding: 40% (20,000 of 50,000 workspaces and events)']);
  });
});
