/**
 * Timing of in-process subjects: the same async call `warmup + requests` times in a row, each
 * measured, and two subjects alternated in rounds.
 */
import { max, mean, percentile } from './stats.mjs';

/**
 * How many calls run between two turns of the event loop. A call answered in-process (MSW) never
 * leaves the microtask queue, so without a turn a whole round is one job, and everything a `WeakRef`
 * was made to (undici makes three per intercepted `fetch`: its `Request`s' abort controllers and
 * streams) is kept alive until the job ends (the spec's "kept during job" list): the heap grew by
 * about 9 kB per call (200 MB over 18,000 calls of P2's request), and each round's garbage
 * collection cost more than the round before, whichever subject it measured. A test suite's awaits on timers and I/O give these
 * turns; the benchmark gives one every 50 calls (outside each call's timing, inside the CPU time).
 */
export const CALLS_PER_TURN = 50;

/** Lets the event loop turn once (a macrotask), ending the current job. */
function turn() {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The calls, each timed (wall), and this process's CPU time over all of them (user + system): the
 * CPU a call costs the caller, whatever the machine's load does to wall time. The event loop turns
 * every {@link CALLS_PER_TURN} calls.
 * @param {() => Promise<unknown>} call
 * @param {{ requests: number, warmup: number }} counts
 */
export async function time(call, { requests, warmup }) {
  for (let i = 0; i < warmup; i++) {
    await call();
    if ((i + 1) % CALLS_PER_TURN === 0) await turn();
  }
  await turn();
  const latencies = new Array(requests);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    await call();
    latencies[i] = performance.now() - t0;
    if ((i + 1) % CALLS_PER_TURN === 0) await turn();
  }
  const elapsedMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { requests, elapsedMs, latencies, cpuPerCallMs: (used.user + used.system) / 1000 / requests };
}

/**
 * The warm-up of round `round` (from 0): the first round's is ten times as long, so that V8 has
 * optimised the path before anything is measured (with 200 requests, the first two rounds of a
 * server still cost up to three times the others'); later rounds warm up again after the switch.
 * @param {number} warmup
 * @param {number} round
 */
export function warmupOf(warmup, round) {
  return round === 0 ? warmup * 10 : warmup;
}

/**
 * Alternates subjects, `rounds` times each (a, b, c, a, b, c...), and pools each one's latencies;
 * each round warms up again, so a switch between them costs none of them.
 * @template {string} K
 * @param {number} rounds
 * @param {{ requests: number, warmup: number }} counts
 * @param {Record<K, { before?: () => unknown, call: () => Promise<unknown> }>} subjects
 * Each subject's CPU time per call is the median of its rounds' (`cpuMs`), with every round's
 * (`cpuRoundsMs`) for the spread.
 * @returns {Promise<Record<K, { requests: number, meanMs: number, p50Ms: number, p99Ms: number, maxMs: number, cpuMs: number, cpuRoundsMs: number[] }>>}
 */
export async function alternateCalls(rounds, counts, subjects) {
  const pools = Object.fromEntries(Object.keys(subjects).map((key) => [key, { latencies: [], cpu: [] }]));
  for (let i = 0; i < rounds; i++) {
    for (const [key, subject] of Object.entries(subjects)) {
      await subject.before?.();
      const timed = await time(subject.call, { ...counts, warmup: warmupOf(counts.warmup, i) });
      pools[key].latencies.push(...timed.latencies);
      pools[key].cpu.push(timed.cpuPerCallMs);
    }
  }
  const summary = ({ latencies, cpu }) => ({
    requests: latencies.length,
    meanMs: mean(latencies),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: max(latencies),
    cpuMs: percentile(cpu, 50),
    cpuRoundsMs: cpu,
  });
  return Object.fromEntries(Object.entries(pools).map(([key, pool]) => [key, summary(pool)]));
}
