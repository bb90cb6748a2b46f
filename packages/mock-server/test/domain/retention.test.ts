/**
 * Retention bounds: events per account, outbox entries per account, delivery attempt records and
 * waiting retries stay within their bounds at any volume, the oldest dropped first and counted; the
 * documented seed sizes still load whole.
 */
import { describe, expect, it } from 'vitest';
import { EventRecorder } from '../../src/domain/events.js';
import { DEFAULT_RETENTION, RETENTION_RANGES, toRetentionBounds } from '../../src/domain/retention.js';
import { WebhookHub } from '../../src/domain/webhooks.js';
import { Random } from '../../src/store/random.js';
import { SIZE_MAXIMA } from '../../src/store/seed/limits.js';
import { generateState } from '../../src/store/seed.js';
import { Store } from '../../src/store/store.js';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0, 0);

function world(bounds: { eventsPerAccount?: number; outboxPerAccount?: number } = {}) {
  let now = T0;
  const store = new Store(generateState({ seed: 3, sizes: { accounts: 1, workspaces: 5, events: 20 } }));
  const account = [...store.accounts.values()][0];
  if (!account) throw new Error('no account');
  const random = new Random('runtime:3');
  const checked = toRetentionBounds(bounds);
  const events = new EventRecorder(
    () => random,
    () => now,
    () => {},
    () => checked,
  );
  const record = (n: number) => {
    for (let i = 0; i < n; i++) {
      now += 1000;
      events.record(account, {
        type: 'mutation',
        mutation: 'update',
        assetId: `asset-${i}`,
        assetType: 'iacm_workspace',
        attributes: { n: i },
      });
    }
  };
  return { store, account, events, record };
}

describe('retention of events and outbox entries (L7)', () => {
  it('keeps at most eventsPerAccount events, dropping the oldest first and counting them', () => {
    const w = world({ eventsPerAccount: 50 });
    w.record(80);
    expect(w.account.events.size).toBe(50);
    expect(w.events.dropped(w.account)).toEqual({ events: 50, outbox: 0 });
    // What is left is the newest: all 50 recorded last (the 20 seeded and the first 30 recorded went).
    const kept = [...w.account.events.values()].map((e) => e.asset_id).sort();
    expect(kept).toEqual(Array.from({ length: 50 }, (_, i) => `asset-${i + 30}`).sort());
  });

  it('keeps an account loaded with more events than the bound whole, and does not let it grow', () => {
    const w = world({ eventsPerAccount: 5 });
    const loaded = w.account.events.size;
    expect(loaded).toBe(20);
    w.record(10);
    expect(w.account.events.size).toBe(loaded);
    expect(w.events.dropped(w.account).events).toBe(10);
  });

  it('keeps at most outboxPerAccount notifications, the oldest dropped first', () => {
    const w = world({ outboxPerAccount: 3 });
    const queued = Array.from({ length: 7 }, (_, i) =>
      w.events.queue(w.account, { kind: 'manual' }, {
        notificationType: 'Drift',
        accountId: w.account.account.id,
        accountName: `n${i}`,
      } as never),
    );
    expect(w.account.outbox.map((e) => e.id)).toEqual(queued.slice(-3).map((e) => e.id));
    expect(w.events.dropped(w.account)).toEqual({ events: 0, outbox: 4 });
  });

  it('has documented defaults that keep the largest seed whole', () => {
    expect(DEFAULT_RETENTION).toEqual({
      eventsPerAccount: 1_100_000,
      eventBytes: 64 * 1024 * 1024,
      outboxPerAccount: 1_000,
      deliveryAttempts: 10_000,
      waitingRetries: 10_000,
    });
    // The largest seed, and room for what a test records on top of it.
    expect(DEFAULT_RETENTION.eventsPerAccount).toBeGreaterThanOrEqual(SIZE_MAXIMA.events + 100_000);
    const w = world();
    w.record(30);
    expect(w.account.events.size).toBe(50);
  });

  it('refuses bounds outside their ranges, naming the bound, the range and what came', () => {
    expect(() => toRetentionBounds({ eventsPerAccount: 0 })).toThrow(
      /^MockOptions retention\.eventsPerAccount: expected an integer from 1 to 5000000, received 0$/,
    );
    expect(() => toRetentionBounds({ outboxPerAccount: 1.5 })).toThrow(/outboxPerAccount.*received 1\.5/);
    expect(() => toRetentionBounds({ deliveryAttempts: RETENTION_RANGES.deliveryAttempts[1] + 1 })).toThrow(
      RangeError,
    );
    expect(() => toRetentionBounds({ nope: 1 } as never)).toThrow(/retention\.nope: unknown bound/);
  });
});

describe('retention of delivery attempts and waiting retries (L7)', () => {
  function hub(retention: { deliveryAttempts?: number; waitingRetries?: number }) {
    let ids = 0;
    let posts = 0;
    const h = new WebhookHub({
      now: () => T0,
      newId: () => `int${String(++ids).padStart(21, '0')}`,
      fetch: async () => {
        posts += 1;
        return new Response(null, { status: posts === 1 ? 200 : 503 });
      },
      retention,
    });
    return { h, posts: () => posts };
  }
  const entry = (i: number) => ({
    id: `ntf_${i}`,
    createdAt: new Date(T0).toISOString(),
    source: { kind: 'manual' as const },
    payload: { notificationType: 'Drift' } as never,
  });

  it('keeps at most deliveryAttempts records, the oldest dropped first and counted', async () => {
    const { h } = hub({ deliveryAttempts: 7 });
    const integration = await h.create('a'.repeat(24), { nickname: 'x', url: 'https://h.test/' });
    h.setPolicy({ attempts: 3 });
    for (let i = 0; i < 4; i++) h.deliver(integration.accountId, entry(i));
    await h.flush();
    const attempts = h.attempts();
    expect(attempts).toHaveLength(7);
    expect(h.dropped()).toEqual({ attempts: 5, retries: 0 });
    expect(attempts.at(-1)?.id).toBe('dlv_000013'); // the test delivery, then 4 × 3 attempts
    h.clear();
    expect(h.dropped()).toEqual({ attempts: 0, retries: 0 });
  });

  it('keeps at most waitingRetries deliveries waiting, giving up the one waiting longest', async () => {
    const { h, posts } = hub({ waitingRetries: 2 });
    const integration = await h.create('a'.repeat(24), { nickname: 'x', url: 'https://h.test/' });
    for (let i = 0; i < 5; i++) h.deliver(integration.accountId, entry(i));
    await h.runDue(); // the clock stands still: every first attempt made, every retry waiting
    expect(h.waiting()).toHaveLength(2);
    expect(h.dropped().retries).toBe(3);
    await h.flush();
    // The two kept ran their 5 attempts; the three given up made their first only.
    expect(posts()).toBe(1 + 2 * 5 + 3);
  });

  it('refuses a retention bound or a policy outside its range when created', () => {
    expect(() => hub({ deliveryAttempts: 0 })).toThrow(/retention\.deliveryAttempts/);
    expect(() => new WebhookHub({ now: () => T0, newId: () => 'x', policy: { attempts: 11 } })).toThrow(
      /deliveryPolicy\.attempts: expected an integer from 1 to 10/,
    );
  });
});
