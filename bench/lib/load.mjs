/**
 * The load generator: a small keep-alive HTTP/1.1 client loop with a concurrency setting (one
 * connection per request in flight). It runs in the benchmark's main process, never in the server's.
 */
import net from 'node:net';
import { keepCpuBusy } from './cpus.mjs';
import { max, mean, percentile } from './stats.mjs';

/**
 * @typedef {object} LoadOptions
 * @property {string} url the full URL
 * @property {string} [method] default GET
 * @property {Record<string, string>} [headers]
 * @property {string | Buffer | object} [body] an object is sent as JSON
 * @property {number} [requests] measured requests (default 500)
 * @property {number} [warmup] requests sent first and not measured (default 20)
 * @property {number} [concurrency] requests in flight at once (default 1)
 * @property {number} [maxSeconds] stop measuring after this long, even before `requests` (default: none)
 * @property {number} [warmupMaxSeconds] stop warming up after this long (default: none)
 * @property {number} [expectStatus] the status every answer must have (default 200)
 * @property {number} [rate] an open-loop request rate, requests per second over all connections: request
 *   k of a phase is sent at the phase's start + k / rate (or as soon as a connection is free after that),
 *   so that the server sees the same arrivals whatever its speed (default: none, each connection sends
 *   its next request as soon as the answer arrives)
 * @property {() => Promise<void>} [beforeMeasured] called after the warm-up, before the measured
 *   requests (a server's CPU time is read there, so that the warm-up's JIT and first-use work is not
 *   counted)
 */

/**
 * @typedef {object} LoadResult
 * @property {number} requests measured requests that completed
 * @property {number} elapsedMs wall time of the measured phase
 * @property {number} rps completed requests per second
 * @property {number} meanMs
 * @property {number} p50Ms
 * @property {number} p99Ms
 * @property {number} maxMs
 * @property {number} bytes body bytes of one answer
 * @property {boolean} capped whether `maxSeconds` stopped it before `requests`
 * @property {number[]} latencies every measured latency, ms
 */

/**
 * One keep-alive HTTP/1.1 connection over a raw socket: it sends a request, reads the answer's head
 * and skips its body by `Content-Length` (or its chunks), then the next request may go. Much cheaper
 * per request than `http.request`, so that the client is not what limits a fast server's throughput.
 */
class Connection {
  /**
   * @param {URL} target
   * @param {Buffer} request the whole request, head and body
   * @param {number} expectStatus
   */
  constructor(target, request, expectStatus) {
    this.request = request;
    this.expectStatus = expectStatus;
    this.buffer = Buffer.alloc(0);
    this.pending = undefined;
    this.socket = net.connect({ host: target.hostname, port: Number(target.port) });
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk) => this.onData(chunk));
    const fail = (error) => {
      const pending = this.pending;
      this.pending = undefined;
      pending?.reject(error);
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('the server closed the connection')));
  }

  /** @returns {Promise<{ ms: number, bytes: number }>} */
  send() {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject, start: process.hrtime.bigint() };
      this.socket.write(this.request);
    });
  }

  onData(chunk) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const pending = this.pending;
    if (pending === undefined) return;
    const headEnd = this.buffer.indexOf('\r\n\r\n');
    if (headEnd === -1) return;
    const head = this.buffer.subarray(0, headEnd).toString('latin1');
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let end;
    let bytes;
    if (length) {
      bytes = Number(length[1]);
      end = headEnd + 4 + bytes;
      if (this.buffer.length < end) return;
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      let at = headEnd + 4;
      bytes = 0;
      for (;;) {
        const lineEnd = this.buffer.indexOf('\r\n', at);
        if (lineEnd === -1) return;
        const size = Number.parseInt(this.buffer.subarray(at, lineEnd).toString('latin1'), 16);
        at = lineEnd + 2 + size + 2;
        if (this.buffer.length < at) return;
        bytes += size;
        if (size === 0) break;
      }
      end = at;
    } else {
      bytes = 0;
      end = headEnd + 4;
    }
    const body = this.buffer.subarray(headEnd + 4, end);
    this.buffer = this.buffer.subarray(end);
    this.pending = undefined;
    if (status !== this.expectStatus) {
      pending.reject(
        new Error(
          `answered ${status}, expected ${this.expectStatus}: ${body.toString('utf8').slice(0, 300)}`,
        ),
      );
      return;
    }
    pending.resolve({ ms: Number(process.hrtime.bigint() - pending.start) / 1e6, bytes });
  }

  close() {
    this.socket.destroy();
  }
}

/**
 * Sends the same request `warmup + requests` times over `concurrency` keep-alive connections (one
 * request in flight on each) and measures each. Throws when an answer has another status than
 * `expectStatus` (a benchmark of errors is no figure).
 * @param {LoadOptions} options
 * @returns {Promise<LoadResult>}
 */
