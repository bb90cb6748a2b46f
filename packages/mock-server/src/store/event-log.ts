/**
 * The event center's store: one account's events, kept for the queries a real account's volume
 * needs (a million events and more) without a scan of objects per request.
 *
 * - **Time order.** A column of positions sorted by time (then id) makes a time window two binary
 *   searches, and a continuation token one more.
 * - **Columns of codes** (`event-columns.ts`). Every filterable and facetable field is a dictionary
 *   code in a typed array, so a filter tests a byte, and a facet counts into an array indexed by code.
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
 * - **Budget.** The events inserted at run time (not the seeded or loaded ones, which are start data)
 *   are charged to the memory budget's `events` ledger by {@link runtimeEventBytes}, and bounded by
 *   bytes of their own (`retention.eventBytes`). The log evicts: an event that does not fit drops the
 *   account's oldest run-time events until it does, or is not kept when dropping them all would not
 *   make room. An insert never throws for the budget.
 *
 * Here: the time order, the searches, facets and walks, when to compact, and the budget's charges.
 * Not here: how the events are stored (slots, columns, dictionaries, seeded events, compaction
 * itself: `event-columns.ts`).
 *
 * @module
 */
import type { Event, EventField } from '@iacm/sdk/contract';
import { pause } from '../query/pause.js';
import { type Ledger, textBytes, unboundedLedger } from './budget.js';
import { type Dictionary, IntColumn } from './dictionary.js';
import { EventColumns, type EventSink } from './event-columns.js';

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
  /**
   * The memory budget's `events` ledger, charged {@link runtimeEventBytes} for each event inserted
   * ({@link EventLog.insert}; the events given to the constructor or a seeder are start data, not
   * charged). The mock's one ledger, shared by every account's log, makes `maxBytes` a bound of the
   * mock's run-time events together. Default: `unboundedLedger('events')`.
   */
  ledger?: Ledger | undefined;
  /**
   * The most bytes `ledger` may hold (`retention.eventBytes`; read at each insert), besides the
   * budget's own limit. Default: no bound but the budget's.
   */
  maxBytes?: (() => number) | number | undefined;
}

/**
 * How many times a run-time event's strings are charged: 3. An event's strings are kept three times
 * over at most (the values as columns and dictionaries hold them, its attribute list's key in the
 * list dictionary, its lower-cased searchable values); its other fields are dictionary codes, a few
 * bytes a column, covered by {@link EVENT_SLOT_BYTES}. A dropped event gives its charge back at
 * once; the dictionary values only it used leave at the next compaction ({@link COMPACT_AFTER_HOLES}).
 */
export const EVENT_COPIES = 3;

/** What a run-time event is charged beside its strings: its slot in every column and its order, 512 bytes. */
export const EVENT_SLOT_BYTES = 512;

/**
 * What a run-time event is charged, bytes: {@link EVENT_SLOT_BYTES}, then {@link EVENT_COPIES} times
 * the heap measure of each of its strings (`textBytes` of `store/budget.ts`: a header and two bytes a
 * character), member names included: an upper bound of what it adds to the log. A walk of the
 * event, linear in its size (its attribute values are at most 1,024 characters each:
 * `MAX_EVENT_ATTRIBUTE_LENGTH`).
 */
export function runtimeEventBytes(event: Event): number {
  let strings = 0;
  const stack: unknown[] = [event];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') strings += textBytes(item);
    else if (Array.isArray(item)) for (const inner of item) stack.push(inner);
    else if (typeof item === 'object' && item !== null) {
      for (const [name, inner] of Object.entries(item)) {
        strings += textBytes(name);
        stack.push(inner);
      }
    }
  }
  return EVENT_SLOT_BYTES + EVENT_COPIES * strings;
}

/**
 * Compaction (which drops the holes of removed events, and the dictionaries' values only they used)
 * runs once the holes are more than this many and outnumber the events: 1,024.
 */
