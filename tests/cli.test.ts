import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../packages/mock-server/dist/cli.js', import.meta.url));
const children: ChildProcess[] = [];

function run(args: string[]) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const output = async (pattern: RegExp) => {
    for (let i = 0; i < 200 && !pattern.test(stdout); i++) await new Promise((r) => setTimeout(r, 50));
    return stdout;
  };
  return { child, exited, output, stderr: () => stderr, stdout: () => stdout };
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('iacm-mock CLI (the built bin, as a real process)', () => {
  it('prints help and version and exits 0', async () => {
    const help = run(['--help']);
    expect(await help.exited).toBe(0);
    expect(help.stdout()).toMatch(/--port <n>/);
    const version = run(['--version']);
    expect(await version.exited).toBe(0);
    expect(version.stdout().trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--port', 'abc'], /--port expects a whole number/],
    [['--access-key', 'a'], /--access-key and --secret-key go together/],
    [['--state', '/nonexistent/state.json'], /--state: cannot read/],
  ])('refuses %j with a clear message and exit code 2', async (args, message) => {
    const bad = run(args);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toMatch(message);
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
    const out = await server.output(/Press Ctrl\+C/);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    expect(url).toBeTruthy();
    expect(out).toContain('curl -s -X POST');
    const login = await fetch(`${url}/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessKey: 'ak-test', secretKey: 'sk-test' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const page = await fetch(`${url}/v2/workspaces/search?pageSize=100`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(((await page.json()) as unknown[]).length).toBe(30);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('stops cleanly on SIGINT', async () => {
    const server = run(['--port', '0', '--workspaces', '3']);
    await server.output(/Press Ctrl\+C/);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect(server.stdout()).toContain('SIGINT received');
  });
});
