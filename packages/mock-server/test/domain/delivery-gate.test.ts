/**
 * Deliveries under way are bounded (issue 34, finding 14): however many a scene's integrations and
 * its notifications start at once, at most `MAX_DELIVERIES_IN_FLIGHT` are sent at a time, the others
 * wait their turn in order and all are made; a reset drops the waiting ones unsent. Counted, not timed.
 */
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { DeliveryGate, MAX_DELIVERIES_IN_FLIGHT } from '../../src/domain/webhooks/gate.js';

/** A `fetch` for deliveries that answers only when released, counting the requests under way. */
function heldFetch() {
  const held: Array<() => void> = [];
  const state = { calls: 0, open: 0, most: 0 };
  const fetch = ((_url: string) => {
    state.calls += 1;
    state.open += 1;
    state.most = Math.max(state.most, state.open);
    return new Promise<Response>((resolve) => {
      held.push(() => {
        state.open -= 1;
        resolve(new Response(null, { status: 200 }));
      });
    });
  }) as unknown as typeof globalThis.fetch;
  const releaseAll = () => {
    for (const release of held.splice(0)) release();
  };
  return { fetch, state, releaseAll };
}

/** A mock whose primary account has 100 webhook integrations (a scene's most). */
function mockWith(fetch: typeof globalThis.fetch) {
  const webhooks = Array.from({ length: 100 }, (_, i) => ({
    nickname: `hook-${i}`,
    url: `https://hooks.example.test/${i}`,
  }));
  return new MockCore({
    scene: { accounts: [{ webhooks }] },
    webhookFetch: fetch,
    clock: () => Date.UTC(2026, 0, 1),
  });
}

describe('deliveries under way', () => {
  it(`are at most ${MAX_DELIVERIES_IN_FLIGHT} at once; the others wait their turn and all are made`, async () => {
    const { fetch, state, releaseAll } = heldFetch();
    const core = mockWith(fetch);
    core.control.notify({ notificationType: 'Drift' });
    core.control.notify({ notificationType: 'Drift' });
    await expect.poll(() => state.calls).toBe(MAX_DELIVERIES_IN_FLIGHT);
    // Released in rounds: each round lets the next ones go, never more than the bound at once.
    while (state.calls < 200) {
      const before = state.calls;
      releaseAll();
      await expect.poll(() => state.calls).toBeGreaterThan(before);
    }
    releaseAll();
    await expect.poll(() => core.webhooks.attempts().length).toBe(200);
    expect(state.most).toBe(MAX_DELIVERIES_IN_FLIGHT);
  });

  it('drops the waiting deliveries unsent on a reset', async () => {
    const { fetch, state, releaseAll } = heldFetch();
    const core = mockWith(fetch);
    core.control.notify({ notificationType: 'Drift' });
    core.control.notify({ notificationType: 'Drift' });
    await expect.poll(() => state.calls).toBe(MAX_DELIVERIES_IN_FLIGHT);
    await core.control.reset();
    releaseAll();
    // The under-way ones end; none of the 136 waiting is sent after the reset.
    await expect.poll(() => state.open).toBe(0);
    await Promise.resolve();
    expect(state.calls).toBe(MAX_DELIVERIES_IN_FLIGHT);
  });
});

describe('DeliveryGate', () => {
  it('lets `max` through, then one per leave in order, skipping the dropped', async () => {
    const gate = new DeliveryGate(2);
    const live = new AbortController();
    const gone = new AbortController();
    const order: string[] = [];
    const go = (name: string, signal: AbortSignal) =>
      gate.enter(signal).then((ok) => {
        order.push(`${name}:${ok}`);
        return ok;
      });
    const a = go('a', live.signal);
    const b = go('b', live.signal);
    const c = go('c', gone.signal);
    const d = go('d', live.signal);
    await Promise.all([a, b]);
    expect(gate.open).toBe(2);
    expect(gate.waiting).toBe(2);
    gone.abort();
    await c;
    gate.leave(); // c was dropped: d goes
    await d;
    expect(order).toEqual(['a:true', 'b:true', 'c:false', 'd:true']);
    gate.leave();
    gate.leave();
    expect(gate.open).toBe(0);
    expect(await gate.enter(gone.signal)).toBe(false);
  });
});
