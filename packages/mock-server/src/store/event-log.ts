/**
 * The event center's store: one account's events, kept for the queries a real account's volume
 * needs (a million events and more) without a scan of objects per request.
 *
 * - **Time order.** A column of positions sorted by time (then id) makes a time window two binary
 *   searches, and a continuation token one more.
 * - **Columns of codes.** Every filterable and facetable field is a dictionary code in a typed array,
 *   so a filter tests a byte, and a facet counts into an array indexed by code.
 * - **Free text over dictionaries.** Asset ids, types and attribute lists repeat heavily: the search
 *   text is matched once per distinct value (lower-cased once, cached), then each event tests the
 *   flags of its codes.
 * - **Chunks.** A walk over many events yields to the event loop between chunks and stops when the
 *   request's `AbortSignal` aborts; a change to the log during a pause restarts the walk, so an answer
 *   always reflects one state.
 *
 * The answers are those of `docs/api-semantics.md` (the reference model in
 * `test/semantics/` checks them): events newest first, ties by id ascending; facets by count, then
 * value.
 *
 * @module
 */
import type { Event, EventAttribute, EventField } from '@iacm/sdk/contract';
import { EVENT_TEXT_FIELDS, isInternalId } from '../query/text.js';
import { Dictionary, FloatColumn, IntColumn } from './dictionary.js';
import { IdFactory } from './ids.js';

/**
 * Receives each generated event as codes, in place of the event object: a columnar store
 * ({@link EventLog.seeder}). The generator asks for each distinct value's code once.
 */
export interface EventSink {
  /** The code of `value` in `field`'s dictionary (`account` for `account_id`). */
  code(field: EventField | 'account', value: string): number;
  /**
   * Adds an event: `words` holds the id's four words (`IdFactory.uuidText`) then the
   * `mutation_id`'s two (`IdFactory.mutationText`); `codes` the codes of the account, integration,
   * event type, provider, asset id, asset type and mutation type, in that order; `time` is epoch ms.
   */
  add(words: Uint32Array, codes: Int32Array, time: number, attributes: EventAttribute[]): void;
}

/** Which events a search selects. */
export interface EventSelection {
  /** Earliest time, epoch milliseconds, inclusive. */
  start?: number | undefined;
  /** Latest time, epoch milliseconds, inclusive. */
  end?: number | undefined;
  /** Field filters, all of which must hold (each non-empty: the event's value is one of `values`). */
  filters?: ReadonlyArray<{ field: EventField; values: readonly string[] }> | undefined;
  /** Free text, already trimmed and lower-cased (`searchNeedle`); absent for no text filter. */
  needle?: string | undefined;
}

/** A facet to count over the selected events. */
export interface FacetCount {
  /** The field. */
  field: EventField;
  /** How many top values to return. */
  size: number;
  /** Only values containing this (trimmed, lower-cased) text are counted. */
  valueNeedle?: string | undefined;
}

/** What a search answers. */
export interface EventSearchResult {
  /** The page, newest first. */
  page: Event[];
  /** Whether more events follow the page. */
  more: boolean;
  /** The facets, in the order asked: distinct values counted, and the top ones. */
  facets: Array<{ size: number; values: Array<{ value: string; count: number }> }>;
}

/** How many positions a walk covers between two pauses, by default. */
const CHUNK = 65_536;

/** Options of an {@link EventLog}. */
export interface EventLogOptions {
  /** How many positions a walk covers between two pauses (a whole number, at least 1). Default 65,536. */
  chunk?: number | undefined;
}
/**
 * Compaction (which drops the holes of removed events, and the dictionaries' values only they used)
 * runs once the holes are more than this many and outnumber the events: 1,024.
 */
export const COMPACT_AFTER_HOLES = 1024;

/** How many times a walk restarts after the log changed during a pause before it runs without pausing. */
const MAX_RESTARTS = 2;

/** Gives the event loop a turn (a macrotask, so timers and I/O run). */
function pause(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
}

/** Slot kinds (see `EventLog.#kinds`). */
const HOLE = 0;
const OBJECT = 1;
const SEEDED = 2;
/** Words per slot in `EventLog.#words`. */
const WORDS = 6;

