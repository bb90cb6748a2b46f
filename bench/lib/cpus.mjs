/**
 * Keeping the load generator off the measured process's core (issue 25): with `taskset` and at least
 * two CPUs, the benchmark's own process (the load generator, the stats reader) runs on CPU 0 and
 * every process it measures (servers and measuring children) on CPU 1, so that a throughput or
 * CPU-time figure does not measure the two sharing a core. Otherwise nothing is pinned, and the
 * report says why.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** @typedef {{ pinned: boolean, text: string, prefix: string[] }} Pinning */

/** @type {Pinning | undefined} */
let decided;

/** Whether `taskset` runs here. */
function hasTaskset() {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Decides the pinning once (pins this process, all its threads, to CPU 0 when it can): how to start
 * a measured process (`prefix` before `node`), and a line for the report.
 * @returns {Pinning}
 */
export function cpuPinning() {
  if (decided) return decided;
  const cpus = availableParallelism();
  if (process.env.IACM_BENCH_NO_PIN === '1') {
    decided = { pinned: false, text: 'not pinned (IACM_BENCH_NO_PIN=1)', prefix: [] };
  } else if (cpus < 2) {
    decided = { pinned: false, text: `not pinned (${cpus} CPU)`, prefix: [] };
  } else if (!hasTaskset()) {
    decided = { pinned: false, text: 'not pinned (no taskset on this machine)', prefix: [] };
  } else {
    try {
      execFileSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' });
      decided = {
        pinned: true,
        text: 'load generator pinned to CPU 0, measured processes to CPU 1 (taskset)',
        prefix: ['taskset', '-c', '1'],
      };
    } catch (error) {
      decided = {
        pinned: false,
        text: `not pinned (taskset failed: ${error.message.split('\n')[0]})`,
        prefix: [],
      };
    }
  }
  return decided;
}

/**
 * The command and arguments that start `node` with `args` as a measured process (pinned when the
 * benchmark pins: `taskset` execs node, so the pid is node's).
 * @param {string[]} args
 * @returns {[string, string[]]}
 */
export function measuredNode(args) {
  const { prefix } = cpuPinning();
  return prefix.length > 0
    ? [prefix[0], [...prefix.slice(1), process.execPath, ...args]]
    : [process.execPath, args];
}
