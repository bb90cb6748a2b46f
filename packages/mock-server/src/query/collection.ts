import { comparator, compareIds, compareValues, type SortKey, type SortValue } from './compare.js';
import { pauseUnless } from './pause.js';

/** Options of {@link Collection.query}. */
export interface QueryOptions<T> {
  /** Keeps only the records for which it returns true. */
  filter?: ((record: T) => boolean) | undefined;
  /** Sort keys in order (at least one), each a sortable field of the collection. */
  sort: ReadonlyArray<{ field: string; order: 1 | -1 }>;
  /** How many matching records to skip. */
  offset: number;
  /** How many to return at most. */
  limit: number;
  /**
   * When given, every record that can match is in it (the matches of a free-text search, from
   * `TextIndex.matches`): when they are few, the page is made by sorting them rather than by walking
   * the index past every record that cannot match. The answer is the same either way.
   */
  among?: ReadonlySet<T> | undefined;
}

/**
 * How many indexes of several sort keys a collection keeps (least recently used dropped first): 16.
 * Each holds one reference per record (about 0.8 MB at 100,000 records).
 */
export const MAX_COMPOSITE_INDEXES = 16;

/**
 * How many changes a collection remembers by id ({@link Collection.changedSince}): 4,096. A reader
 * further behind is told to read everything again.
 */
export const CHANGE_LOG_LENGTH = 4096;

/**
 * How many records an index build in chunks ({@link Collection.prepare}) reads, or sorts in one
 * run, between two turns of the event loop: 4,096 (a few milliseconds each, garbage collection
 * included).
 */
export const BUILD_CHUNK = 4096;

/**
 * How many times a build in chunks starts again when the collection changed too much during it
 * (more than {@link CHANGE_LOG_LENGTH} records; fewer changes are caught up at its end).
 */
const MAX_BUILD_RESTARTS = 2;

/** The name of a sort's index: `field:order`, keys joined by `|`. */
function sortName(sort: ReadonlyArray<{ field: string; order: 1 | -1 }>): string {
  return sort.map((k) => `${k.field}:${k.order}`).join('|');
}

/**
 * A set of records with an id, kept with sorted indexes: one per sort (all its keys and directions),
 * built the first time a query needs it and kept up to date on every insert, update and delete by
 * binary search and splice (an update that keeps the sort values replaces the record where it is),
 * so no request sorts the whole collection. Indexes of one key stay for good; indexes of several
 * keys (a sort by `ciTool`, then `terraformVersion`, then `repository`) are kept up to 16
 * (`MAX_COMPOSITE_INDEXES`). An index is built by reading each record's sort values
 * once, then sorting positions (a version-aware key is computed once per record, not once per
 * comparison). Ties end with the id, so pages never overlap or skip.
 */
export class Collection<T extends { id: string }> {
  readonly #byId = new Map<string, T>();
  readonly #fields: Readonly<Record<string, (record: T) => SortValue>>;
  /** Indexes by sort name (`field:order`, several joined by `|`); several-key ones in use order. */
  readonly #indexes = new Map<string, T[]>();
  /** Comparators by sort name. */
  readonly #comparators = new Map<string, (a: T, b: T) => number>();
  #version = 0;
  /** Ids changed by the last versions, oldest first: `#log[i]` changed version `#logBase + i + 1`. */
  #log: string[] = [];
  #logBase = 0;
  /**
   * One map per build in chunks under way: each record changed since the build started, as it was
   * before its first change (undefined: it was not there), at most {@link CHANGE_LOG_LENGTH} + 1 of them.
   */
  readonly #builds = new Set<Map<string, T | undefined>>();

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

