/**
 * P3: an SDK call against raw `fetch` + `JSON.parse` of the same answer, with strict validation and
 * with it off, and against ky alone making the same call, by the client process's CPU time per call
 * (the median of the rounds, with their spread; wall time beside it). The answer is the mock's,
 * recorded once and served by the raw node:http baseline so that the server costs the same (and
 * little) for every subject. Goals (issue 36, the SDK on ky): strict <= 1.2x ky alone, off <= 1.05x
 * ky alone; the figures against fetch beside them, without a goal.
 */
import { join } from 'node:path';
import { fetchOnce } from './lib/load.mjs';
import { BENCH } from './lib/paths.mjs';
import { runChild } from './lib/processes.mjs';
import { atMost, row } from './lib/rows.mjs';
import { routeOf, startMock, startRaw } from './lib/servers.mjs';
import { duration, pairedRatio, size } from './lib/stats.mjs';

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
  // The recorded answer's server feeds the measured client: a helper, off the client's core.
  const raw = await startRaw([routeOf('POST', PATH, answer)], { role: 'helper' });
  try {
    const result = await runChild(
      join(BENCH, 'p3-sdk-child.mjs'),
      {
        base: raw.url,
        token: mock.token,
        requests: ctx.callRequests,
        warmup: ctx.warmup,
        rounds: ctx.rounds,
      },
      { execArgv: ctx.serverOptions('p3-sdk').execArgv },
    );
    const label = (mode, base) =>
      `client.workspaces.search(), 25 items (${size(answer.bytes.length)}), validation ${mode}, vs ${base}: CPU time per call`;
    // By CPU time (this process's, per call: the client's own cost, whatever the load does to wall
    // time), the median of the rounds with its spread; wall time beside it.
    const line = (subject, base) => {
      const { ratio, rounds, spread } = pairedRatio(subject.cpuRoundsMs, base.cpuRoundsMs);
      return {
        ratio,
        rounds,
        text:
          `${ratio.toFixed(2)}x (CPU ${duration(subject.cpuMs)} vs ${duration(base.cpuMs)}; rounds ${spread}; ` +
          `wall mean ${duration(subject.meanMs)} vs ${duration(base.meanMs)}, ${(subject.meanMs / base.meanMs).toFixed(2)}x)`,
      };
    };
    // The SDK's own cost over ky alone (issue 36: the SDK sends through ky), and beside it against fetch.
    const strictKy = line(result.strict, result.ky);
    const offKy = line(result.off, result.ky);
    const strictFetch = line(result.strict, result.fetch);
    const offFetch = line(result.off, result.fetch);
    const kyFetch = line(result.ky, result.fetch);
    return [
      row({
        id,
        what: label('strict', 'ky alone making the same call'),
        figure: strictKy.ratio,
        unit: 'x',
        text: strictKy.text,
        goal: atMost(1.2, 'x'),
        details: { subject: result.strict, baseline: result.ky, rounds: strictKy.rounds },
        stable: 'cpu',
      }),
      row({
        id,
        what: label('off', 'ky alone making the same call'),
        figure: offKy.ratio,
        unit: 'x',
        text: offKy.text,
        goal: atMost(1.05, 'x'),
        details: { subject: result.off, baseline: result.ky, rounds: offKy.rounds },
        stable: 'cpu',
      }),
      row({
        id,
        what: label('strict', 'fetch + JSON.parse'),
        figure: strictFetch.ratio,
        unit: 'x',
        text: strictFetch.text,
        goal: undefined,
        details: { subject: result.strict, baseline: result.fetch, rounds: strictFetch.rounds },
        stable: 'cpu',
      }),
      row({
        id,
        what: label('off', 'fetch + JSON.parse'),
        figure: offFetch.ratio,
        unit: 'x',
        text: `${offFetch.text}; ky alone vs fetch: ${kyFetch.ratio.toFixed(2)}x`,
        goal: undefined,
        details: {
          subject: result.off,
          baseline: result.fetch,
          kyVsFetch: kyFetch.ratio,
          rounds: offFetch.rounds,
        },
        stable: 'cpu',
      }),
    ];
  } finally {
    await raw.stop();
  }
}
