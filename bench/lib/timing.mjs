/**
 * Timing of in-process subjects: the same async call `warmup + requests` times in a row, each
 * measured, and two subjects alternated in rounds.
 */
import { max, mean, percentile } from './stats.mjs';

/**
 * @param {() => Promise<unknown>} call
 * @param {{ requests: number, warmup: number }} counts
 */
export async function time(call, { requests, warmup }) {
  for (let i = 0; i < warmup; i++) await call();
  const latencies = new Array(requests);
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    await call();
    latencies[i] = performance.now() - t0;
  }
  const elapsedMs = performance.now() - started;
  return { requests, elapsedMs, latencies };
}

/**
 * Alternates subjects, `rounds` times each (a, b, c, a, b, c...), and pools each one's latencies;
 * each round warms up again, so a switch between them costs none of them.
 * @template {string} K
 * @param {number} rounds
 * @param {{ requests: number, warmup: number }} counts
 * @param {Record<K, { before?: () => unknown, call: () => Promise<unknown> }>} subjects
 * @returns {Promise<Record<K, { requests: number, meanMs: number, p50Ms: number, p99Ms: number, maxMs: number }>>}
 */
export async function alternateCalls(rounds, counts, subjects) {
  const pools = Object.fromEntries(Object.keys(subjects).map((key) => [key, []]));
  for (let i = 0; i < rounds; i++) {
    for (const [key, subject] of Object.entries(subjects)) {
      await subject.before?.();
      pools[key].push(...(await time(subject.call, counts)).latencies);
    }
  }
  const summary = (latencies) => ({
    requests: latencies.length,
    meanMs: mean(latencies),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: max(latencies),
  });
  return Object.fromEntries(Object.entries(pools).map(([key, latencies]) => [key, summary(latencies)]));
}