export const COMPACT_AFTER_HOLES = 1024;

/** How many times a walk restarts after the log changed during a pause before it runs without pausing. */
const MAX_RESTARTS = 2;

/** One account's events, time-ordered and columnar. */
export class EventLog {
  /** The events, slot by slot (`event-columns.ts`). */
  #columns = new EventColumns();
  /**
   * Whether the columns and the order are shared with another log ({@link fork}): the first change
   * copies them, so that no other log sees it.
   */
  #shared = false;
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
  /** The budget's `events` ledger, charged for each run-time event ({@link insert}). */
  #ledger: Ledger;
  /** The most bytes `#ledger` may hold (`retention.eventBytes`). */
  #maxBytes: () => number;
  /**
   * The run-time events this log charged, by object, oldest inserted first, with what each was
   * charged: what an eviction drops first, and what a removal gives back.
   */
  readonly #charged = new Map<Event, number>();
  /** What the events of {@link #charged} were charged together. */
  #chargedBytes = 0;

  /**
   * Stores `events` (in any order): start data, not charged to the budget (`options.ledger`); the
   * events inserted later are.
   */
  constructor(events: Iterable<Event> = [], options: EventLogOptions = {}) {
    this.#chunk = Math.max(1, Math.floor(options.chunk ?? EventLog.defaultChunk));
    this.#ledger = options.ledger ?? unboundedLedger('events');
    this.#maxBytes = boundOf(options.maxBytes);
    for (const event of events) this.#columns.append(event);
    this.#sortOrder();
  }

