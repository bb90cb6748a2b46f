/**
 * P4: the scale table of issue 15. The standalone mock (its CLI, `--quiet`) with 100,000 workspaces
 * and 1,000,000 events (the documented size flags), one client in this process, 20 warm-up then 500
 * requests per row (each row stops after --row-seconds), memory as peak RSS sampled every 100 ms, GC
 * pauses from a PerformanceObserver on `gc` inside the server (probe.mjs). Absolute figures,
 * labelled with the machine.
 */
import http from 'node:http';
import { fetchOnce, load } from './lib/load.mjs';
import { RssSampler, readProcStatus } from './lib/memory.mjs';
import { atMost, failed, row } from './lib/rows.mjs';
import { startMock } from './lib/servers.mjs';
import { duration, median, percentile, size } from './lib/stats.mjs';

export const id = 'P4';
export const title = 'scale: start, memory, queries and GC at real-account volumes';

/** Seeded events lie in the 30 days before 2026-01-01T00:00:00.000Z (the seed epoch). */
const WINDOW_30_DAYS = { startTime: '2025-12-02T00:00:00.000Z', endTime: '2025-12-31T23:59:59.999Z' };
const WINDOW_1_DAY = { startTime: '2025-12-31T00:00:00.000Z', endTime: '2025-12-31T23:59:59.999Z' };
const FACETS = [{ field: 'eventType' }, { field: 'providerType' }, { field: 'assetType' }];
const NOTHING = 'zq-no-such-text-qz';

/** The query rows: a request, its goal on p99, and how to describe its answer. */
const QUERIES = [
  {
    key: 'workspaceSearch',
    what: 'workspace search, 2 filters + sort, page of 100',
    path: '/v2/workspaces/search?pageSize=100',
    body: {
      filters: { ciTool: ['github-actions', 'gitlab-pipelines'], status: ['apply_success', 'plan_success'] },
      sort: [{ workspaceName: { order: 1 } }],
    },
    goal: 10,
    describe: (answer) => `${answer.length} items`,
  },
  {
    key: 'events30',
    what: 'event query, 3 facets, 30-day window',
    path: '/v2/event-center',
    body: { query: WINDOW_30_DAYS, facets: FACETS, size: 50 },
    goal: 50,
    describe: (answer) =>
      `${answer.events.length} events, facet values ${answer.facets.map((f) => f.values.length).join('/')}`,
  },
  {
    key: 'events1',
    what: 'event query, 3 facets, 1-day window',
    path: '/v2/event-center',
    body: { query: WINDOW_1_DAY, facets: FACETS, size: 50 },
    goal: 20,
    describe: (answer) => `${answer.events.length} events`,
  },
  {
    key: 'facets',
    what: 'facets call (assetId, top 10, 30-day window)',
    path: '/v2/event-center/facets',
    body: { field: 'assetId', size: 10, query: WINDOW_30_DAYS },
    goal: 50,
    describe: (answer) => `${answer[0]?.values.length} of ${answer[0]?.size} values`,
  },
  {
    key: 'eventsNothing',
    what: 'event-center searchText matching nothing',
    path: '/v2/event-center',
    body: { query: { searchText: NOTHING }, size: 50 },
    goal: 100,
    describe: (answer) => `${answer.events.length} events`,
  },
  {
    key: 'workspaceSort3',
    what: 'workspace search sorted by ciTool, terraformVersion (as a version), repository, page of 100',
    path: '/v2/workspaces/search?pageSize=100',
    body: {
      sort: [{ ciTool: { order: 1 } }, { terraformVersion: { order: -1 } }, { repository: { order: 1 } }],
    },
    goal: 50,
    describe: (answer) => `${answer.length} items`,
  },
  {
    key: 'workspacesNothing',
    what: 'workspace searchValue matching nothing',
    path: '/v2/workspaces/search',
    body: { searchValue: NOTHING },
    goal: 100,
    describe: (answer) => `${answer.length} items`,
  },
];

/**
 * Sends a request and leaves (destroys the socket) after `afterMs`.
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {unknown} body
 * @param {number} afterMs
 */
