/**
 * P3: an SDK call against raw `fetch` + `JSON.parse` of the same answer, with strict validation and
 * with it off. The answer is the mock's, recorded once and served by the raw node:http baseline so
 * that the server costs the same (and little) for every subject. Goals <= 1.5x and <= 1.15x.
 */
import { join } from 'node:path';
import { fetchOnce } from './lib/load.mjs';
import { BENCH } from './lib/paths.mjs';
import { runChild } from './lib/processes.mjs';
import { atMost, row } from './lib/rows.mjs';
import { routeOf, startMock, startRaw } from './lib/servers.mjs';
import { duration, size } from './lib/stats.mjs';

export const id = 'P3';
export const title = 'SDK call vs fetch + JSON.parse (validation strict and off)';

const PATH = '/v2/workspaces/search';

/** @param {import('./main.mjs').Context} ctx */
export async function run(ctx) {
  const mock = await startMock();
  let answer;
  try {
    answer = await fetchOnce(`${mock.url}${PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.token}` },
      body: {},
    });
    if (answer.status !== 200) throw new Error(`the workspace search answered ${answer.status}`);
  } finally {
    await mock.stop();
  }
  const raw = await startRaw([routeOf('POST', PATH, answer)]);
  try {
    const result = await runChild(
      join(BENCH, 'p3-sdk-child.mjs'),
      { base: raw.url, token: mock.token, requests: ctx.requests, warmup: ctx.warmup, rounds: ctx.rounds },
      { execArgv: ctx.serverOptions('p3-sdk').execArgv },
    );
    const what = (mode) =>
      `client.workspaces.search(), 25 items (${size(answer.bytes.length)}), validation ${mode}, vs fetch + JSON.parse: time per call`;
    const line = (subject) => {
      const ratio = subject.meanMs / result.fetch.meanMs;
      return {
        ratio,
        text:
          `${ratio.toFixed(2)}x (mean ${duration(subject.meanMs)} vs ${duration(result.fetch.meanMs)}; ` +
          `p99 ${duration(subject.p99Ms)} vs ${duration(result.fetch.p99Ms)})`,
      };
    };
    const strict = line(result.strict);
    const off = line(result.off);
    return [
      row({
        id,
        what: what('strict'),
        figure: strict.ratio,
        unit: 'x',
        text: strict.text,
        goal: atMost(1.5, 'x'),
        details: { subject: result.strict, baseline: result.fetch },
      }),
      row({
        id,
        what: what('off'),
        figure: off.ratio,
        unit: 'x',
        text: off.text,
        goal: atMost(1.15, 'x'),
        details: { subject: result.off, baseline: result.fetch },
      }),
    ];
  } finally {
    await raw.stop();
  }
}
