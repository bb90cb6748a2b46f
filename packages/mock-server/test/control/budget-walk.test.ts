/**
 * The walk over the control table: every row that writes a store (`writes`) has a sample here that
 * writes through its HTTP route, and the memory budget (`GET /__mock/budget`) must move as the row
 * declares: a row that keeps something grows the budget stores its `writes` are charged to
 * (`CONTROL_STORE_CHARGES`), a row that removes something gives bytes back, and a row that keeps
 * nothing that grows says why. A row added to the table without a sample fails here; a store whose
 * writes are not charged fails its row's sample. Counted, never timed: pending waits are cancelled.
 */
import { describe, expect, it } from 'vitest';
import { CONTROL_STORE_CHARGES, type ControlStore } from '../../src/control/declare.js';
import { CONTROL_TABLE } from '../../src/control/table.js';
import type { BudgetStore, BudgetView } from '../../src/store/budget.js';
import { setup } from '../helpers.js';

type Setup = Awaited<ReturnType<typeof setup>>;

/** How a row's sample moves the budget. */
type Sample =
  /** Keeps something: each of `stores` (budget stores, or the sessions' total) grows. */
  | {
      grows: readonly (BudgetStore | 'sessions')[];
      before?: (t: Setup) => Promise<void>;
      run: (t: Setup) => Promise<unknown>;
    }
  /** Removes something kept by `before`: what `releases` hold goes down (default: all the row's stores). */
  | {
      releases: true | readonly BudgetStore[];
      before: (t: Setup) => Promise<void>;
      run: (t: Setup) => Promise<unknown>;
    }
  /** Keeps nothing that grows, and why. */
  | { none: string };

const drained = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Starts a request that stays pending (a wait): answered once the waits are cancelled. */
function pending(t: Setup, method: string, path: string, init: Parameters<Setup['call']>[2]) {
  const answer = t.call(method, path, init);
  return drained().then(() => ({ answer }));
}

const webhook = { nickname: 'walk', url: 'https://hooks.example.test/walk' };

/** A webhook integration of the primary account; its id. */
async function integration(t: Setup): Promise<string> {
  const res = await t.call('POST', '/__mock/integrations/webhook', { body: webhook });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return (res.body as { id: string }).id;
}

const workspaceId = (t: Setup) => t.core.store.toState().accounts[0]?.workspaces[0]?.id as string;
const stackId = (t: Setup) => t.core.store.toState().accounts[0]?.stacks[0]?.id as string;
const bigWorkspaces = Array.from({ length: 400 }, (_, i) => ({ name: `walk-${i}` }));
const bigScene = { accounts: [{ workspaces: bigWorkspaces }] };
const timing = { startAfterMs: 60_000, planningMs: 60_000 };

