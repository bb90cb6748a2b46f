/**
 * P7: the standalone mock against the other mock servers a user could point their tests at (issue
 * 37), answering a page of 25 workspaces, by each server's CPU time per request, read from
 * `/proc/<pid>/stat` (utime + stime, every thread of the process) after the warm-up and after the
 * measured requests of each round: the same measure for every server, Java or Node. Each server runs
 * pinned to the measured CPU (CPU 1), the load generator on CPU 0; rounds go iacm, then each peer, in
 * turn (paired: each round's ratio is a peer's CPU per request over iacm's in the same round); the
 * figure is the median of the rounds' ratios with their spread. Higher is better (the peer costs that
 * many times the mock's CPU). The peers and their configuration:
 *
 * - **WireMock** 3.13.2 (the npm `wiremock` package's standalone jar, pinned in `tools/bench-peers`, on
 *   the machine's Java runtime: Debian's `default-jre-headless`), one static stub answering the mock's
 *   recorded bytes, its request journal bounded to 1,000 entries (`--max-request-journal-entries`;
 *   unbounded, the default, it ran a 512 MB heap out of memory during warm-up), `-Xmx512m`.
 * - **Prism** 5.14 (`tools/prism`) in mock mode from `docs/openapi.json`: a static example (its own
 *   bytes, smaller: it serves the document's example, not 25 workspaces).
 * - **json-server** 0.17.4 (`tools/bench-peers`): `GET /workspaces?_page=1&_limit=25` over a file of
 *   1,000 workspaces made from the mock's page (dynamic: it pages and filters, as the mock does).
 *
 * A peer that cannot be installed or started fails its row with the reason (and the row against the
 * best peer fails with it), never a silent skip. Goal: at least 5x less CPU per request than the best
 * peer.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuPinning } from './lib/cpus.mjs';
import { fetchOnce, load } from './lib/load.mjs';
import { ROOT } from './lib/paths.mjs';
import { atLeast, failed, row } from './lib/rows.mjs';
import { startMock } from './lib/servers.mjs';
import { duration, median, pairedRatio, size } from './lib/stats.mjs';
import { warmupOf } from './lib/timing.mjs';

export const id = 'P7';
export const title = 'the standalone mock vs other mock servers (WireMock, Prism, json-server)';

const PATH = '/v2/workspaces/search';
const PEERS_DIR = join(ROOT, 'tools', 'bench-peers');
const PRISM_DIR = join(ROOT, 'tools', 'prism');
const WIREMOCK_JAR = join(PEERS_DIR, 'node_modules', 'wiremock', 'build', 'wiremock-standalone-3.13.2.jar');
const JSON_SERVER = join(PEERS_DIR, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js');
const PRISM = join(PRISM_DIR, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

/** Clock ticks a second of `/proc/<pid>/stat`'s CPU times (Linux's USER_HZ, 100 on every mainstream build). */
const TICKS_PER_SECOND = 100;

/** A process's CPU time so far (user + system, all its threads), milliseconds. */
function cpuMsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: the fields after it start past its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** A free TCP port on the loopback interface. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a peer (`command args`, pinned as a measured process) and waits until `ready()` succeeds
 * (polled every 200 ms, at most `timeoutMs`); a process that exits first fails with its output.
 */
