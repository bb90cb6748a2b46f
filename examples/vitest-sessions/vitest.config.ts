/**
 * Parallel CI on one standalone mock: the global setup starts one mock for the whole run, and each test
 * file takes a session of its own with `useMockSession()`. Four files, four workers, one mock.
 *
 * Run it: `npx vitest run --config examples/vitest-sessions/vitest.config.ts`.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.ts'],
    globalSetup: ['@iacm/mock-server/vitest-setup'],
    pool: 'forks',
    maxWorkers: 4,
    fileParallelism: true,
  },
});