export async function load(options) {
  const {
    method = 'GET',
    requests = 500,
    warmup = 20,
    concurrency = 1,
    maxSeconds = Number.POSITIVE_INFINITY,
    warmupMaxSeconds = Number.POSITIVE_INFINITY,
    expectStatus = 200,
  } = options;
  const target = new URL(options.url);
  const payload =
    options.body === undefined
      ? Buffer.alloc(0)
      : Buffer.isBuffer(options.body)
        ? options.body
        : Buffer.from(typeof options.body === 'string' ? options.body : JSON.stringify(options.body));
  /** @type {Record<string, string | number>} */
  const headers = { host: target.host, ...options.headers };
  if (options.body !== undefined) {
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    headers['content-length'] = payload.length;
  }
  const head = `${method} ${target.pathname}${target.search} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  const request = Buffer.concat([Buffer.from(head, 'latin1'), payload]);
  const connections = Array.from(
    { length: concurrency },
    () => new Connection(target, request, expectStatus),
  );
  let bytes = 0;
  const intervalMs = options.rate === undefined ? 0 : 1000 / options.rate;
  const run = async (count, latencies, deadline) => {
    let issued = 0;
    const phaseStart = performance.now();
    const worker = async (connection) => {
      while (issued < count && performance.now() < deadline) {
        const due = phaseStart + issued * intervalMs;
        issued++;
        if (intervalMs > 0) await until(due);
        const answer = await connection.send().catch((error) => {
          throw new Error(`${method} ${target.pathname}: ${error.message}`);
        });
        bytes = answer.bytes;
        latencies?.push(answer.ms);
      }
    };
    await Promise.all(connections.slice(0, Math.max(1, Math.min(count, concurrency))).map(worker));
  };
  const stopPolling = keepCpuBusy();
  try {
    await run(warmup, undefined, performance.now() + warmupMaxSeconds * 1000);
    await options.beforeMeasured?.();
    /** @type {number[]} */
    const latencies = [];
    const started = performance.now();
    await run(requests, latencies, started + maxSeconds * 1000);
    const elapsedMs = performance.now() - started;
    return {
      requests: latencies.length,
      elapsedMs,
      rps: (latencies.length / elapsedMs) * 1000,
      meanMs: mean(latencies),
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: max(latencies),
      bytes,
      capped: latencies.length < requests,
      latencies,
    };
  } finally {
    stopPolling();
    for (const connection of connections) connection.close();
  }
}

/**
 * Resolves at `due` (a `performance.now()` time): a timer while more than 2 ms remain, then
 * `setImmediate` turns (the load generator has a core of its own, so the spinning weighs on no
 * measured process).
 * @param {number} due
 */
async function until(due) {
  for (;;) {
    const left = due - performance.now();
    if (left <= 0) return;
    await new Promise((resolve) => (left > 2 ? setTimeout(resolve, left - 1) : setImmediate(resolve)));
  }
}

/**
 * Sends one request and returns its status, headers and body (for recording what a baseline must
 * answer).
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: unknown }} [init]
 */
export async function fetchOnce(url, init = {}) {
  const body =
    init.body === undefined || typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const headers = { ...init.headers };
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: Object.fromEntries(res.headers), bytes };
}

/**
 * Alternates two loads (`rounds` times each: A, B, A, B...) so that a change of the machine's load
 * weighs on both, and pools the rounds: the median round's throughput, percentiles over every
 * latency. `settling` more rounds go first and are not pooled: a server's first two rounds cost up to
 * 40% more than the rest, however long its warm-up (10,000 requests measured the same), both servers
 * alike, while its heap grows to its working size; the callbacks are told each round's index
 * (settling rounds first, from 0) and whether it counts.
 * @param {number} rounds
 * @param {(round: number, counted: boolean) => Promise<LoadResult>} a
 * @param {(round: number, counted: boolean) => Promise<LoadResult>} b
 * @param {number} [settling] rounds run first and not counted (default 0)
 */
export async function alternate(rounds, a, b, settling = 0) {
  const results = { a: [], b: [] };
  for (let i = 0; i < settling + rounds; i++) {
    const counted = i >= settling;
    const resultA = await a(i, counted);
    const resultB = await b(i, counted);
    if (counted) {
      results.a.push(resultA);
      results.b.push(resultB);
    }
  }
  return { a: pool(results.a), b: pool(results.b) };
}

/** @param {LoadResult[]} results */
export function pool(results) {
  const latencies = results.flatMap((r) => r.latencies);
  const rpsList = results.map((r) => r.rps).sort((x, y) => x - y);
  return {
    rounds: results.length,
    requests: latencies.length,
    rps: rpsList[Math.floor((rpsList.length - 1) / 2)],
    rpsRounds: results.map((r) => r.rps),
    meanMs: mean(latencies),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: max(latencies),
    bytes: results[0]?.bytes ?? 0,
    capped: results.some((r) => r.capped),
  };
}
