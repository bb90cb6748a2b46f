/**
 * The benchmark's child processes: servers (the mock's CLI, the raw baselines, the receiver), each
 * with probe.mjs preloaded and an IPC channel, and one-shot children that measure in-process subjects
 * and send back one result.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { measuredNode, roleEnv } from './cpus.mjs';
import { BENCH, ROOT, url } from './paths.mjs';

const PROBE = url(join(BENCH, 'lib', 'probe.mjs'));

/** Every child still running, stopped when the benchmark ends however it ends. */
const running = new Set();

/** Stops every child the benchmark started (by its own pid). */
export function stopAll() {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  running.clear();
}

function tail(text) {
  return text.length > 4000 ? `...${text.slice(-4000)}` : text;
}

/**
 * @typedef {object} ServerProcess
 * @property {number} pid
 * @property {string} url the base URL it listens on
 * @property {number} startMs milliseconds from spawn until it was ready
 * @property {(type?: string) => Promise<any>} stats asks probe.mjs for GC, memory and CPU figures
 * @property {() => Promise<void>} stop SIGTERM, then SIGKILL after 5 s
 */

/**
 * Starts `node --import probe.mjs <script> ...args` and waits until it is ready: a line
 * `listening on <url>` on its stdout (the mock's CLI) or an IPC message `{ bench: 'ready', url }`.
 * @param {string} script path of the script
 * @param {string[]} [args]
 * @param {{ env?: Record<string, string>, execArgv?: string[], readyTimeoutMs?: number, onReady?: (url: string) => Promise<void>, role?: 'measured' | 'helper' }} [options]
 * @returns {Promise<ServerProcess>}
 */
export function startServer(script, args = [], options = {}) {
  const started = performance.now();
  const child = spawn(
    ...measuredNode([...(options.execArgv ?? []), '--import', PROBE, script, ...args], options.role),
    {
      cwd: ROOT,
      env: { ...process.env, ...roleEnv(options.role), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  running.add(child);
  let output = '';
  let nextId = 1;
  const waiting = new Map();
  child.on('message', (message) => {
    if (message?.bench === true && waiting.has(message.id)) {
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    }
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  exited.then(() => running.delete(child));
  /** @type {ServerProcess} */
  const server = {
    pid: child.pid ?? -1,
    url: '',
    startMs: 0,
    stats(type = 'stats') {
      if (!child.connected) return Promise.reject(new Error(`${script} has no IPC channel any more`));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`${script} did not answer a stats request within 60 s`));
        }, 60_000);
        waiting.set(id, (message) => {
          clearTimeout(timer);
          resolve(message);
        });
        child.send({ bench: true, id, type });
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  return new Promise((resolve, reject) => {
    const limit = options.readyTimeoutMs ?? 600_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} was not ready after ${limit / 1000} s. Its output:\n${tail(output)}`));
    }, limit);
    let done = false;
    const ready = async (base) => {
      if (done) return;
      done = true;
      try {
        await options.onReady?.(base);
        clearTimeout(timer);
        server.url = base;
        server.startMs = performance.now() - started;
        resolve(server);
      } catch (error) {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(error);
      }
    };
    const onData = (chunk) => {
      output += chunk;
      if (output.length > 20_000) output = output.slice(-10_000);
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) void ready(match[1]);
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
    child.on('message', (message) => {
      if (message?.bench === 'ready') void ready(message.url);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!done)
        reject(
          new Error(`${script} exited (${signal ?? code}) before it was ready. Its output:\n${tail(output)}`),
        );
    });
  });
}

/**
 * Runs `node <script> <json of input>` and returns the value of its IPC message
 * `{ bench: 'result', value }` (or throws its `{ bench: 'error', message }`).
 * @param {string} script
 * @param {unknown} input handed to the script as JSON in argv[2]
 * @param {{ timeoutMs?: number, execArgv?: string[] }} [options]
 */
export function runChild(script, input, options = {}) {
  const child = spawn(...measuredNode([...(options.execArgv ?? []), script, JSON.stringify(input)]), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  running.add(child);
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (c) => {
    output += c;
  });
  child.stderr.setEncoding('utf8').on('data', (c) => {
    output += c;
  });
  return new Promise((resolve, reject) => {
    let result;
    const limit = options.timeoutMs ?? 600_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not finish within ${limit / 1000} s. Its output:\n${tail(output)}`));
    }, limit);
    child.on('message', (message) => {
      if (message?.bench === 'result' || message?.bench === 'error') result = message;
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      if (result?.bench === 'result') resolve(result.value);
      else if (result?.bench === 'error') reject(new Error(`${script}: ${result.message}`));
      else
        reject(
          new Error(`${script} exited (${signal ?? code}) without a result. Its output:\n${tail(output)}`),
        );
    });
  });
}

/**
 * For a one-shot child: runs `main(input)` and sends its value (or its error) to the parent, then
 * exits.
 * @param {(input: any) => Promise<unknown>} main
 */
export async function childMain(main) {
  try {
    const value = await main(JSON.parse(process.argv[2] ?? '{}'));
    process.send?.({ bench: 'result', value }, () => process.exit(0));
  } catch (error) {
    process.send?.(
      { bench: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) },
      () => process.exit(1),
    );
  }
}
