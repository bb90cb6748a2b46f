/**
 * Bun and Deno (pinned in tools/runtimes) over the packed tarballs, installed with npm into a fresh
 * project: a program using the SDK, the in-process mock and the receiver's fetch handler, and the
 * standalone mock's CLI run by each runtime from that project (the packages are not on the public
 * registry, so `bunx iacm-mock` or `deno run npm:@iacm/mock-server` would look for them there).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { listen } from '../../packages/mock-server/src/node.js';
import { createConsumer, envFor, root, run, runOk, STOPS, startAndStop, writeFiles } from '../packed/lib.js';
import { expectCleanStop, lastJson } from '../packed/suite.js';
import { pinned, requireTools, timed, tools, workerdDate } from './lib.js';
import {
  COMPATIBILITY_DATE,
  remoteExpected,
  remoteProgram,
  runtimeExpected,
  runtimeProgram,
} from './programs.js';

/** How each runtime is run: the commands a user types, with the fewest permissions that work. */
interface Runtime {
  name: 'Bun' | 'Deno';
  bin: string;
  /** The version the runtime reports, as the program prints it. */
  version: string;
  /** Runs a program file. */
  program: (file: string) => string[];
  /** Runs the CLI's file (`node_modules/.bin/iacm-mock`) with arguments. */
  cli: (args: string[]) => string[];
}

const RUNTIMES: Runtime[] = [
  {
    name: 'Bun',
    bin: tools.bun,
    version: `bun ${pinned.bun}`,
    // --no-install: never fetch a missing package from the registry (Bun's auto-install).
    program: (file) => ['--no-install', file],
    cli: (args) => ['--no-install', 'node_modules/.bin/iacm-mock', ...args],
  },
  {
    name: 'Deno',
    bin: tools.deno,
    version: `deno ${pinned.deno}`,
    // The packages from the project's node_modules (npm installed them), never from a registry. The
    // in-process program needs env access only (msw's dependency graphql reads NODE_ENV); the CLI
    // also needs the network (its server) and sys (it lists the network interfaces to check the bind).
    program: (file) => ['run', '--node-modules-dir=manual', '--allow-env', file],
    cli: (args) => [
      'run',
      '--node-modules-dir=manual',
      '--allow-net',
      '--allow-env',
      '--allow-sys',
      'node_modules/.bin/iacm-mock',
      ...args,
    ],
  },
];

/** The primary account's key pair of the CLI (the public demo pair it prints). */
const DEMO_KEYS = { accessKey: 'iacm_ak_demo', secretKey: 'iacm_sk_demo' };

/** Logs in to a running mock and lists a page of workspaces, over HTTP. */
async function loginAndSearch(url: string): Promise<{ login: number; search: number; items: unknown }> {
  const json = { 'content-type': 'application/json' };
  const login = await fetch(`${url}/v2/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(DEMO_KEYS),
  });
  const { accessToken } = (await login.json()) as { accessToken?: string };
  const search = await fetch(`${url}/v2/workspaces/search?pageSize=5`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${accessToken}` },
    body: '{}',
  });
  const items = (await search.json()) as unknown;
  return { login: login.status, search: search.status, items: Array.isArray(items) ? items.length : items };
}

