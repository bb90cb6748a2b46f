/**
 * LB: the longest time one request holds the event loop on a mock at its default options (issue 34:
 * a shared standalone mock serves a whole CI run, so one request's long synchronous work stalls every
 * other worker). For each request that does the most work at once (a scenario of 10,000 steps due at
 * once, a clock move over 10,000 timed runs, 5,000 deliveries fanned out, 1,000 faults with large
 * matches), the event loop's longest delay while it runs (`monitorEventLoopDelay`), the median over
 * the repeats with its spread, against the same figure of an ordinary API request measured in the
 * same process. Goal: at most 50 ms for every request.
 */
import { join } from 'node:path';
import { BENCH } from './lib/paths.mjs';
import { runChild } from './lib/processes.mjs';
import { atMost, row } from './lib/rows.mjs';
import { duration, max, median } from './lib/stats.mjs';

export const id = 'LB';
export const title = 'the longest event-loop block of one request, default options';

const BASELINE = 'a workspace search (baseline)';

/** @param {import('./main.mjs').Context} ctx */
export async function run(ctx) {
  const repeats = ctx.smoke ? 1 : 5;
  const execArgv = ctx.serverOptions('lb-loop-block').execArgv;
  const results = await runChild(join(BENCH, 'lb-loop-block-child.mjs'), { repeats }, { execArgv });
  const baseline = median(results[BASELINE]);
  return Object.entries(results)
    .filter(([name]) => name !== BASELINE)
    .map(([name, blocks]) => {
      const figure = median(blocks);
      return row({
        id,
        what: `longest event-loop block: ${name}, median of ${repeats}`,
        figure,
        unit: 'ms',
        text:
          `${duration(figure)} (min ${duration(Math.min(...blocks))}, max ${duration(max(blocks))}); ` +
          `an ordinary request: ${duration(baseline)}, ${(figure / baseline).toFixed(1)}x`,
        goal: atMost(50, ' ms'),
        details: { blocks, baseline: results[BASELINE] },
      });
    });
}
