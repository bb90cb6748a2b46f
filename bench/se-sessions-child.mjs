/**
 * SE's measuring process (fresh, run with `--expose-gc`): a mock with the default sizes, then 50
 * sessions of its seed created one after another (`await control.createSession()`), each one timed (wall
 * and CPU), and the heap growth over the 50 after a forced garbage collection; then the baseline,
 * full mocks of the default sizes made from seeds no mock has used (so their data is generated),
 * measured the same way.
 */
import { DIST, url } from './lib/paths.mjs';
import { childMain } from './lib/processes.mjs';

/** The heap in use after two forced collections, bytes. */
function settledHeap() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

/** Makes `count` of something with `make` (awaited), each timed; the heap growth per item, and the times. */
async function measure(count, make) {
  const keep = [];
  const wallMs = [];
  const cpuMs = [];
  const before = settledHeap();
  for (let i = 0; i < count; i++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    keep.push(await make(i));
    wallMs.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    cpuMs.push((used.user + used.system) / 1000);
  }
  const bytesEach = (settledHeap() - before) / count;
  // Kept alive until measured.
  if (keep.length !== count) throw new Error('lost an item');
  return { bytesEach, wallMs, cpuMs };
}

await childMain(async ({ sessions, fullMocks }) => {
  if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
  const { MockCore } = await import(url(DIST.mock));
  const mock = new MockCore({ sessions: { max: sessions + 10 } });
  // Warm-up: the code paths compiled, and the registry's first entries made.
  for (let i = 0; i < 3; i++) await mock.control.createSession();
  const session = await measure(sessions, () => mock.control.createSession());
  // The baseline: a full mock of the same sizes, its data generated (a seed no mock has used).
  new MockCore({ seed: 'se-warm-up' });
  const full = await measure(fullMocks, (i) => new MockCore({ seed: `se-baseline-${i}` }));
  if (mock.control.sessions().length !== sessions + 3) throw new Error('a session is missing');
  return { session, full };
});
