import { defineConfig } from 'vitest/config';
import { alias, hangBounds, project, separateSuites } from './vitest.shared.js';

/**
 * The suites of `pnpm test` (`pnpm test:unit`): everything that needs only Node and npm and runs in
 * minutes. The scale, long fuzz, browser and packed-tarball suites have their own scripts
 * (vitest.suites.config.ts and tests/packed/).
 */
const exclude = ['**/node_modules/**', ...separateSuites.scale, ...separateSuites.browser];

export default defineConfig({
  resolve: { alias },
  test: {
    ...hangBounds,
    projects: [
      project({
        name: 'sdk',
        include: ['packages/sdk/test/**/*.test.ts'],
        exclude,
        typecheck: { enabled: true, include: ['packages/sdk/test/**/*.test-d.ts'] },
      }),
      project({
        name: 'mock-server',
        include: ['packages/mock-server/test/**/*.test.ts'],
        exclude,
        // The mock's type tests (`packages/mock-server/test/**/*.test-d.ts`) are checked by `pnpm
        // typecheck` (tsconfig.json includes packages/*/test: an `expectTypeOf` that does not hold or an
        // unused `@ts-expect-error` fails it), not a second time here: vitest's typecheck of this
        // project took about a minute of `pnpm test` on 2 cores.
      }),
      project({
        name: 'webhook-receiver',
        include: ['packages/webhook-receiver/test/**/*.test.ts'],
        exclude,
      }),
      project({
        name: 'integration',
        include: ['tests/**/*.test.ts'],
        exclude: [...exclude, 'tests/packed/**'],
      }),
      // examples/vitest-sessions runs with its own config (a global setup, four workers):
      // tests/examples-sessions.test.ts runs it.
      project({
        name: 'examples',
        include: ['examples/**/*.test.ts'],
        exclude: [...exclude, 'examples/vitest-sessions/**'],
      }),
    ],
  },
});
