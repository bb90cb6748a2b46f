/**
 * Starting the subjects and baselines as servers: the mock's CLI exactly as a user runs it
 * (`--port 0 --quiet`), and the raw node:http baseline answering recorded bytes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchOnce } from './load.mjs';
import { BENCH, DIST } from './paths.mjs';
import { startServer } from './processes.mjs';

/** The primary account's documented demo key pair. */
export const DEMO_KEYS = { accessKey: 'iacm_ak_demo', secretKey: 'iacm_sk_demo' };

/**
 * Starts `node packages/mock-server/dist/cli.js --port 0 --quiet [size flags]` and waits until its
 * port answers (`GET /v2/health`); `startMs` is from spawn to that answer.
 * @param {{ workspaces?: number, events?: number }} [sizes]
 * @param {{ execArgv?: string[], env?: Record<string, string> }} [options] more flags of node (a CPU
 *   profile), more environment (probe.mjs's `IACM_BENCH_CPU_WORKER`)
 * @returns {Promise<import('./processes.mjs').ServerProcess & { token: string }>}
 */
export async function startMock(sizes = {}, options = {}) {
  const args = ['--port', '0', '--quiet'];
  if (sizes.workspaces !== undefined) args.push('--workspaces', String(sizes.workspaces));
  if (sizes.events !== undefined) args.push('--events', String(sizes.events));
  const server = await startServer(DIST.mockCli, args, {
    execArgv: options.execArgv,
    env: options.env,
    onReady: async (base) => {
      const health = await fetch(`${base}/v2/health`);
      if (health.status >= 300) throw new Error(`GET /v2/health answered ${health.status}`);
    },
  });
  const login = await fetchOnce(`${server.url}/v2/login`, { method: 'POST', body: DEMO_KEYS });
  if (login.status !== 200) throw new Error(`POST /v2/login answered ${login.status}: ${login.bytes}`);
  return Object.assign(server, { token: JSON.parse(login.bytes.toString('utf8')).accessToken });
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);

/**
 * A route of the raw baseline that answers exactly what `answer` was.
 * @param {string} method
 * @param {string} path without the query
 * @param {{ status: number, headers: Record<string, string>, bytes: Buffer }} answer
 * @param {{ parse?: boolean }} [options] `parse`: the baseline decodes and JSON.parses each request body
 */
export function routeOf(method, path, answer, options = {}) {
  const headers = Object.fromEntries(
    Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
  );
  return {
    method,
    path,
    status: answer.status,
    headers,
    body: answer.bytes.toString('base64'),
    parse: options.parse === true,
  };
}

/**
 * Starts the raw node:http baseline (raw-server.mjs) answering these routes.
 * @param {ReturnType<typeof routeOf>[]} routes
 * @param {{ execArgv?: string[] }} [options] more flags of node (a CPU profile)
 */
export async function startRaw(routes, options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'iacm-bench-'));
  const file = join(dir, 'routes.json');
  writeFileSync(file, JSON.stringify(routes));
  try {
    return await startServer(join(BENCH, 'lib', 'raw-server.mjs'), [file], options);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
