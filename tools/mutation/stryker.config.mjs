// @ts-check
/**
 * Stryker's configuration for `pnpm test:mutation` (run from the repository root by run.mjs, once per
 * module, with `MUTATION_MODULES` naming it). The modules and their tests are listed in modules.mjs;
 * check-scores.mjs then checks each module's score against the goal (Stryker's own `thresholds.break`
 * is one figure for a run).
 *
 * Not incremental: CI runs on a fresh clone, where an incremental file would have to be committed and
 * kept in step with every change of the mutated files and their tests (about 1 MB of JSON each time).
 * For quicker local reruns, `pnpm test:mutation --incremental` (the files go to reports/, which git
 * ignores).
 */
import { selectedModules } from './modules.mjs';

const modules = selectedModules();
/** The report's name: the module's, for run.mjs's one-module runs. */
const label = modules.length === 1 ? modules[0].name : 'mutation';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: modules.flatMap((module) => module.mutate),
  testRunner: 'vitest',
  // pnpm keeps the runner out of core's reach, where Stryker's default `@stryker-mutator/*` looks.
  plugins: [import.meta.resolve('@stryker-mutator/vitest-runner')],
  vitest: { configFile: 'tools/mutation/vitest.config.ts' },
  // Each mutant runs only the tests that reached its code in the first run.
  coverageAnalysis: 'perTest',
  // CI and the developers' machines have 2 cores.
  concurrency: 2,
  // Files the sandbox does not need (built output, the generated API reference, other Stryker runs' files).
  ignorePatterns: ['dist', 'docs/api', 'coverage', 'reports', 'bench', 'tools/prism', '.stryker-*'],
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  clearTextReporter: { allowColor: false, logTests: false, reportTests: false, reportScoreTable: true },
  jsonReporter: { fileName: `reports/mutation/${label}.json` },
  htmlReporter: { fileName: `reports/mutation/${label}.html` },
  incrementalFile: `reports/mutation/${label}.incremental.json`,
  // check-scores.mjs applies the goal per module; these only colour the score table.
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
