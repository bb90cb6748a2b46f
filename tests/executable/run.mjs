#!/usr/bin/env node
/**
 * The standalone mock as one executable (`pnpm build:executable` writes dist-bin/iacm-mock), used as a
 * Go or Python team would: with no `node` on PATH.
 *
 * This runner is run by CI's Node, but everything it starts (the executable, `go test`, `python3 -m
 * unittest`, `/bin/sh`) gets an environment of its own, not CI's: PATH is one scratch directory
 * holding links to `go` and `python3` only, checked first to give no `node` (`command -v node` fails
 * there, and no directory of that PATH holds a `node`).
 *
 * 1. `--version` prints the package's version.
 * 2. A start on `--port 0`: the `listening on <url>` line, /v2/health, /openapi.json; then the Go
 *    example (examples/go, `go test ./...`) and the Python example (examples/python, `python3 -m
 *    unittest`) against it, each in a session of its own; then SIGTERM: exit code 0, the port free.
 * 3. A second start stopped by SIGINT (Ctrl+C), the same checks; three more starts only for timing.
 * 4. Prints the executable's size and its start time (ms from spawn until /v2/health answers).
 *
 * Usage: node tests/executable/run.mjs [path of the executable, default dist-bin/iacm-mock]
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const executable = resolve(process.argv[2] ?? join(root, 'dist-bin', 'iacm-mock'));
/** Bounds that only catch hangs. */
const START_BOUND_MS = 30_000;
const STOP_BOUND_MS = 15_000;
const TOOL_BOUND_MS = 240_000;

let failures = 0;
function check(ok, message) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${message}`);
  if (!ok) failures += 1;
  return ok;
}
function abort(message) {
  console.error(`executable test: ${message}`);
  process.exit(1);
}

if (!existsSync(executable)) abort(`no executable at ${executable}: run pnpm build:executable first`);

// The node-less environment: a scratch PATH of links to the real go and python3 binaries.
const scratch = mkdtempSync(join(tmpdir(), 'iacm-executable-'));
const bin = join(scratch, 'bin');
mkdirSync(bin);
/** The real file of a tool found on CI's PATH (through a version manager's shim, if there is one). */
function realTool(name, args) {
  try {
    return execFileSync(name, args, { encoding: 'utf8' }).trim();
  } catch {
    abort(`${name} is missing: apt-get install -y golang-go python3`);
  }
}
const goRoot = realTool('go', ['env', 'GOROOT']);
const python = realTool('python3', ['-c', 'import sys; print(sys.executable)']);
symlinkSync(join(goRoot, 'bin', 'go'), join(bin, 'go'));
symlinkSync(python, join(bin, 'python3'));
const env = {
  PATH: bin,
  HOME: join(scratch, 'home'),
  LANG: 'C.UTF-8',
  TMPDIR: scratch,
  // Go: the standard library only, nothing fetched, no C compiler (net without cgo).
  GOCACHE: join(scratch, 'gocache'),
  GOPATH: join(scratch, 'gopath'),
  GOTOOLCHAIN: 'local',
  GOPROXY: 'off',
  GOFLAGS: '-mod=mod',
  GOTELEMETRY: 'off',
  CGO_ENABLED: '0',
  PYTHONDONTWRITEBYTECODE: '1',
};
mkdirSync(env.HOME);

const which = spawnSync('/bin/sh', ['-c', 'command -v node'], { env, encoding: 'utf8' });
const nodeOnPath = env.PATH.split(':').filter((dir) => readdirSync(dir).includes('node'));
if (
  !check(
    which.status !== 0 && nodeOnPath.length === 0,
    `PATH=${env.PATH} holds no node (command -v node fails)`,
  )
) {
  abort(`node is reachable: ${which.stdout.trim() || nodeOnPath.join(', ')}`);
}
check(
  spawnSync('/bin/sh', ['-c', 'command -v go && command -v python3'], { env, stdio: 'ignore' }).status === 0,
  'go and python3 are on it',
);

// 1. --version
const version = JSON.parse(
  readFileSync(join(root, 'packages', 'mock-server', 'package.json'), 'utf8'),
).version;
const printed = spawnSync(executable, ['--version'], { env, encoding: 'utf8' });
check(
  printed.status === 0 && printed.stdout.trim() === version,
  `--version prints ${version} (${printed.stdout.trim()})`,
);

/** Starts the executable; resolves once /v2/health answers, with the time that took. */
async function start(args) {
  const started = performance.now();
  const child = spawn(executable, args, { env, cwd: scratch, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d) => {
    output += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d) => {
    output += d;
  });
  const exit = new Promise((done) => child.on('exit', (code, signal) => done({ code, signal })));
  let exited = false;
  void exit.then(() => {
    exited = true;
  });
  const deadline = Date.now() + START_BOUND_MS;
  let url;
  for (;;) {
    if (exited) abort(`the executable exited before answering:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      abort(`not answering after ${START_BOUND_MS} ms:\n${output}`);
    }
    url ??= /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    if (url) {
      try {
        if ((await fetch(`${url}/v2/health`)).status === 204) break;
      } catch {
        // not yet
      }
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  const ms = performance.now() - started;
  return { child, url, port: Number(new URL(url).port), ms, exit, output: () => output };
}