async function startProcess(name, command, args, ready, timeoutMs = 120_000) {
  const { prefix } = cpuPinning();
  const [file, ...rest] = [...prefix, command, ...args];
  const child = spawn(file, rest, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  const gone = new Promise((resolve) => child.once('exit', resolve)).then(() => {
    exited = true;
  });
  const spawnError = new Promise((_, reject) => child.once('error', reject));
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  };
  const started = Date.now();
  try {
    for (;;) {
      if (exited) throw new Error(`${name} exited before it was ready: ${output.trim().slice(-600)}`);
      if (Date.now() - started > timeoutMs)
        throw new Error(`${name} was not ready after ${timeoutMs / 1000} s`);
      const ok = await Promise.race([ready().catch(() => false), spawnError]);
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { name, pid: child.pid, stop, startMs: Date.now() - started };
}

/** Whether `url` answers at all (any status). */
async function answers(url, init) {
  await fetch(url, init).then((res) => res.arrayBuffer());
  return true;
}

/** WireMock with one static stub of the mock's recorded answer, its journal bounded to 1,000. */
async function startWireMock(answer) {
  if (!existsSync(WIREMOCK_JAR)) {
    throw new Error(`WireMock is not installed: npm ci --prefix tools/bench-peers (no ${WIREMOCK_JAR})`);
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const peer = await startProcess(
    'WireMock',
    'java',
    [
      '-Xmx512m',
      '-jar',
      WIREMOCK_JAR,
      '--port',
      String(port),
      '--bind-address',
      '127.0.0.1',
      '--max-request-journal-entries',
      '1000',
      '--disable-banner',
    ],
    () => answers(`${base}/__admin/health`),
  );
  const stub = await fetch(`${base}/__admin/mappings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      request: { method: 'POST', url: PATH },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: answer.bytes.toString('utf8'),
      },
    }),
  });
  if (stub.status !== 201) {
    await peer.stop();
    throw new Error(`WireMock refused the stub: ${stub.status} ${(await stub.text()).slice(0, 200)}`);
  }
  return {
    ...peer,
    request: { url: `${base}${PATH}`, method: 'POST', body: {} },
    config: 'one static stub of the same bytes, request journal bounded to 1,000 entries, -Xmx512m',
  };
}

/** Prism in mock mode from the OpenAPI document: a static example. */
async function startPrism(token) {
  if (!existsSync(PRISM))
    throw new Error(`Prism is not installed: npm ci --prefix tools/prism (no ${PRISM})`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const peer = await startProcess(
    'Prism',
    process.execPath,
    [PRISM, 'mock', join(ROOT, 'docs', 'openapi.json'), '--host', '127.0.0.1', '--port', String(port)],
    () => answers(`${base}/v2/health`),
  );
  return {
    ...peer,
    request: {
      url: `${base}${PATH}`,
      method: 'POST',
      body: {},
      headers: { authorization: `Bearer ${token}` },
    },
    config: 'mock mode from docs/openapi.json, static examples (its own bytes)',
  };
}

/** json-server over 1,000 workspaces made from the mock's page, answering a page of 25. */
async function startJsonServer(answer, dir) {
  if (!existsSync(JSON_SERVER)) {
    throw new Error(`json-server is not installed: npm ci --prefix tools/bench-peers (no ${JSON_SERVER})`);
  }
  const page = JSON.parse(answer.bytes.toString('utf8'));
  const workspaces = Array.from({ length: 1000 }, (_, i) => ({
    ...page[i % page.length],
    id: `${String(i).padStart(24, '0')}`,
  }));
  const db = join(dir, 'db.json');
  writeFileSync(db, JSON.stringify({ workspaces }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const peer = await startProcess(
    'json-server',
    process.execPath,
    [JSON_SERVER, '--port', String(port), '--host', '127.0.0.1', '--quiet', db],
    () => answers(`${base}/workspaces?_limit=1`),
  );
  return {
    ...peer,
    request: { url: `${base}/workspaces?_page=1&_limit=25`, method: 'GET' },
    config: 'GET /workspaces?_page=1&_limit=25 over 1,000 records (dynamic paging)',
  };
}

/** One round against `server`: its CPU per measured request, milliseconds. */
async function round(ctx, server, index) {
  let before = Number.NaN;
  const result = await load({
    url: server.request.url,
    method: server.request.method,
    headers: server.request.headers,
    body: server.request.body,
    // CPU time is read in clock ticks (10 ms): the mock, the cheapest, is sent four times as many
    // requests, so that each of its rounds spans as many ticks as a peer's (a rate either way).
    requests: server.name === 'iacm-mock' ? ctx.serverRequests * 4 : ctx.serverRequests,
    warmup: warmupOf(ctx.warmup, index),
    concurrency: 8,
    beforeMeasured: async () => {
      before = cpuMsOf(server.pid);
    },
  });
  return (cpuMsOf(server.pid) - before) / result.requests;
}

/** @param {import('./main.mjs').Context} ctx */
export async function run(ctx) {
  const dir = mkdtempSync(join(tmpdir(), 'iacm-bench-peers-'));
  const mock = await startMock({}, ctx.serverOptions('p7-mock'));
  /** @type {Array<Awaited<ReturnType<typeof startWireMock>>>} */
  const peers = [];
  const rows = [];
  try {
    const headers = { authorization: `Bearer ${mock.token}` };
    const answer = await fetchOnce(`${mock.url}${PATH}`, { method: 'POST', headers, body: {} });
    if (answer.status !== 200) throw new Error(`the workspace search answered ${answer.status}`);
    const iacm = {
      name: 'iacm-mock',
      pid: mock.pid,
      request: { url: `${mock.url}${PATH}`, method: 'POST', body: {}, headers },
    };
    const starts = [
      ['WireMock 3.13.2', () => startWireMock(answer)],
      ['Prism 5.14.2', () => startPrism(mock.token)],
      ['json-server 0.17.4', () => startJsonServer(answer, dir)],
    ];
    const refused = [];
    for (const [name, start] of starts) {
      try {
        const peer = await start();
        const probe = await fetchOnce(peer.request.url, peer.request);
        if (probe.status !== 200) throw new Error(`${name} answered ${probe.status} to the measured request`);
        peers.push({ ...peer, name, bytes: probe.bytes.length });
      } catch (error) {
        refused.push(name);
        rows.push(failed(id, `iacm-mock vs ${name}`, error));
      }
    }
    /** @type {Record<string, number[]>} */
    const cpu = { [iacm.name]: [] };
    for (const peer of peers) cpu[peer.name] = [];
    const total = ctx.rounds + ctx.settlingRounds;
    for (let i = 0; i < total; i++) {
      for (const server of [iacm, ...peers]) {
        const perRequest = await round(ctx, server, i);
        if (i >= ctx.settlingRounds) cpu[server.name].push(perRequest);
      }
    }
    const mine = cpu[iacm.name];
    const ratios = [];
    for (const peer of peers) {
      const { ratio, rounds, spread } = pairedRatio(cpu[peer.name], mine);
      ratios.push({ name: peer.name, ratio });
      rows.push(
        row({
          id,
          what: `${peer.name} vs iacm-mock, a page of 25 workspaces: the peer's CPU per request over the mock's`,
          figure: ratio,
          unit: 'x',
          text: `${ratio.toFixed(2)}x (server CPU per request ${duration(median(cpu[peer.name]))} vs ${duration(median(mine))}; rounds ${spread}; ${size(peer.bytes)} vs ${size(answer.bytes.length)} an answer; ${peer.config}; started in ${(peer.startMs / 1000).toFixed(1)} s)`,
          goal: undefined,
          details: {
            peer: peer.name,
            config: peer.config,
            cpuMs: { peer: cpu[peer.name], mock: mine },
            rounds,
          },
          stable: 'cpu',
        }),
      );
    }
    if (refused.length > 0) {
      rows.push(
        failed(
          id,
          'iacm-mock vs the best peer',
          new Error(`not measured: ${refused.join(', ')} could not run`),
          atLeast(5, 'x'),
        ),
      );
    } else {
      const best = ratios.reduce((a, b) => (b.ratio < a.ratio ? b : a));
      rows.push(
        row({
          id,
          what: "the best peer vs iacm-mock: its CPU per request over the mock's",
          figure: best.ratio,
          unit: 'x',
          text: `${best.ratio.toFixed(2)}x (${best.name}; the mock ${duration(median(mine))} a request)`,
          goal: atLeast(5, 'x'),
          details: { best: best.name, ratios },
          stable: 'cpu',
        }),
      );
    }
    return rows;
  } finally {
    await Promise.all([mock.stop(), ...peers.map((p) => p.stop())]);
    rmSync(dir, { recursive: true, force: true });
  }
}
