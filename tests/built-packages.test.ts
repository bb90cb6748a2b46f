import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MSW_ROUND_TRIP_ANSWER, mswRoundTrip } from './support/msw-round-trip.js';

/** A package that depends on @iacm/sdk, so `@iacm/sdk` resolves through its exports map as a user's would. */
/** The version the packages are at (the three move together: `.changeset/config.json`). */
const VERSION = (
  JSON.parse(readFileSync(new URL('../packages/sdk/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
const consumer = fileURLToPath(new URL('../packages/mock-server', import.meta.url));
const built = fileURLToPath(new URL('../packages/sdk/dist/contract/index.cjs', import.meta.url));

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: consumer, encoding: 'utf8' });
}

describe('the built SDK', () => {
  it('has been built (run `pnpm build` first)', () => {
    expect(existsSync(built)).toBe(true);
  });

  it('imports from ESM, contract included', () => {
    const out = node([
      '--input-type=module',
      '-e',
      `import { VERSION } from '@iacm/sdk';
       import { endpoints, WorkspaceSearchBody } from '@iacm/sdk/contract';
       const ok = WorkspaceSearchBody.safeParse({ limit: 1 }).success;
       console.log(JSON.stringify({ version: VERSION, count: Object.keys(endpoints).length, ok }));`,
    ]);
    expect(JSON.parse(out)).toEqual({ version: VERSION, count: 17, ok: false });
  });

  it('requires from CJS, contract included', () => {
    const out = node([
      '-e',
      `const { VERSION } = require('@iacm/sdk');
       const { endpoints, ObjectId } = require('@iacm/sdk/contract');
       console.log(JSON.stringify({ version: VERSION, count: Object.keys(endpoints).length, ok: ObjectId.safeParse('65a1f0c2e4b0a1b2c3d4e5f6').success }));`,
    ]);
    expect(JSON.parse(out)).toEqual({ version: VERSION, count: 17, ok: true });
  });
});

describe('the built mock server on Node', () => {
  // What a test file pays for before its first test: msw 2's main entry loads graphql (CommonJS, so
  // it shows in require.cache); `#msw-http` loads `msw/core/http` instead (docs/performance.md, ST).
  const check = mswRoundTrip({
    graphql: 'Object.keys(require.cache).filter((path) => /[\\\\/]graphql[\\\\/]/.test(path)).length',
  });
  const expected = { graphql: 0, ...MSW_ROUND_TRIP_ANSWER };

  it("imports without msw's main entry (ESM) and answers through msw/node", () => {
    const out = node([
      '--input-type=module',
      '-e',
      `import { createRequire } from 'node:module';
       import { setupServer } from 'msw/node';
       import { createMockServer } from '@iacm/mock-server';
       const require = createRequire(import.meta.url);
       ${check}`,
    ]);
    expect(JSON.parse(out)).toEqual(expected);
  });

  it("requires without msw's main entry (CJS) and answers through msw/node", () => {
    const out = node([
      '-e',
      `const { setupServer } = require('msw/node');
       const { createMockServer } = require('@iacm/mock-server');
       (async () => { ${check} })();`,
    ]);
    expect(JSON.parse(out)).toEqual(expected);
  });

  it('keeps the namespace import of msw for bundlers and browsers (the default condition of #msw-http)', () => {
    const out = node([
      '--input-type=module',
      '-e',
      `import * as msw from 'msw';
       const picked = await import('./dist/msw-http.js');
       console.log(JSON.stringify({ http: picked.http === msw.http, handler: picked.RequestHandler === msw.RequestHandler }));`,
    ]);
    expect(JSON.parse(out)).toEqual({ http: true, handler: true });
  });
});
