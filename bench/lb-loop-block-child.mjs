/**
 * LB's measuring process: a mock at its default options (in process, `MockCore`, as the standalone
 * server runs it), and the requests that do the most work at once, each measured by the event loop's
 * longest delay while it runs (`perf_hooks.monitorEventLoopDelay`, 1 ms resolution): how long the mock
 * held the loop in one go, which every other request, session and timer waited for. The baseline is
 * an ordinary API request (a workspace search) measured the same way in the same process.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DIST, url } from './lib/paths.mjs';
import { childMain } from './lib/processes.mjs';

/** The longest event-loop delay while `work` runs, milliseconds. */
async function longestBlock(work) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  // A turn first, so that the histogram's timer is armed before the work starts.
  await new Promise((resolve) => setImmediate(resolve));
  histogram.enable();
  try {
    await work();
    // And a few of the histogram's samples after it (a request shorter than its resolution has none).
    await new Promise((resolve) => setTimeout(resolve, 5));
  } finally {
    histogram.disable();
  }
  return histogram.max / 1e6;
}

/** Fails the benchmark on an answer that is not `status`. */
function expectStatus(res, status, what) {
  if (res.status !== status)
    throw new Error(
      `${what}: expected ${status}, received ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
    );
  return res;
}

const SCENE = {
  seed: 7,
  accounts: [{ name: 'Acme', workspaces: [{ name: 'payments-prod', runs: [] }] }],
};

await childMain(async ({ repeats }) => {
  const { MockCore } = await import(url(DIST.mock));
  const json = { 'content-type': 'application/json' };
  /** A mock at its default options (a webhook fetch that answers at once: no network). */
  const mock = async (sent = () => undefined) => {
    const webhookFetch = async () => {
      sent();
      return new Response(null, { status: 204 });
    };
    const core = new MockCore({ webhookFetch });
    const [primary] = core.accounts();
    const login = await core.handle({
      method: 'POST',
      path: '/v2/login',
      headers: json,
      body: { accessKey: primary.accessKey, secretKey: primary.secretKey },
    });
    const headers = { ...json, authorization: `Bearer ${login.body.accessToken}` };
    const send = (method, path, body, extra = {}) =>
      core.handle({ method, path, headers: { ...headers, ...extra }, body });
    return { core, send };
  };
  const cases = {
    /** An ordinary API request: the baseline. */
    'a workspace search (baseline)': async () => {
      const { send } = await mock();
      return () => send('POST', '/v2/workspaces/search', {}).then((r) => expectStatus(r, 200, 'search'));
    },
    /** Finding 13: a scenario of 10,000 simulated runs at +0ms, played, then read. */
    'a scenario of 10,000 simulated runs at +0ms (POST /__mock/scenario, then a read)': async () => {
      const { send } = await mock();
      const timeline = Array.from({ length: 10_000 }, () => ({
        at: 0,
        simulateRun: { workspace: 'payments-prod', apply: true },
      }));
      return async () => {
        expectStatus(await send('POST', '/__mock/scenario', { scene: SCENE, timeline }), 200, 'scenario');
        const progress = expectStatus(await send('GET', '/__mock/scenario'), 200, 'progress');
        if (progress.body.applied !== 10_000)
          throw new Error(
            `expected 10,000 steps applied, received ${JSON.stringify(progress.body).slice(0, 200)}`,
          );
      };
    },
    /** Finding 4: 10,000 timed runs on one workspace, and one move of the clock past all of them. */
    'a clock move over 10,000 timed runs on one workspace (POST /__mock/clock, then a read)': async () => {
      const { core, send } = await mock();
      core.control.clock.set('2026-06-01T00:00:00Z');
      const workspace = core.store.toState().accounts[0].workspaces[0].id;
      for (let i = 0; i < 10_000; i++) {
        core.control.simulateRun(workspace, {
          apply: true,
          timing: { startAfterMs: 60_000 + i, planningMs: 60_000, applyingMs: 60_000 },
        });
      }
      return async () => {
        expectStatus(await send('POST', '/__mock/clock', { advanceMs: 7_200_000 }), 200, 'clock');
        expectStatus(await send('GET', '/__mock/clock'), 200, 'read');
      };
    },
    /** Finding 14: a scene of 100 webhooks and 50 notify steps at +0ms: 5,000 deliveries. */
    'a scenario of 50 notifications to 100 webhooks at +0ms (5,000 deliveries)': async () => {
      let delivered = 0;
      let allSent;
      const done = new Promise((resolve) => {
        allSent = resolve;
      });
      const { send } = await mock(() => {
        delivered += 1;
        if (delivered === 5_000) allSent();
      });
      const webhooks = Array.from({ length: 100 }, (_, i) => ({
        nickname: `hook-${i}`,
        url: `https://hooks.example.com/${i}`,
      }));
      const scene = {
        seed: 7,
        accounts: [{ name: 'Acme', webhooks, workspaces: [{ name: 'payments-prod', runs: [] }] }],
      };
      const timeline = Array.from({ length: 50 }, () => ({
        at: 0,
        notify: { account: 'Acme', notificationType: 'Drift' },
      }));
      return async () => {
        expectStatus(await send('POST', '/__mock/scenario', { scene, timeline }), 200, 'scenario');
        expectStatus(await send('GET', '/__mock/scenario'), 200, 'progress');
        // Until every delivery is sent (they go on after the answer); a minute at most.
        let timer;
        const late = new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`${delivered} of 5,000 deliveries sent after a minute`)),
            60_000,
          );
        });
        await Promise.race([done, late]).finally(() => clearTimeout(timer));
      };
    },
    /**
     * Finding 21: a session of a seed near the largest a session's default share admits (its data
     * generated for it, not shared: a new seed each repeat), then a read in it.
     */
    'a session of 40,000 workspaces (POST /__mock/sessions, then a read in it)': async () => {
      const { send } = await mock();
      const seed = `lb-session-${Math.random()}`;
      return async () => {
        const created = expectStatus(
          await send('POST', '/__mock/sessions', {
            seed,
            sizes: { workspaces: 40_000, runsPerWorkspace: 5, events: 40_000 },
          }),
          201,
          'session',
        );
        expectStatus(
          await send('GET', '/__mock/accounts', undefined, { 'x-iacm-mock-session': created.body.id }),
          200,
          'read',
        );
      };
    },
    /** Finding 16: as many endpoint faults with 55 KB matches as the mock takes, then an API request. */
    'an API request past 1,000 faults with 55 KB matches': async () => {
      const { core, send } = await mock();
      const match = { body: { filler: 'x'.repeat(55_000) } };
      for (let i = 0; i < 1_000; i++) {
        try {
          core.control.addFault({ endpoint: 'workspaces.search', status: 503, match });
        } catch {
          break;
        }
      }
      return () => send('POST', '/v2/workspaces/search', {}).then((r) => expectStatus(r, 200, 'search'));
    },
  };
  const results = {};
  for (const [name, prepare] of Object.entries(cases)) {
    const blocks = [];
    for (let i = 0; i < repeats; i++) {
      // Each repeat on a mock of its own, set up before it is measured.
      const work = await prepare();
      blocks.push(await longestBlock(work));
    }
    results[name] = blocks;
  }
  return results;
});
