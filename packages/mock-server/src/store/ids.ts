/**
 * The object id: one generator for every id of the mock, seeded records and records created through
 * the API alike. Ids are built as flat strings (cheap to keep a million of).
 *
 * - Record ids are 24-hex, shaped like MongoDB object ids: 8 hex digits of the record's creation
 *   second, 8 random hex digits, and 8 hex digits of a counter XOR a per-factory mask (a bijection,
 *   so one factory never repeats an id).
 * - UUIDs are lower-case version-4 UUIDs whose random digits come from the PRNG and whose last 8
 *   digits carry a counter the same way, so they are unique within the factory by construction.
 *
 * @module
 */
import type { Random } from './random.js';

const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/** Writes `count` hex digits of `value` (most significant first) into `codes` at `at`. */
function writeHex(codes: number[], at: number, value: number, count: number): void {
  let rest = value;
  for (let i = at + count - 1; i >= at; i--) {
    codes[i] = HEX_CODES[rest & 15] as number;
    rest >>>= 4;
  }
}

/** 32 random bits. */
export function word(rng: Random): number {
  return Math.floor(rng.next() * 0x100000000);
}

/** The state of an {@link IdFactory}: its mask and its two counters. */
export interface IdState {
  /** The per-factory mask the counters are XORed with. */
  readonly mask: number;
  /** Object ids made so far. */
  readonly objects: number;
  /** UUIDs made so far. */
  readonly uuids: number;
}

/** Object ids and UUIDs from a seeded generator (see the module's comment). */
export class IdFactory {
  #objects = 0;
  #uuids = 0;
  readonly #mask: number;
  readonly #id: number[] = new Array<number>(24).fill(48);
  readonly #uuid: number[] = new Array<number>(36).fill(45);
  readonly #mutation: number[] = Array.from('mut-000000000000', (c) => c.charCodeAt(0));

  constructor(rng: Random) {
    this.#mask = word(rng);
  }

  /** The factory's state: its mask and counters (what {@link IdFactory.fromState} takes back). */
  state(): IdState {
    return { mask: this.#mask, objects: this.#objects, uuids: this.#uuids };
  }

  /** Writes the two counters of {@link state} (objects, then UUIDs) into `out` at `at`. */
  saveCounters(out: Float64Array, at: number): void {
    out[at] = this.#objects;
    out[at + 1] = this.#uuids;
  }

  /** A factory that continues exactly where the one whose {@link state} this is stood. */
  static fromState(state: IdState): IdFactory {
    const factory = new IdFactory({ next: () => state.mask / 0x100000000 } as Random);
    factory.#objects = state.objects;
    factory.#uuids = state.uuids;
    return factory;
  }

  objectId(rng: Random, ms: number): string {
    const codes = this.#id;
    writeHex(codes, 0, Math.floor(ms / 1000), 8);
    writeHex(codes, 8, word(rng), 8);
    writeHex(codes, 16, (this.#objects++ ^ this.#mask) >>> 0, 8);
    return String.fromCharCode.apply(null, codes);
  }

  /** Draws an object id as {@link objectId} does (the same random number and counter), making no text. */
  skipObjectId(rng: Random): void {
    word(rng);
    this.#objects++;
  }

  uuid(rng: Random): string {
    const a = word(rng);
    const b = word(rng);
    const c = word(rng);
    return this.#uuidText(a, b, c, (this.#uuids++ ^ this.#mask) >>> 0);
  }

  /**
   * Draws a UUID as {@link uuid} does, but writes its four words into `out` at `at` instead of its
   * text ({@link IdFactory.uuidText} makes the same text from them): a columnar store keeps 16 bytes.
   */
  uuidWords(rng: Random, out: Uint32Array, at: number): void {
    out[at] = word(rng);
    out[at + 1] = word(rng);
    out[at + 2] = word(rng);
    out[at + 3] = (this.#uuids++ ^ this.#mask) >>> 0;
  }

  /** The text of the UUID whose words {@link uuidWords} wrote at `at` of `words`. */
  static uuidText(words: ArrayLike<number>, at: number): string {
    return TEXT.#uuidText(
      (words[at] as number) >>> 0,
      (words[at + 1] as number) >>> 0,
      (words[at + 2] as number) >>> 0,
      (words[at + 3] as number) >>> 0,
    );
  }

  #uuidText(a: number, b: number, c: number, d: number): string {
    const codes = this.#uuid;
    writeHex(codes, 0, a, 8);
    writeHex(codes, 9, b >>> 16, 4);
    codes[14] = 52; // version 4
    writeHex(codes, 15, b & 0xfff, 3);
    codes[19] = HEX_CODES[8 | (c >>> 30)] as number; // variant 10xx
    writeHex(codes, 20, (c >>> 16) & 0xfff, 3);
    writeHex(codes, 24, c & 0xffff, 4);
    writeHex(codes, 28, d, 8);
    return String.fromCharCode.apply(null, codes);
  }

  /** An event's `mutation_id`: `mut-` and 12 random hex digits (not unique). */
  mutationId(rng: Random): string {
    const a = word(rng);
    return this.#mutationText(a, word(rng));
  }

  /** Draws a `mutation_id` as {@link mutationId} does, writing its two words into `out` at `at`. */
  mutationWords(rng: Random, out: Uint32Array, at: number): void {
    out[at] = word(rng);
    out[at + 1] = word(rng);
  }

  /** The text of the `mutation_id` whose words {@link mutationWords} wrote at `at` of `words`. */
  static mutationText(words: ArrayLike<number>, at: number): string {
    return TEXT.#mutationText((words[at] as number) >>> 0, (words[at + 1] as number) >>> 0);
  }

  #mutationText(a: number, b: number): string {
    const codes = this.#mutation;
    writeHex(codes, 4, a, 8);
    writeHex(codes, 12, b, 4);
    return String.fromCharCode.apply(null, codes);
  }
}

/** A factory used only to write texts from words (its scratch buffers; it draws nothing). */
const TEXT = new IdFactory({ next: () => 0 } as unknown as Random);
