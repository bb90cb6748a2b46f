/**
 * The machinery of the packed-tarball suite (`pnpm test:packed`): Node lines from the npm registry,
 * child processes with a clean environment, fresh npm consumer projects, and the `npx` CLI check.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

/** The packages, by directory name. */
export const packages = ['sdk', 'mock-server', 'webhook-receiver'] as const;
/** A package's directory name. */
export type PackageDir = (typeof packages)[number];

/** What the global setup hands the suites (vitest `provide`/`inject`). */
export interface Prepared {
  /** A temporary directory for the consumer projects (removed at the end unless IACM_PACKED_KEEP=1). */
  workDir: string;
  /** The packed tarball of each package. */
  tarballs: Record<PackageDir, string>;
  /** The `bin` directory of each Node line, by major. */
  nodeBins: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    prepared: Prepared;
  }
}

/** Where the Node lines from the npm registry are cached (`<cache>/<major>`). */
export const nodeCache = process.env.IACM_NODE_CACHE ?? join(homedir(), '.cache', 'iacm-node');

/** The result of a child process: it never throws for a non-zero exit. */
export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment for a child process: ours without the runners' variables, with `nodeBin` first on PATH. */
export function envFor(nodeBin: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // The run-script variables pnpm sets (npm_package_*, npm_config_* from its own resolved config,
    // such as a globalconfig pointing at pnpm's rc file; NODE_PATH, pointing at this repository's
    // packages), vitest's and Vite's own (VITEST_*, TEST, NODE_ENV, MODE, DEV, PROD, SSR, BASE_URL)
    // and NODE_OPTIONS would leak into the consumer's npm, node and vitest. npm reads the user's
    // .npmrc files itself.
    if (/^(npm_|pnpm_)/i.test(key)) continue;
    if (/^(VITEST|NODE_OPTIONS$|NODE_PATH$|NODE$|NODE_ENV$|TEST$|INIT_CWD$)/.test(key)) continue;
    if (/^(MODE|DEV|PROD|SSR|BASE_URL|FORCE_TTY)$/.test(key)) continue;
    env[key] = value;
  }
  env.PATH = [nodeBin, env.PATH ?? ''].join(delimiter);
  return { ...env, ...extra };
}

/** Runs a command to its end (killed after `timeoutMs`), collecting its output. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Like {@link run}, but throws (with the output) unless the command exits 0. */
export async function runOk(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Ran> {
  const ran = await run(command, args, options);
  if (ran.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${options.cwd}) exited ${ran.code ?? ran.signal}\n` +
        `--- stdout\n${ran.stdout}\n--- stderr\n${ran.stderr}`,
    );
  }
  return ran;
}

/**
 * The `bin` directory of a Node line: the running Node's when its major matches, else the registry's
 * `node-<platform>-<arch>@<major>` installed under {@link nodeCache} (once; reruns reuse it).
 */
export async function ensureNode(major: number): Promise<string> {
  if (process.versions.node.split('.')[0] === String(major)) return dirname(process.execPath);
  const name = `node-${process.platform}-${process.arch}`;
  const prefix = join(nodeCache, String(major));
  const bin = join(prefix, 'node_modules', name, 'bin');
  const has = async () =>
    existsSync(join(bin, 'node')) &&
    (await run(join(bin, 'node'), ['--version'], { cwd: prefix, env: process.env })).stdout.startsWith(
      `v${major}.`,
    );
  if (!(await has())) {
    mkdirSync(prefix, { recursive: true });
    await runOk(
      'npm',
      ['install', '--prefix', prefix, `${name}@${major}`, '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd: prefix, env: envFor(dirname(process.execPath)) },
    );
    if (!(await has())) throw new Error(`${name}@${major} did not install a Node ${major} into ${bin}`);
  }
  return bin;
}

/**
 * Creates a fresh npm project in `dir` depending on the packed tarballs (and `deps` from the registry),
 * and installs it with npm run by the Node of `env`.
 */
export async function createConsumer(
  dir: string,
  prepared: Prepared,
  deps: Record<string, string>,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const own = Object.fromEntries(
    packages.map((name) => [`@iacm/${name}`, `file:${prepared.tarballs[name]}`]),
  );
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify(
      {
        name: 'consumer',
        private: true,
        dependencies: { ...own, ...deps },
        // The packed mock-server depends on @iacm/sdk@<version>, which the registry may not have:
        // point it at the tarball, as a monorepo consumer's overrides would.
        overrides: Object.fromEntries(packages.map((name) => [`@iacm/${name}`, `$@iacm/${name}`])),
      },
      null,
      2,
    )}\n`,
  );
  await npmInstall([], { cwd: dir, env });
}