/** Sends `signal`; checks exit code 0, the stop line and that the port takes a new listener. */
async function stop(mock, signal) {
  mock.child.kill(signal);
  const timer = setTimeout(() => mock.child.kill('SIGKILL'), STOP_BOUND_MS);
  const { code, signal: by } = await mock.exit;
  clearTimeout(timer);
  const free = await new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(mock.port, '127.0.0.1', () => probe.close(() => done(true)));
  });
  check(
    code === 0 && by === null && mock.output().includes(`${signal} received, stopping`) && free,
    `${signal}: exit code ${code}${by ? ` (killed by ${by})` : ''}, "${signal} received, stopping", port ${mock.port} ${free ? 'free' : 'still taken'}`,
  );
}

/** Runs an example's tests in the node-less environment, printing their output. */
function runExample(name, command, args, cwd, url) {
  const started = performance.now();
  const ran = spawnSync(command, args, {
    cwd,
    env: { ...env, IACM_BASE_URL: url },
    encoding: 'utf8',
    timeout: TOOL_BOUND_MS,
  });
  const output = `${ran.stdout}${ran.stderr}`.trim().replace(/^/gm, `    ${name} | `);
  console.log(output);
  check(
    ran.status === 0,
    `${name}: ${[command, ...args].join(' ')} passed (${Math.round(performance.now() - started)} ms)`,
  );
}

const times = [];
try {
  // 2. The first start: the API, the control plane, sessions, from Go and Python; then SIGTERM.
  const first = await start(['--port', '0']);
  times.push(first.ms);
  check(
    /Press Ctrl\+C to stop/.test(first.output()),
    `listening on ${first.url} (${Math.round(first.ms)} ms)`,
  );
  const openapi = await fetch(`${first.url}/openapi.json`);
  const document = openapi.status === 200 ? await openapi.json() : {};
  check(String(document.openapi).startsWith('3.1'), `/openapi.json answers OpenAPI ${document.openapi}`);
  runExample('go', 'go', ['test', '-count=1', '-v', './...'], join(root, 'examples', 'go'), first.url);
  runExample('python', 'python3', ['-m', 'unittest', '-v'], join(root, 'examples', 'python'), first.url);
  await stop(first, 'SIGTERM');

  // 3. A second start stopped by SIGINT, with flags; then three for timing only.
  const second = await start(['--port', '0', '--seed', '7', '--quiet']);
  times.push(second.ms);
  await stop(second, 'SIGINT');
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGTERM']) {
    const mock = await start(['--port', '0', '--quiet']);
    times.push(mock.ms);
    await stop(mock, signal);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

// 4. Size and start time.
const size = statSync(executable).size;
const sorted = [...times].sort((a, b) => a - b);
console.log(`\nexecutable: ${executable}`);
console.log(`size:       ${(size / 1e6).toFixed(1)} MB (${size} bytes)`);
console.log(
  `start:      ${Math.round(sorted[sorted.length >> 1])} ms median until /v2/health answers ` +
    `(${times.map((t) => Math.round(t)).join(', ')} ms over ${times.length} starts)`,
);
if (failures > 0) abort(`${failures} check(s) failed`);
console.log('all checks passed');
