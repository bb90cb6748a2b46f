/** The state of a {@link Random}: four 32-bit words. */
export type RandomState = readonly [number, number, number, number];

/**
 * A small, fast, seeded pseudo-random generator (sfc32 seeded through a string hash), so the same
 * seed always yields the same data, on every platform.
 */
export class Random {
  /**
   * The four state words, as 32-bit integers in a typed array: every step is 32-bit arithmetic, so
   * no step allocates (numbers in object fields above 2^30 would be boxed on the heap, and the seed
   * draws tens of millions of numbers).
   */
  readonly #s = new Int32Array(4);

  /** Creates a generator from a numeric or string seed. */
  constructor(seed: number | string) {
    let h = 1779033703 ^ String(seed).length;
    const text = String(seed);
    for (let i = 0; i < text.length; i++) {
      h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
      h = (h << 13) | (h >>> 19);
    }
    const next = () => {
      h = Math.imul(h ^ (h >>> 16), 2246822507);
      h = Math.imul(h ^ (h >>> 13), 3266489909);
      h ^= h >>> 16;
      return h >>> 0;
    };
    const s = this.#s;
    s[0] = next();
    s[1] = next();
    s[2] = next();
    s[3] = next();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** The generator's state: four 32-bit words (what {@link Random.fromState} takes back). */
  state(): RandomState {
    const s = this.#s;
    return [(s[0] as number) >>> 0, (s[1] as number) >>> 0, (s[2] as number) >>> 0, (s[3] as number) >>> 0];
  }

  /** Writes the four words of {@link state} into `out` at `at` (as 32-bit integers: `>>> 0` reads them back). */
  saveState(out: Int32Array, at: number): void {
    out.set(this.#s, at);
  }

  /** A generator that continues exactly where the one whose {@link state} this is stood. */
  static fromState(state: RandomState): Random {
    const rng = new Random(0);
    rng.#s.set(state);
    return rng;
  }

  /** A float in [0, 1). */
  next(): number {
    // sfc32, in 32-bit integer arithmetic (the words are kept modulo 2^32).
    const s = this.#s;
    const a = s[0] as number;
    const b = s[1] as number;
    const c = s[2] as number;
    const d = ((s[3] as number) + 1) | 0;
    s[0] = b ^ (b >>> 9);
    s[1] = (c + (c << 3)) | 0;
    s[3] = d;
    const t = (((a + b) | 0) + d) | 0;
    s[2] = (((c << 21) | (c >>> 11)) + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `count` distinct elements of a list (fewer when the list is shorter), in list order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const chosen = new Set<number>();
    const n = Math.min(count, items.length);
    while (chosen.size < n) chosen.add(Math.floor(this.next() * items.length));
    return [...chosen].sort((x, y) => x - y).map((i) => items[i] as T);
  }

  /** `length` lower-case hexadecimal digits. */
  hex(length: number): string {
    let out = '';
    while (out.length < length)
      out += Math.floor(this.next() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return out.slice(0, length);
  }

  /** A lower-case version-4 UUID. */
  uuid(): string {
    const h = this.hex(32);
    const variant = ((Number.parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}
