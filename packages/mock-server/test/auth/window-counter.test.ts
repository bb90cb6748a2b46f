/**
 * The sliding-window counter of the rate limit and the login throttle: every boundary of the window,
 * the limit and the table of keys (issue 20, finding 5: a full table never forgets a key with events
 * in its window when told to refuse).
 */
import { describe, expect, it } from 'vitest';
import { WindowCounter } from '../../src/auth/window-counter.js';

describe('WindowCounter', () => {
  it('counts up to `limit` events of a key in any window, then refuses until the oldest leaves it', () => {
    const counter = new WindowCounter({ windowMs: 1000, maxKeys: 10 });
    expect(counter.count('k', 0, 3)).toEqual({ counted: true });
    expect(counter.take('k', 100, 3)).toBeUndefined();
    expect(counter.take('k', 200, 3)).toBeUndefined();
    // The limit: the oldest (at 0) leaves the window at 1000.
    expect(counter.count('k', 300, 3)).toEqual({ counted: false, reason: 'limit', waitMs: 700 });
    expect(counter.take('k', 999, 3)).toBe(1);
    // A refused event is not counted: at 1000 the event at 0 has left, one place is free.
    expect(counter.take('k', 1000, 3)).toBeUndefined();
    expect(counter.count('k', 1000, 3)).toEqual({ counted: false, reason: 'limit', waitMs: 100 });
    // Another key has its own count.
    expect(counter.take('other', 1000, 3)).toBeUndefined();
    expect(counter.size).toBe(2);
  });

  it('refuses every event with a limit under 1, remembering nothing', () => {
    const counter = new WindowCounter({ windowMs: 1000, maxKeys: 10 });
    expect(counter.count('k', 0, 0)).toEqual({ counted: false, reason: 'limit', waitMs: 1000 });
    expect(counter.size).toBe(0);
    expect(counter.take('k', 0, 1)).toBeUndefined();
    expect(counter.count('k', 10, 0)).toEqual({ counted: false, reason: 'limit', waitMs: 990 });
    // A tracked key whose window is empty, asked with a limit under 1, waits a whole window.
    expect(counter.count('k', 1500, 1)).toEqual({ counted: true });
    expect(counter.count('k', 2600, 0)).toEqual({ counted: false, reason: 'limit', waitMs: 1000 });
  });

  it('forgets the keys whose window is empty once a window has passed since it last looked', () => {
    const counter = new WindowCounter({ windowMs: 1000, maxKeys: 100 });
    for (let i = 0; i < 50; i++) counter.take(`k${i}`, i, 1);
    expect(counter.size).toBe(50);
    // At 1000 the windows of k0 (an event at 0) is empty, the others not: k0 goes.
    counter.take('late', 1000, 1);
    expect(counter.size).toBe(50);
    // Not looked again before 2000.
    counter.take('later', 1999, 1);
    expect(counter.size).toBe(51);
    // At 2000 every window but that of `later` is empty (`late`'s event at 1000 leaves it at 2000).
    counter.take('latest', 2000, 1);
    expect(counter.size).toBe(2);
    expect(counter.take('late', 2000, 1)).toBeUndefined();
    expect(counter.take('later', 2000, 1)).toBe(999);
  });

  it('looks again when the clock goes back', () => {
    const counter = new WindowCounter({ windowMs: 1000, maxKeys: 100 });
    counter.take('x', 0, 1);
    counter.take('y', 10_000, 1);
    expect(counter.size).toBe(1);
    // Back to 3000: the keys are swept (y, in the future, stays) and the next sweep is due at 4000.
    counter.take('z', 3000, 1);
    expect(counter.size).toBe(2);
    counter.take('w', 3999, 1);
    expect(counter.size).toBe(3);
    counter.take('v', 4000, 1);
    // z's window (an event at 3000) is empty at 4000.
    expect(counter.size).toBe(3);
    expect(counter.take('z', 4000, 1)).toBeUndefined();
  });

  it('keeps the keys in the order of their latest counted event: a refused event does not move its key', () => {
    const counter = new WindowCounter({ windowMs: 1000, maxKeys: 2 });
    counter.take('a', 0, 1);
    counter.take('b', 1, 5);
    // `a` is at its limit: refused, so it stays first (its latest counted event is at 0).
    expect(counter.take('a', 2, 1)).toBe(998);
    // A new key evicts the first: `a`, whose count starts again.
    expect(counter.take('c', 3, 5)).toBeUndefined();
    expect(counter.size).toBe(2);
    expect(counter.take('a', 4, 1)).toBeUndefined();
    // That evicted `b` (latest 1), not `c` (latest 3), which still has its event.
    expect(counter.count('c', 5, 1)).toEqual({ counted: false, reason: 'limit', waitMs: 998 });
    // The next new key evicts `c`, not `a` (latest 4).
    expect(counter.take('b', 6, 5)).toBeUndefined();
    expect(counter.take('a', 7, 1)).toBe(997);
    expect(counter.take('c', 8, 1)).toBeUndefined();
  });

  it("with whenFull 'refuse', never forgets a key with events in its window to make room", () => {
    const counter = new WindowCounter({ windowMs: 1000, maxKeys: 2, whenFull: 'refuse' });
    counter.take('a', 0, 5);
    counter.take('b', 100, 5);
    counter.take('a', 200, 5);
    // Full: the first key is `b` (latest 100), whose window empties at 1100.
    expect(counter.count('c', 300, 5)).toEqual({ counted: false, reason: 'full', waitMs: 800 });
    expect(counter.count('c', 999, 5)).toEqual({ counted: false, reason: 'full', waitMs: 101 });
    expect(counter.size).toBe(2);
    // Tracked keys still count.
    expect(counter.take('b', 999, 5)).toBeUndefined();
    // Now `a` (latest 200) is first: its window empties at 1200. Before, nothing new gets in.
    expect(counter.count('c', 1199, 5)).toEqual({ counted: false, reason: 'full', waitMs: 1 });
    // At 1200 (the sweep at 1199 kept both), `a` makes way.
    expect(counter.count('c', 1200, 5)).toEqual({ counted: true });
    expect(counter.size).toBe(2);
    // `a` is new again, and now `b` (latest 999) is first.
    expect(counter.count('a', 1200, 1)).toEqual({ counted: false, reason: 'full', waitMs: 799 });
    expect(counter.take('a', 1999, 1)).toBeUndefined();
    expect(counter.size).toBe(2);
  });

  it("with whenFull 'evict' (the default), forgets the first key when every key has events in its window", () => {
    const counter = new WindowCounter({ windowMs: 1000, maxKeys: 2, whenFull: 'evict' });
    counter.take('a', 0, 1);
    counter.take('b', 1, 1);
    expect(counter.take('c', 2, 1)).toBeUndefined();
    expect(counter.take('a', 3, 1)).toBeUndefined();
    expect(counter.take('c', 3, 1)).toBe(999);
    const byDefault = new WindowCounter({ windowMs: 1000, maxKeys: 1 });
    byDefault.take('a', 0, 1);
    expect(byDefault.take('b', 1, 1)).toBeUndefined();
    expect(byDefault.take('a', 2, 1)).toBeUndefined();
  });

  it('tracks at least one key, and forgets one or every key on demand', () => {
    const counter = new WindowCounter({ windowMs: 1000, maxKeys: 0, whenFull: 'refuse' });
    expect(counter.take('a', 0, 1)).toBeUndefined();
    expect(counter.count('b', 0, 1)).toEqual({ counted: false, reason: 'full', waitMs: 1000 });
    counter.forget('a');
    expect(counter.size).toBe(0);
    expect(counter.take('b', 0, 1)).toBeUndefined();
    expect(counter.take('b', 1, 1)).toBe(999);
    counter.clear();
    expect(counter.size).toBe(0);
    expect(counter.take('b', 1, 1)).toBeUndefined();
    // After `clear`, the next event sweeps again: `b` (at 1) is still in its window at 2.
    counter.forget('b');
    counter.take('c', 2, 1);
    expect(counter.size).toBe(1);
  });

  it('drops the times that leave the window from its list once they are half of it: at most about twice `limit` per key', () => {
    const counter = new WindowCounter({ windowMs: 100, maxKeys: 10 });
    const held: number[] = [];
    for (const t of [0, 10, 20, 30, 100, 110, 120, 130]) {
      expect(counter.take('k', t, 4), `at ${t}`).toBeUndefined();
      held.push(counter.held);
    }
    // At 100 and 110 the times at 0 and 10 leave the window but stay in the list (1 of 4, 2 of 5);
    // at 120, 3 of 6 have left: the list is cut to the 3 in the window, then 120 is added.
    expect(held).toEqual([1, 2, 3, 4, 5, 6, 4, 5]);
    // A key whose times have all left keeps none once counted again.
    expect(counter.take('k', 1000, 4)).toBeUndefined();
    expect(counter.held).toBe(1);
    // Over 100,000 events, one per ms with 100 in a window, the list never passes twice the limit.
    const busy = new WindowCounter({ windowMs: 100, maxKeys: 1 });
    let most = 0;
    for (let t = 0; t < 100_000; t++) {
      busy.take('k', t, 100);
      most = Math.max(most, busy.held);
    }
    expect(most).toBeLessThanOrEqual(200);
    expect(busy.count('k', 99_999, 100)).toEqual({ counted: false, reason: 'limit', waitMs: 1 });
    expect(busy.count('k', 100_000, 100)).toEqual({ counted: true });
  });

  it('counts the held times of every key, and none of a forgotten one', () => {
    const counter = new WindowCounter({ windowMs: 1000, maxKeys: 10 });
    counter.take('a', 0, 5);
    counter.take('a', 1, 5);
    counter.take('b', 2, 5);
    expect(counter.held).toBe(3);
    counter.forget('a');
    expect(counter.held).toBe(1);
  });

  it('waits at least 1 ms, on a clock with fractions of a millisecond', () => {
    const counter = new WindowCounter({ windowMs: 1000, maxKeys: 10 });
    counter.take('k', 0.25, 1);
    expect(counter.count('k', 1000, 1)).toEqual({ counted: false, reason: 'limit', waitMs: 1 });
    expect(counter.count('k', 999.75, 1)).toEqual({ counted: false, reason: 'limit', waitMs: 1 });
    expect(counter.count('k', 1000.25, 1)).toEqual({ counted: true });
  });
});
