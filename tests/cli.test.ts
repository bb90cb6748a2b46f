/**
 * The built `iacm-mock` (packages/mock-server/dist/cli.js; build it with
 * `pnpm --filter @iacm/mock-server build`), run as a real process on `--port 0`, the URL read from
 * what it prints. tests/cli-signals.test.ts runs it through the wrappers users start it with.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../packages/mock-server/dist/cli.js', import.meta.url));
const gettingStarted = fileURLToPath(new URL('../docs/getting-started.md', import.meta.url));
const children: ChildProcess[] = [];

/** Long enough only to catch a hang: output comes as soon as the process is ready. */
const HANG_BOUND_MS = 60_000;

function run(args: string[]) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
    for (const wake of waiters) wake();
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** Resolves with stdout once it matches (or the process ended: the test's expectation then fails). */
  const output = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (pattern.test(stdout)) finish();
      };
      const finish = () => {
        waiters.delete(check);
        clearTimeout(timer);
        resolve(stdout);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${pattern} in the output after ${HANG_BOUND_MS} ms:\n${stdout}\n${stderr}`));
      }, HANG_BOUND_MS);
      waiters.add(check);
      void exited.then(finish);
      check();
    });
  /** Starts a server and resolves with its base URL, read from what it prints. */
  const url = async () => {
    const out = await output(/Press Ctrl\+C to stop\.|"msg":"listening"/);
    const found =
      /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] ?? /"url":"([^"]+)"/.exec(out)?.[1];
    if (!found) throw new Error(`no URL in the output:\n${out}\n${stderr}`);
    return found;
  };
  return { child, exited, output, url, stderr: () => stderr, stdout: () => stdout };
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function login(url: string, accessKey: string, secretKey: string) {
  return fetch(`${url}/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accessKey, secretKey }),
  });
}

