/**
 * Preloaded (`node --import`) into the server processes the benchmark starts, the mock's CLI among
 * them. It changes nothing of what they do: it watches garbage collection with a PerformanceObserver
 * on `gc` and answers the benchmark's questions (GC pauses, memory, CPU time) over the IPC channel.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';

if (typeof process.send === 'function') {
  const fresh = () => ({ count: 0, totalMs: 0, maxMs: 0, over50: 0, over100: 0 });
  let gc = fresh();
  const take = (entries) => {
    for (const entry of entries) {
      gc.count++;
      gc.totalMs += entry.duration;
      if (entry.duration > gc.maxMs) gc.maxMs = entry.duration;
      if (entry.duration > 50) gc.over50++;
      if (entry.duration > 100) gc.over100++;
    }
  };
  const observer = new PerformanceObserver((list) => take(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  process.on('message', (message) => {
    if (message === null || typeof message !== 'object' || message.bench !== true) return;
    if (typeof observer.takeRecords === 'function') take(observer.takeRecords());
    const memory = process.memoryUsage();
    process.send({
      bench: true,
      id: message.id,
      gc: { ...gc },
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      cpuMs: (() => {
        const cpu = process.cpuUsage();
        return (cpu.user + cpu.system) / 1000;
      })(),
      uptimeMs: performance.now(),
    });
    if (message.type === 'gc-reset') gc = fresh();
  });
  // The channel must not keep a server alive that would otherwise stop.
  process.channel?.unref();
}
