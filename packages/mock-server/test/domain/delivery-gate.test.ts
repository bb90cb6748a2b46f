/**
 * Deliveries under way are bounded (issue 34, finding 14): however many a scene's integrations and
 * its notifications start at once, at most `MAX_DELIVERIES_IN_FLIGHT` are sent at a time, the others
 * wait their turn in order and all are made; a reset drops the waiting ones unsent. Counted, not timed.
 */
import { getEventListeners } from 'node:events';
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

  it('listens to a generation once, however many turns wait on it, and drops them all when it aborts', async () => {
    const gate = new DeliveryGate(1);
    const generation = new AbortController();
    expect(await gate.enter(generation.signal)).toBe(true);
    const waiting = Array.from({ length: 500 }, () => gate.enter(generation.signal));
    // One listener for 500 turns (one each would make Node warn past ten, MaxListenersExceededWarning).
    expect(getEventListeners(generation.signal, 'abort')).toHaveLength(1);
    expect(gate.waiting).toBe(500);
    generation.abort();
    expect(await Promise.all(waiting)).toEqual(Array.from({ length: 500 }, () => false));
    // The turn under way hands on to nobody: the gate is free again.
    gate.leave();
    expect(gate.open).toBe(0);
  });

  it('gives attempts under way one shared turn of the event loop once its slice is spent', async () => {
    // Slices the test ends itself (never by the clock).
    const slices: Array<{ over: boolean }> = [];
    const gate = new DeliveryGate(4, () => {
      const made = { over: false };
      slices.push(made);
      return { spent: () => made.over };
    });
    expect(gate.turn()).toBeUndefined();
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    (slices.at(-1) as { over: boolean }).over = true;
    const first = gate.turn();
    expect(first).toBeInstanceOf(Promise);
    expect(gate.turn()).toBe(first);
    await first;
    // A turn of the event loop went by, and the attempts go on in a new slice.
    expect(turned).toBe(true);
    expect(slices).toHaveLength(2);
    expect(gate.turn()).toBeUndefined();
  });
});