describe('the packed tarballs on Bun and Deno', () => {
  const prepared = inject('prepared');
  const dir = join(prepared.workDir, 'runtimes-bun-deno');
  const env = envFor(prepared.nodeBins['20'] as string, { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' });

  beforeAll(async () => {
    requireTools();
    await timed('npm install of the tarballs and msw (Bun and Deno project)', () =>
      createConsumer(dir, prepared, { msw: '^2.15' }, env),
    );
    writeFiles(dir, { 'program.mjs': runtimeProgram, 'remote.mjs': remoteProgram });
  }, 180_000);

  describe.each(RUNTIMES)('$name', (runtime) => {
    it(`is the pinned version (${runtime.version})`, async () => {
      const ran = await runOk(runtime.bin, ['--version'], { cwd: dir, env });
      // `bun --version`: `1.4.5`; `deno --version`: `deno 2.9.6 (stable, release, ...)`, then V8's and TypeScript's.
      const first = ran.stdout.trim().split('\n')[0] ?? '';
      expect(first.replace(/ \(.*$/, '').replace(/^(\d)/, 'bun $1')).toBe(runtime.version);
    });

    it('runs the SDK against the in-process mock (msw setupServer): paging, a 404 as NotFoundError; the mock fetch handler; the receiver fetch handler verifying a test delivery', async () => {
      const ran = await timed(`${runtime.name}: program`, () =>
        run(runtime.bin, runtime.program('program.mjs'), { cwd: dir, env, timeoutMs: 60_000 }),
      );
      expect(
        { code: ran.code, out: lastJson(ran.stdout) },
        `${runtime.name} exited ${ran.code ?? ran.signal}\n${ran.stdout}\n${ran.stderr}`,
      ).toEqual({ code: 0, out: { runtime: runtime.version, ...runtimeExpected } });
    });

    it("drives a standalone mock's control plane with the typed remote client (@iacm/mock-server/remote)", async () => {
      const mock = await listen({ port: 0, sizes: { workspaces: 4 } });
      try {
        const args =
          runtime.name === 'Deno'
            ? ['run', '--node-modules-dir=manual', '--allow-env', '--allow-net', 'remote.mjs']
            : runtime.program('remote.mjs');
        const ran = await timed(`${runtime.name}: remote client`, () =>
          run(runtime.bin, args, { cwd: dir, env: { ...env, MOCK_URL: mock.url }, timeoutMs: 60_000 }),
        );
        expect(
          { code: ran.code, out: lastJson(ran.stdout) },
          `${runtime.name} exited ${ran.code ?? ran.signal}\n${ran.stdout}\n${ran.stderr}`,
        ).toEqual({ code: 0, out: remoteExpected });
      } finally {
        await mock.close();
      }
    });

    it.each(STOPS)(
      `runs the standalone mock's CLI (node_modules/.bin/iacm-mock --port 0) itself, logs in and searches, and stops it with %s`,
      async (_name, stop) => {
        const cli = await timed(`${runtime.name}: CLI start, login, search, stop (${stop.signal})`, () =>
          startAndStop(dir, env, runtime.cli(['--port', '0']), stop, {
            command: runtime.bin,
            during: loginAndSearch,
          }),
        );
        expectCleanStop(cli, stop, 0);
        expect(cli.during, cli.output).toEqual({ login: 200, search: 200, items: 5 });
        // The runtime ran the CLI itself: no Node (or other) process under it.
        expect(cli.processes, cli.output).toBe(1);
      },
      90_000,
    );
  });

  it('docs/compatibility.md names the versions tools/runtimes pins and the Workers’ compatibility date', () => {
    const docs = readFileSync(join(root, 'docs', 'compatibility.md'), 'utf8');
    const rows = docs.split('\n').filter((line) => /^\| (Bun|Deno|Cloudflare Workers) /.test(line));
    expect(rows.map((row) => row.split('|')[2]?.trim())).toEqual([
      pinned.bun,
      pinned.deno,
      `workerd ${pinned.workerd} (\`workerd ${workerdDate(pinned.workerd)}\`), compatibility date ${COMPATIBILITY_DATE}, no \`nodejs_compat\` flag`,
    ]);
    expect(rows[2]).toContain(`esbuild ${pinned.esbuild}`);
  });

  it('Deno: the program ends with Deno.exit() because Deno’s BroadcastChannel has no unref() (msw opens one when it loads and unrefs it on Node only)', async () => {
    // The documented reason (docs/compatibility.md): when this starts failing, Deno can unref the
    // channel, and the program (and the docs) can drop the Deno.exit().
    const ran = await runOk(
      tools.deno,
      ['eval', "console.log(typeof new BroadcastChannel('iacm').unref); Deno.exit(0);"],
      { cwd: dir, env },
    );
    expect(ran.stdout.trim()).toBe('undefined');
  });
});
