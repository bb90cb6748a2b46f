/**
 * Keeping the load generator off the measured process's core (issue 25): with `taskset` and at least
 * two CPUs, the benchmark's own process (the load generator, the stats reader) runs on CPU 0 and
 * every process it measures (servers and measuring children) on CPU 1, so that a throughput or
 * CPU-time figure does not measure the two sharing a core. Otherwise nothing is pinned, and the
 * report says why.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** @typedef {{ pinned: boolean, text: string, prefix: string[], busyPoll: boolean }} Pinning */

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
    decided = { pinned: false, text: 'not pinned (IACM_BENCH_NO_PIN=1)', prefix: [], busyPoll: false };
  } else if (cpus < 2) {
    decided = { pinned: false, text: `not pinned (${cpus} CPU)`, prefix: [], busyPoll: false };
  } else if (!hasTaskset()) {
    decided = {
      pinned: false,
      text: 'not pinned (no taskset on this machine)',
      prefix: [],
      busyPoll: false,
    };
  } else {
    try {
      execFileSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' });
      const busyPoll = process.env.IACM_BENCH_IDLE_CLIENT !== '1';
      decided = {
        pinned: true,
        text: `load generator pinned to CPU 0${busyPoll ? ' and busy-polling' : ' (idle between answers: IACM_BENCH_IDLE_CLIENT=1)'}, measured processes to CPU 1 (taskset)`,
        prefix: ['taskset', '-c', '1'],
        busyPoll,
      };
    } catch (error) {
      decided = {
        pinned: false,
        text: `not pinned (taskset failed: ${error.message.split('\n')[0]})`,
        prefix: [],
        busyPoll: false,
      };
    }
  }
  return decided;
}

/**
 * The command and arguments that start `node` with `args`: a measured process on CPU 1, a helper
 * (a server that only feeds a measured client, P3's recorded answer) on CPU 0 with the load
 * generator, when the benchmark pins (`taskset` execs node, so the pid is node's). Until the record
 * of 2026-11-27 (evening) the role was ignored and the helper shared CPU 1 with the client it fed.
 * @param {string[]} args
 * @param {'measured' | 'helper'} [role]
 * @returns {[string, string[]]}
 */
export function measuredNode(args, role = 'measured') {
  const { prefix } = cpuPinning();
  if (prefix.length === 0) return [process.execPath, args];
  const cpu = role === 'helper' ? ['taskset', '-c', '0'] : prefix;
  return [cpu[0], [...cpu.slice(1), process.execPath, ...args]];
}

/**
 * The environment of a process started in `role`: a helper busy-polls as the load generator does
 * (`IACM_BENCH_KEEP_BUSY=1`, read by probe.mjs), so that the measured client does not pay for waking
 * its halted CPU with every request it writes; a measured process never does (`0`, whatever the
 * shell's environment says).
 * @param {'measured' | 'helper'} [role]
 * @returns {Record<string, string>}
 */
export function roleEnv(role = 'measured') {
  return { IACM_BENCH_KEEP_BUSY: role === 'helper' && cpuPinning().busyPoll ? '1' : '0' };
}

/**
 * Keeps the load generator's CPU busy while a load runs, when it has a CPU of its own (pinned, and
 * not `IACM_BENCH_IDLE_CLIENT=1`): a chain of `setImmediate` turns, so that its event loop polls its
 * sockets without sleeping. Otherwise the generator waits in `epoll_wait` whenever it is faster than
 * the server, its CPU halts, and every answer the server writes pays for waking it: on loopback the
 * kernel delivers the bytes in the writer's `writev`, and waking a halted CPU there is an
 * inter-processor interrupt (on a VM without halt polling, an exit to the host) charged to the
 * server's system time. The slower the server, the more often the generator sleeps, so that cost
 * grew with the subject's own cost and weighed on the subject more than on the baseline (measured
 * in docs/performance.md, "The load generator busy-polls"). Returns the function that stops it.
 * @returns {() => void}
 */
export function keepCpuBusy() {
  if (!cpuPinning().busyPoll) return () => {};
  let on = true;
  const turn = () => {
    if (on) setImmediate(turn);
  };
  setImmediate(turn);
  return () => {
    on = false;
  };
}