describe('iacm-mock CLI (the built bin, as a real process)', () => {
  it('prints help, with the maxima of the sizes, and version and exits 0', async () => {
    const help = run(['--help']);
    expect(await help.exited).toBe(0);
    expect(help.stdout()).toMatch(/--port <n>/);
    expect(help.stdout()).toMatch(/--workspaces <n> +workspaces of the primary account, 0 to 100000/);
    expect(help.stdout()).toMatch(/--events <n> +events of the primary account, 0 to 1000000/);
    expect(help.stdout()).toMatch(/--quiet/);
    expect(help.stdout()).toMatch(/--log-format <format>/);
    expect(help.stdout()).toMatch(/--keep-state-keys +off loopback, a snapshot/);
    const version = run(['--version']);
    expect(await version.exited).toBe(0);
    expect(version.stdout().trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  const dir = mkdtempSync(join(tmpdir(), 'iacm-cli-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const emptyObject = file('empty.json', '{}');
  const notJson = file('not.json', 'hello\nworld\n');
  it.each([
    [['--bogus'], /^iacm-mock: unknown option '--bogus'; run iacm-mock --help for the options$/],
    [['--port', 'abc'], /^iacm-mock: --port expects a whole number from 0 to 65535, received "abc"$/],
    [['--access-key', 'a'], /^iacm-mock: --access-key needs --secret-key: give both or neither$/],
    [
      ['--state', '/nonexistent/state.json'],
      /^iacm-mock: --state: cannot read "\/nonexistent\/state\.json": no such file$/,
    ],
    [['--state', emptyObject], new RegExp(`^iacm-mock: --state: "${emptyObject}" is not a snapshot`)],
    [['--state', notJson], new RegExp(`^iacm-mock: --state: "${notJson}" is not JSON`)],
    [['--workspaces', '1000000000'], /^iacm-mock: --workspaces expects a whole number from 0 to 100000/],
    [
      ['--workspaces', '100000', '--runs-per-workspace', '100'],
      /^iacm-mock: --workspaces, --runs-per-workspace: these sizes would take about/,
    ],
    [['--log-format', 'yaml'], /^iacm-mock: --log-format expects text or json, received "yaml"$/],
    [
      ['--host', '0.0.0.0'],
      /^iacm-mock: --host 0\.0\.0\.0 is not a loopback address: .*--control-token.*--no-control/,
    ],
    [
      ['--control-token', 'short'],
      /^iacm-mock: --control-token \(or IACM_MOCK_CONTROL_TOKEN\) expects 16 to 512/,
    ],
    [
      ['--control-token', 'x'.repeat(20), '--no-control'],
      /^iacm-mock: --control-token cannot be combined with --no-control/,
    ],
    [['--allowed-host', 'http://x'], /^iacm-mock: --allowed-host expects a host name or address/],
  ])('refuses %j in one line naming it, exit code 2', async (args, message) => {
    const bad = run(args);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr().trimEnd()).toMatch(message);
    expect(bad.stderr().trimEnd().split('\n')).toHaveLength(1);
    expect(bad.stdout()).toBe('');
  });

  it('serves the API with the given keys, prints the base URL and a curl, and stops on SIGTERM', async () => {
    const server = run([
      '--port',
      '0',
      '--seed',
      '7',
      '--workspaces',
      '30',
      '--access-key',
      'ak-test',
      '--secret-key',
      'sk-test',
    ]);
    const url = await server.url();
    expect(server.stdout()).toContain('curl -s -X POST');
    const { accessToken } = (await (await login(url, 'ak-test', 'sk-test')).json()) as {
      accessToken: string;
    };
    const page = await fetch(`${url}/v2/workspaces/search?pageSize=100`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(((await page.json()) as unknown[]).length).toBe(30);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('prints what getting-started.md shows, with the key pair it exports, and that pair logs in', async () => {
    const guide = readFileSync(gettingStarted, 'utf8');
    const accessKey = /^export IACM_ACCESS_KEY=(\S+)$/m.exec(guide)?.[1];
    const secretKey = /^export IACM_SECRET_KEY=(\S+)$/m.exec(guide)?.[1];
    expect(accessKey).toBeTruthy();
    expect(secretKey).toBeTruthy();
    // The sample output in section 2, as printed by a default start (on 4010 there).
    const sample = /## 2\. Start the mock server[\s\S]*?```text\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(sample).toContain('listening on http://127.0.0.1:4010');
    const server = run(['--port', '0']);
    const url = await server.url();
    expect(server.stdout().replaceAll(url, 'http://127.0.0.1:4010')).toContain(sample);
    expect(server.stdout()).toContain(`  export IACM_ACCESS_KEY=${accessKey}\n`);
    expect(server.stdout()).toContain(`  export IACM_SECRET_KEY=${secretKey}\n`);
    expect((await login(url, accessKey as string, secretKey as string)).status).toBe(200);
  });

  it('logs one line per request, secret-looking query values masked; a bad login says where the keys are', async () => {
    const server = run(['--port', '0', '--workspaces', '3']);
    const url = await server.url();
    const denied = await login(url, 'iacm_ak_unknown', 'iacm_sk_unknown');
    expect(denied.status).toBe(401);
    const { message } = (await denied.json()) as { message: string };
    expect(message).toContain('GET /__mock/accounts');
    expect(message).not.toContain('unknown');
    await fetch(`${url}/v2/health?api_key=SECRET123&pageSize=2`);
    const out = await server.output(/api_key/);
    expect(out).toMatch(/^\d\d:\d\d:\d\d\.\d{3} POST \/v2\/login 401 [\d.]+ ms$/m);
    expect(out).toMatch(/^\d\d:\d\d:\d\d\.\d{3} GET \/v2\/health\?api_key=\*\*\*&pageSize=2 400 [\d.]+ ms$/m);
    expect(out).not.toContain('SECRET123');
  });

  it('with stdout stalled, keeps answering, drops log lines and then says how many', async () => {
    const server = run(['--port', '0', '--workspaces', '3']);
    const url = await server.url();
    server.child.stdout?.pause(); // nobody reads: the pipe and then stdout's buffer fill up
    const path = `/nothing/${'x'.repeat(1500)}`;
    const total = 2000;
    for (let i = 0; i < total; i += 20) {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${url}${path}`).then(async (r) => {
            await r.arrayBuffer();
            return r.status;
          }),
        ),
      );
      expect(statuses.every((status) => status === 404)).toBe(true);
    }
    server.child.stdout?.resume();
    // Every request is either logged or counted as dropped, and some were dropped.
    const counted = () => {
      const logged = server
        .stdout()
        .split('\n')
        .filter((line) => line.includes(path)).length;
      const dropped = [...server.stdout().matchAll(/^\((\d+) log lines? dropped\)$/gm)].reduce(
        (sum, match) => sum + Number(match[1]),
        0,
      );
      return { logged, dropped, sum: logged + dropped };
    };
    await expect.poll(() => counted().sum, { timeout: HANG_BOUND_MS }).toBe(total);
    expect(counted().dropped).toBeGreaterThan(0);
  }, 120_000);

  it('--log-format json: every line after the start is one JSON object, without the secret key', async () => {
    const server = run(['--port', '0', '--workspaces', '3', '--log-format', 'json']);
    const url = await server.url();
    await fetch(`${url}/v2/health`);
    await server.output(/"path":"\/v2\/health"/);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const lines = server
      .stdout()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'listening',
        url,
        keyPairs: `${url}/__mock/accounts`,
        keyPairSource: 'seed',
      }),
      expect.objectContaining({ method: 'GET', path: '/v2/health', status: 204, ms: expect.any(Number) }),
      { msg: 'stopping', signal: 'SIGTERM' },
    ]);
    expect(server.stdout()).not.toContain('iacm_sk_demo');
  });

  it('--quiet: no request lines', async () => {
    const server = run(['--port', '0', '--workspaces', '3', '--quiet']);
    const url = await server.url();
    const before = server.stdout();
    expect((await fetch(`${url}/v2/health`)).status).toBe(204);
    // The server has answered; a log line would have been written before the answer's end was seen.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stdout()).toBe(`${before}\nSIGTERM received, stopping\n`);
  });

  it('announces a large seeding before it starts and says when it ended', async () => {
    // Large enough to be announced (about 50 MB of data), small enough to take a second or two.
    const server = run([
      '--port',
      '0',
      '--workspaces',
      '5000',
      '--runs-per-workspace',
      '10',
      '--events',
      '20000',
    ]);
    await server.url();
    // On a loaded machine the seeding may take long enough for progress lines (at most one a second)
    // between the announcement and its end: they are allowed, not counted on.
    const lines = server
      .stdout()
      .split('\n')
      .filter((line) => !/^seeding: \d+% \(/.test(line));
    expect(lines[0]).toBe('seeding 5000 workspaces (up to 10 runs each), 20000 events, 3 accounts ...');
    expect(lines[1]).toMatch(/^seeded in \d+(\.\d)? s$/);
    expect(lines[2]).toMatch(/listening on http/);
  });

  it('starts from a snapshot saved with GET /__mock/state', async () => {
    const first = run(['--port', '0', '--seed', '5', '--workspaces', '7']);
    const url = await first.url();
    const snapshot = await (await fetch(`${url}/__mock/state`)).text();
    first.child.kill('SIGTERM');
    const path = file('state.json', snapshot);
    const second = run(['--port', '0', '--state', path]);
    const again = await second.url();
    const state = JSON.parse(snapshot) as {
      accounts: Array<{ account: { accessKey: string; secretKey: string } }>;
    };
    const keys = state.accounts[0]?.account as { accessKey: string; secretKey: string };
    expect(second.stdout()).toContain(`export IACM_ACCESS_KEY=${keys.accessKey}`);
    expect((await login(again, keys.accessKey, keys.secretKey)).status).toBe(200);
  });

  it('--clock manual: the clock stands at the start until moved, and a reset returns to it', async () => {
    const mock = run(['--port', '0', '--clock', 'manual', '--quiet']);
    const url = await mock.url();
    const now = async () =>
      Date.parse(((await (await fetch(`${url}/__mock/clock`)).json()) as { now: string }).now);
    const start = await now();
    const moved = await fetch(`${url}/__mock/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 60_000 }),
    });
    expect(moved.status).toBe(200);
    expect(await now()).toBe(start + 60_000);
    await fetch(`${url}/__mock/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(await now()).toBe(start);
  });

  it('starts from a scene file, and a reset returns to it', async () => {
    const path = file(
      'scene.json',
      JSON.stringify({
        accounts: [{ name: 'Acme', workspaces: [{ name: 'payments-prod' }, { name: 'payments-dev' }] }],
      }),
    );
    const mock = run(['--port', '0', '--scene', path, '--quiet']);
    const url = await mock.url();
    const names = async () => {
      const state = (await (await fetch(`${url}/__mock/state`)).json()) as {
        accounts: Array<{ workspaces: Array<{ workspaceName: string }> }>;
      };
      return state.accounts.map((a) => a.workspaces.map((w) => w.workspaceName));
    };
    expect(await names()).toEqual([['payments-prod', 'payments-dev']]);
    const seeded = await fetch(`${url}/__mock/seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seed: 2, sizes: { accounts: 1, workspaces: 1 } }),
    });
    expect(seeded.status).toBe(200);
    await fetch(`${url}/__mock/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(await names()).toEqual([['payments-prod', 'payments-dev']]);
    expect((await login(url, 'iacm_ak_demo', 'iacm_sk_demo')).status).toBe(200);
  });

  describe('off loopback, a --state snapshot (finding 4 of issue 20)', () => {
    const token = 'a-control-token-of-32-characters';
    type Pair = { accessKey: string; secretKey: string };

    /** A snapshot of a loopback mock: its key pairs (the demo pair, the seed's) are public. */
    async function publicSnapshot(): Promise<{ path: string; text: string; pairs: Pair[] }> {
      const first = run(['--port', '0', '--workspaces', '3', '--quiet']);
      const text = await (await fetch(`${await first.url()}/__mock/state`)).text();
      first.child.kill('SIGTERM');
      const pairs = (JSON.parse(text) as { accounts: Array<{ account: Pair }> }).accounts.map(
        ({ account }) => ({ accessKey: account.accessKey, secretKey: account.secretKey }),
      );
      expect(pairs[0]).toEqual({ accessKey: 'iacm_ak_demo', secretKey: 'iacm_sk_demo' });
      expect(pairs.length).toBeGreaterThan(1);
      return { path: file(`public-${Math.random()}.json`, text), text, pairs };
    }

    /**
     * Starts on 0.0.0.0; the URL to reach it on loopback, and the key pairs: the access keys its banner
     * printed (never a secret key), each with its secret from `GET /__mock/accounts` (control token).
     */
    async function startExposed(args: string[]) {
      const server = run(['--host', '0.0.0.0', '--port', '0', '--control-token', token, '--quiet', ...args]);
      const out = await server.output(/Press Ctrl\+C to stop\./);
      const port = /listening on http:\/\/0\.0\.0\.0:(\d+)/.exec(out)?.[1];
      if (!port) throw new Error(`no URL in the output:\n${out}\n${server.stderr()}`);
      expect(out).not.toMatch(/iacm_sk_/);
      const url = `http://127.0.0.1:${port}`;
      const accessKeys = [...out.matchAll(/: access key (\S+)$/gm)].map(([, accessKey]) => accessKey);
      const listed = (await (await control(url, 'GET', '/accounts')).json()) as Pair[];
      const printed = accessKeys.map((accessKey) => {
        const secretKey = listed.find((pair) => pair.accessKey === accessKey)?.secretKey;
        if (!secretKey) throw new Error(`the banner's access key ${accessKey} is not listed`);
        return { accessKey, secretKey } as Pair;
      });
      return { server, out, url, printed };
    }

    const control = (url: string, method: string, path: string, body?: string) =>
      fetch(`${url}/__mock${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body } : {}),
      });

    async function statuses(url: string, pairs: Pair[]): Promise<number[]> {
      return Promise.all(pairs.map(async (p) => (await login(url, p.accessKey, p.secretKey)).status));
    }

    it('gives every account a random pair, its access key printed at start (never the secret); the public pairs get 401, after a reset, PUT /__mock/state and POST /__mock/seed too', async () => {
      const snapshot = await publicSnapshot();
      const { out, url, printed } = await startExposed(['--state', snapshot.path]);
      expect(out).toContain('Key pairs (random on this bind: drawn at start, kept across resets):');
      expect(printed).toHaveLength(snapshot.pairs.length);
      for (const pair of printed) {
        expect(pair.accessKey).toMatch(/^iacm_ak_[0-9a-f]{24}$/);
        expect(pair.secretKey).toMatch(/^iacm_sk_[0-9a-f]{48}$/);
      }
      const allowed = snapshot.pairs.map(() => 200);
      const refused = snapshot.pairs.map(() => 401);
      expect(await statuses(url, snapshot.pairs)).toEqual(refused);
      expect(await statuses(url, printed)).toEqual(allowed);
      expect(out).toContain(
        `Secret keys are not printed: GET ${url.replace('127.0.0.1', '0.0.0.0')}/__mock/accounts`,
      );

      expect((await control(url, 'POST', '/reset')).status).toBeLessThan(300);
      expect(await statuses(url, snapshot.pairs)).toEqual(refused);
      expect(await statuses(url, printed)).toEqual(allowed);

      expect((await control(url, 'PUT', '/state', snapshot.text)).status).toBeLessThan(300);
      expect(await statuses(url, snapshot.pairs)).toEqual(refused);
      expect(await statuses(url, printed)).toEqual(allowed);

      expect((await control(url, 'POST', '/seed', JSON.stringify({ seed: 1 }))).status).toBeLessThan(300);
      expect(await statuses(url, snapshot.pairs)).toEqual(refused);
      expect(await statuses(url, printed)).toEqual(allowed);
    });

    it('keeps the snapshot pairs only with --keep-state-keys, which the banner names', async () => {
      const snapshot = await publicSnapshot();
      const { out, url, printed } = await startExposed(['--state', snapshot.path, '--keep-state-keys']);
      expect(out).toContain(
        "Key pairs (the snapshot's own, kept by --keep-state-keys: whoever has the snapshot can log in):",
      );
      expect(out).not.toContain('random on this bind');
      expect(printed).toEqual(snapshot.pairs);
      expect(await statuses(url, snapshot.pairs)).toEqual(snapshot.pairs.map(() => 200));
    });

    it('--log-format json: says the pairs are random, prints no secret key', async () => {
      const snapshot = await publicSnapshot();
      const server = run([
        '--host',
        '0.0.0.0',
        '--port',
        '0',
        '--control-token',
        token,
        '--log-format',
        'json',
        '--state',
        snapshot.path,
      ]);
      const out = await server.output(/"msg":"listening"/);
      expect(JSON.parse(out.trimEnd().split('\n').at(-1) as string)).toMatchObject({
        keyPairSource: 'random',
      });
      expect(out).not.toMatch(/iacm_sk_/);
    });

    it('--access-key/--secret-key still set the primary pair; the others are random', async () => {
      const snapshot = await publicSnapshot();
      const { out, url, printed } = await startExposed([
        '--state',
        snapshot.path,
        '--access-key',
        'ak-mine',
        '--secret-key',
        'sk-mine-secret',
      ]);
      // The given secret is not repeated; the other accounts' random access keys are printed.
      expect(out).not.toContain('sk-mine-secret');
      expect(out).toMatch(/, primary\): access key ak-mine, secret key yours \(--secret-key\)$/m);
      expect(printed).toHaveLength(snapshot.pairs.length - 1);
      expect((await login(url, 'ak-mine', 'sk-mine-secret')).status).toBe(200);
      expect(await statuses(url, snapshot.pairs)).toEqual(snapshot.pairs.map(() => 401));
      expect(await statuses(url, printed)).toEqual(printed.map(() => 200));
    });
  });

  it('GET / answers the routes and how to log in', async () => {
    const server = run(['--port', '0', '--workspaces', '3']);
    const url = await server.url();
    const body = (await (await fetch(`${url}/`)).json()) as { openapi: string; routes: unknown[] };
    expect(body.openapi).toBe(`${url}/openapi.json`);
    expect(body.routes.length).toBeGreaterThan(10);
  });

  it('stops cleanly on SIGINT', async () => {
    const server = run(['--port', '0', '--workspaces', '3']);
    await server.url();
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect(server.stdout()).toContain('SIGINT received');
  });
});
