/**
 * A sliding-window counter per key, bounded: the one home of what the rate limit (per client) and the
 * login throttle (per access key) both count. Each key keeps the times of its counted events in the
 * window; a key whose window is empty is forgotten (swept once a window, amortised linear), and at
 * most `maxKeys` keys are tracked (beyond it, those with empty windows go first, then the key seen
 * least recently).
 *
 * @module
 */

/** The times of one key's counted events in the window, oldest first (`times[head]` on). */
interface Times {
  times: number[];
  head: number;
}

/** Counts events per key in a sliding window, with a bounded number of keys. */
export class WindowCounter {
  readonly #windowMs: number;
  readonly #maxKeys: number;
  /** Per key, in the order they were last seen (least recent first). */
  readonly #keys = new Map<string, Times>();
  /** When the keys were last swept of empty windows. */
  #swept = Number.NEGATIVE_INFINITY;

  /** Creates a counter over windows of `windowMs` tracking at most `maxKeys` keys (at least 1). */
  constructor(options: { windowMs: number; maxKeys: number }) {
    this.#windowMs = options.windowMs;
    this.#maxKeys = Math.max(1, options.maxKeys);
  }

  /** How many keys have events counted now. */
  get size(): number {
    return this.#keys.size;
  }

  /**
   * Counts one event of `key` at `now`, unless the key already has `limit` events in the window: then
   * nothing is counted and the answer is how long until its oldest event leaves the window, ms (at
   * least 1). `undefined` when the event was counted.
   */
  take(key: string, now: number, limit: number): number | undefined {
    if (now - this.#swept >= this.#windowMs || now < this.#swept) this.#sweep(now);
    let times = this.#keys.get(key);
    if (times) {
      expire(times, now, this.#windowMs);
      this.#keys.delete(key); // re-inserted below: the map stays in order of last use
    } else {
      times = { times: [], head: 0 };
      if (this.#keys.size >= this.#maxKeys) this.#makeRoom(now);
    }
    this.#keys.set(key, times);
    if (times.times.length - times.head >= limit) {
      const oldest = times.times[times.head] as number;
      return Math.max(1, oldest + this.#windowMs - now);
    }
    times.times.push(now);
    return undefined;
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

  /** Forgets every key whose window is empty at `now`. */
  #sweep(now: number): void {
    this.#swept = now;
    for (const [key, times] of this.#keys) {
      expire(times, now, this.#windowMs);
      if (times.head >= times.times.length) this.#keys.delete(key);
    }
  }

  /** Makes room for one more key: forgets the empty windows, else the key seen least recently. */
  #makeRoom(now: number): void {
    this.#sweep(now);
    if (this.#keys.size < this.#maxKeys) return;
    const oldest = this.#keys.keys().next();
    if (!oldest.done) this.#keys.delete(oldest.value);
  }
}

/** Drops the times that left the window ending at `now`; compacts the list when half of it is dropped. */
function expire(times: Times, now: number, windowMs: number): void {
  while (times.head < times.times.length && (times.times[times.head] as number) <= now - windowMs)
    times.head += 1;
  if (times.head > 32 && times.head * 2 >= times.times.length) {
    times.times = times.times.slice(times.head);
    times.head = 0;
  }
}