function sendAndLeave(url, headers, body, afterMs) {
  const payload = Buffer.from(JSON.stringify(body));
  const req = http.request(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'content-length': payload.length },
  });
  req.on('error', () => {});
  req.end(payload);
  return new Promise((resolve) =>
    setTimeout(() => {
      req.destroy();
      resolve(undefined);
    }, afterMs),
  );
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {import('./main.mjs').Context} ctx */
export async function run(ctx) {
  const sizes = ctx.sizes;
  const label = `${sizes.workspaces.toLocaleString('en-US')} workspaces, ${sizes.events.toLocaleString('en-US')} events`;
  // A worker thread in the mock answers its CPU time while the main thread is busy (the abandoned
  // request's row reads it the moment the client leaves).
  const mock = await startMock(sizes, {
    ...ctx.serverOptions('p4-mock'),
    env: { IACM_BENCH_CPU_WORKER: '1' },
  });
  const rows = [];
  const sampler = new RssSampler(mock);
  try {
    const atReady = await mock.stats('gc-reset');
    const status = readProcStatus(mock.pid);
    const afterStart = status?.rss ?? atReady.rss;
    const startPeak = status?.hwm;
    rows.push(
      row({
        id,
        what: `start (${label}): spawn until the port answers`,
        figure: mock.startMs / 1000,
        unit: 's',
        // The server's CPU time (all its threads, from process.cpuUsage() once it answered and a
        // login) beside the wall time: a load on the machine stretches the wall time, less the CPU.
        text: `${(mock.startMs / 1000).toFixed(1)} s (CPU ${(atReady.cpuMs / 1000).toFixed(1)} s; GC during start: ${atReady.gc.count} pauses, ${duration(atReady.gc.totalMs)} in all, max ${duration(atReady.gc.maxMs)}, ${atReady.gc.over100} over 100 ms)`,
        goal: atMost(5, ' s'),
        details: { startMs: mock.startMs, cpuMsAtReady: atReady.cpuMs, gcDuringStart: atReady.gc },
      }),
    );
    sampler.mark('queries');
    const headers = { authorization: `Bearer ${mock.token}` };
    /** @type {Record<string, import('./lib/load.mjs').LoadResult>} */
    const results = {};
    for (const query of QUERIES) {
      try {
        const answer = await fetchOnce(`${mock.url}${query.path}`, {
          method: 'POST',
          headers,
          body: query.body,
        });
        if (answer.status !== 200)
          throw new Error(`answered ${answer.status}: ${answer.bytes.toString('utf8').slice(0, 200)}`);
        const described = query.describe(JSON.parse(answer.bytes.toString('utf8')));
        sampler.mark(query.key);
        const result = await load({
          url: `${mock.url}${query.path}`,
          method: 'POST',
          headers,
          body: query.body,
          requests: ctx.requests,
          warmup: Math.min(ctx.warmup, 20),
          concurrency: 1,
          maxSeconds: ctx.rowSeconds,
          warmupMaxSeconds: ctx.rowSeconds / 4,
        });
        results[query.key] = result;
        const { latencies, ...figures } = result;
        rows.push(
          row({
            id,
            what: `${query.what} (${described}, ${size(result.bytes)})`,
            figure: result.p99Ms,
            unit: 'ms',
            text: `p99 ${duration(result.p99Ms)}, p50 ${duration(result.p50Ms)} (${result.requests} requests${result.capped ? `, stopped at ${ctx.rowSeconds} s` : ''})`,
            goal: atMost(query.goal, ' ms'),
            details: { ...figures, peakRssBytes: sampler.peaks[query.key] },
          }),
        );
      } catch (error) {
        rows.push(failed(id, query.what, error, atMost(query.goal, ' ms')));
      }
    }
    rows.push(await searchAfterWrite(ctx, mock, headers));
    rows.push(await firstSortBlock(mock, headers));
    rows.push(await abandoned(ctx, mock, headers, results.eventsNothing));
    sampler.mark('done');
    await sampler.sample();
    const after = await mock.stats();
    const queriesPeak = Math.max(
      ...QUERIES.map((q) => sampler.peaks[q.key] ?? 0),
      sampler.peaks.queries ?? 0,
      sampler.peaks.abandoned ?? 0,
    );
    rows.push(
      row({
        id,
        what: 'memory: RSS after start / peak RSS during the queries (sampled every 100 ms)',
        figure: Math.max(queriesPeak, afterStart, startPeak ?? 0) / 1e6,
        unit: 'MB',
        text:
          `${size(afterStart)} / ${size(queriesPeak)}` +
          (startPeak === undefined ? '' : ` (peak during start, VmHWM: ${size(startPeak)})`),
        goal: { op: '<=', value: 1000, text: '<= 1 GB peak' },
        details: {
          afterStartBytes: afterStart,
          queriesPeakBytes: queriesPeak,
          startPeakBytes: startPeak,
          source: sampler.source,
          samples: sampler.samples,
          peaksByPhase: sampler.peaks,
        },
      }),
    );
    rows.push(
      row({
        id,
        what: 'GC pauses during the queries (PerformanceObserver on gc, in the server)',
        figure: after.gc.maxMs,
        unit: 'ms',
        text: `longest ${duration(after.gc.maxMs)}; ${after.gc.over100} over 100 ms, ${after.gc.over50} over 50 ms, ${after.gc.count} in all (${duration(after.gc.totalMs)})`,
        goal: { op: '<=', value: 100, text: 'none over 100 ms' },
        details: after.gc,
      }),
    );
    return rows;
  } finally {
    sampler.stop();
    await mock.stop();
  }
}

