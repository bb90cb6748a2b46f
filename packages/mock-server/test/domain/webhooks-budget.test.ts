/**
 * Webhooks charge the memory budget: integrations and deliveries under way to `webhooks` (a create
 * or an edit past it is a 409 `budget_exceeded` naming the store, before anything is sent or
 * changed; a delivery past it is not made, and is recorded as a failed attempt saying why, never an
 * error), attempt records to `attempts` (the oldest dropped first, never an error); what goes gives
 * its bytes back, and a clear or reset gives back everything. Counted, never timed: the mock's clock
 * stands still.
 */
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../src/domain/events.js';
import { AttemptLog, attemptBytes } from '../../src/domain/webhooks/attempt-log.js';
import { BUDGET_DROPPED_ERROR, WebhookHub } from '../../src/domain/webhooks/hub.js';
import { integrationBytes } from '../../src/domain/webhooks/integrations.js';
import { deliveryBytes } from '../../src/domain/webhooks/queue.js';
import { MemoryBudget } from '../../src/store/budget.js';
import { rejection } from '../helpers.js';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0, 0);
const ACCOUNT = 'a'.repeat(24);
const BODY = { nickname: 'ops', url: 'https://hooks.test/iacm' };

/**
 * A hub on a clock standing still at T0, charging a budget of `limit` bytes (its attempt records: a
 * budget of their own when `separateAttempts`); `status` answers each POST.
 */
function world(
  limit = Number.POSITIVE_INFINITY,
  status: (n: number) => number = () => 200,
  separateAttempts = false,
) {
  const budget = new MemoryBudget(limit);
  const webhooks = budget.ledger('webhooks');
  const attempts = (separateAttempts ? new MemoryBudget(Number.POSITIVE_INFINITY) : budget).ledger(
    'attempts',
  );
  let ids = 0;
  let posts = 0;
  const hub = new WebhookHub({
    now: () => T0,
    newId: () => `int${String(++ids).padStart(21, '0')}`,
    fetch: async () => {
      posts += 1;
      return new Response(null, { status: status(posts) });
    },
    ledgers: { webhooks, attempts },
  });
  return { budget, webhooks, attempts, hub, posts: () => posts, ids: () => ids };
}

const entry = (i: number): OutboxEntry => ({
  id: `ntf_${i}`,
  createdAt: new Date(T0).toISOString(),
  source: { kind: 'manual' },
  payload: { notificationType: 'Drift', accountId: ACCOUNT, accountName: `n${i}` } as OutboxEntry['payload'],
});

describe('webhook integrations and the memory budget', () => {
  it('charges each integration its measure, and gives it back when it is removed', async () => {
    const w = world();
    const created = await w.hub.create(ACCOUNT, BODY);
    expect(w.webhooks.held).toBe(integrationBytes(ACCOUNT, BODY, undefined));
    await w.hub.update(created.id, { nickname: 'n'.repeat(200) });
    expect(w.webhooks.held).toBe(
      integrationBytes(ACCOUNT, { ...BODY, nickname: 'n'.repeat(200) }, undefined),
    );
    await w.hub.update(created.id, { replaceCredentials: true, credentials: { authorization: 'Bearer x' } });
    expect(w.webhooks.held).toBeGreaterThan(
      integrationBytes(ACCOUNT, { ...BODY, nickname: 'n'.repeat(200) }, undefined),
    );
    w.hub.remove(created.id);
    expect(w.webhooks.held).toBe(0);
  });

  it('refuses a create past the budget with a 409 naming webhooks: no id drawn, nothing sent or stored', async () => {
    const one = integrationBytes(ACCOUNT, BODY, undefined);
    const w = world(one + one / 2);
    await w.hub.create(ACCOUNT, BODY);
    const [ids, posts] = [w.ids(), w.posts()];
    const error = await rejection(w.hub.create(ACCOUNT, BODY));
    expect([error.status, error.code]).toEqual([409, 'budget_exceeded']);
    expect(error.message).toMatch(
      /^webhooks \(the webhook integrations and deliveries under way\) would take/,
    );
    expect([w.ids(), w.posts()]).toEqual([ids, posts]);
    expect(w.hub.list()).toHaveLength(1);
    expect(w.webhooks.held).toBe(one);
  });

  it('gives a create’s charge back when its test delivery fails', async () => {
    const w = world(Number.POSITIVE_INFINITY, () => 500);
    expect((await rejection(w.hub.create(ACCOUNT, BODY))).status).toBe(422);
    expect(w.webhooks.held).toBe(0);
  });

  it('refuses an edit that grows past the budget with a 409, the integration unchanged', async () => {
    const one = integrationBytes(ACCOUNT, BODY, undefined);
    const w = world(one + 100);
    const created = await w.hub.create(ACCOUNT, BODY);
    const error = await rejection(w.hub.update(created.id, { nickname: 'n'.repeat(256) }));
    expect([error.status, error.code]).toEqual([409, 'budget_exceeded']);
    expect(w.hub.list()[0]?.nickname).toBe('ops');
    expect(w.webhooks.held).toBe(one);
  });
});

