/**
 * P5: the webhook receiver on node:http (credentials, content type, size, JSON, schema, handler)
 * against a raw node:http server reading and parsing the same body, for a Drift notification of
 * about 2 kB and one of about 25 kB. Since issue 25 by the servers' CPU time per request (the raw
 * server's over the receiver's, the median of the rounds with their spread), the throughput ratio
 * beside it; goals >= 0.7x (2 kB) and >= 0.4x (25 kB).
 */
import { join } from 'node:path';
import { alternate, fetchOnce } from './lib/load.mjs';
import { BENCH, DIST, url } from './lib/paths.mjs';
import { startServer } from './lib/processes.mjs';
import { atLeast, row } from './lib/rows.mjs';
import { cpuFigures, loadWithServerCpu } from './lib/server-cpu.mjs';
import { routeOf, startRaw } from './lib/servers.mjs';
import { size } from './lib/stats.mjs';

export const id = 'P5';
export const title = 'webhook receiver on node:http vs raw node:http reading and parsing the same body';

const PASSWORD = 'bench-password-not-a-secret';

/** A Drift notification of at least `bytes` bytes of JSON: the generated one, with more samples. */
function driftOf(generateNotification, bytes) {
  const base = generateNotification('Drift');
  const samples = [...base.samples];
  for (let i = samples.length; JSON.stringify({ ...base, samples }).length < bytes; i++) {
    const sample = base.samples[i % base.samples.length];
    samples.push({ ...sample, name: `acme-logs-${i}`, ARN: `arn:aws:s3:::acme-logs-${i}` });
  }
  return JSON.stringify({ ...base, samples });
}

/** @param {import('./main.mjs').Context} ctx */
export async function run(ctx) {
  const { generateNotification, createTestDelivery } = await import(url(DIST.receiver));
  const bodies = {
    '2 kB': driftOf(generateNotification, 1900),
    '25 kB': driftOf(generateNotification, 25_000),
  };
  const { headers } = createTestDelivery({
    notification: {},
    credentials: { type: 'basic', username: 'bench', password: PASSWORD },
  });
  const receiver = await startServer(join(BENCH, 'p5-receiver-server.mjs'), [], {
    env: { IACM_BENCH_PASSWORD: PASSWORD },
    execArgv: ctx.serverOptions('p5-receiver').execArgv,
  });
  let raw;
  try {
    const answers = [];
    for (const body of Object.values(bodies)) {
      const answer = await fetchOnce(`${receiver.url}/webhooks`, { method: 'POST', headers, body });
      if (answer.status !== 200) throw new Error(`the receiver answered ${answer.status}: ${answer.bytes}`);
      answers.push(answer);
    }
    raw = await startRaw([routeOf('POST', '/webhooks', answers[0], { parse: true })]);
    const rows = [];
    const goals = { '2 kB': atLeast(0.7, 'x'), '25 kB': atLeast(0.4, 'x') };
    for (const [label, body] of Object.entries(bodies)) {
      const cpu = { a: [], b: [] };
      const options = {
        method: 'POST',
        headers,
        body,
        requests: ctx.serverRequests,
        warmup: ctx.warmup,
        concurrency: ctx.concurrency,
        rate: ctx.rate,
      };
      const { a, b } = await alternate(
        ctx.rounds,
        (round, counted) => loadWithServerCpu(receiver, '/webhooks', options, cpu.a, round, counted),
        (round, counted) => loadWithServerCpu(raw, '/webhooks', options, cpu.b, round, counted),
        ctx.settlingRounds,
      );
      const figures = cpuFigures(cpu, a, b);
      rows.push(
        row({
          id,
          what: `Drift notification of ${size(Buffer.byteLength(body))}, receiver (Basic credentials) vs raw read + JSON.parse: CPU time per request (raw / receiver)`,
          figure: figures.figure,
          unit: 'x',
          text: figures.text,
          stable: figures.stable,
          goal: goals[label],
          details: { bodyBytes: Buffer.byteLength(body), concurrency: ctx.concurrency, ...figures.details },
        }),
      );
    }
    return rows;
  } finally {
    await Promise.all([receiver.stop(), raw?.stop()]);
  }
}
