/**
 * The mock's root entry bundled for Node as a serverless function or a test harness is: esbuild
 * (pinned in tools/runtimes) bundles a program that imports `createMockServer`, as CommonJS and as ESM
 * (`--platform=node`, msw left external: it stays in node_modules), and Node runs the bundle from a
 * project with the tarballs and msw 2 installed. The root entry loads msw's `http` through `#msw-http`
 * without a top-level `await`, which a CommonJS bundle cannot hold (docs/compatibility.md).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createConsumer, envFor, runOk, writeFiles } from '../packed/lib.js';
import { MSW_ROUND_TRIP_ANSWER, mswRoundTrip } from '../support/msw-round-trip.js';
import { requireTools, timed, tools } from './lib.js';

/** An ES program with no top-level await of its own, so that esbuild can make it CommonJS. */
const program = `import { setupServer } from 'msw/node';
import { createMockServer } from '@iacm/mock-server';

async function main() {${mswRoundTrip()}}
main();
`;

describe('the mock bundled for Node by esbuild (msw external)', () => {
  const prepared = inject('prepared');
  const dir = join(prepared.workDir, 'runtimes-bundled-node');
  const env = envFor(prepared.nodeBins['20'] as string);

  beforeAll(async () => {
    requireTools();
    await timed('npm install of the tarballs and msw 2 (bundled-node project)', () =>
      createConsumer(dir, prepared, { msw: '^2.15' }, env),
    );
    writeFiles(dir, { 'program.mjs': program });
  }, 240_000);

  for (const format of ['cjs', 'esm'] as const) {
    it(`runs a ${format === 'cjs' ? 'CommonJS' : 'ES'} bundle of a program using createMockServer`, async () => {
      const out = `bundle.${format === 'cjs' ? 'cjs' : 'mjs'}`;
      await runOk(
        tools.esbuild,
        [
          'program.mjs',
          '--bundle',
          '--platform=node',
          `--format=${format}`,
          '--external:msw',
          `--outfile=${out}`,
          '--log-level=error',
        ],
        { cwd: dir, env },
      );
      // `node` from the Node 20 line first on the PATH (envFor).
      const ran = await runOk('node', [out], { cwd: dir, env });
      expect(JSON.parse(ran.stdout.trim().split('\n').pop() as string)).toEqual(MSW_ROUND_TRIP_ANSWER);
    });
  }
});
