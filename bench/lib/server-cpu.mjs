/**
 * Throughput rows by CPU time (issue 25): a server's CPU time per request, read by probe.mjs before
 * and after each round of load, and the ratio of a baseline's to a subject's (higher is better, as a
 * throughput ratio), the median of the rounds with their spread.
 */
import { load } from './load.mjs';
import { duration, median, num, pairedRatio } from './stats.mjs';
import { warmupOf } from './timing.mjs';

/**
 * One round of load against `server` (`options` as `load` takes them, without `url`; `path` is the
 * request's path), with the server's CPU time per measured request (read after the warm-up and after
 * the measured requests, so that neither the warm-up's JIT work nor connection set-up counts).
 * @param {import('./processes.mjs').ServerProcess} server
 * @param {string} path
 * @param {Omit<Parameters<typeof load>[0], 'url'>} options
 * @param {number[]} cpuRounds each counted round's CPU per request is appended here
 * @param {number} [round] the round's index, from 0: the first warms up ten times as long (`warmupOf`)
 * @param {boolean} [counted] whether the round counts (`alternate`'s settling rounds do not)
 */
export async function loadWithServerCpu(server, path, options, cpuRounds, round = 1, counted = true) {
  let before = Number.NaN;
  const result = await load({
    ...options,
    warmup: warmupOf(options.warmup ?? 20, round),
    url: `${server.url}${path}`,
    beforeMeasured: async () => {
      before = (await server.stats()).cpuMs;
    },
  });
  const cpuMs = (await server.stats()).cpuMs - before;
  if (counted) cpuRounds.push(cpuMs / result.requests);
  return result;
}

/**
 * The baseline's CPU per request over the subject's, round by round: the median and the spread.
 * @param {number[]} subject
 * @param {number[]} baseline
 */
export function cpuRatio(subject, baseline) {
  return {
    ...pairedRatio(baseline, subject),
    subjectMs: median(subject),
    baselineMs: median(baseline),
  };
}

/**
 * A row's figure, text and details from two servers' rounds: the CPU ratio (baseline over subject)
 * with its spread, and the throughput and latencies of the pooled loads beside it.
 * @param {{ a: number[], b: number[] }} cpu each round's CPU per request, subject (`a`) and baseline (`b`)
 * @param {import('./load.mjs').LoadResult} a the subject's pooled load
 * @param {import('./load.mjs').LoadResult} b the baseline's pooled load
 */
export function cpuFigures(cpu, a, b) {
  const byCpu = cpuRatio(cpu.a, cpu.b);
  const throughput = a.rps / b.rps;
  return {
    figure: byCpu.ratio,
    text:
      `${byCpu.ratio.toFixed(2)}x (server CPU per request ${duration(byCpu.subjectMs)} vs ${duration(byCpu.baselineMs)}; ` +
      `rounds ${byCpu.spread}; throughput ${throughput.toFixed(2)}x, ${num(a.rps)} vs ${num(b.rps)} req/s; ` +
      `p50 ${num(a.p50Ms)} vs ${num(b.p50Ms)} ms, p99 ${num(a.p99Ms)} vs ${num(b.p99Ms)} ms)`,
    details: { subject: a, baseline: b, cpuMs: cpu, rounds: byCpu.rounds, throughput },
    stable: 'cpu',
  };
}