/** Whether npm failed because a version its cached metadata lacks was asked for (ETARGET). */
function staleMetadata(ran: Ran): boolean {
  return /\bETARGET\b|\bnotarget\b/.test(ran.stderr);
}

/**
 * `npm install <specs>`, preferring the npm cache (`--prefer-offline`). A warm cache can hold a
 * package's metadata from before its latest release while another package's fresh metadata already
 * names that release (vitest 5.1.2 needing `@vitest/mocker@5.1.2`: ETARGET). On ETARGET the install
 * runs once more with `--prefer-online`, which revalidates every cached document.
 */
export async function npmInstall(
  specs: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Ran> {
  const base = ['install', ...specs, '--no-audit', '--no-fund', '--loglevel=error'];
  const offline = await run('npm', [...base, '--prefer-offline'], options);
  if (offline.code === 0) return offline;
  if (!staleMetadata(offline)) {
    throw new Error(
      `npm ${[...base, '--prefer-offline'].join(' ')} (in ${options.cwd}) exited ${offline.code ?? offline.signal}\n` +
        `--- stdout\n${offline.stdout}\n--- stderr\n${offline.stderr}`,
    );
  }
  return runOk('npm', [...base, '--prefer-online'], options);
}

/** The installed version of a package in a consumer project. */
export async function installedVersion(dir: string, name: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await runOk(
    'node',
    [
      '-p',
      `require(require.resolve(${JSON.stringify(`${name}/package.json`)}, { paths: [process.cwd()] })).version`,
    ],
    { cwd: dir, env },
  );
  return stdout.trim();
}

/** Writes files (relative path to content) into a directory. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** A process still running (pid, process group, state, command), as `ps` shows it. */
interface Running {
  pid: number;
  ppid: number;
  pgid: number;
  line: string;
}

/** The running processes (zombies waiting for their parent to reap them do not count). */
function processes(): Running[] {
  return execFileSync('ps', ['-e', '-o', 'pid=,ppid=,pgid=,stat=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => {
      const [pid, ppid, pgid, stat] = line.trim().split(/\s+/);
      return {
        pid: Number(pid),
        ppid: Number(ppid),
        pgid: Number(pgid),
        stat: stat ?? '',
        line: line.trim(),
      };
    })
    .filter((p) => !p.stat.startsWith('Z'))
    .map(({ stat: _stat, ...p }) => p);
}

/** The pids of a process's descendants (children, grandchildren...). */
function descendants(pid: number): number[] {
  const table = processes();
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const child of table) {
      if (child.ppid === parent && !found.includes(child.pid)) {
        found.push(child.pid);
        walk(child.pid);
      }
    }
  };
  walk(pid);
  return found;
}

/** Whether nothing listens on 127.0.0.1:port (it can be bound again). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * How {@link startAndStop} stops the command: SIGTERM to its pid (what `kill`, a process manager or
 * a test runner sends), or SIGINT to its process group (what Ctrl+C in a terminal sends).
 */
export type Stop = { signal: 'SIGTERM'; target: 'pid' } | { signal: 'SIGINT'; target: 'group' };

/** The two ways users stop a command, for `it.each`. */
export const STOPS: ReadonlyArray<readonly [string, Stop]> = [
  ['SIGTERM to its pid', { signal: 'SIGTERM', target: 'pid' }],
  ['SIGINT to its process group (Ctrl+C)', { signal: 'SIGINT', target: 'group' }],
];

