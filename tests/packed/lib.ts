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
  await runOk('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'], {
    cwd: dir,
    env,
  });
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

/** The pids of a process's descendants (children, grandchildren...), from `ps`. */
function descendants(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of table) {
      if (ppid === parent && !found.includes(child)) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/** Whether a process is gone (or a zombie waiting to be reaped). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const state = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return state === '' || state.startsWith('Z');
  } catch {
    return true; // ps exits 1 for a pid it does not find
  }
}

/** Whether nothing listens on 127.0.0.1:port (it can be bound again). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** What {@link startAndStop} saw. */
export interface CliRun {
  /** The URL the command printed. */
  url: string;
  /** The status of `GET <url>/v2/health`. */
  health: number;
  /** How many processes the command had running (npx, a shell, node...). */
  processes: number;
  /** Whether, within 30 s of SIGTERM to npx, every one of them exited. */
  treeExited: boolean;
  /** Whether, within 30 s of SIGTERM to npx, the port could be bound again. */
  portFreed: boolean;
  /** npx's own exit code or signal. */
  exit: string;
  /** The output, for failure messages. */
  output: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts `npx <args>` (a mock server with `--port 0`), reads the URL it prints, calls its health
 * endpoint, then sends SIGTERM to the npx process and waits (30 s at most) for the whole process
 * tree to exit and the port to be free. Whatever is still running at the end is killed.
 */
export async function startAndStop(cwd: string, env: NodeJS.ProcessEnv, args: string[]): Promise<CliRun> {
  const child: ChildProcess = spawn('npx', args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) => resolve(String(code ?? signal))),
  );
  let tree: number[] = [];
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed within 30 s:\n${output}`)), 30_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`npx ${args.join(' ')} exited (${code}) before printing a URL:\n${output}`));
      });
    });
    const health = (await fetch(`${url}/v2/health`)).status;
    const port = Number(new URL(url).port);
    tree = [child.pid as number, ...descendants(child.pid as number)];
    child.kill('SIGTERM');
    let treeExited = false;
    let portFreed = false;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      treeExited = tree.every(gone);
      portFreed = await portFree(port);
      if (treeExited && portFreed) break;
      await sleep(200);
    }
    const exit = await Promise.race([exited, sleep(1000).then(() => 'still running')]);
    return { url, health, processes: tree.length, treeExited, portFreed, exit, output };
  } finally {
    for (const pid of [child.pid as number, ...tree]) {
      if (!gone(pid)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
    }
  }
}
