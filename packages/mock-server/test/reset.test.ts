/**
 * `reset()` and `POST /__mock/reset` put every part of a mock's state back to how it started, so the
 * mock behaves exactly like a fresh one made with the same options. Every part a reset restores has a
 * case below (`cases`, keyed by the core's `resetStages`): a new piece of state adds its part to the
 * core's list, and the first test fails until it gets a case here too.
 */
import { describe, expect, it } from 'vitest';
import { MockCore, type MockOptions } from '../src/app/mock.js';
import type { MockResponse } from '../src/http/message.js';
import { expectError } from './helpers.js';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0, 0);
const START_LIMIT = 8;

/** A mock whose webhook endpoint answers `webhookStatus` (200 by default), counting its calls. */
function makeMock(extra: Partial<MockOptions> = {}) {
  const webhook = { status: 200, calls: 0 };
  const options: MockOptions = {
    seed: 5,
    sizes: { accounts: 2, workspaces: 12, events: 40, rules: 4, stacks: 6 },
    clock: () => T0,
    rateLimit: { limit: START_LIMIT, windowSeconds: 60 },
    deliveryPolicy: { attempts: 2, baseDelayMs: 100, timeoutMs: 5000 },
    webhookFetch: async () => {
      webhook.calls += 1;
      return new Response(null, { status: webhook.status });
    },
    ...extra,
  };
  const core = new MockCore(options);
  const call = (
    method: string,
    path: string,
    init: { body?: unknown; token?: string; client?: string } = {},
  ): Promise<MockResponse> =>
    core.handle({
      method,
      path,
      headers: {
        'content-type': 'application/json',
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      ...(init.client ? { clientAddress: init.client } : {}),
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
  const login = async (account = core.accounts()[0]): Promise<string> => {
    const res = await call('POST', '/v2/login', {
      body: { accessKey: account?.accessKey, secretKey: account?.secretKey },
      client: 'login',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body as { accessToken: string }).accessToken;
  };
  return { core, call, login, webhook };
}

type Mock = ReturnType<typeof makeMock>;

/** How many requests of one client address are accepted before a 429 (at most START_LIMIT + 1 tried). */
async function acceptedBeforeLimit(m: Mock, client: string): Promise<number> {
  for (let n = 0; n <= START_LIMIT; n++) {
    const res = await m.call('GET', '/v2/health', { client });
    if (res.status === 429) return n;
  }
  return START_LIMIT + 1;
}

const costRule = {
  createdBy: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  name: 'Reset me',
  type: 'cost',
  scope: {
    workspaces: { include: ['*'], exclude: [] },
    repositories: { include: [], exclude: [] },
    branches: { include: [], exclude: [] },
    labels: { include: [], exclude: [] },
  },
  criteria: { cost: { thresholdAmount: 1 } },
  severity: 2,
};

interface StageCase {
  /** Changes this part of the state through the API and the control plane (over HTTP). */
  change(m: Mock, token: string): Promise<void>;
  /** What this part looks like; equal to a fresh mock's after a reset, different after `change`. */
  observe(m: Mock): Promise<unknown>;
}

/** One case per part of the state that reset restores, in the core's order. */
const cases: Record<string, StageCase> = {
  data: {
    change: async (m, token) => {
      const [workspace] = (await m.core.control.getState()).accounts[0]?.workspaces ?? [];
      const stack = (await m.core.control.getState()).accounts[0]?.stacks[0];
      expect((await m.call('DELETE', `/v2/workspaces/${workspace?.id}`, { token })).status).toBe(200);
      expect((await m.call('POST', '/v2/guardrails', { token, body: costRule })).status).toBe(200);
      const [other] = (await m.core.control.getState()).accounts[0]?.workspaces ?? [];
      const run = await m.call('POST', `/__mock/workspaces/${other?.id}/runs`, { body: {} });
      expect(run.status).toBe(201);
      const finding = await m.call('POST', `/__mock/stacks/${stack?.id}/findings`, {
        body: { kind: 'Drift', name: 'bucket' },
      });
      expect(finding.status).toBe(201);
      expect(
        (await m.call('POST', '/__mock/notifications', { body: { notificationType: 'Drift' } })).status,
      ).toBe(202);
      await m.core.control.flushDeliveries();
    },
    // The records, the outboxes, and what the next simulated run gets (ids, build number, events).
    observe: async (m) => {
      const state = await m.core.control.getState();
      const outbox = m.core.control.outbox();
      const [workspace] = state.accounts[0]?.workspaces ?? [];
      const simulated = m.core.control.simulateRun(workspace?.id as string, { branch: 'main' });
      return { state, outbox, simulated };
    },
  },
  webhooks: {
    change: async (m) => {
      const created = await m.call('POST', '/__mock/integrations/webhook', {
        body: { nickname: 'hook', url: 'https://hooks.example.test/in' },
      });
      expect(created.status).toBe(201);
      await m.call('POST', '/__mock/notifications', { body: { notificationType: 'GhostResource' } });
      await m.call('POST', '/__mock/deliveries/flush');
      const policy = await m.call('PUT', '/__mock/deliveries/policy', { body: { attempts: 9 } });
      expect(policy.body).toMatchObject({ attempts: 9 });
    },
    // The integrations, the recorded attempts, the policy, then what a new integration's delivery records.
    observe: async (m) => {
      const seen = {
        integrations: m.core.control.webhooks.list(),
        deliveries: m.core.control.webhooks.deliveries(),
        policy: m.core.control.webhooks.setPolicy({}),
      };
      m.webhook.status = 200;
      const created = await m.core.control.webhooks.create({
        nickname: 'probe',
        url: 'https://hooks.example.test/p',
      });
      m.core.control.notify({ notificationType: 'Drift' });
      await m.core.control.flushDeliveries();
      return {
        ...seen,
        next: m.core.control.webhooks.deliveries(created.id).map((d) => [d.id, d.integrationId]),
      };
    },
  },
  journal: {
    change: async (m) => {
      await m.call('GET', '/v2/health', { client: 'journal' });
    },
    // The journal, then the entry (request id, time) of the next request.
    observe: async (m) => {
      const before = m.core.control.journal();
      const res = await m.call('GET', '/v2/health', { client: 'observer' });
      return { before, next: res.headers['x-request-id'], after: m.core.control.journal() };
    },
  },
  faults: {
    change: async (m) => {
      const res = await m.call('POST', '/__mock/faults', {
        body: { path: '/v2/modules*', status: 503, times: 3 },
      });
      expect(res.status).toBe(201);
    },
    // The waiting faults, and the id the next fault gets (removed again).
    observe: async (m) => {
      const waiting = m.core.control.faults();
      const next = m.core.control.addFault({ path: '/nowhere', status: 500 }).id;
      const modules = (await m.call('GET', '/v2/modules', { client: 'observer' })).status;
      return { waiting, next, modules };
    },
  },
  rateLimit: {
    change: async (m) => {
      const res = await m.call('POST', '/__mock/rate-limit', {
        body: { enabled: true, limit: 2, windowSeconds: 600 },
      });
      expect(res.body).toEqual({ enabled: true, limit: 2, windowSeconds: 600 });
      for (let i = 0; i < 3; i++) await m.call('GET', '/v2/health', { client: 'probe' });
    },
    // Under the start setting a client gets START_LIMIT requests; a limited client is accepted again.
    observe: (m) => acceptedBeforeLimit(m, 'probe'),
  },
  clock: {
    change: async (m) => {
      await m.call('POST', '/__mock/clock', { body: { advanceMs: 5000 } });
      await m.call('POST', '/__mock/clock', { body: { now: '2031-05-01T00:00:00.000Z' } });
    },
    observe: async (m) => (await m.call('GET', '/__mock/clock')).body,
  },
  // After `clock`: the clock change moves time 5 years, which would empty the throttle's window.
  loginThrottle: {
    change: async (m) => {
      const accessKey = m.core.accounts()[0]?.accessKey;
      for (let i = 0; i < 20; i++)
        expect(
          (
            await m.call('POST', '/v2/login', {
              body: { accessKey, secretKey: 'wrong' },
              client: `guess-${i}`,
            })
          ).status,
        ).toBe(401);
    },
    observe: async (m) => {
      const [a] = m.core.accounts();
      return (
        await m.call('POST', '/v2/login', {
          body: { accessKey: a?.accessKey, secretKey: a?.secretKey },
          client: 'login-observer',
        })
      ).status;
    },
  },
};

async function observeAll(m: Mock): Promise<Record<string, unknown>> {
  const seen: Record<string, unknown> = {};
  for (const [stage, c] of Object.entries(cases)) seen[stage] = await c.observe(m);
  return seen;
}

const resets: Array<[string, (m: Mock) => Promise<void>]> = [
  [
    'control.reset()',
    async (m) => {
      await m.core.control.reset();
    },
  ],
  [
    'POST /__mock/reset',
    async (m) => {
      const res = await m.call('POST', '/__mock/reset');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'reset', restored: m.core.resetStages });
    },
  ],
];

describe('reset', () => {
  it('restores exactly the parts this test covers, in order', () => {
    expect(makeMock().core.resetStages).toEqual(Object.keys(cases));
  });

  describe.each(resets)('%s', (_name, reset) => {
    it('puts every part of the state back to the start: the mock then behaves as a fresh one', async () => {
      const fresh = await observeAll(makeMock());

      const m = makeMock();
      const token = await m.login();
      for (const c of Object.values(cases)) await c.change(m, token);
      const changed = await observeAll(m);
      for (const stage of Object.keys(cases)) {
        expect(changed[stage], `${stage} should differ from the start after the change`).not.toEqual(
          fresh[stage],
        );
      }

      await reset(m);
      const after = await observeAll(m);
      for (const stage of Object.keys(cases)) expect(after[stage], stage).toEqual(fresh[stage]);

      // A token issued before the reset still works (the clock is back, the account still exists).
      const search = await m.call('POST', '/v2/workspaces/search', { token, body: {}, client: 'app' });
      expect(search.status).toBe(200);
    });

    it('empties the rate-limit counters: a client that was limited is accepted again', async () => {
      const m = makeMock();
      expect(await acceptedBeforeLimit(m, 'busy')).toBe(START_LIMIT);
      expectError(await m.call('GET', '/v2/health', { client: 'busy' }), 429, 'rate_limited');
      await reset(m);
      expect((await m.call('GET', '/v2/health', { client: 'busy' })).status).toBe(204);
    });

    it('returns to the start data after seed() and setState(); tokens of accounts gone stop working', async () => {
      const m = makeMock();
      const start = JSON.stringify(await m.core.control.getState());
      const startToken = await m.login();
      await m.call('POST', '/__mock/seed', { body: { seed: 'other', sizes: { workspaces: 3 } } });
      expect(JSON.stringify(await m.core.control.getState())).not.toBe(start);
      const otherToken = await m.login(m.core.accounts()[0]);
      await reset(m);
      expect(JSON.stringify(await m.core.control.getState())).toBe(start);
      expect((await m.call('POST', '/v2/workspaces/search', { token: startToken, body: {} })).status).toBe(
        200,
      );
      expectError(
        await m.call('POST', '/v2/workspaces/search', { token: otherToken, body: {} }),
        401,
        'unauthorized',
      );

      await m.core.control.setState(
        await new MockCore({ seed: 77, sizes: { workspaces: 2 } }).control.getState(),
      );
      expect(JSON.stringify(await m.core.control.getState())).not.toBe(start);
      await reset(m);
      expect(JSON.stringify(await m.core.control.getState())).toBe(start);
    });

    it('returns a mock started from a snapshot to that snapshot', async () => {
      const snapshot = await makeMock().core.control.getState();
      const first = snapshot.accounts[0];
      first?.workspaces.splice(1);
      // Its runs go with the workspaces (a run of no workspace is refused, as a dangling reference).
      if (first) first.runs = first.runs.filter((run) => run.workspaceId === first.workspaces[0]?.id);
      const m = makeMock({ state: snapshot });
      const token = await m.login();
      const [workspace] = snapshot.accounts[0]?.workspaces ?? [];
      expect((await m.call('DELETE', `/v2/workspaces/${workspace?.id}`, { token })).status).toBe(200);
      await reset(m);
      expect(await m.core.control.getState()).toEqual(snapshot);
    });

    it('does not create an integration whose test delivery was under way during the reset', async () => {
      let release: ((res: Response) => void) | undefined;
      const m = makeMock({
        webhookFetch: () =>
          new Promise<Response>((resolve) => {
            release = resolve;
          }),
      });
      const creating = m.core.control.webhooks.create({
        nickname: 'late',
        url: 'https://hooks.example.test/in',
      });
      await expect.poll(() => release).toBeDefined(); // the test delivery is under way
      await reset(m);
      release?.(new Response(null, { status: 200 }));
      await expect(creating).rejects.toMatchObject({ status: 409, code: 'conflict' });
      expect(m.core.control.webhooks.list()).toEqual([]);
    });

    it('stops webhook deliveries in progress: no retry is sent or recorded after it', async () => {
      const m = makeMock({ deliveryPolicy: { attempts: 5, baseDelayMs: 100, timeoutMs: 5000 } });
      await m.core.control.webhooks.create({ nickname: 'hook', url: 'https://hooks.example.test/in' });
      m.webhook.status = 503;
      const callsBefore = m.webhook.calls;
      m.core.control.notify({ notificationType: 'Drift' });
      await expect.poll(() => m.webhook.calls).toBe(callsBefore + 1);
      await reset(m);
      await m.core.control.flushDeliveries();
      // Without the cancellation, the four retries (sent at once by the flush) would all have been sent.
      expect(m.webhook.calls).toBe(callsBefore + 1);
      expect(m.core.control.webhooks.deliveries()).toEqual([]);
      expect(m.core.control.webhooks.list()).toEqual([]);
    });
  });
});