/**
 * `searchValue` right after a write: each measured search follows a label change of a workspace
 * (not measured), so that every search finds the text index out of date. p99 over the searches.
 * @param {import('./main.mjs').Context} ctx
 * @param {Awaited<ReturnType<typeof startMock>>} mock
 * @param {Record<string, string>} headers
 */
async function searchAfterWrite(ctx, mock, headers) {
  const what = 'workspace searchValue matching nothing, right after a write (a label change)';
  const goal = atMost(10, ' ms');
  try {
    const listed = await fetchOnce(`${mock.url}/v2/workspaces/search?pageSize=100`, {
      method: 'POST',
      headers,
      body: {},
    });
    const ids = JSON.parse(listed.bytes.toString('utf8')).map((w) => w.id);
    if (ids.length === 0) throw new Error('no workspace to change');
    const count = Math.min(ctx.requests, 200);
    const latencies = [];
    for (let i = 0; i < count; i++) {
      const write = await fetchOnce(`${mock.url}/v2/workspaces/${ids[i % ids.length]}/labels`, {
        method: 'PUT',
        headers,
        body: { labels: [`bench-${i}`] },
      });
      if (write.status !== 200) throw new Error(`the label change answered ${write.status}`);
      const t0 = performance.now();
      const answer = await fetchOnce(`${mock.url}/v2/workspaces/search`, {
        method: 'POST',
        headers,
        body: { searchValue: NOTHING },
      });
      latencies.push(performance.now() - t0);
      if (answer.status !== 200) throw new Error(`the search answered ${answer.status}`);
    }
    const p99 = percentile(latencies, 99);
    return row({
      id,
      what,
      figure: p99,
      unit: 'ms',
      text: `p99 ${duration(p99)}, p50 ${duration(percentile(latencies, 50))} (${count} searches, each after a write)`,
      goal,
      details: { latencies },
    });
  } catch (error) {
    return failed(id, what, error, goal);
  }
}

/**
 * How long the event loop is held by the first request of a sort not used before (its index built
 * over every workspace): health checks sent every 5 ms while it runs; the longest one answered.
 * @param {Awaited<ReturnType<typeof startMock>>} mock
 * @param {Record<string, string>} headers
 */
