// @ts-check
/**
 * Stryker's configuration for `pnpm test:mutation` (run from the repository root). The modules and
 * their tests are listed in modules.mjs; check-scores.mjs then checks each module's score against the
 * goal (Stryker's own `thresholds.break` is one figure for the whole run).
 *
 * Not incremental: CI runs on a fresh clone, where an incremental file would have to be committed and
 * kept in step with every change of the mutated files and their tests. For quicker local reruns, pass
 * `--incremental` (the file goes to reports/, which git ignores): `pnpm exec stryker run
 * tools/mutation/stryker.config.mjs --incremental`.
 */
import { selectedModules } from './modules.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: selectedModules().flatMap((module) => module.mutate),
  testRunner: 'vitest',
  // pnpm keeps the runner out of core's reach, where Stryker's default `@stryker-mutator/*` looks.
  plugins: [import.meta.resolve('@stryker-mutator/vitest-runner')],
  vitest: { configFile: 'tools/mutation/vitest.config.ts' },
  // Each mutant runs only the tests that reached its code in the first run.
  coverageAnalysis: 'perTest',
  // CI and the developers' machines have 2 cores.
  concurrency: 2,
  // Files the sandbox does not need (built output, the generated API reference).
  ignorePatterns: ['dist', 'docs/api', 'coverage', 'reports', 'bench', 'tools/prism'],
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  clearTextReporter: { allowColor: false, logTests: false, reportTests: false, reportScoreTable: true },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  // check-scores.mjs applies the goal per module; these only colour the score table.
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
