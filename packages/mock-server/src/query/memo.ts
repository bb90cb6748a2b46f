/**
 * A bounded memo of values computed from strings: the one home of "remember what was computed for the
 * last few keys" (the glob matcher's split patterns, the version sort keys). It keeps at most
 * `maxEntries` values, and only for keys of at most `maxKeyLength` characters, so that what it holds
 * stays small whatever strings come from user input; when full it starts afresh (the entries are
 * cheap to compute again, and clearing keeps every call O(1) with no bookkeeping per entry).
 *
 * @module
 */

/** Remembers computed values for at most `maxEntries` keys of at most `maxKeyLength` characters. */
export class Memo<V extends object | string> {
  readonly #entries = new Map<string, V>();
  readonly #maxEntries: number;
  readonly #maxKeyLength: number;

  /** A memo of at most `maxEntries` values, each for a key of at most `maxKeyLength` characters. */
  constructor(options: { maxEntries: number; maxKeyLength: number }) {
    this.#maxEntries = options.maxEntries;
    this.#maxKeyLength = options.maxKeyLength;
  }

  /** How many values it holds now (at most `maxEntries`). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The value for `key`: the remembered one, or `compute(key)`, remembered when the key is short
   * enough (the memo is emptied first when it is full).
   */
  get(key: string, compute: (key: string) => V): V {
    const known = this.#entries.get(key);
    if (known !== undefined) return known;
    const value = compute(key);
    if (key.length <= this.#maxKeyLength) {
      if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
      this.#entries.set(key, value);
    }
    return value;
  }
}
