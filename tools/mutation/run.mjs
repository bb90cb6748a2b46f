/**
 * `pnpm test:mutation`: one Stryker run per module of modules.mjs (or of `MUTATION_MODULES`), each with
 * only that module's tests, then the per-module check (check-scores.mjs). Exits 1 when a run fails or a
 * module is under the goal.
 *
 * One run per module, not one run for all: a mutant that runs when a module loads or a test file sets up
 * (a "static" mutant: the seed calls the glob matcher, a receiver is made at the top of a test file) is
 * run against every test of its run; in a run of its own module's tests that is a few seconds, in a run
 * of every module's tests it was most of the time.
 *
 * Arguments are passed to each `stryker run` (e.g. `pnpm test:mutation --incremental` for quicker local
 * reruns; the incremental files go to reports/, which git ignores).
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkScores, REPORT_DIR } from './check-scores.mjs';
import { selectedModules } from './modules.mjs';

const modules = selectedModules();
const stryker = join(
  dirname(fileURLToPath(import.meta.resolve('@stryker-mutator/core/package.json'))),
  'bin/stryker.js',
);
const passThrough = process.argv.slice(2);
if (!passThrough.includes('--incremental')) {
  // Reports of an earlier run must not stand in for a module whose run fails now.
  for (const module of modules) rmSync(`${REPORT_DIR}/${module.name}.json`, { force: true });
}

const started = Date.now();
const seconds = (since) => Math.round((Date.now() - since) / 1000);
const times = [];
const failedRuns = [];
for (const module of modules) {
  const start = Date.now();
  console.log(`\n::: mutation: ${module.name} (${module.mutate.join(', ')})`);
  const run = spawnSync(
    process.execPath,
    [stryker, 'run', 'tools/mutation/stryker.config.mjs', ...passThrough],
    {
      stdio: 'inherit',
      env: { ...process.env, MUTATION_MODULES: module.name },
    },
  );
  if (run.status !== 0) failedRuns.push(module.name);
  times.push(`    ${module.name.padEnd(24)} ${String(seconds(start)).padStart(5)} s`);
  console.log(`::: mutation: ${module.name} took ${seconds(start)} s`);
}

const ok = checkScores(modules, (module) => `${REPORT_DIR}/${module.name}.json`);
console.log('\n::: mutation run times');
console.log(times.join('\n'));
console.log(`    ${'total'.padEnd(24)} ${String(seconds(started)).padStart(5)} s`);
if (failedRuns.length > 0)
  console.error(`\nStryker failed for: ${failedRuns.join(', ')} (see its output above).`);
process.exitCode = ok && failedRuns.length === 0 ? 0 : 1;
