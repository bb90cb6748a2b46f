import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `pnpm test:runtimes`: the packed tarballs (packed by the packed suite's global setup, tests/packed/setup.ts)
 * installed into fresh npm projects and run by Bun and Deno, bundled into Cloudflare Workers served
 * by workerd, and bundled for Node by esbuild (CommonJS and ESM). The runtimes come from tools/runtimes (`npm ci --prefix tools/runtimes`). Not part of
 * `pnpm test`.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.runtimes.ts'],
    globalSetup: ['../packed/setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    testTimeout: 60_000,
    hookTimeout: 240_000,
    reporters: ['default'],
  },
});
