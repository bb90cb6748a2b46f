/**
 * P1: the standalone mock (its CLI, `--quiet`, default sizes) answering a workspace search of 25
 * items, against a raw node:http server answering the same bytes. Since issue 25 the figure is the
 * servers' CPU time per request (each server's own, read by probe.mjs before and after each round:
 * the raw server's CPU per request over the mock's, so higher is better, as for throughput), the
 * median of the rounds with their spread; the throughput ratio beside it, not gated. Goal >= 0.6x
 * (issue 37; issue 25 set 0.4x).
 */
import { alternate, fetchOnce } from './lib/load.mjs';
import { atLeast, row } from './lib/rows.mjs';
import { cpuFigures, loadWithServerCpu } from './lib/server-cpu.mjs';
import { routeOf, startMock, startRaw } from './lib/servers.mjs';
import { size } from './lib/stats.mjs';

export const id = 'P1';
export const title = 'standalone workspace search vs raw node:http (same bytes)';

const PATH = '/v2/workspaces/search';

/** @param {import('./main.mjs').Context} ctx */
export async function run(ctx) {
  const mock = await startMock({}, ctx.serverOptions('p1-mock'));
  let raw;
  try {
    const headers = { authorization: `Bearer ${mock.token}` };
    const answer = await fetchOnce(`${mock.url}${PATH}`, { method: 'POST', headers, body: {} });
    const items = JSON.parse(answer.bytes.toString('utf8'));
    if (answer.status !== 200 || !Array.isArray(items) || items.length !== 25) {
      throw new Error(
        `the workspace search answered ${answer.status} with ${items.length} items, expected 200 with 25`,
      );
    }
    raw = await startRaw([routeOf('POST', PATH, answer)], ctx.serverOptions('p1-raw'));
    // Each round's server CPU per request (warm-up included: both sides alike).
    const cpu = { a: [], b: [] };
    const options = {
      method: 'POST',
      headers,
      body: {},
      requests: ctx.serverRequests,
      warmup: ctx.warmup,
      concurrency: ctx.concurrency,
      rate: ctx.rate,
    };
    const { a, b } = await alternate(
      ctx.rounds,
      (round, counted) => loadWithServerCpu(mock, PATH, options, cpu.a, round, counted),
      (round, counted) => loadWithServerCpu(raw, PATH, options, cpu.b, round, counted),
      ctx.settlingRounds,
    );
    const figures = cpuFigures(cpu, a, b);
    return [
      row({
        id,
        what: `workspace search, 25 items (${size(answer.bytes.length)}), standalone mock vs raw node:http: CPU time per request (raw / mock)`,
        figure: figures.figure,
        unit: 'x',
        text: figures.text,
        stable: figures.stable,
        goal: atLeast(0.6, 'x'), // issue 37 (issue 25: 0.4x)
        details: { concurrency: ctx.concurrency, ...figures.details },
      }),
    ];
  } finally {
    await Promise.all([mock.stop(), raw?.stop()]);
  }
}
