/**
 * The delivery queue's retry rule, on its own: which attempts are retried, the attempt and
 * total-time cutoffs, the seeded jitter; and the attempt log's bound and ids.
 */
import { WEBHOOK_DELIVERY_RETRIES } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DELIVERY_POLICY } from '../../src/domain/delivery-policy.js';
import { AttemptLog } from '../../src/domain/webhooks/attempt-log.js';
import { nextAttemptAt } from '../../src/domain/webhooks/queue.js';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0, 0);

/** A delivery's attempt `attempt`, first made at T0, under `policy`. */
function delivery(attempt: number, policy = DEFAULT_DELIVERY_POLICY) {
  return { target: { view: { id: 'int_1' } }, entry: { id: 'ntf_1' }, policy, firstAt: T0, attempt };
}

const answer = (status: number, retryAfterMs?: number) => ({
  status,
  delivered: status >= 200 && status < 300,
  ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
});

describe('the retry rule of the delivery queue', () => {
  it('retries no answer, 408, 429 and 5xx; never a delivery, 401, 403 or another 4xx', () => {
    for (const status of [0, 408, 429, 500, 503]) {
      expect(nextAttemptAt(delivery(1), T0, answer(status), 1), String(status)).toBeTypeOf('number');
    }
    for (const status of [200, 204, 400, 401, 403, 404, 422]) {
      expect(nextAttemptAt(delivery(1), T0, answer(status), 1), String(status)).toBeUndefined();
    }
  });

  it('stops after `attempts`, and past `maxTotalMs` after the first attempt', () => {
    const { attempts } = DEFAULT_DELIVERY_POLICY;
    expect(nextAttemptAt(delivery(attempts - 1), T0, answer(503), 1)).toBeTypeOf('number');
    expect(nextAttemptAt(delivery(attempts), T0, answer(503), 1)).toBeUndefined();
    const policy = { ...DEFAULT_DELIVERY_POLICY, maxTotalMs: 10_000 };
    // Retry-After asks 9 s: due 9 s after T0, within 10 s; asked at T0 + 2 s, due at 11 s: past it.
    expect(nextAttemptAt(delivery(1, policy), T0, answer(503, 9000), 1)).toBe(T0 + 9000);
    expect(nextAttemptAt(delivery(1, policy), T0 + 2000, answer(503, 9000), 1)).toBeUndefined();
  });

  it('jitters each backoff within the contract factor, the same for the same seed, other for another', () => {
    const [low, high] = WEBHOOK_DELIVERY_RETRIES.jitter;
    const delays = (seed: number) =>
      [1, 2, 3, 4].map((n) => (nextAttemptAt(delivery(n), T0, answer(503), seed) ?? 0) - T0);
    const first = delays(7);
    first.forEach((delay, i) => {
      const backoff = DEFAULT_DELIVERY_POLICY.baseDelayMs * 2 ** i;
      expect(delay).toBeGreaterThanOrEqual(backoff * low);
      expect(delay).toBeLessThanOrEqual(backoff * high);
    });
    expect(delays(7)).toEqual(first);
    expect(delays(8)).not.toEqual(first);
  });
});

describe('the attempt log', () => {
  const attempt = (integrationId: string) => ({
    integrationId,
    notificationId: 'ntf_1',
    kind: 'Drift',
    attempt: 1,
    time: new Date(T0).toISOString(),
    status: 503,
    durationMs: 1,
    outcome: 'failed' as const,
    headers: {},
  });

  it('keeps the newest within its bound, counts what it dropped, and numbers every attempt, kept or not', () => {
    const log = new AttemptLog(2);
    expect(log.record(attempt('a'), false).id).toBe('dlv_000001');
    for (const id of ['a', 'b', 'a']) log.record(attempt(id), true);
    expect(log.list().map((a) => [a.id, a.integrationId])).toEqual([
      ['dlv_000003', 'b'],
      ['dlv_000004', 'a'],
    ]);
    expect(log.list('a').map((a) => a.id)).toEqual(['dlv_000004']);
    expect(log.dropped).toBe(1);
    log.clear();
    expect([log.list(), log.dropped]).toEqual([[], 0]);
    expect(log.record(attempt('a'), true).id).toBe('dlv_000005');
    log.reset();
    expect(log.record(attempt('a'), true).id).toBe('dlv_000001');
  });
});
