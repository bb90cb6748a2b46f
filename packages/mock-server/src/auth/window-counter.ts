/**
 * A sliding-window counter per key, bounded: the one home of what the rate limit (per client) and the
 * login throttle (per access key) both count. Each key keeps the times of its counted events in the
 * window (at most `limit`: a refused event is not counted; older ones are dropped once they are half
 * of its list, so it holds at most about twice `limit`); a key whose window is empty is
 * forgotten (swept once a window, amortised linear), and at most `maxKeys` keys are tracked. The keys
 * are kept in the order of their latest counted event, so the first key is the one whose window
 * empties first (on a clock that does not go back).
 *
 * When a new key comes while `maxKeys` keys are tracked, the first key is forgotten if its window is
 * empty. Otherwise every tracked key still has events in its window, and `whenFull` decides:
 * - `'evict'` (the rate limit): the first key is forgotten anyway, and its count starts again;
 * - `'refuse'` (the login throttle): nothing is forgotten and the new key's event is refused until
 *   the first key's window empties, so that no sequence of events, whatever its keys, gives one key
 *   more than `limit` events in a window.
 *
 * @module
 */

/** The times of one key's counted events in the window, oldest first (`times[head]` on). */
interface Times {
  times: number[];
  head: number;
}

/** What a {@link WindowCounter} does with a new key when `maxKeys` keys with events in their window are tracked. */
export type WhenFull = 'evict' | 'refuse';

/** The outcome of {@link WindowCounter.count}. */
export type Count =
  | {
      /** The event was counted. */
      readonly counted: true;
    }
  | {
      /** The event was refused (not counted). */
      readonly counted: false;
      /**
       * Why: `'limit'`, the key has `limit` events in its window; `'full'`, the key is new and
       * `maxKeys` keys with events in their window are tracked (only with `whenFull: 'refuse'`).
       */
      readonly reason: 'limit' | 'full';
      /** How long until the event would be counted, ms (at least 1). */
      readonly waitMs: number;
    };

const COUNTED: Count = Object.freeze({ counted: true });

/** Counts events per key in a sliding window, with a bounded number of keys. */
export class WindowCounter {
  readonly #windowMs: number;
  readonly #maxKeys: number;
  /** `whenFull` is `'refuse'`. */
  readonly #refuseWhenFull: boolean;
  /** Per key, in the order of their latest counted event (earliest first). */
  readonly #keys = new Map<string, Times>();
  /** When the keys were last swept of empty windows. */
  #swept = Number.NEGATIVE_INFINITY;

  /**
   * Creates a counter over windows of `windowMs` tracking at most `maxKeys` keys (at least 1); a new
   * key past them, when every tracked key has events in its window, evicts the first (`whenFull:
   * 'evict'`, the default) or is refused (`'refuse'`).
   */
  constructor(options: { windowMs: number; maxKeys: number; whenFull?: WhenFull }) {
    this.#windowMs = options.windowMs;
    this.#maxKeys = Math.max(1, options.maxKeys);
    this.#refuseWhenFull = options.whenFull === 'refuse';
  }

  /** How many keys have events counted now. */
  get size(): number {
    return this.#keys.size;
  }

  /**
   * How many event times the counter holds, for the memory bound: at most about twice `limit` per
   * key (the times before a key's window are dropped once they are half of its list). Linear in the
   * number of keys.
   */
  get held(): number {
    let held = 0;
    for (const times of this.#keys.values()) held += times.times.length;
    return held;
  }

  /**
   * Counts one event of `key` at `now`, unless the key already has `limit` events in the window, or
   * it is new and there is no room for it (`whenFull: 'refuse'`): then nothing is counted and the
   * answer says why and how long until there is room.
   */
  count(key: string, now: number, limit: number): Count {
    // Sweep a window after the last sweep, or when the clock went back (the next is then due a window on).
    const sinceSweep = now - this.#swept;
    if (
      sinceSweep >= this.#windowMs ||
      // Stryker disable next-line EqualityOperator: equivalent (`<= 0`), a second sweep at the same instant forgets nothing more.
      sinceSweep < 0
    )
      this.#sweep(now);
    const times = this.#keys.get(key);
    if (times === undefined) return this.#countNew(key, now, limit);
    expire(times, now, this.#windowMs);
    if (times.times.length - times.head >= limit) {
      const oldest = times.times[times.head] ?? now;
      return { counted: false, reason: 'limit', waitMs: Math.max(1, oldest + this.#windowMs - now) };
    }
    this.#keys.delete(key); // re-inserted: the map stays in the order of the latest event
    times.times.push(now);
    this.#keys.set(key, times);
    return COUNTED;
  }

  /**
   * {@link count}, answered as a number: `undefined` when the event was counted, else how long until
   * it would be, ms (at least 1).
   */
  take(key: string, now: number, limit: number): number | undefined {
    const count = this.count(key, now, limit);
    return count.counted ? undefined : count.waitMs;
  }

  /** Forgets a key's events. */
  forget(key: string): void {
    this.#keys.delete(key);
  }

  /** Forgets every key. */
  clear(): void {
    this.#keys.clear();
    this.#swept = Number.NEGATIVE_INFINITY;
  }

  /** Counts the first event of a key not tracked: room is made for it, or it is refused. */
  #countNew(key: string, now: number, limit: number): Count {
    if (limit < 1) return { counted: false, reason: 'limit', waitMs: this.#windowMs };
    if (this.#keys.size >= this.#maxKeys) {
      const waitMs = this.#makeRoom(now);
      if (waitMs !== undefined) return { counted: false, reason: 'full', waitMs };
    }
    this.#keys.set(key, { times: [now], head: 0 });
    return COUNTED;
  }

  /** Forgets every key whose window is empty at `now`. */
  #sweep(now: number): void {
    this.#swept = now;
    for (const [key, times] of this.#keys) {
      expire(times, now, this.#windowMs);
      if (times.head >= times.times.length) this.#keys.delete(key);
    }
  }

  /**
   * Makes room for one more key: forgets the first key when its window is empty or `whenFull` is
   * `'evict'` (`undefined`); else leaves every key and answers how long until the first key's
   * window empties, ms (at least 1).
   */
  #makeRoom(now: number): number | undefined {
    const [key, times] = this.#keys.entries().next().value as [string, Times];
    const latest = times.times[times.times.length - 1] as number;
    const waitMs = latest + this.#windowMs - now;
    if (waitMs > 0 && this.#refuseWhenFull) return waitMs;
    this.#keys.delete(key);
    return undefined;
  }
}

/**
 * Drops the times that left the window ending at `now`: past `head`, then, once they are half of the
 * list or more, out of it (each time is copied at most once for each time dropped: amortised constant).
 */
function expire(times: Times, now: number, windowMs: number): void {
  while ((times.times[times.head] as number) <= now - windowMs) times.head += 1;
  if (times.head * 2 >= times.times.length) {
    times.times = times.times.slice(times.head);
    times.head = 0;
  }
}
