/**
 * Preloaded (`node --import`) into the server processes the benchmark starts, the mock's CLI among
 * them. It changes nothing of what they do: it watches garbage collection with a PerformanceObserver
 * on `gc` and answers the benchmark's questions (GC pauses, memory, CPU time) over the IPC channel.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

/**
 * With `IACM_BENCH_CPU_WORKER=1` (P4's abandoned request): a worker thread answers `GET /` on its own
 * port with the process's CPU time, read the moment it is asked, even while the main thread is busy
 * (the IPC channel is answered only when the main thread's event loop turns).
 */
let cpuPort;

/**
 * With `IACM_BENCH_KEEP_BUSY=1` (a helper server, on the load generator's CPU): the event loop never
 * sleeps (a chain of `setImmediate` turns), so that its CPU does not halt between requests and the
 * measured client writing to it pays for no wake-up (see `keepCpuBusy` in cpus.mjs). It stops when
 * the process exits.
 */
if (process.env.IACM_BENCH_KEEP_BUSY === '1') {
  const turn = () => setImmediate(turn);
  turn();
}
if (process.env.IACM_BENCH_CPU_WORKER === '1') {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const server = require('node:http').createServer((req, res) => {
       const cpu = process.cpuUsage();
       res.end(String((cpu.user + cpu.system) / 1000));
     });
     server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));`,
    { eval: true },
  );
  worker.once('message', (port) => {
    cpuPort = port;
  });
  worker.unref();
}

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
      cpuPort,
    });
    if (message.type === 'gc-reset') gc = fresh();
  });
  // The channel must not keep a server alive that would otherwise stop.
  process.channel?.unref();
}