async function firstSortBlock(mock, headers) {
  const what = 'longest health check while the first search of a new three-key sort runs (its index built)';
  const goal = atMost(50, ' ms');
  try {
    const health = [];
    let running = true;
    const checks = (async () => {
      while (running) {
        const t0 = performance.now();
        await fetch(`${mock.url}/v2/health`).then((res) => res.arrayBuffer());
        health.push(performance.now() - t0);
        await sleep(5);
      }
    })();
    await sleep(20);
    const t0 = performance.now();
    const answer = await fetchOnce(`${mock.url}/v2/workspaces/search?pageSize=100`, {
      method: 'POST',
      headers,
      body: {
        sort: [{ repository: { order: -1 } }, { terraformVersion: { order: 1 } }, { ciTool: { order: -1 } }],
      },
    });
    const searchMs = performance.now() - t0;
    running = false;
    await checks;
    if (answer.status !== 200) throw new Error(`the search answered ${answer.status}`);
    const longest = Math.max(...health);
    return row({
      id,
      what,
      figure: longest,
      unit: 'ms',
      text: `longest ${duration(longest)} of ${health.length} health checks; the search took ${duration(searchMs)}`,
      goal,
      details: { health, searchMs },
    });
  } catch (error) {
    return failed(id, what, error, goal);
  }
}

/**
 * Whether a request whose client has gone is still computed to the end: the server's CPU time from
 * the moment the client left (read then by a worker thread in the server, probe.mjs, so that the
 * reading does not wait for the busy main thread), against the CPU time of the same request
 * answered. Each phase is a window of the same length with one health check in it; the idle window's
 * CPU (the health check, timers) is subtracted from the others.
 * @param {import('./main.mjs').Context} ctx
 * @param {Awaited<ReturnType<typeof startMock>>} mock
 * @param {Record<string, string>} headers
 * @param {import('./lib/load.mjs').LoadResult | undefined} slow
 */
async function abandoned(ctx, mock, headers, slow) {
  const what = 'a request whose client has gone (event searchText matching nothing, client leaves early)';
  const goal = { op: '<=', value: 0.25, text: 'stops (< 25% of its CPU)' };
  try {
    const query = QUERIES.find((q) => q.key === 'eventsNothing');
    const fullMs = slow?.p50Ms ?? 1000;
    const leaveAfter = Math.max(1, Math.min(20, fullMs / 4));
    const window = Math.max(300, 3 * fullMs);
    const { cpuPort } = await mock.stats();
    if (cpuPort === undefined) throw new Error("the mock's CPU worker (probe.mjs) did not start");
    const cpu = async () => Number(await (await fetch(`http://127.0.0.1:${cpuPort}/`)).text());
    const health = async () => {
      const h0 = performance.now();
      await fetch(`${mock.url}/v2/health`);
      return performance.now() - h0;
    };
    const idle = [];
    const answered = [];
    const left = [];
    const healthMs = [];
    const tries = ctx.smoke ? 1 : 5;
    for (let i = 0; i < tries; i++) {
      let c0 = await cpu();
      let t0 = performance.now();
      await health();
      await sleep(Math.max(0, window - (performance.now() - t0)));
      idle.push((await cpu()) - c0);
      c0 = await cpu();
      const answer = await fetchOnce(`${mock.url}${query.path}`, {
        method: 'POST',
        headers,
        body: query.body,
      });
      if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
      answered.push((await cpu()) - c0);
      await sleep(window);
      await sendAndLeave(`${mock.url}${query.path}`, headers, query.body, leaveAfter);
      c0 = await cpu();
      t0 = performance.now();
      healthMs.push(await health());
      await sleep(Math.max(0, window - (performance.now() - t0)));
      left.push((await cpu()) - c0);
    }
    const idleMs = median(idle);
    const answeredMs = Math.max(0.1, median(answered));
    const afterLeaving = Math.max(0, median(left) - idleMs);
    const share = afterLeaving / answeredMs;
    return row({
      id,
      what,
      figure: share,
      unit: 'x',
      text:
        `server CPU after the client left: ${duration(afterLeaving)} of the ${duration(answeredMs)} an answered one takes ` +
        `(${Math.round(share * 100)}%); a health check sent then waited ${duration(median(healthMs))}`,
      goal,
      details: {
        leaveAfterMs: leaveAfter,
        windowMs: window,
        idleCpuMs: idle,
        answeredCpuMs: answered,
        abandonedCpuMs: left,
        healthMs,
      },
    });
  } catch (error) {
    return failed(id, what, error, goal);
  }
}
