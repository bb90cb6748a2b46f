/**
 * The machinery of `pnpm test:runtimes` beyond the packed suite's (tests/packed/lib.ts): the
 * runtimes pinned in tools/runtimes/ (Bun, Deno, workerd, and esbuild to bundle the Workers), step
 * times, and a workerd process serving a configuration.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../packed/lib.js';

/** Where the runtimes are installed (`npm ci --prefix tools/runtimes`), outside the pnpm workspace. */
export const toolsDir = join(root, 'tools', 'runtimes');

/** The tools of tools/runtimes/package.json. */
export type Tool = 'bun' | 'deno' | 'workerd' | 'esbuild';

/** Each tool's binary (linked by its install script from its platform package). */
export const tools: Record<Tool, string> = {
  bun: join(toolsDir, 'node_modules', '.bin', 'bun'),
  deno: join(toolsDir, 'node_modules', '.bin', 'deno'),
  workerd: join(toolsDir, 'node_modules', '.bin', 'workerd'),
  esbuild: join(toolsDir, 'node_modules', '.bin', 'esbuild'),
};

/** The exact version of each tool that tools/runtimes/package.json pins. */
export const pinned = (
  JSON.parse(readFileSync(join(toolsDir, 'package.json'), 'utf8')) as {
    devDependencies: Record<Tool, string>;
  }
).devDependencies;

/** The build date workerd `1.YYYYMMDD.N` reports (`workerd --version`: `workerd YYYY-MM-DD`). */
export function workerdDate(version: string): string {
  const match = /^1\.(\d{4})(\d{2})(\d{2})\./.exec(version);
  if (!match) throw new Error(`workerd ${version}: expected a version 1.YYYYMMDD.N`);
  return match.slice(1).join('-');
}

/** Throws, saying how to install them, unless the tools of tools/runtimes are installed. */
export function requireTools(): void {
  const missing = (Object.keys(tools) as Tool[]).filter((name) => !existsSync(tools[name]));
  if (missing.length > 0) {
    throw new Error(
      `tools/runtimes is not installed (no ${missing.join(', ')}): run ` +
        '`npm ci --prefix tools/runtimes --no-audit --no-fund` first',
    );
  }
}

/** Runs `fn` and prints how long it took, as `[runtimes] <label>: 1.2 s` (printed only, never asserted). */
export async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await fn();
  } finally {
    process.stdout.write(`[runtimes] ${label}: ${((performance.now() - start) / 1000).toFixed(1)} s\n`);
  }
}

/** A running workerd. */
export interface Workerd {
  /** The port of each socket of the configuration, by name. */
  ports: Record<string, number>;
  /** What workerd printed so far (the Workers' uncaught errors and console output included). */
  output(): string;
  /** Stops it (SIGTERM, then SIGKILL after 10 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/** The longest workerd may take to listen on its sockets: a bound that only catches hangs. */
const START_BOUND_MS = 30_000;

/**
 * Starts `workerd serve <config>` in `cwd` and waits until it listens on every socket named in
 * `sockets` (the ports come from its control descriptor, so the configuration can bind port 0).
 * Rejects with its output if it exits first (a configuration or a Worker that does not load).
 */
export async function startWorkerd(
  cwd: string,
  config: string,
  sockets: string[],
  env: NodeJS.ProcessEnv,
): Promise<Workerd> {
  const child = spawn(tools.workerd, ['serve', config, '--control-fd=3'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) => resolve(`workerd exited (${code ?? signal})`)),
  );
  const ports: Record<string, number> = {};
  const control = child.stdio[3] as NodeJS.ReadableStream;
  let pending = '';
  const listening = new Promise<void>((resolve) => {
    control.setEncoding('utf8');
    control.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const message = JSON.parse(line) as { event?: string; socket?: string; port?: number };
        if (message.event === 'listen' && message.socket && message.port)
          ports[message.socket] = message.port;
      }
      if (sockets.every((name) => ports[name] !== undefined)) resolve();
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  let timer: NodeJS.Timeout | undefined;
  const failed = await Promise.race([
    listening.then(() => undefined),
    exited,
    new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`workerd did not listen within ${START_BOUND_MS} ms`), START_BOUND_MS);
    }),
  ]);
  clearTimeout(timer);
  if (failed !== undefined) {
    await stop();
    throw new Error(`${failed}:\n${output}`);
  }
  return { ports, output: () => output, stop };
}
