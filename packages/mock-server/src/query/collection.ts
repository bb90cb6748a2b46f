import { comparator, type SortKey, type SortValue } from './compare.js';

/** Options of {@link Collection.query}. */
export interface QueryOptions<T> {
  /** Keeps only the records for which it returns true. */
  filter?: ((record: T) => boolean) | undefined;
  /** Sort keys in order; the first one must be an indexed field. */
  sort: ReadonlyArray<{ field: string; order: 1 | -1 }>;
  /** How many matching records to skip. */
  offset: number;
  /** How many to return at most. */
  limit: number;
}

/**
 * A set of records with an id, kept with one sorted index per sortable field and direction. Indexes
 * are built the first time a sort needs them, and kept up to date on every insert, update and delete
 * by binary search and splice, so no request sorts the whole collection. A query walks the index of
 * its first sort key; records that tie on it are ordered by the other keys group by group, and ties
 * end with the id, so pages never overlap or skip.
 */
export class Collection<T extends { id: string }> {
  readonly #byId = new Map<string, T>();
  readonly #fields: Readonly<Record<string, (record: T) => SortValue>>;
  readonly #indexes = new Map<string, T[]>();
  #version = 0;

  /** Creates an empty collection with the given sortable fields. */
  constructor(fields: Readonly<Record<string, (record: T) => SortValue>>, records: Iterable<T> = []) {
    this.#fields = fields;
    for (const record of records) this.#byId.set(record.id, record);
  }

  /** The number of records. */
  get size(): number {
    return this.#byId.size;
  }

  /** A number that changes on every insert, update and delete (for caches of derived data). */
  get version(): number {
    return this.#version;
  }

  /** The record with this id, if any. */
  get(id: string): T | undefined {
    return this.#byId.get(id);
  }

  /** Every record, in insertion order. */
  values(): IterableIterator<T> {
    return this.#byId.values();
  }

  /** Adds a record (replacing one with the same id). */
  insert(record: T): void {
    if (this.#byId.has(record.id)) this.delete(record.id);
    this.#version++;
    this.#byId.set(record.id, record);
    for (const [name, index] of this.#indexes) index.splice(this.#position(name, index, record), 0, record);
  }

  /** Replaces a stored record by a new version with the same id. */
  update(record: T): void {
    const old = this.#byId.get(record.id);
    if (!old) throw new Error(`update of an unknown record ${record.id}`);
    this.#version++;
    this.#byId.set(record.id, record);
    for (const [name, index] of this.#indexes) {
      const at = this.#find(name, index, old);
      index.splice(at, 1);
      index.splice(this.#position(name, index, record), 0, record);
    }
  }

  /** Removes a record; returns it, or undefined when there was none. */
  delete(id: string): T | undefined {
    const old = this.#byId.get(id);
    if (!old) return undefined;
    this.#version++;
    for (const [name, index] of this.#indexes) index.splice(this.#find(name, index, old), 1);
    this.#byId.delete(id);
    return old;
  }

  /** The matching records of one page, in order. */
  query(options: QueryOptions<T>): T[] {
    const [first, ...rest] = options.sort;
    if (!first) throw new Error('a collection query needs at least one sort key');
    const index = this.#index(`${first.field}:${first.order}`);
    const get = this.#getter(first.field);
    const restKeys: SortKey<T>[] = rest.map((k) => ({ get: this.#getter(k.field), order: k.order }));
    const tieOrder = comparator(restKeys);
    const wanted = options.offset + options.limit;
    const out: T[] = [];
    let group: T[] = [];
    let groupValue: SortValue = Symbol.for('none') as unknown as SortValue;
    const flush = () => {
      if (group.length > 1 && restKeys.length > 0) group.sort(tieOrder);
      for (const r of group) out.push(r);
      group = [];
    };
    for (const record of index) {
      if (options.filter && !options.filter(record)) continue;
      const value = get(record);
      if (value !== groupValue) {
        flush();
        if (out.length >= wanted) break;
        groupValue = value;
      }
      group.push(record);
    }
    flush();
    return out.slice(options.offset, wanted);
  }

  /**
   * Walks the records in the order of one indexed field (then id), starting after `after` (a record,
   * or any object with the same sort value and id) when given. Records added or removed during the
   * walk are not seen reliably: consume the walk before changing the collection.
   */
  *scan(field: string, order: 1 | -1, after?: T): Generator<T> {
    const name = `${field}:${order}`;
    const index = this.#index(name);
    let start = 0;
    if (after) {
      start = this.#position(name, index, after);
      if (index[start]?.id === after.id) start += 1;
    }
    for (let i = start; i < index.length; i++) yield index[i] as T;
  }

  #getter(field: string): (record: T) => SortValue {
    const get = this.#fields[field];
    if (!get) throw new Error(`not a sortable field: ${field}`);
    return get;
  }

  #index(name: string): T[] {
    let index = this.#indexes.get(name);
    if (!index) {
      index = [...this.#byId.values()].sort(this.#compare(name));
      this.#indexes.set(name, index);
    }
    return index;
  }

  #compare(name: string): (a: T, b: T) => number {
    const [field, order] = name.split(':') as [string, string];
    return comparator([{ get: this.#getter(field), order: order === '-1' ? -1 : 1 }]);
  }

  /** Where `record` belongs in `index` (first position whose record sorts after it). */
  #position(name: string, index: T[], record: T): number {
    const compare = this.#compare(name);
    let lo = 0;
    let hi = index.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(index[mid] as T, record) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The position of the stored version `record` (same id, same sort values) in `index`. */
  #find(name: string, index: T[], record: T): number {
    const at = this.#position(name, index, record);
    if (index[at]?.id !== record.id) throw new Error(`index ${name} is out of step for ${record.id}`);
    return at;
  }
}