/** What {@link startAndStop} saw. */
export interface CliRun<T = unknown> {
  /** What the `during` callback returned (`undefined` without one). */
  during: T | undefined;
  /** The URL the command printed. */
  url: string;
  /** The status of `GET <url>/v2/health`. */
  health: number;
  /** How many processes the command had running (npx, a shell, node...). */
  processes: number;
  /** How npx ended (`undefined`: still running 30 s after the signal). */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** The processes of the command (its tree and its process group) still running 30 s after the signal. */
  leftRunning: string[];
  /** Whether, within 30 s of the signal, a new server could listen on the port. */
  portFreed: boolean;
  /** What the command printed on stdout. */
  stdout: string;
  /** What the command printed on stderr. */
  stderr: string;
  /** Both, for failure messages. */
  output: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The longest a stop may take: a bound that only catches hangs. */
const STOP_BOUND_MS = 30_000;

/**
 * Starts `npx <args>` (a mock server with `--port 0`; `options.command` instead of npx: `bun`,
 * `deno`, `node`) detached, in its own process group as a terminal starts it, reads the URL it
 * prints, calls its health endpoint and then `options.during(url)` (if given); then stops it as
 * `stop` says and waits (30 s at most) for the command to exit, for every process of its tree and
 * group to end, and for the port to take a new listener. Whatever still runs at the end is killed.
 */
export async function startAndStop<T = undefined>(
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: string[],
  stop: Stop = { signal: 'SIGTERM', target: 'pid' },
  options: { command?: string; during?: (url: string) => Promise<T> } = {},
): Promise<CliRun<T>> {
  const child: ChildProcess = spawn(options.command ?? 'npx', args, {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid as number;
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    output += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let tree: number[] = [];
  const living = () =>
    processes()
      .filter((p) => p.pgid === pid || tree.includes(p.pid))
      .map((p) => p.line);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed within 30 s:\n${output}`)), 30_000);
      const check = () => {
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout?.on('data', check);
      void exited.then((how) => {
        clearTimeout(timer);
        reject(
          new Error(
            `${options.command ?? 'npx'} ${args.join(' ')} exited (${JSON.stringify(how)}) before printing a URL:\n${output}`,
          ),
        );
      });
    });
    const health = (await fetch(`${url}/v2/health`)).status;
    const during = await options.during?.(url);
    const port = Number(new URL(url).port);
    tree = [pid, ...descendants(pid)];
    process.kill(stop.target === 'pid' ? pid : -pid, stop.signal);
    const deadline = Date.now() + STOP_BOUND_MS;
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      exited,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), STOP_BOUND_MS);
      }),
    ]);
    clearTimeout(timer);
    let leftRunning = living();
    let portFreed = await portFree(port);
    // The mock's last lines may still be in the pipe when its process is gone: wait for them too.
    const said = () => stdout.includes(`${stop.signal} received, stopping`);
    while ((leftRunning.length > 0 || !portFreed || !said()) && Date.now() < deadline) {
      await sleep(200);
      leftRunning = living();
      portFreed = await portFree(port);
    }
    return {
      during,
      url,
      health,
      processes: tree.length,
      exit,
      leftRunning,
      portFreed,
      stdout,
      stderr,
      output,
    };
  } finally {
    for (const p of processes()) {
      if (p.pgid === pid || tree.includes(p.pid)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {}
      }
    }
  }
}

/**
 * Whether `/bin/sh` (the shell npm runs `npx` commands with) hands its process over to the last
 * command of `sh -c` (bash, macOS's sh) instead of running it as a child and waiting (dash, the
 * `/bin/sh` of Debian and Ubuntu). A shell that waits dies of the SIGTERM npm forwards to it, and
 * re-raises a SIGINT once its child has exited, so npm ends by that signal even though the mock
 * exited 0; a shell that hands over lets npm see the mock's own exit code.
 */
export async function shellHandsOver(cwd: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const ran = await runOk('/bin/sh', ['-c', `'node' -e "process.stdout.write(String(process.ppid))"`], {
    cwd,
    env,
  });
  return Number(ran.stdout) === process.pid;
}
