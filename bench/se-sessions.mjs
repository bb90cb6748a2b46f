/**
 * SE: what a session costs (`POST /__mock/sessions`, `await control.createSession()`) at the default sizes:
 * the heap growth per session over 50 sessions after a forced garbage collection (goal <= 5 MB), and
 * the time to create one (goal <= 20 ms; CPU time beside wall time); each against the same figure of
 * a full mock of the same sizes, whose data is generated, measured in the same process. Sessions share
 * the data generated once and copy what they change (`store/template.ts`).
 */
import { join } from 'node:path';
import { BENCH } from './lib/paths.mjs';
import { runChild } from './lib/processes.mjs';
import { atMost, row } from './lib/rows.mjs';
import { duration, median, percentile, size } from './lib/stats.mjs';

export const id = 'SE';
export const title = 'a session of the default sizes: memory and creation time, against a full mock';

/** @param {import('./main.mjs').Context} ctx */
export async function run(ctx) {
  const sessions = 50;
  const fullMocks = ctx.smoke ? 5 : 20;
  const execArgv = ['--expose-gc', ...ctx.serverOptions('se-sessions').execArgv];
  const { session, full } = await runChild(
    join(BENCH, 'se-sessions-child.mjs'),
    { sessions, fullMocks },
    { execArgv },
  );
  const spread = (list) => `p10 ${duration(percentile(list, 10))}, p90 ${duration(percentile(list, 90))}`;
  const createMs = median(session.wallMs);
  const fullMs = median(full.wallMs);
  return [
    row({
      id,
      what: `heap growth per session over ${sessions} sessions of the default sizes, after a forced GC`,
      figure: session.bytesEach / 1e6,
      unit: 'MB',
      text:
        `${size(session.bytesEach)} per session (a full mock: ${size(full.bytesEach)}, ` +
        `${((100 * session.bytesEach) / full.bytesEach).toFixed(1)}% of it)`,
      goal: atMost(5, ' MB'),
      details: { sessionBytes: session.bytesEach, fullMockBytes: full.bytesEach, sessions, fullMocks },
    }),
    row({
      id,
      what: `time to create a session of the default sizes, median of ${sessions}`,
      figure: createMs,
      unit: 'ms',
      text:
        `${duration(createMs)} (${spread(session.wallMs)}; CPU ${duration(median(session.cpuMs))}); ` +
        `a full mock: ${duration(fullMs)} (${spread(full.wallMs)}), ${(fullMs / createMs).toFixed(0)}x as long`,
      goal: atMost(20, ' ms'),
      details: { session, full },
    }),
  ];
}
