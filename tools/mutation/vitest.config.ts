import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { alias, hangBounds } from '../../vitest.shared.js';
import { selectedModules } from './modules.mjs';

/**
 * The tests `pnpm test:mutation` runs against each mutant (Stryker's vitest runner loads this config):
 * only the test files that modules.mjs lists for the mutated modules, not the whole suite, so that the
 * first (coverage) run and each mutant's run stay short. Stryker then runs, for each mutant, only the
 * tests that reached it (`coverageAnalysis: 'perTest'`).
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  resolve: { alias },
  test: {
    ...hangBounds,
    include: [...new Set(selectedModules().flatMap((module) => module.tests))],
  },
});