describe('webhook deliveries and the memory budget', () => {
  it('charges a delivery while it is under way, and gives it back when it ends', async () => {
    // The test delivery passes; every delivery after answers 503 (retried).
    const w = world(Number.POSITIVE_INFINITY, (n) => (n === 1 ? 200 : 503));
    await w.hub.create(ACCOUNT, BODY);
    const integration = w.webhooks.held;
    w.hub.setPolicy({ attempts: 2 });
    expect(w.hub.deliver(ACCOUNT, entry(1))).toBe(0);
    await w.hub.runDue(); // the first attempt made; the retry waits for the clock
    expect(w.hub.waiting()).toHaveLength(1);
    expect(w.webhooks.held).toBe(integration + deliveryBytes(entry(1)));
    await w.hub.flush(); // the retry made: given up
    expect(w.webhooks.held).toBe(integration);
  });

  it('drops a delivery past the budget without failing the caller, recording it as a failed attempt', async () => {
    const one = integrationBytes(ACCOUNT, BODY, undefined);
    // The attempt records apart, so that the budget is full of the webhooks' own bytes alone.
    const w = world(one + deliveryBytes(entry(1)) + 100, (n) => (n === 1 ? 200 : 503), true);
    await w.hub.create(ACCOUNT, BODY);
    const posts = w.posts();
    expect(w.hub.deliver(ACCOUNT, entry(1))).toBe(0);
    await w.hub.runDue(); // waiting for its retry: still under way
    expect(w.hub.deliver(ACCOUNT, entry(2))).toBe(1);
    await w.hub.runDue();
    expect(w.posts()).toBe(posts + 1);
    const dropped = w.hub.attempts().filter((a) => a.notificationId === 'ntf_2');
    expect(dropped).toEqual([
      expect.objectContaining({ outcome: 'failed', status: 0, error: BUDGET_DROPPED_ERROR, attempt: 1 }),
    ]);
    expect(w.hub.list()[0]?.status).toBe('active');
    expect(w.webhooks.held).toBe(one + deliveryBytes(entry(1)));
  });

  it('gives back everything on clear and on reset', async () => {
    const w = world(Number.POSITIVE_INFINITY, (n) => (n === 1 ? 200 : 503));
    await w.hub.create(ACCOUNT, BODY);
    w.hub.deliver(ACCOUNT, entry(1));
    await w.hub.runDue();
    expect(w.webhooks.held).toBeGreaterThan(0);
    expect(w.attempts.held).toBeGreaterThan(0);
    w.hub.clear();
    expect([w.webhooks.held, w.attempts.held]).toEqual([0, 0]);
    // An attempt of the cleared generation that ends later gives back nothing more.
    await w.hub.flush();
    expect(w.budget.used).toBe(0);
    w.hub.install(ACCOUNT, BODY);
    expect(w.webhooks.held).toBe(integrationBytes(ACCOUNT, BODY, undefined));
    w.hub.reset();
    expect(w.budget.used).toBe(0);
  });
});

describe('the attempt log and the memory budget', () => {
  const attempt = (i: number) => ({
    integrationId: 'int_1',
    notificationId: `ntf_${String(i).padStart(3, '0')}`,
    kind: 'Drift',
    attempt: 1,
    time: new Date(T0).toISOString(),
    status: 503,
    durationMs: 1,
    outcome: 'failed' as const,
    headers: { 'content-type': 'application/json' },
  });

  it('evicts the oldest records past the budget, keeps the newest, and never throws', () => {
    const per = attemptBytes({ id: 'dlv_000001', ...attempt(1) });
    const budget = new MemoryBudget(per * 3 + per / 2);
    const ledger = budget.ledger('attempts');
    const log = new AttemptLog(1000, ledger);
    for (let i = 1; i <= 10; i++) log.record(attempt(i), true);
    expect(log.list().map((a) => a.notificationId)).toEqual(['ntf_008', 'ntf_009', 'ntf_010']);
    expect(log.dropped).toBe(7);
    expect(ledger.held).toBe(3 * per);
    expect(ledger.held).toBeLessThanOrEqual(budget.limit);
    // The count bound gives back what it drops too.
    const bounded = new AttemptLog(2, budget.ledger('attempts'));
    log.clear();
    for (let i = 1; i <= 5; i++) bounded.record(attempt(i), true);
    expect(budget.used).toBe(2 * per);
    bounded.reset();
    expect(budget.used).toBe(0);
  });

  it('does not keep a record when dropping every kept one would not make room', () => {
    const per = attemptBytes({ id: 'dlv_000001', ...attempt(1) });
    const budget = new MemoryBudget(per * 3);
    const log = new AttemptLog(1000, budget.ledger('attempts'));
    log.record(attempt(1), true);
    budget.ledger('data').charge(per * 2);
    const big = { ...attempt(2), error: 'e'.repeat(2000) };
    expect(log.record(big, true).id).toBe('dlv_000002');
    expect(log.list().map((a) => a.notificationId)).toEqual(['ntf_001']);
    expect(log.dropped).toBe(1);
  });
});
