import { defineConfig } from 'vitest/config';
import { alias, hangBounds, project, separateSuites } from './vitest.shared.js';

/**
 * The suites outside `pnpm test`, each with its own script (CI runs them all, .ci/run):
 * - `pnpm test:scale`: real-account volumes;
 * - `pnpm test:fuzz`: every fuzz test of `pnpm test` with 12 times the cases (20 until stop 47: cut so that .ci/run stays within 25 minutes);
 * - `pnpm test:browser`: the dashboard example in Chromium.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    ...hangBounds,
    projects: [
      project({ name: 'scale', include: separateSuites.scale }),
      project({
        name: 'fuzz',
        include: ['packages/*/test/**/fuzz.test.ts'],
        env: { IACM_FUZZ_FACTOR: '12' },
      }),
      project({ name: 'browser', include: separateSuites.browser }),
    ],
  },
});