  /**
   * Charges the run-time events to `ledger` from now on, bounded by `maxBytes` (what `ledger` may
   * hold; default: the budget's limit alone): what the log holds charged moves from its ledger to
   * this one (whatever its budget says: it is kept already). For a log made before its mock's budget
   * was known (a seed's, a template's fork).
   */
  chargeTo(ledger: Ledger, maxBytes?: (() => number) | number): void {
    if (ledger !== this.#ledger) {
      this.#ledger.release(this.#chargedBytes);
      ledger.charge(this.#chargedBytes, true);
      this.#ledger = ledger;
    }
    this.#maxBytes = boundOf(maxBytes);
  }

  /**
   * Gives back to the ledger every byte the log charged, and forgets the charges (its events stay,
   * uncharged from now on): for a log that goes with its data (a reset, a new state), whose events
   * go with it.
   */
  releaseCharges(): void {
    this.#ledger.release(this.#chargedBytes);
    this.#charged.clear();
    this.#chargedBytes = 0;
  }

  /** The bytes the log's run-time events are charged now (at most what its ledger holds). */
  get chargedBytes(): number {
    return this.#chargedBytes;
  }

  /**
   * A sink for the seed generator (`store/seed/events.ts`): it adds seeded events as columns only
   * (their objects are made when read, equal to the ones the generator would make). Call
   * {@link seal} once all are added.
   */
  seeder(expected = 0): EventSink {
    this.#own();
    return this.#columns.sink(expected);
  }

  /** Orders the events added through {@link seeder}. */
  seal(): void {
    this.#sortOrder();
    this.#version += 1;
  }

  /** The number of events. */
  get size(): number {
    return this.#columns.slots - this.#columns.holes;
  }

  /**
   * How many distinct values a dictionary holds: a field's, the accounts' or the attribute lists'.
   * They shrink at compaction once the kept events use at most half of them.
   *
   * @internal For tests of the memory bounds; the dictionaries follow the engine.
   */
  distinctValues(dictionary: EventField | 'account' | 'attributes'): number {
    return this.#columns.distinctValues(dictionary);
  }

  /** Every event, in insertion order. */
  *values(): Generator<Event> {
    const columns = this.#columns;
    for (let slot = 0; slot < columns.slots; slot++) {
      if (!columns.isHole(slot)) yield columns.event(slot);
    }
  }

  /**
   * A log with the same events that shares this one's columns until either changes (copy on write):
   * a fork costs a few objects, and the first insert or delete in either copies the columns
   * (linear in the events) for that log alone. What the event objects hold is never changed, so
   * they stay shared. The fork's events are its start data: it charges none of them, and its later
   * inserts go to an unbounded ledger until {@link chargeTo} names one.
   */
  fork(): EventLog {
    const fork = new EventLog([], { chunk: this.#chunk });
    fork.#columns = this.#columns;
    fork.#order = this.#order;
    fork.#shared = true;
    this.#shared = true;
    return fork;
  }

  /** Makes the columns and the order this log's own before a change (see {@link fork}). */
  #own(): void {
    if (!this.#shared) return;
    this.#columns = new EventColumns(this.#columns);
    this.#order = this.#order.clone();
    this.#shared = false;
  }

  /**
   * Adds an event recorded at run time, charged {@link runtimeEventBytes} to the ledger. When the
   * budget (or `maxBytes`) has no room for it, the account's oldest run-time events (first inserted
   * first) are dropped, each giving back its charge, until it fits; when dropping them all would not
   * make room, none is dropped and the new event is not kept. Never throws for the budget. Answers
   * how many events were dropped for room, the new one included when it was not kept (0: kept, and
   * nothing dropped).
   */
  insert(event: Event): number {
    if (this.#charged.has(event)) {
      // The same object again: kept once more, charged once (a removal of either gives the charge back).
      this.#add(event);
      return 0;
    }
    const bytes = runtimeEventBytes(event);
    let dropped = 0;
    if (!this.#room(bytes, 0)) {
      if (!this.#room(bytes, this.#chargedBytes)) return 1;
      for (const oldest of this.#charged.keys()) {
        if (this.#room(bytes, 0)) break;
        this.#remove(oldest);
        dropped += 1;
      }
      if (!this.#room(bytes, 0)) return dropped + 1;
    }
    if (!this.#ledger.tryCharge(bytes)) return dropped + 1;
    this.#charged.set(event, bytes);
    this.#chargedBytes += bytes;
    this.#add(event);
    return dropped;
  }

  /** Whether `bytes` more fit the ledger's budget and `maxBytes`, once `freed` of its charges are given back. */
  #room(bytes: number, freed: number): boolean {
    const need = bytes - freed;
    return this.#ledger.held + need <= this.#maxBytes() && this.#ledger.fits(need);
  }

  /** Stores an event in its place in the time order. */
  #add(event: Event): void {
    this.#own();
    const slot = this.#columns.append(event);
    const order = this.#order;
    order.insert(this.#lowerBound(this.#columns.times[slot] as number, event.id), slot);
    this.#version += 1;
  }

  /** Removes a run-time event the log holds (by its object), giving back its charge. */
  #remove(event: Event): void {
    const time = Date.parse(event.event_timestamp);
    const order = this.#order.data;
    for (let position = this.#lowerBound(time, event.id); position < this.#order.length; position++) {
      const slot = order[position] as number;
      if (this.#columns.times[slot] !== time) break;
      if (this.#columns.event(slot) === event) {
        this.#removeAt(position);
        return;
      }
    }
    // Not found in the order (it cannot happen): forget its charge all the same.
    this.#uncharge(event);
  }

  /** Forgets the charge of a removed event and gives it back to the ledger (0 for a start-data event). */
  #uncharge(event: Event): void {
    const bytes = this.#charged.get(event);
    if (bytes === undefined) return;
    this.#charged.delete(event);
    this.#chargedBytes -= bytes;
    this.#ledger.release(bytes);
  }

  /** Removes the event at `position` of the time order; returns it. */
  #removeAt(position: number): Event {
    this.#own();
    const slot = this.#order.data[position] as number;
    const event = this.#columns.event(slot);
    this.#order.remove(position);
    this.#columns.remove(slot);
    this.#uncharge(event);
    this.#version += 1;
    if (this.#columns.holes > COMPACT_AFTER_HOLES && this.#columns.holes > this.size) this.#compact();
    return event;
  }

  /** The oldest event (the last of the event center's newest-first order), if any. */
  oldest(): Event | undefined {
    return this.#order.length === 0 ? undefined : this.#columns.event(this.#order.data[0] as number);
  }

  /** Removes the oldest event (giving back its charge, if it was recorded at run time); returns it. */
  deleteOldest(): Event | undefined {
    if (this.#order.length === 0) return undefined;
    return this.#removeAt(0);
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
      const column = this.#columns.field(f.field);
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
          if (found.length < page.size) found.push(this.#columns.event(slot));
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
      const column = this.#columns.field(filter.field);
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
    const { fields, lists, listCodes } = this.#columns.textMatches(needle);
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

  /** The first position whose event sorts at or after (`time`, `id`) in the ascending order. */
  #lowerBound(time: number, id: string | undefined): number {
    const order = this.#order.data;
    const times = this.#columns.times;
    let lo = 0;
    let hi = this.#order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const slot = order[mid] as number;
      const t = times[slot] as number;
      // Ascending by time, then descending by id; without an id, the first event at `time`.
      const before = t < time || (t === time && id !== undefined && this.#columns.idOf(slot) > id);
      if (before) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #sortOrder(): void {
    const columns = this.#columns;
    const times = columns.times;
    const n = columns.slots;
    if (columns.holes === 0 && newestFirst(times, n)) {
      // Seeded events come newest first: the ascending order is the slots backwards, and only runs
      // of equal times (rare) are sorted, by id.
      const order = new IntColumn(n);
      for (let slot = n - 1; slot >= 0; slot--) order.push(slot);
      const data = order.data;
      for (let i = 0; i < n; ) {
        const time = times[data[i] as number] as number;
        let end = i + 1;
        while (end < n && times[data[end] as number] === time) end++;
        if (end - i > 1) data.set(Array.from(data.subarray(i, end)).sort(this.#byOrder), i);
        i = end;
      }
      this.#order = order;
      return;
    }
    const slots: number[] = [];
    for (let slot = 0; slot < columns.slots; slot++) if (!columns.isHole(slot)) slots.push(slot);
    slots.sort(this.#byOrder);
    const order = new IntColumn(slots.length);
    for (const slot of slots) order.push(slot);
    this.#order = order;
  }

  /**
   * The log's order of two slots: ascending by time, then descending by id; slots of equal time and
   * id keep their insertion order (as a stable sort of the slots leaves them).
   */
  readonly #byOrder = (a: number, b: number): number => {
    const times = this.#columns.times;
    const ta = times[a] as number;
    const tb = times[b] as number;
    if (ta !== tb) return ta - tb;
    // Ties in time are rare: ids are made only for them.
    const ia = this.#columns.idOf(a);
    const ib = this.#columns.idOf(b);
    return ia > ib ? -1 : ia < ib ? 1 : a - b;
  };

  /** Compacts the columns (`EventColumns.compact`) and renumbers the order's slots (it holds no holes). */
  #compact(): void {
    const renumber = this.#columns.compact();
    const order = this.#order.data;
    for (let i = 0; i < this.#order.length; i++) order[i] = renumber[order[i] as number] as number;
  }
}

/** A `maxBytes` option as a function: a number read as given, none as no bound. */
function boundOf(maxBytes: (() => number) | number | undefined): () => number {
  if (typeof maxBytes === 'function') return maxBytes;
  const bound = maxBytes ?? Number.POSITIVE_INFINITY;
  return () => bound;
}

/** Whether the first `n` times never increase (events added newest first). */
function newestFirst(times: Float64Array, n: number): boolean {
  for (let i = 1; i < n; i++) if ((times[i] as number) > (times[i - 1] as number)) return false;
  return true;
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