  /**
   * The ids of the records inserted, updated or deleted since `version` (repeats possible), or
   * `undefined` when the collection no longer remembers that far back (then read it all again).
   */
  changedSince(version: number): readonly string[] | undefined {
    if (version < this.#logBase || version > this.#version) return undefined;
    return this.#log.slice(version - this.#logBase);
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
    this.#changed(record.id, undefined);
    this.#byId.set(record.id, record);
    for (const [name, index] of this.#indexes) index.splice(this.#position(name, index, record), 0, record);
  }

  /** Replaces a stored record by a new version with the same id. */
  update(record: T): void {
    const old = this.#byId.get(record.id);
    if (!old) throw new Error(`update of an unknown record ${record.id}`);
    this.#changed(record.id, old);
    this.#byId.set(record.id, record);
    for (const [name, index] of this.#indexes) {
      const at = this.#find(name, index, old);
      // Same sort values (a label change under a sort by date): the same place, nothing moves.
      if (this.#compare(name)(old, record) === 0) index[at] = record;
      else {
        index.splice(at, 1);
        index.splice(this.#position(name, index, record), 0, record);
      }
    }
  }

  /** Removes a record; returns it, or undefined when there was none. */
  delete(id: string): T | undefined {
    const old = this.#byId.get(id);
    if (!old) return undefined;
    this.#changed(id, old);
    for (const [name, index] of this.#indexes) index.splice(this.#find(name, index, old), 1);
    this.#byId.delete(id);
    return old;
  }

  /** The matching records of one page, in order. */
  query(options: QueryOptions<T>): T[] {
    if (options.sort.length === 0) throw new Error('a collection query needs at least one sort key');
    const name = sortName(options.sort);
    const index = this.#index(name);
    const { filter, among } = options;
    const wanted = options.offset + options.limit;
    // Sorting m candidates costs about m·log2(m) comparisons: the walk goes at most that far (one
    // test per record it passes), then the candidates are sorted. So a search matching few records
    // (or none) costs what they do, and one matching many walks only the start of the index.
    let budget = among ? among.size * Math.ceil(Math.log2(among.size + 1)) : Number.POSITIVE_INFINITY;
    const out: T[] = [];
    for (const record of index) {
      if (out.length >= wanted) break;
      if (--budget < 0)
        return this.#sortedAmong(name, among as ReadonlySet<T>, filter).slice(options.offset, wanted);
      if (!filter || filter(record)) out.push(record);
    }
    return out.slice(options.offset, wanted);
  }

  /** The records of `among` that are stored (as they are now) and pass `filter`, in the order of `name`. */
  #sortedAmong(name: string, among: ReadonlySet<T>, filter: ((record: T) => boolean) | undefined): T[] {
    const kept: T[] = [];
    for (const record of among) {
      if (this.#byId.get(record.id) === record && (!filter || filter(record))) kept.push(record);
    }
    return kept.sort(this.#compare(name));
  }

  /**
   * Builds the index of `sort` ahead of a {@link query}, in chunks of 4,096 records (`BUILD_CHUNK`)
   * that give the event loop a turn between them, so that the first query of a sort over many
   * records does not hold it (a query builds a missing index at once). Nothing to do when the index
   * is there, or the collection is small. The records changed during the turns are put in their
   * place at the end (by binary search, without reading the others again); should more than
   * 4,096 (`CHANGE_LOG_LENGTH`) change, the build starts again (twice at most; the query then builds
   * it). Throws the signal's reason when `signal` aborts (the client has gone).
   */
  async prepare(sort: ReadonlyArray<{ field: string; order: 1 | -1 }>, signal?: AbortSignal): Promise<void> {
    if (sort.length === 0) return;
    const name = sortName(sort);
    for (let attempt = 0; attempt < MAX_BUILD_RESTARTS; attempt++) {
      if (this.#indexes.has(name) || this.#byId.size <= BUILD_CHUNK) return;
      const changes = new Map<string, T | undefined>();
      this.#builds.add(changes);
      let index: T[];
      try {
        index = await sortedInChunks([...this.#byId.values()], this.#keys(name), () => pauseUnless(signal));
      } finally {
        this.#builds.delete(changes);
      }
      if (this.#indexes.has(name)) return;
      if (changes.size > CHANGE_LOG_LENGTH) continue;
      this.#install(name, changes.size === 0 ? index : this.#caughtUp(name, index, changes));
      return;
    }
  }

  /**
   * `index`, built from the records as they were before `changes`, with each changed record moved
   * to where it is now (or taken out when deleted, put in when new): the old versions found by binary
   * search, then one pass that copies the positions, the unchanged records not read again.
   */
  #caughtUp(name: string, index: T[], changes: ReadonlyMap<string, T | undefined>): T[] {
    const compare = this.#compare(name);
    const gone: number[] = [];
    const added: T[] = [];
    for (const [id, before] of changes) {
      if (before) gone.push(this.#find(name, index, before));
      const now = this.#byId.get(id);
      if (now) added.push(now);
    }
    gone.sort((a, b) => a - b);
    added.sort(compare);
    const kept: T[] = [];
    let g = 0;
    for (let i = 0; i < index.length; i++) {
      if (gone[g] === i) g++;
      else kept.push(index[i] as T);
    }
    if (added.length === 0) return kept;
    const out: T[] = [];
    let k = 0;
    for (const record of added) {
      const at = this.#position(name, kept, record);
      while (k < at) out.push(kept[k++] as T);
      out.push(record);
    }
    while (k < kept.length) out.push(kept[k++] as T);
    return out;
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

  /**
   * Counts a change of the record `id` (`before`: as it was, undefined when new): a new version,
   * remembered in the bounded change log, and by the builds under way.
   */
  #changed(id: string, before: T | undefined): void {
    for (const changes of this.#builds) {
      if (changes.size <= CHANGE_LOG_LENGTH && !changes.has(id)) changes.set(id, before);
    }
    this.#version++;
    if (this.#log.length >= CHANGE_LOG_LENGTH) {
      this.#logBase = this.#version - 1;
      this.#log = [];
    }
    this.#log.push(id);
  }

  #getter(field: string): (record: T) => SortValue {
    const get = this.#fields[field];
    if (!get) throw new Error(`not a sortable field: ${field}`);
    return get;
  }

  /** The sort keys of an index name. */
  #keys(name: string): Array<SortKey<T>> {
    return name.split('|').map((part) => {
      const [field, order] = part.split(':') as [string, string];
      return { get: this.#getter(field), order: order === '-1' ? -1 : 1 };
    });
  }

  #index(name: string): T[] {
    const index = this.#indexes.get(name);
    if (index) {
      if (name.includes('|')) {
        // Most recently used last, so that the least recently used goes first.
        this.#indexes.delete(name);
        this.#indexes.set(name, index);
      }
      return index;
    }
    return this.#install(name, sortedBy([...this.#byId.values()], this.#keys(name)));
  }

  /** Keeps a new index, dropping the least recently used one of several keys past the bound. */
  #install(name: string, index: T[]): T[] {
    if (name.includes('|')) {
      const composites = [...this.#indexes.keys()].filter((key) => key.includes('|'));
      if (composites.length >= MAX_COMPOSITE_INDEXES) {
        const oldest = composites[0] as string;
        this.#indexes.delete(oldest);
        this.#comparators.delete(oldest);
      }
    }
    this.#indexes.set(name, index);
    return index;
  }

  #compare(name: string): (a: T, b: T) => number {
    let compare = this.#comparators.get(name);
    if (!compare) {
      compare = comparator(this.#keys(name));
      this.#comparators.set(name, compare);
    }
    return compare;
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

/** Each record's sort values, one column per key. */
function readColumns<T>(
  records: readonly T[],
  keys: ReadonlyArray<SortKey<T>>,
  from: number,
  to: number,
  columns: SortValue[][],
): void {
  keys.forEach((key, k) => {
    const column = columns[k] as SortValue[];
    for (let i = from; i < to; i++) column[i] = key.get(records[i] as T);
  });
}

/** Compares two positions by the values read (then the records' ids). */
function positionComparator<T extends { id: string }>(
  records: readonly T[],
  keys: ReadonlyArray<SortKey<T>>,
  columns: SortValue[][],
): (a: number, b: number) => number {
  const orders = keys.map((key) => key.order);
  return (a, b) => {
    for (let k = 0; k < columns.length; k++) {
      const column = columns[k] as SortValue[];
      const c = compareValues(column[a], column[b], orders[k] as 1 | -1);
      if (c !== 0) return c;
    }
    return compareIds((records[a] as T).id, (records[b] as T).id);
  };
}

/**
 * `records` in the order of `keys`, then id ascending: each record's values read once, then
 * positions sorted by the values read.
 */
function sortedBy<T extends { id: string }>(records: T[], keys: ReadonlyArray<SortKey<T>>): T[] {
  const columns: SortValue[][] = keys.map(() => new Array(records.length));
  readColumns(records, keys, 0, records.length, columns);
  const positions = records.map((_, i) => i);
  positions.sort(positionComparator(records, keys, columns));
  return positions.map((i) => records[i] as T);
}

/**
 * As {@link sortedBy}, in chunks of {@link BUILD_CHUNK} with `pause` between them: the values read
 * chunk by chunk, runs of a chunk sorted, then merged pairwise (a pause after each pair).
 */
async function sortedInChunks<T extends { id: string }>(
  records: T[],
  keys: ReadonlyArray<SortKey<T>>,
  pause: () => Promise<void>,
): Promise<T[]> {
  const n = records.length;
  const columns: SortValue[][] = keys.map(() => new Array(n));
  for (let from = 0; from < n; from += BUILD_CHUNK) {
    readColumns(records, keys, from, Math.min(n, from + BUILD_CHUNK), columns);
    await pause();
  }
  const compare = positionComparator(records, keys, columns);
  let positions = records.map((_, i) => i);
  for (let from = 0; from < n; from += BUILD_CHUNK) {
    const to = Math.min(n, from + BUILD_CHUNK);
    const run = positions.slice(from, to).sort(compare);
    for (let i = 0; i < run.length; i++) positions[from + i] = run[i] as number;
    await pause();
  }
  // Merged pairwise, a turn of the event loop after every BUILD_CHUNK positions written.
  let written = 0;
  for (let width = BUILD_CHUNK; width < n; width *= 2) {
    const next = new Array<number>(n);
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let a = lo;
      let b = mid;
      for (let out = lo; out < hi; out++) {
        const takeA = b >= hi || (a < mid && compare(positions[a] as number, positions[b] as number) <= 0);
        next[out] = takeA ? (positions[a++] as number) : (positions[b++] as number);
        if (++written >= BUILD_CHUNK) {
          written = 0;
          await pause();
        }
      }
    }
    positions = next;
  }
  return positions.map((i) => records[i] as T);
}
