/**
 * ST: what a test file pays before its first test, each measure in fresh processes (vitest isolates
 * each test file; a worker of a suite sharing one standalone mock makes a session):
 * - importing `@iacm/mock-server` after `msw/node` (a child process, cold), against `msw/node`'s own
 *   import in its own processes: goal <= msw/node's import + 100 ms;
 * - the imports, `createMockServer({ scene })` with 5 workspaces and the first page of workspaces
 *   through `IacmClient` (login included), against `msw/node`'s import: goal <= it + 150 ms;
 * - a session created over HTTP (`POST /__mock/sessions` to the standalone mock, one after another
 *   after 3 not counted): goal p50 <= 10 ms.
 * The import's anatomy (each dependency's share, in the order the graph loads them) is reported
 * beside, so that a missed goal shows where the time goes. Medians of `--processes` processes a side.
 */
import { join } from 'node:path';
import { fetchOnce } from './lib/load.mjs';
import { BENCH } from './lib/paths.mjs';
import { runChild } from './lib/processes.mjs';
import { atMost, row } from './lib/rows.mjs';
import { startMock } from './lib/servers.mjs';
import { duration, median, percentile } from './lib/stats.mjs';

export const id = 'ST';
export const title = "a test file's start: the mock's import, its first answer, a session over HTTP";

/** @param {import('./main.mjs').Context} ctx */
export async function run(ctx) {
  const runs = { msw: [], import: [], anatomy: [], first: [] };
  for (let i = 0; i < ctx.processes; i++) {
    // Alternated, so that a change of the machine's load weighs on each alike.
    for (const subject of Object.keys(runs)) {
      runs[subject].push(await runChild(join(BENCH, 'st-start-child.mjs'), { subject }));
    }
  }
  const mswMs = median(runs.msw.map((r) => r.totalMs));
  const importMs = median(runs.import.map((r) => r.totalMs));
  const mockMs = median(runs.import.map((r) => r.steps['@iacm/mock-server']));
  const firstMs = median(runs.first.map((r) => r.firstAnswerMs));
  const anatomy = Object.keys(runs.anatomy[0].steps).map((name) => [
    name,
    median(runs.anatomy.map((r) => r.steps[name])),
  ]);
  const anatomyText = anatomy.map(([name, ms]) => `${name} ${duration(ms)}`).join(', ');

  const sessions = ctx.smoke ? 10 : 50;
  const server = await startMock({}, { execArgv: ctx.serverOptions('st-sessions').execArgv });
  const sessionMs = [];
  try {
    for (let i = 0; i < sessions + 3; i++) {
      const t = performance.now();
      const res = await fetchOnce(`${server.url}/__mock/sessions`, { method: 'POST', body: {} });
      const took = performance.now() - t;
      if (res.status !== 201) throw new Error(`POST /__mock/sessions answered ${res.status}: ${res.bytes}`);
      const { id: session } = JSON.parse(res.bytes.toString('utf8'));
      // Ended at once, as a worker's teardown does: the sessions' bound (32) is never in the way.
      const end = await fetchOnce(`${server.url}/__mock/sessions/${session}`, {
        method: 'DELETE',
        headers: { 'content-type': 'application/json' },
      });
      if (end.status !== 204) throw new Error(`DELETE /__mock/sessions/{id} answered ${end.status}`);
      if (i >= 3) sessionMs.push(took);
    }
  } finally {
    await server.stop();
  }
  const sessionP50 = median(sessionMs);
  return [
    row({
      id,
      what: `import('@iacm/mock-server') after msw/node, cold, over msw/node's own import, median of ${ctx.processes} fresh processes`,
      figure: importMs - mswMs,
      unit: 'ms',
      text:
        `+${duration(importMs - mswMs)} (msw/node ${duration(mswMs)}, with the mock ${duration(importMs)}; ` +
        `the mock's import itself ${duration(mockMs)}; its anatomy: ${anatomyText})`,
      goal: atMost(100, ' ms'),
      details: {
        mswMs,
        importMs,
        mockMs,
        anatomy: Object.fromEntries(anatomy),
        runs: { msw: runs.msw, import: runs.import, anatomy: runs.anatomy },
      },
    }),
    row({
      id,
      what: `imports + createMockServer({ scene }) of 5 workspaces + the first page through IacmClient, over msw/node's import, median of ${ctx.processes}`,
      figure: firstMs - mswMs,
      unit: 'ms',
      text:
        `+${duration(firstMs - mswMs)} (${duration(firstMs)} in all; the imports ${duration(median(runs.first.map((r) => r.importMs)))}, ` +
        `then create, login and the page ${duration(median(runs.first.map((r) => r.createToAnswerMs)))})`,
      goal: atMost(150, ' ms'),
      details: { firstMs, mswMs, runs: runs.first },
    }),
    row({
      id,
      what: `POST /__mock/sessions to the standalone mock (default sizes), one after another, p50 of ${sessions}`,
      figure: sessionP50,
      unit: 'ms',
      text: `${duration(sessionP50)} (p10 ${duration(percentile(sessionMs, 10))}, p90 ${duration(percentile(sessionMs, 90))})`,
      goal: atMost(10, ' ms'),
      details: { sessionMs },
    }),
  ];
}
