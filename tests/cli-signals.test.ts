/**
 * Stopping the mock through the wrappers users start it with: `pnpm start` in this repository, and
 * the `iacm-mock` bin that package managers link into node_modules/.bin (a shell script around
 * node). Each runs detached, in its own process group, as a terminal runs it. SIGTERM to the
 * wrapper's pid (what `kill`, a process manager or a test runner sends) and SIGINT to its process
 * group (what Ctrl+C sends) must end the whole process tree with exit code 0, no "ELIFECYCLE", and
 * free the port for a new listener.
 *
 * The node_modules/.bin/iacm-mock case runs the built CLI: `pnpm --filter @iacm/mock-server build`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
/** examples/ depends on @iacm/mock-server, so pnpm links its bin there, as in a user's project. */
const bin = fileURLToPath(new URL('../examples/node_modules/.bin/iacm-mock', import.meta.url));

/** Bounds that only catch hangs (a busy 2-core machine can be slow, never this slow). */
const START_BOUND_MS = 90_000;
const STOP_BOUND_MS = 30_000;

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

/** Processes of a process group that still run (zombies waiting for a reaper do not count). */
function livingMembers(pgid: number): string[] {
  if (process.platform !== 'linux') {
    try {
      process.kill(-pgid, 0);
      return [`process group ${pgid}`];
    } catch {
      return [];
    }
  }
  const living: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses: split after the last ')'.
    const close = stat.lastIndexOf(')');
    const [state, , pgrp] = stat.slice(close + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') living.push(`${entry} ${stat.slice(0, close + 1)} ${state}`);
  }
  return living;
}

/** Resolves once a new server can listen on the port. */
async function portTakesNewListener(port: number): Promise<boolean> {
  const deadline = Date.now() + STOP_BOUND_MS;
  for (;;) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free || Date.now() > deadline) return free;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function groupEnds(pgid: number): Promise<string[]> {
  const deadline = Date.now() + STOP_BOUND_MS;
  for (;;) {
    const living = livingMembers(pgid);
    if (living.length === 0 || Date.now() > deadline) return living;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts `command` detached (its own process group) and resolves with its URL and port once it listens. */
async function startDetached(command: string, args: string[]) {
  const child = spawn(command, args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`not listening after ${START_BOUND_MS} ms:\n${output}`)),
      START_BOUND_MS,
    );
    const check = () => {
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (found && /Press Ctrl\+C to stop/.test(output)) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout?.on('data', check);
    void exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`exited before listening:\n${output}`));
    });
  });
  return {
    child,
    pid: child.pid as number,
    url,
    port: Number(new URL(url).port),
    exit,
    output: () => output,
  };
}

const wrappers: Array<[string, string, string[]]> = [
  ['pnpm start', 'pnpm', ['start', '--port', '0', '--workspaces', '3']],
  ['node_modules/.bin/iacm-mock', bin, ['--port', '0', '--workspaces', '3']],
];

describe.each(wrappers)('%s', (_name, command, args) => {
  it.each([
    ['SIGTERM to the wrapper', 'SIGTERM', 'pid'],
    ['SIGINT to the process group (Ctrl+C)', 'SIGINT', 'group'],
  ] as const)(
    '%s: the whole tree exits 0 and frees the port',
    async (_case, signal, target) => {
      const mock = await startDetached(command, args);
      expect((await fetch(`${mock.url}/v2/health`)).status).toBe(204);

      process.kill(target === 'pid' ? mock.pid : -mock.pid, signal);

      expect(await mock.exit).toEqual({ code: 0, signal: null });
      expect(await groupEnds(mock.pid)).toEqual([]);
      expect(await portTakesNewListener(mock.port)).toBe(true);
      expect(mock.output()).toContain(`${signal} received, stopping`);
      expect(mock.output()).not.toMatch(/ELIFECYCLE|Command failed/);
    },
    180_000,
  );
});