/** The fields of a seeded event's codes after the account, in `EventSink.add`'s order. */
const SEEDED_FIELDS: readonly EventField[] = [
  'integrationId',
  'eventType',
  'providerType',
  'assetId',
  'assetType',
  'mutationType',
];

const FIELDS: readonly EventField[] = [
  'integrationId',
  'eventType',
  'providerType',
  'assetType',
  'assetId',
  'mutationType',
];

/** The values of one field, read from an event. */
const READ: Readonly<Record<EventField, (event: Event) => string>> = {
  integrationId: (e) => e.integration_id,
  eventType: (e) => e.event_type,
  providerType: (e) => e.provider_type,
  assetType: (e) => e.asset_type,
  assetId: (e) => e.asset_id,
  mutationType: (e) => e.event.mutation_type,
};

/** A dictionary-coded column of one field. */
interface FieldColumn {
  readonly dictionary: Dictionary;
  readonly codes: IntColumn;
}

/**
 * Per code, whether the value is searchable text (not an internal id), worked out once per value.
 * 0: not yet known, 1: searchable, 2: an internal id.
 */
class Readability {
  #flags = new Uint8Array(64);

  readable(code: number, value: string): boolean {
    if (code >= this.#flags.length) {
      const next = new Uint8Array(Math.max(code + 1, this.#flags.length * 2));
      next.set(this.#flags);
      this.#flags = next;
    }
    let flag = this.#flags[code] as number;
    if (flag === 0) {
      flag = isInternalId(value) ? 2 : 1;
      this.#flags[code] = flag;
    }
    return flag === 1;
  }
}

/** One account's events, time-ordered and columnar. */
export class EventLog {
  /**
   * What each slot (insertion order) holds: {@link HOLE} (a removed event, until the next
   * compaction), {@link OBJECT} (an event added as an object, kept in `#objects`) or {@link SEEDED}
   * (columns only: its id and `mutation_id` as words in `#words`, its object made when read).
   */
  readonly #kinds = new IntColumn();
  #objects: Array<Event | undefined> = [];
  /** Per slot, {@link WORDS} words: a seeded event's id (4), then its `mutation_id` (2). */
  readonly #words = new IntColumn();
  readonly #accounts = new Dictionary();
  readonly #accountCodes = new IntColumn();
  #holes = 0;
  readonly #time = new FloatColumn();
  readonly #columns: Record<EventField, FieldColumn>;
  /** Attribute lists, by identity (lists are shared between events) or by content. */
  readonly #lists = new Dictionary();
  readonly #listByIdentity = new Map<readonly EventAttribute[], number>();
  readonly #listValues: Array<readonly string[]> = [];
  /** The first list seen of each code (what a seeded event's `attributes` is). */
  readonly #listObjects: Array<readonly EventAttribute[]> = [];
  readonly #listCodes = new IntColumn();
  readonly #readable = EVENT_TEXT_FIELDS.map(() => new Readability());
  /** Slots sorted by time ascending, then id descending: walked from the end, newest first. */
  #order = new IntColumn();
  /** Changes with every insert and delete: a paused walk restarts when it moved. */
  #version = 0;

  /**
   * How many positions a walk of a new log covers between two pauses, when its options do not say.
   * Tests lower it to make every walk pause; 65,536 otherwise.
   */
  static defaultChunk = CHUNK;

  readonly #chunk: number;

  /** Stores `events` (in any order). */
  constructor(events: Iterable<Event> = [], options: EventLogOptions = {}) {
    this.#chunk = Math.max(1, Math.floor(options.chunk ?? EventLog.defaultChunk));
    this.#columns = Object.fromEntries(
      FIELDS.map((field) => [field, { dictionary: new Dictionary(), codes: new IntColumn() }]),
    ) as Record<EventField, FieldColumn>;
    for (const event of events) this.#append(event);
    this.#sortOrder();
  }

  /**
   * A sink for the seed generator (`store/seed/events.ts`): it adds seeded events as columns only
   * (their objects are made when read, equal to the ones the generator would make). Call
   * {@link seal} once all are added.
   */
  seeder(): EventSink {
    const columns = [this.#accountCodes, ...SEEDED_FIELDS.map((field) => this.#columns[field].codes)];
    return {
      code: (field, value) =>
        field === 'account' ? this.#accounts.code(value) : this.#columns[field].dictionary.code(value),
      add: (words, codes, time, attributes) => {
        this.#kinds.push(SEEDED);
        this.#objects.push(undefined);
        for (let i = 0; i < WORDS; i++) this.#words.push((words[i] as number) | 0);
        this.#time.push(time);
        for (let i = 0; i < columns.length; i++) (columns[i] as IntColumn).push(codes[i] as number);
        this.#listCodes.push(this.#listCode(attributes));
      },
    };
  }

  /** Orders the events added through {@link seeder}. */
  seal(): void {
    this.#sortOrder();
    this.#version += 1;
  }

  /** The number of events. */
  get size(): number {
    return this.#kinds.length - this.#holes;
  }

  /**
   * How many distinct values a dictionary holds: a field's, the accounts' or the attribute lists'.
   * They shrink at compaction once the kept events use at most half of them.
   *
   * @internal For tests of the memory bounds; the dictionaries follow the engine.
   */
  distinctValues(dictionary: EventField | 'account' | 'attributes'): number {
    if (dictionary === 'account') return this.#accounts.size;
    if (dictionary === 'attributes') return this.#lists.size;
    return this.#columns[dictionary].dictionary.size;
  }

  /** Every event, in insertion order. */
  *values(): Generator<Event> {
    for (let slot = 0; slot < this.#kinds.length; slot++) {
      if (this.#kinds.data[slot] !== HOLE) yield this.#event(slot);
    }
  }

  /** Adds an event. */
  insert(event: Event): void {
    const slot = this.#append(event);
    const order = this.#order;
    order.insert(this.#lowerBound(this.#time.data[slot] as number, event.id), slot);
    this.#version += 1;
  }

  /** The oldest event (the last of the event center's newest-first order), if any. */
  oldest(): Event | undefined {
    return this.#order.length === 0 ? undefined : this.#event(this.#order.data[0] as number);
  }

  /** Removes the oldest event; returns it. */
  deleteOldest(): Event | undefined {
    if (this.#order.length === 0) return undefined;
    const slot = this.#order.data[0] as number;
    const event = this.#event(slot);
    this.#order.remove(0);
    this.#kinds.data[slot] = HOLE;
    this.#objects[slot] = undefined;
    this.#holes += 1;
    this.#version += 1;
    if (this.#holes > COMPACT_AFTER_HOLES && this.#holes > this.size) this.#compact();
    return event;
  }

  /**
   * Selects events: one page newest first (after the event `after` when given: a continuation), and
   * facet counts over every selected event. Walks in chunks, pausing between them; throws the
   * signal's reason when `signal` aborts.
   */
  async search(
    selection: EventSelection,
    page: { size: number; after?: { timestamp: string; id: string } | undefined },
    facets: readonly FacetCount[],
    signal?: AbortSignal,
  ): Promise<EventSearchResult> {
    for (let attempt = 0; ; attempt++) {
      const result = await this.#search(selection, page, facets, attempt < MAX_RESTARTS, signal);
      if (result) return result;
    }
  }

  async #search(
    selection: EventSelection,
    page: { size: number; after?: { timestamp: string; id: string } | undefined },
    facets: readonly FacetCount[],
    pausing: boolean,
    signal: AbortSignal | undefined,
  ): Promise<EventSearchResult | undefined> {
    const version = this.#version;
    const test = this.#matcher(selection);
    const lo = selection.start === undefined ? 0 : this.#lowerBound(selection.start, undefined);
    const hi =
      (selection.end === undefined ? this.#order.length : this.#lowerBound(selection.end + 1, undefined)) - 1;
    const pageStart =
      page.after === undefined
        ? hi
        : Math.min(hi, this.#lowerBound(Date.parse(page.after.timestamp), page.after.id) - 1);
    const counters = facets.map((f) => {
      const column = this.#columns[f.field];
      return {
        column,
        counts: new Int32Array(column.dictionary.size),
        allowed: f.valueNeedle === undefined ? undefined : this.#valueFlags(column.dictionary, f.valueNeedle),
      };
    });
    const found: Event[] = [];
    let more = false;
    // Without facets only the page is needed: start at its first position and stop once it is full.
    let position = counters.length === 0 ? pageStart : hi;
    while (position >= lo) {
      if (counters.length === 0 && more) break;
      const stop = Math.max(lo, position - (this.#chunk - 1));
      const order = this.#order.data;
      // The columns' arrays, read once per chunk (a column's array is replaced when it grows).
      const codeArrays = counters.map((counter) => counter.column.codes.data);
      for (; position >= stop; position--) {
        const slot = order[position] as number;
        if (test !== undefined && !test(slot)) continue;
        for (let k = 0; k < codeArrays.length; k++) {
          const code = (codeArrays[k] as Int32Array)[slot] as number;
          const counter = counters[k] as (typeof counters)[number];
          if (counter.allowed === undefined || counter.allowed[code] === 1) {
            counter.counts[code] = (counter.counts[code] as number) + 1;
          }
        }
        if (position <= pageStart) {
          if (found.length < page.size) found.push(this.#event(slot));
          else {
            more = true;
            if (counters.length === 0) break;
          }
        }
      }
      if (position >= lo && !(counters.length === 0 && more)) {
        signal?.throwIfAborted();
        if (pausing) {
          await pause();
          signal?.throwIfAborted();
          if (this.#version !== version) return undefined;
        }
      }
    }
    return {
      page: found,
      more,
      facets: counters.map((counter, i) =>
        topValues(counter.column.dictionary, counter.counts, (facets[i] as FacetCount).size),
      ),
    };
  }

  /** A test of a slot against the selection's filters and text, or undefined when nothing filters. */
  #matcher(selection: EventSelection): ((slot: number) => boolean) | undefined {
    const tests: Array<(slot: number) => boolean> = [];
    for (const filter of selection.filters ?? []) {
      const column = this.#columns[filter.field];
      const flags = column.dictionary.flags(filter.values);
      const codes = column.codes.data;
      tests.push((slot) => flags[codes[slot] as number] === 1);
    }
    if (selection.needle !== undefined) tests.push(this.#textTest(selection.needle));
    if (tests.length === 0) return undefined;
    if (tests.length === 1) return tests[0];
    return (slot) => {
      for (const test of tests) if (!test(slot)) return false;
      return true;
    };
  }

  /**
   * Free text: one of the fields of `EVENT_TEXT_FIELDS` (`query/text.ts`) or one of the attribute
   * values contains the needle, internal ids left out.
   */
  #textTest(needle: string): (slot: number) => boolean {
    const fields = EVENT_TEXT_FIELDS.map((field, i) => {
      const { dictionary, codes } = this.#columns[field];
      const readability = this.#readable[i] as Readability;
      const flags = new Uint8Array(dictionary.size);
      for (let code = 0; code < dictionary.size; code++) {
        const value = dictionary.values[code] as string;
        if (readability.readable(code, value) && dictionary.lower(code).includes(needle)) flags[code] = 1;
      }
      return { flags, codes: codes.data };
    });
    const lists = new Uint8Array(this.#lists.size);
    for (let code = 0; code < lists.length; code++) {
      for (const value of this.#listValues[code] as readonly string[]) {
        if (value.includes(needle)) {
          lists[code] = 1;
          break;
        }
      }
    }
    const listCodes = this.#listCodes.data;
    const flagArrays = fields.map((field) => field.flags);
    const codeArrays = fields.map((field) => field.codes);
    const count = fields.length;
    return (slot) => {
      if (lists[listCodes[slot] as number] === 1) return true;
      for (let k = 0; k < count; k++) {
        if ((flagArrays[k] as Uint8Array)[(codeArrays[k] as Int32Array)[slot] as number] === 1) return true;
      }
      return false;
    };
  }

  /** A flag per code of `dictionary`: 1 where the value contains `needle` (the facets' value search). */
  #valueFlags(dictionary: Dictionary, needle: string): Uint8Array {
    const flags = new Uint8Array(dictionary.size);
    for (let code = 0; code < flags.length; code++)
      if (dictionary.lower(code).includes(needle)) flags[code] = 1;
    return flags;
  }

  /** Stores an event in a new slot of every column (not yet in the order); returns the slot. */
  #append(event: Event): number {
    const slot = this.#kinds.length;
    this.#kinds.push(OBJECT);
    this.#objects.push(event);
    for (let i = 0; i < WORDS; i++) this.#words.push(0);
    this.#accountCodes.push(this.#accounts.code(event.account_id));
    this.#time.push(Date.parse(event.event_timestamp));
    for (const field of FIELDS) {
      const column = this.#columns[field];
      column.codes.push(column.dictionary.code(READ[field](event)));
    }
    this.#listCodes.push(this.#listCode(event.event.attributes));
    return slot;
  }

  /** The code of an attribute list: shared lists by identity, others by their values. */
  #listCode(attributes: readonly EventAttribute[]): number {
    let code = this.#listByIdentity.get(attributes);
    if (code !== undefined) return code;
    const values = attributes.map((a) => a.value);
    const size = this.#lists.size;
    code = this.#lists.code(JSON.stringify(attributes.map((a) => [a.key, a.value])));
    if (code === size) {
      this.#listObjects.push(attributes);
      // The searchable values, lower-cased once: internal ids are never matched by free text.
      this.#listValues.push(values.filter((v) => !isInternalId(v)).map((v) => v.toLowerCase()));
    }
    // Only frozen lists are shared safely by identity (an unfrozen one could change after it was coded).
    if (Object.isFrozen(attributes)) this.#listByIdentity.set(attributes, code);
    return code;
  }

  /** The first position whose event sorts at or after (`time`, `id`) in the ascending order. */
  #lowerBound(time: number, id: string | undefined): number {
    const order = this.#order.data;
    const times = this.#time.data;
    let lo = 0;
    let hi = this.#order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const slot = order[mid] as number;
      const t = times[slot] as number;
      // Ascending by time, then descending by id; without an id, the first event at `time`.
      const before = t < time || (t === time && id !== undefined && this.#idOf(slot) > id);
      if (before) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #sortOrder(): void {
    const times = this.#time.data;
    const kinds = this.#kinds.data;
    const slots: number[] = [];
    for (let slot = 0; slot < this.#kinds.length; slot++) if (kinds[slot] !== HOLE) slots.push(slot);
    slots.sort((a, b) => {
      const ta = times[a] as number;
      const tb = times[b] as number;
      if (ta !== tb) return ta - tb;
      // Ties in time are rare: ids are made only for them.
      const ia = this.#idOf(a);
      const ib = this.#idOf(b);
      return ia > ib ? -1 : ia < ib ? 1 : 0;
    });
    const order = new IntColumn(slots.length);
    for (const slot of slots) order.push(slot);
    this.#order = order;
  }

  /** The id of the event in `slot`. */
  #idOf(slot: number): string {
    const object = this.#objects[slot];
    return object ? object.id : IdFactory.uuidText(this.#words.data, slot * WORDS);
  }

  /** The event in `slot`: its object, or one made from the columns for a seeded event. */
  #event(slot: number): Event {
    const object = this.#objects[slot];
    if (object) return object;
    const c = this.#columns;
    const code = (column: FieldColumn) =>
      column.dictionary.values[column.codes.data[slot] as number] as string;
    // Members in the generator's order (`store/seed/events.ts`), so the JSON is the same.
    return {
      id: IdFactory.uuidText(this.#words.data, slot * WORDS),
      account_id: this.#accounts.values[this.#accountCodes.data[slot] as number] as string,
      integration_id: code(c.integrationId),
      event_timestamp: new Date(this.#time.data[slot] as number).toISOString(),
      event_type: code(c.eventType) as Event['event_type'],
      provider_type: code(c.providerType),
      asset_id: code(c.assetId),
      asset_type: code(c.assetType),
      event: {
        mutation_id: IdFactory.mutationText(this.#words.data, slot * WORDS + 4),
        mutation_type: code(c.mutationType) as Event['event']['mutation_type'],
        attributes: this.#listObjects[this.#listCodes.data[slot] as number] as EventAttribute[],
      },
    };
  }

  /**
   * Drops the holes: every column moves its live values down, in the same insertion order, and the
   * order's slots are renumbered (it holds no holes: removal takes events out of it).
   */
  #compact(): void {
    const n = this.#kinds.length;
    const renumber = new Int32Array(n);
    const kinds = this.#kinds.data;
    const words = this.#words.data;
    const ints = [
      kinds,
      this.#accountCodes.data,
      this.#listCodes.data,
      ...FIELDS.map((field) => this.#columns[field].codes.data),
    ];
    const times = this.#time.data;
    let to = 0;
    for (let from = 0; from < n; from++) {
      if (kinds[from] === HOLE) continue;
      renumber[from] = to;
      this.#objects[to] = this.#objects[from];
      words.copyWithin(to * WORDS, from * WORDS, (from + 1) * WORDS);
      times[to] = times[from] as number;
      for (const column of ints) column[to] = column[from] as number;
      to++;
    }
    this.#kinds.truncate(to);
    this.#words.truncate(to * WORDS);
    this.#objects.length = to;
    this.#time.truncate(to);
    this.#accountCodes.truncate(to);
    this.#listCodes.truncate(to);
    for (const field of FIELDS) this.#columns[field].codes.truncate(to);
    const order = this.#order.data;
    for (let i = 0; i < this.#order.length; i++) order[i] = renumber[order[i] as number] as number;
    this.#holes = 0;
    this.#shrinkDictionaries(to);
  }

  /**
   * Drops from each dictionary the values no kept event uses, once they are more than half of it
   * (`Dictionary.retain`), and rewrites the codes: so the values of dropped events (an API
   * mutation's attribute lists, its asset ids) leave with them, and a bounded number of events takes
   * bounded memory. Runs in compaction, whose cost it shares (linear in the events and the values).
   */
  #shrinkDictionaries(length: number): void {
    const columns: Array<{ dictionary: Dictionary; codes: Int32Array; field?: EventField }> = [
      { dictionary: this.#accounts, codes: this.#accountCodes.data },
      ...FIELDS.map((field) => ({
        dictionary: this.#columns[field].dictionary,
        codes: this.#columns[field].codes.data,
        field,
      })),
    ];
    for (const { dictionary, codes, field } of columns) {
      const remap = dictionary.retain(codes, length);
      if (!remap) continue;
      for (let i = 0; i < length; i++) codes[i] = remap[codes[i] as number] as number;
      const text = (EVENT_TEXT_FIELDS as readonly EventField[]).indexOf(field as EventField);
      if (text >= 0) this.#readable[text] = new Readability();
    }
    const listCodes = this.#listCodes.data;
    const remap = this.#lists.retain(listCodes, length);
    if (!remap) return;
    for (let i = 0; i < length; i++) listCodes[i] = remap[listCodes[i] as number] as number;
    for (let code = 0; code < remap.length; code++) {
      const to = remap[code] as number;
      if (to < 0) continue;
      this.#listValues[to] = this.#listValues[code] as readonly string[];
      this.#listObjects[to] = this.#listObjects[code] as readonly EventAttribute[];
    }
    this.#listValues.length = this.#lists.size;
    this.#listObjects.length = this.#lists.size;
    for (const [list, code] of this.#listByIdentity) {
      const to = remap[code] as number;
      if (to < 0) this.#listByIdentity.delete(list);
      else this.#listByIdentity.set(list, to);
    }
  }
}

/** The facet answer of one field: how many distinct values were counted, and the top `size`. */
function topValues(
  dictionary: Dictionary,
  counts: Int32Array,
  size: number,
): { size: number; values: Array<{ value: string; count: number }> } {
  let distinct = 0;
  // The top `size` codes, best first: by count descending, then value ascending.
  const top: number[] = [];
  const better = (a: number, b: number) => {
    const ca = counts[a] as number;
    const cb = counts[b] as number;
    if (ca !== cb) return ca > cb;
    return (dictionary.values[a] as string) < (dictionary.values[b] as string);
  };
  for (let code = 0; code < counts.length; code++) {
    if (counts[code] === 0) continue;
    distinct += 1;
    if (top.length === size && !better(code, top[size - 1] as number)) continue;
    let at = top.length;
    while (at > 0 && better(code, top[at - 1] as number)) at--;
    top.splice(at, 0, code);
    if (top.length > size) top.pop();
  }
  return {
    size: distinct,
    values: top.map((code) => ({ value: dictionary.values[code] as string, count: counts[code] as number })),
  };
}
