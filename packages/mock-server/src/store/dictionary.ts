/**
 * Dictionaries of distinct values, for columnar stores: each distinct value gets a small integer code
 * once, records keep codes in typed arrays, and work that depends only on the value (lower-casing
 * for free text, matching a filter) is done once per distinct value instead of once per record.
 *
 * @module
 */

/**
 * Distinct strings, each with a code (its position). Values leave only through {@link retain}, which
 * the store calls once many of them are no longer used, renumbering the rest.
 */
export class Dictionary {
  /** The values by code. */
  readonly values: string[] = [];
  #codes = new Map<string, number>();
  readonly #lower: string[] = [];

  /** The number of distinct values. */
  get size(): number {
    return this.values.length;
  }

  /** The code of `value`, adding it when new. */
  code(value: string): number {
    let code = this.#codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.#codes.set(value, code);
    }
    return code;
  }

  /** A copy that changes apart from this one (its values, codes and lower-cased values copied). */
  clone(): Dictionary {
    const copy = new Dictionary();
    copy.values.push(...this.values);
    copy.#codes = new Map(this.#codes);
    copy.#lower.push(...this.#lower);
    return copy;
  }

  /** The code of `value`, or undefined when no record holds it. */
  find(value: string): number | undefined {
    return this.#codes.get(value);
  }

  /** The value of `code`, lower-cased with `toLowerCase()` (computed once per value). */
  lower(code: number): string {
    for (let i = this.#lower.length; i <= code; i++)
      this.#lower.push((this.values[i] as string).toLowerCase());
    return this.#lower[code] as string;
  }

  /**
   * Keeps only the values that `codes[0 .. length)` use, when they are at most half of the dictionary
   * (so that the work, linear in `length` and the dictionary's size, is paid for by the values it
   * frees): the kept values are renumbered in their order, and the answer maps each old code to its
   * new one (-1 for a value dropped); the caller rewrites its codes with it. Answers `undefined`, and
   * changes nothing, when more than half of the values are used.
   */
  retain(codes: Int32Array, length: number): Int32Array | undefined {
    const size = this.values.length;
    const used = new Uint8Array(size);
    let live = 0;
    for (let i = 0; i < length; i++) {
      const code = codes[i] as number;
      if (used[code] === 0) {
        used[code] = 1;
        live += 1;
      }
    }
    if (live * 2 > size) return undefined;
    const remap = new Int32Array(size).fill(-1);
    const kept = new Map<string, number>();
    let next = 0;
    for (let code = 0; code < size; code++) {
      if (used[code] === 0) continue;
      const value = this.values[code] as string;
      remap[code] = next;
      this.values[next] = value;
      kept.set(value, next);
      next += 1;
    }
    this.values.length = next;
    this.#codes = kept;
    // Lower-cased values are made again when asked (they follow the codes).
    this.#lower.length = 0;
    return remap;
  }

  /** A flag per code: 1 where `value` is one of `wanted`. */
  flags(wanted: readonly string[]): Uint8Array {
    const flags = new Uint8Array(this.values.length);
    for (const value of wanted) {
      const code = this.#codes.get(value);
      if (code !== undefined) flags[code] = 1;
    }
    return flags;
  }
}

/** A typed array a column can be kept in. */
type ColumnArray = Int32Array | Float64Array;

/** A growable column of numbers in a typed array. */
class Column<A extends ColumnArray> {
  #data: A;
  #length = 0;
  readonly #make: (length: number) => A;

  /** An empty column with room for `capacity` values, or a copy of `copyOf` (its own array). */
  constructor(make: (length: number) => A, capacity: number, copyOf?: Column<A>) {
    this.#make = make;
    if (copyOf) {
      this.#data = copyOf.#data.slice() as A;
      this.#length = copyOf.#length;
    } else {
      this.#data = make(Math.max(16, capacity));
    }
  }

  /** The number of values. */
  get length(): number {
    return this.#length;
  }

  /** The backing array (valid up to {@link length}; replaced when the column grows). */
  get data(): A {
    return this.#data;
  }

  /** Appends a value. */
  push(value: number): void {
    if (this.#length === this.#data.length) this.#grow();
    this.#data[this.#length++] = value;
  }

  /** Makes room for `capacity` values in all (one allocation, instead of doubling as values come). */
  reserve(capacity: number): void {
    if (capacity <= this.#data.length) return;
    const next = this.#make(capacity);
    next.set(this.#data.subarray(0, this.#length));
    this.#data = next;
  }

  /** Inserts a value at `at`, moving the later ones up. */
  insert(at: number, value: number): void {
    if (this.#length === this.#data.length) this.#grow();
    this.#data.copyWithin(at + 1, at, this.#length);
    this.#data[at] = value;
    this.#length += 1;
  }

  /** Removes the value at `at`, moving the later ones down. */
  remove(at: number): void {
    this.#data.copyWithin(at, at + 1, this.#length);
    this.#length -= 1;
  }

  /** Keeps only the first `length` values. */
  truncate(length: number): void {
    this.#length = Math.min(length, this.#length);
  }

  #grow(): void {
    const next = this.#make(this.#data.length * 2);
    next.set(this.#data);
    this.#data = next;
  }
}

/** A growable column of 32-bit integers (codes, positions or words). */
export class IntColumn extends Column<Int32Array> {
  /** An empty column with room for `capacity` values, or a copy of `copyOf`. */
  constructor(capacity = 16, copyOf?: IntColumn) {
    super((length) => new Int32Array(length), capacity, copyOf);
  }

  /** A copy that changes apart from this one. */
  clone(): IntColumn {
    return new IntColumn(0, this);
  }
}

/** A growable column of 64-bit floats (epoch milliseconds). */
export class FloatColumn extends Column<Float64Array> {
  /** An empty column with room for `capacity` values, or a copy of `copyOf`. */
  constructor(capacity = 16, copyOf?: FloatColumn) {
    super((length) => new Float64Array(length), capacity, copyOf);
  }

  /** A copy that changes apart from this one. */
  clone(): FloatColumn {
    return new FloatColumn(0, this);
  }
}
