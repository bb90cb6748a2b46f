import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createConsumer,
  envFor,
  installedVersion,
  npmInstall,
  run,
  runOk,
  STOPS,
  shellHandsOver,
  startAndStop,
  writeFiles,
} from './lib.js';
import { firstMockCall, typesWithoutMsw, withoutMsw } from './programs.js';
import { expectCleanStop, lastJson, lineSuite, typeCheck } from './suite.js';

// Node 20 (>= 20.19) with msw 2 and vitest 4, the newest majors that run on it.
lineSuite({ node: 20, msw: 2, vitest: 4, types: true });

describe('the packed tarballs on Node 20 without msw, then with `npm i msw` and `npm i msw@latest`', () => {
  const prepared = inject('prepared');
  const dir = join(prepared.workDir, 'node20-without-msw');
  const env = envFor(prepared.nodeBins['20'] as string);
  const node = (args: string[]) => run('node', args, { cwd: dir, env, timeoutMs: 60_000 });

  beforeAll(async () => {
    await createConsumer(dir, prepared, { '@types/node': '^20' }, env);
    writeFiles(dir, {
      'node-only.mjs': withoutMsw('esm'),
      'node-only.cjs': withoutMsw('cjs'),
      'first-call.mjs': firstMockCall('esm'),
      'first-call.cjs': firstMockCall('cjs'),
    });
  }, 180_000);

  it('installs no msw: it is an optional peer dependency', async () => {
    const ran = await node(['-e', "require.resolve('msw')"]);
    expect(ran.stderr).toContain("Cannot find module 'msw'");
  });

  it('runs the standalone mock (`./node`) and the SDK without msw, from ESM and CJS', async () => {
    for (const program of ['node-only.mjs', 'node-only.cjs']) {
      const ran = await node([program]);
      expect({ code: ran.code, out: lastJson(ran.stdout) }, ran.stderr).toEqual({
        code: 0,
        out: { count: 4 },
      });
    }
  });

  it('type-checks a TypeScript consumer of `./node` without msw (skipLibCheck false)', async () => {
    expect(await typeCheck(dir, 'without-msw', 'Node16', 'Node16', typesWithoutMsw, ['node'])).toBe('');
  }, 120_000);

  it.each(STOPS)(
    'starts `npx iacm-mock --port 0` without msw and stops it with %s',
    async (_name, stop) => {
      const cli = await startAndStop(dir, env, ['iacm-mock', '--port', '0'], stop);
      expectCleanStop(cli, stop, (await shellHandsOver(dir, env)) ? 0 : stop.signal);
    },
    90_000,
  );

  it('works with `npm i msw`, which picks msw 2 on Node 20 (npm skips a latest whose engines do not fit)', async () => {
    await npmInstall(['msw'], { cwd: dir, env, timeoutMs: 120_000 });
    expect(Number((await installedVersion(dir, 'msw', env)).split('.')[0])).toBe(2);
    for (const program of ['first-call.mjs', 'first-call.cjs']) {
      const ran = await node([program]);
      expect({ code: ran.code, out: lastJson(ran.stdout) }, ran.stderr).toEqual({ code: 0, out: { ok: 2 } });
    }
  }, 150_000);

  it('refuses msw 3 (`npm i msw@latest`) at createMockServer with the documented message', async () => {
    await npmInstall(['msw@latest'], { cwd: dir, env, timeoutMs: 120_000 });
    expect(Number((await installedVersion(dir, 'msw', env)).split('.')[0])).toBe(3);
    const nodeVersion = (
      await runOk('node', ['-p', 'process.versions.node'], { cwd: dir, env })
    ).stdout.trim();
    for (const program of ['first-call.mjs', 'first-call.cjs']) {
      const ran = await node([program]);
      expect({ code: ran.code, out: lastJson(ran.stdout) }, ran.stderr).toEqual({
        code: 0,
        out: {
          name: 'UnsupportedMswError',
          message:
            '@iacm/mock-server supports msw ^2.15.0 || ^3.0.0, but msw 3 needs Node >= 22.12 and this is ' +
            `Node ${nodeVersion}. On Node 20 install msw 2: npm i -D msw@^2.15 (or run on Node >= 22.12 to keep msw 3).`,
        },
      });
      expect(ran.stdout + ran.stderr).not.toMatch(/withResolvers|dispose is not a function/);
    }
  }, 150_000);
});
