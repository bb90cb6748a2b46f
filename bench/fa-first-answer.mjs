/**
 * FA: `createMockServer()` with default sizes until its first answer through MSW, in a fresh process
 * each time (every user test file pays it), against a static MSW handler set up and answering the
 * same way. Goal <= 100 ms.
 */
import { join } from 'node:path';
import { BENCH } from './lib/paths.mjs';
import { runChild } from './lib/processes.mjs';
import { atMost, row } from './lib/rows.mjs';
import { duration, median } from './lib/stats.mjs';

export const id = 'FA';
export const title = 'createMockServer() time to first answer (fresh process)';

/** @param {import('./main.mjs').Context} ctx */
export async function run(ctx) {
  const runs = { mock: [], static: [] };
  for (let i = 0; i < ctx.processes; i++) {
    for (const subject of ['mock', 'static']) {
      const name = `fa-${subject}-${i}`;
      const execArgv = i === 0 ? ctx.serverOptions(name).execArgv : [];
      runs[subject].push(await runChild(join(BENCH, 'fa-first-answer-child.mjs'), { subject }, { execArgv }));
    }
  }
  const of = (list, key) => median(list.map((r) => r[key]));
  const mock = {
    firstAnswerMs: of(runs.mock, 'firstAnswerMs'),
    importMs: of(runs.mock, 'importMs'),
    firstSearchMs: of(runs.mock, 'firstSearchMs'),
  };
  const base = { firstAnswerMs: of(runs.static, 'firstAnswerMs'), importMs: of(runs.static, 'importMs') };
  return [
    row({
      id,
      what: `createMockServer() + setupServer().listen() until the first answer (a login), median of ${ctx.processes} fresh processes`,
      figure: mock.firstAnswerMs,
      unit: 'ms',
      text:
        `${duration(mock.firstAnswerMs)} (static MSW handler: ${duration(base.firstAnswerMs)}, ` +
        `${(mock.firstAnswerMs / base.firstAnswerMs).toFixed(1)}x; import of @iacm/mock-server and msw ${duration(mock.importMs)} ` +
        `vs msw alone ${duration(base.importMs)}; first workspace search answered at ${duration(mock.firstSearchMs)})`,
      goal: atMost(100, ' ms'),
      details: { subject: mock, baseline: base, runs },
    }),
  ];
}
