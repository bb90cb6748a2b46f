/**
 * Memory of a server process as peak RSS sampled every 100 ms, from outside the process (Linux:
 * `/proc/<pid>/status`, so a busy event loop cannot delay a sample), with the kernel's own high-water
 * mark (`VmHWM`) beside it. Elsewhere the process is asked over IPC (see probe.mjs).
 */
import { readFileSync } from 'node:fs';

/**
 * @param {number} pid
 * @returns {{ rss: number, hwm: number } | undefined} bytes
 */
export function readProcStatus(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `everyMs` and keeps the peak of each phase. */
export class RssSampler {
  /**
   * @param {import('./processes.mjs').ServerProcess} server
   * @param {number} [everyMs]
   */
  constructor(server, everyMs = 100) {
    this.server = server;
    this.phase = 'start';
    /** @type {Record<string, number>} */
    this.peaks = {};
    this.samples = 0;
    this.source = readProcStatus(server.pid)
      ? '/proc/<pid>/status VmRSS'
      : 'process.memoryUsage().rss over IPC';
    this.timer = setInterval(() => void this.sample(), everyMs);
    this.timer.unref();
  }

  async sample() {
    const status = readProcStatus(this.server.pid);
    const rss = status ? status.rss : (await this.server.stats().catch(() => undefined))?.rss;
    if (rss === undefined || Number.isNaN(rss)) return undefined;
    this.samples++;
    this.peaks[this.phase] = Math.max(this.peaks[this.phase] ?? 0, rss);
    return rss;
  }

  /** Starts a new phase; peaks are kept per phase. */
  mark(phase) {
    this.phase = phase;
  }

  /** The kernel's high-water mark of RSS since the process started (Linux), bytes. */
  highWaterMark() {
    return readProcStatus(this.server.pid)?.hwm;
  }

  stop() {
    clearInterval(this.timer);
  }
}
