import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `pnpm test:packed`: the packed tarballs installed into fresh npm projects, one suite file per Node
 * line (run concurrently: most of the time is npm and child processes). Not part of `pnpm test`.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.packed.ts'],
    globalSetup: ['./setup.ts'],
    pool: 'forks',
    maxWorkers: 3,
    fileParallelism: true,
    testTimeout: 60_000,
    hookTimeout: 240_000,
    reporters: ['default'],
  },
});
