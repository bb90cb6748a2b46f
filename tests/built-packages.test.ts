import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