const SAMPLES: Record<string, Sample> = {
  reset: {
    releases: true,
    before: async (t) => {
      await t.call('POST', '/__mock/faults', {
        body: { endpoint: 'workspaces.search', status: 503, times: 5 },
      });
    },
    run: (t) => t.call('POST', '/__mock/reset'),
  },
  seed: {
    grows: ['data'],
    run: (t) => t.call('POST', '/__mock/seed', { body: { seed: 2, sizes: { workspaces: 400 } } }),
  },
  setState: {
    grows: ['data'],
    run: async (t) => {
      const other = await setup({ sizes: { workspaces: 400 } });
      const state = (await other.call('GET', '/__mock/state')).body;
      return t.call('PUT', '/__mock/state', { body: state });
    },
  },
  scene: { grows: ['data'], run: (t) => t.call('POST', '/__mock/scene', { body: bigScene }) },
  play: {
    grows: ['data', 'scenario'],
    run: (t) =>
      t.call('POST', '/__mock/scenario', {
        body: {
          scene: {
            accounts: [{ workspaces: [{ name: 'walk', runs: [] }, ...bigWorkspaces.slice(1)] }],
          },
          timeline: [{ at: '+1h', labels: { workspace: 'walk', labels: ['later'] } }],
        },
      }),
  },
  createSession: { grows: ['sessions'], run: (t) => t.call('POST', '/__mock/sessions', { body: {} }) },
  sessions: {
    none: 'a listing: it only ends the sessions idle past sessions.idleMs, giving their bytes back',
  },
  endSession: {
    releases: true,
    before: async (t) => {
      await t.call('POST', '/__mock/sessions', { body: {} });
    },
    run: async (t) => {
      const [first] = (await t.call('GET', '/__mock/sessions')).body as { id: string }[];
      return t.call('DELETE', `/__mock/sessions/${first?.id}`);
    },
  },
  clearJournal: {
    releases: true,
    before: async (t) => {
      await t.call('POST', '/v2/workspaces/search', { body: {} });
    },
    run: (t) => t.call('DELETE', '/__mock/journal'),
  },
  waitFor: {
    grows: ['waits'],
    run: (t) =>
      pending(t, 'POST', '/__mock/journal/wait', {
        body: { endpoint: 'guardrails.create', match: { body: { name: 'walk' } }, timeout: 30_000 },
      }),
  },
  waitForQuery: {
    grows: ['waits'],
    run: (t) =>
      pending(t, 'GET', '/__mock/journal/wait', {
        query: { endpoint: 'guardrails.create', timeout: '30000' },
      }),
  },
  nextDelivery: {
    grows: ['waits'],
    run: (t) => pending(t, 'POST', '/__mock/deliveries/next', { body: { kind: 'Drift', timeout: 30_000 } }),
  },
  waitForRun: {
    grows: ['waits'],
    run: (t) =>
      pending(t, 'POST', '/__mock/runs/wait', {
        body: { workspaceId: workspaceId(t), status: 'apply_success', timeout: 30_000 },
      }),
  },
  nextDeliveryQuery: {
    grows: ['waits'],
    run: (t) => pending(t, 'GET', '/__mock/deliveries/next', { query: { kind: 'Drift', timeout: '30000' } }),
  },
  cancelWaits: {
    releases: true,
    before: async (t) => {
      await pending(t, 'POST', '/__mock/journal/wait', {
        body: { endpoint: 'guardrails.create', timeout: 30_000 },
      });
    },
    run: (t) => t.call('POST', '/__mock/waits/cancel', { body: { reason: 'walk' } }),
  },
  addFault: {
    grows: ['faults'],
    run: (t) => t.call('POST', '/__mock/faults', { body: { endpoint: 'workspaces.search', status: 500 } }),
  },
  clearFaults: {
    releases: true,
    before: async (t) => {
      await t.call('POST', '/__mock/faults', { body: { endpoint: 'workspaces.search', status: 500 } });
    },
    run: (t) => t.call('DELETE', '/__mock/faults'),
  },
  respond: {
    grows: ['oneOff'],
    run: async (t) => {
      const res = await t.call('POST', '/__mock/responses', {
        body: { endpoint: 'workspaces.search', status: 500 },
      });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    },
  },
  clearResponses: {
    releases: true,
    before: async (t) => {
      await t.call('POST', '/__mock/responses', { body: { endpoint: 'workspaces.search', status: 500 } });
    },
    run: (t) => t.call('DELETE', '/__mock/responses'),
  },
  setRateLimit: { none: CONTROL_STORE_CHARGES.rateLimit },
  'clock.move': {
    releases: ['timedRuns'],
    before: async (t) => {
      await t.call('POST', `/__mock/workspaces/${workspaceId(t)}/runs`, { body: { timing } });
    },
    run: (t) => t.call('POST', '/__mock/clock', { body: { advanceMs: 3_600_000 } }),
  },
  simulateRun: {
    grows: ['data'],
    run: (t) => t.call('POST', `/__mock/workspaces/${workspaceId(t)}/runs`, { body: {} }),
  },
  recordFinding: {
    grows: ['events'],
    run: (t) =>
      t.call('POST', `/__mock/stacks/${stackId(t)}/findings`, {
        body: { kind: 'Drift', name: 'walk-resource' },
      }),
  },
  notify: {
    grows: ['attempts'],
    before: async (t) => {
      await integration(t);
    },
    run: (t) => t.call('POST', '/__mock/notifications', { body: { notificationType: 'Drift' } }),
  },
  'webhooks.create': { grows: ['webhooks'], run: (t) => integration(t) },
  'webhooks.update': {
    grows: ['webhooks'],
    run: async (t) => {
      const id = await integration(t);
      const before = (await budgetOf(t)).stores.webhooks;
      const res = await t.call('PATCH', `/__mock/integrations/webhook/${id}`, {
        body: { nickname: 'walk-with-a-much-longer-nickname-than-before' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await budgetOf(t)).stores.webhooks).toBeGreaterThan(before);
    },
  },
  'webhooks.remove': {
    releases: true,
    before: async (t) => {
      await integration(t);
    },
    run: async (t) => {
      const [first] = (await t.call('GET', '/__mock/integrations/webhook')).body as { id: string }[];
      return t.call('DELETE', `/__mock/integrations/webhook/${first?.id}`);
    },
  },
  'webhooks.test': {
    grows: ['attempts'],
    before: async (t) => {
      await integration(t);
    },
    run: async (t) => {
      const [first] = (await t.call('GET', '/__mock/integrations/webhook')).body as { id: string }[];
      return t.call('POST', `/__mock/integrations/webhook/${first?.id}/test`);
    },
  },
  'webhooks.runDue': {
    none: 'sends the retries due now: attempts are charged as they are recorded (webhooks.test)',
  },
  'webhooks.setPolicy': { none: 'one setting of fixed size' },
  flushDeliveries: {
    none: 'sends what is queued: attempts are charged as they are recorded (webhooks.test)',
  },
};

/** Every row of the control table with its name (`group.member` in a group). */
function rows(): [string, { writes: readonly ControlStore[]; via?: string }][] {
  const out: [string, { writes: readonly ControlStore[]; via?: string }][] = [];
  for (const [name, value] of Object.entries(CONTROL_TABLE as Record<string, unknown>)) {
    if (value && typeof value === 'object' && 'writes' in value) out.push([name, value as never]);
    else
      for (const [member, row] of Object.entries(value as Record<string, never>))
        out.push([`${name}.${member}`, row]);
  }
  return out;
}

async function budgetOf(t: Setup): Promise<BudgetView> {
  const res = await t.call('GET', '/__mock/budget');
  expect(res.status).toBe(200);
  return res.body as BudgetView;
}

/** The bytes of a store in a view (`sessions`: what the sessions hold together). */
const bytesOf = (view: BudgetView, store: BudgetStore | 'sessions') =>
  store === 'sessions' ? (view.sessions ?? 0) : view.stores[store];

// A row that goes `via` another row's route is written through that row's sample.
const writing = rows().filter(([, row]) => row.writes.length > 0 && row.via === undefined);

describe('every control row that writes a store is charged to the memory budget', () => {
  it('has a sample for every writing row of the control table (add one for a new row)', () => {
    expect(writing.map(([name]) => name).filter((name) => !(name in SAMPLES))).toEqual([]);
    expect(Object.keys(SAMPLES).filter((name) => !writing.some(([row]) => row === name))).toEqual([]);
  });

  it.each(writing)('%s moves the budget as its writes say', async (name, row) => {
    const sample = SAMPLES[name] as Sample;
    if ('none' in sample) {
      expect(sample.none.length).toBeGreaterThan(10);
      return;
    }
    const charged = new Set<string>(
      row.writes.flatMap((store) => {
        const charges = CONTROL_STORE_CHARGES[store];
        return typeof charges === 'string' ? [] : [...charges, ...(store === 'sessions' ? ['sessions'] : [])];
      }),
    );
    const t = await setup({
      sizes: { workspaces: 10, stacks: 3, events: 20 },
      webhookFetch: async () => new Response(null, { status: 200 }),
    });
    try {
      if (sample.before) await sample.before(t);
      const before = await budgetOf(t);
      await sample.run(t);
      await drained();
      const after = await budgetOf(t);
      if ('releases' in sample) {
        // What the stores it writes hold goes down (the request itself may add to the journal).
        const released = sample.releases === true ? [...charged] : sample.releases;
        for (const store of released) expect([...charged]).toContain(store);
        const held = (view: BudgetView) =>
          released.reduce((sum, store) => sum + bytesOf(view, store as BudgetStore), 0);
        expect(held(after), `${name}: ${released.join(', ')} before ${held(before)}`).toBeLessThan(
          held(before),
        );
        return;
      }
      for (const store of sample.grows) {
        // The row declares the store it keeps in, and the budget sees it grow.
        expect([...charged], `${name} writes ${row.writes.join(', ')}`).toContain(store);
        expect(bytesOf(after, store), `${name}: ${store} before ${bytesOf(before, store)}`).toBeGreaterThan(
          bytesOf(before, store),
        );
      }
    } finally {
      await t.call('POST', '/__mock/waits/cancel', { body: { reason: 'walk done' } });
      await t.core.control.reset();
    }
  });
});
