/**
 * The machine a run measured on, and its load: what makes figures of two runs comparable (or not).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { ROOT } from './paths.mjs';

function git(args) {
  try {
    return execFileSync('git', args, {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/** The machine: OS, CPU model and count, memory, Node, and the commit measured. */
export function machine() {
  const cpus = os.cpus();
  const status = git(['status', '--porcelain', '--untracked-files=no']);
  return {
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    cpuCount: cpus.length,
    availableParallelism:
      typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    totalMemoryBytes: os.totalmem(),
    node: process.version,
    v8: process.versions.v8,
    commit: git(['rev-parse', '--short=12', 'HEAD']),
    uncommittedChanges: status === undefined ? undefined : status.length > 0,
  };
}

/** The load average (1, 5, 15 minutes) and free memory now. */
export function load() {
  const [one, five, fifteen] = os.loadavg();
  return {
    at: new Date().toISOString(),
    loadavg: [one, five, fifteen].map((v) => Math.round(v * 100) / 100),
    freeMemoryBytes: os.freemem(),
  };
}
