/**
 * P2: the in-process mock through MSW, per request, against a static MSW handler answering the same
 * JSON bytes (same process, same `fetch`, same `res.json()`), which reads the request's body as the
 * mock does (since the record of 2026-11-27c; the ratio against the same handler not reading it is
 * shown beside). Since issue 25, by the process's CPU time per request (the median of the rounds,
 * with their spread; the wall-time ratio beside it); goal <= 1.25x.
 */
import { join } from 'node:path';
import { BENCH } from './lib/paths.mjs';
import { runChild } from './lib/processes.mjs';
import { atMost, row } from './lib/rows.mjs';
import { duration, pairedRatio, size } from './lib/stats.mjs';

export const id = 'P2';
export const title = 'in-process mock through MSW vs a static MSW handler (same JSON)';

/** @param {import('./main.mjs').Context} ctx */
export async function run(ctx) {
  const result = await runChild(
    join(BENCH, 'p2-msw-child.mjs'),
    { requests: ctx.callRequests, warmup: ctx.warmup, rounds: ctx.rounds },
    { execArgv: ctx.serverOptions('p2-msw').execArgv },
  );
  const { subject: a, baseline: b, unread: c } = result;
  // The median of the rounds' ratios (each round pairs the two sides, measured one after the other).
  const { ratio, rounds, spread } = pairedRatio(a.cpuRoundsMs, b.cpuRoundsMs);
  const unread = pairedRatio(a.cpuRoundsMs, c.cpuRoundsMs);
  return [
    row({
      id,
      what: `workspace search, 25 items (${size(result.bytes)}), createMockServer() handlers vs a static handler reading the body: CPU time per request`,
      figure: ratio,
      unit: 'x',
      text:
        `${ratio.toFixed(2)}x (CPU ${duration(a.cpuMs)} vs ${duration(b.cpuMs)}; rounds ${spread}; ` +
        `wall mean ${duration(a.meanMs)} vs ${duration(b.meanMs)}, ${(a.meanMs / b.meanMs).toFixed(2)}x; p99 ${duration(a.p99Ms)} vs ${duration(b.p99Ms)}; ` +
        `vs the static handler not reading the body: ${unread.ratio.toFixed(2)}x, CPU ${duration(c.cpuMs)}, rounds ${unread.spread})`,
      goal: atMost(1.25, 'x'),
      details: { subject: a, baseline: b, unread: c, rounds, unreadRounds: unread.rounds },
      stable: 'cpu',
    }),
  ];
}
