/**
 * The event log's storage: one slot per event, in insertion order, across typed columns.
 *
 * - **Columns of codes.** Every filterable and facetable field is a dictionary code
 *   (`dictionary.ts`) in a typed array; the account, the time and the attribute list (coded by
 *   identity or content) have their own columns.
 * - **Seeded events as columns only.** An event added through the seed generator's {@link EventSink}
 *   keeps its id and `mutation_id` as words, and its object is made when read, equal to the one the
 *   generator would make; an event added as an object keeps the object.
 * - **Holes and compaction.** A removed event leaves a hole until {@link EventColumns.compact} moves
 *   the live slots down and drops the dictionaries' values that only removed events used.
 * - **Free text over dictionaries.** Which values contain a needle is worked out once per distinct
 *   value ({@link EventColumns.textMatches}); internal ids never match.
 *
 * Not here: the time order, the searches, facets and chunked walks over it, and when to compact
 * (`event-log.ts`, the one the rest of the mock uses).
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
   * The code of an attribute list (a frozen list, shared by the events given its code; lists of the
   * same keys and values get the same code, and events read the first of them).
   */
  list(attributes: readonly EventAttribute[]): number;
  /**
   * Adds an event: `words` holds the id's four words (`IdFactory.uuidText`) then the
   * `mutation_id`'s two (`IdFactory.mutationText`); `codes` the codes of the account, integration,
   * event type, provider, asset id, asset type and mutation type, in that order; `time` is epoch ms
   * (newest first is cheapest: the log's order is then made without a sort); `list` is the code of
   * its attributes ({@link list}).
   */
  add(words: Uint32Array, codes: Int32Array, time: number, list: number): void;
}

/** The room for later events a seeded log keeps, as a share of the seeded ones (1/16). */
export const SEED_HEADROOM = 1 / 16;

/** The least room for later events a seeded log keeps. */
const MIN_HEADROOM = 1024;

/** Slot kinds (see `EventColumns.#kinds`). */
const HOLE = 0;
const OBJECT = 1;
const SEEDED = 2;
/** Words per slot in `EventColumns.#words`. */
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

/** The event fields kept dictionary-coded, one column each (and the facets' fields). */
export const EVENT_FIELDS: readonly EventField[] = [
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
export interface FieldColumn {
  readonly dictionary: Dictionary;
  readonly codes: IntColumn;
}

/** The free-text matches of one needle, by code ({@link EventColumns.textMatches}). */
export interface TextMatches {
  /**
   * Per field of `EVENT_TEXT_FIELDS` (`query/text.ts`), in its order: a flag per code (1 where the
   * value is searchable text, not an internal id, and contains the needle), and the field's codes by slot.
   */
  fields: Array<{ flags: Uint8Array; codes: Int32Array }>;
  /** A flag per attribute-list code: 1 where one of the list's searchable values contains the needle. */
  lists: Uint8Array;
  /** The attribute-list codes by slot. */
  listCodes: Int32Array;
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

/** One account's events as columns, slot by slot (insertion order, holes included until compaction). */
export class EventColumns {
  /**
   * What each slot holds: {@link HOLE} (a removed event, until the next compaction), {@link OBJECT}
   * (an event added as an object, kept in `#objects`) or {@link SEEDED} (columns only: its id and
   * `mutation_id` as words in `#words`, its object made when read).
   */
  readonly #kinds: IntColumn;
  #objects: Array<Event | undefined>;
  /** Per slot, {@link WORDS} words: a seeded event's id (4), then its `mutation_id` (2). */
  readonly #words: IntColumn;
  readonly #accounts: Dictionary;
  readonly #accountCodes: IntColumn;
  #holes: number;
  readonly #time: FloatColumn;
  readonly #columns: Record<EventField, FieldColumn>;
  /** Attribute lists, by identity (lists are shared between events) or by content. */
  readonly #lists: Dictionary;
  readonly #listByIdentity: Map<readonly EventAttribute[], number>;
  readonly #listValues: Array<readonly string[]>;
  /** The first list seen of each code (what a seeded event's `attributes` is). */
  readonly #listObjects: Array<readonly EventAttribute[]>;
  readonly #listCodes: IntColumn;
  /** Whether each text field's values are searchable text: worked out when read, so a copy starts again. */
  readonly #readable = EVENT_TEXT_FIELDS.map(() => new Readability());

  /**
   * Empty columns, or a copy of `from` that changes apart from it (every column, dictionary and
   * list copied; the event objects, which are never changed, shared).
   */
  constructor(from?: EventColumns) {
    this.#kinds = from ? from.#kinds.clone() : new IntColumn();
    this.#objects = from ? from.#objects.slice() : [];
    this.#words = from ? from.#words.clone() : new IntColumn();
    this.#accounts = from ? from.#accounts.clone() : new Dictionary();
    this.#accountCodes = from ? from.#accountCodes.clone() : new IntColumn();
    this.#holes = from ? from.#holes : 0;
    this.#time = from ? from.#time.clone() : new FloatColumn();
    this.#columns = Object.fromEntries(
      EVENT_FIELDS.map((field) => {
        const column = from ? from.#columns[field] : undefined;
        return [
          field,
          column
            ? { dictionary: column.dictionary.clone(), codes: column.codes.clone() }
            : { dictionary: new Dictionary(), codes: new IntColumn() },
        ];
      }),
    ) as Record<EventField, FieldColumn>;
    this.#lists = from ? from.#lists.clone() : new Dictionary();
    this.#listByIdentity = new Map(from ? from.#listByIdentity : []);
    this.#listValues = from ? from.#listValues.slice() : [];
    this.#listObjects = from ? from.#listObjects.slice() : [];
    this.#listCodes = from ? from.#listCodes.clone() : new IntColumn();
  }

  /** The number of slots, holes included. */
  get slots(): number {
    return this.#kinds.length;
  }

  /** The number of holes (removed events not yet compacted away). */
  get holes(): number {
    return this.#holes;
  }

  /** Whether `slot` is a hole. */
  isHole(slot: number): boolean {
    return this.#kinds.data[slot] === HOLE;
  }

  /** The times by slot, epoch ms (the array is replaced when the column grows: read it per use). */
  get times(): Float64Array {
    return this.#time.data;
  }

  /** The dictionary and codes of `field`. */
  field(field: EventField): FieldColumn {
    return this.#columns[field];
  }

  /** How many distinct values a dictionary holds: a field's, the accounts' or the attribute lists'. */
  distinctValues(dictionary: EventField | 'account' | 'attributes'): number {
    if (dictionary === 'account') return this.#accounts.size;
    if (dictionary === 'attributes') return this.#lists.size;
    return this.#columns[dictionary].dictionary.size;
  }

  /**
   * A sink for the seed generator (`store/seed/events.ts`): it adds seeded events as columns only
   * (their objects are made when read, equal to the ones the generator would make). With `expected`,
   * every column makes room for that many more events at once (instead of doubling as they come),
   * and for {@link SEED_HEADROOM} of them more: the events the API and the control plane add later
   * (without it the first write after a seed of 1,000,000 events doubled every column: 200 ms).
   */
  sink(expected = 0): EventSink {
    const columns = [this.#accountCodes, ...SEEDED_FIELDS.map((field) => this.#columns[field].codes)];
    if (expected > 0) {
      const slots = this.slots + expected + Math.max(MIN_HEADROOM, Math.ceil(expected * SEED_HEADROOM));
      for (const column of [this.#kinds, this.#listCodes, ...columns]) column.reserve(slots);
      this.#words.reserve(slots * WORDS);
      this.#time.reserve(slots);
    }
    return {
      code: (field, value) =>
        field === 'account' ? this.#accounts.code(value) : this.#columns[field].dictionary.code(value),
      list: (attributes) => this.#listCode(attributes, false),
      add: (words, codes, time, list) => {
        this.#kinds.push(SEEDED);
        this.#objects.push(undefined);
        for (let i = 0; i < WORDS; i++) this.#words.push((words[i] as number) | 0);
        this.#time.push(time);
        for (let i = 0; i < columns.length; i++) (columns[i] as IntColumn).push(codes[i] as number);
        this.#listCodes.push(list);
      },
    };
  }

  /** Stores an event in a new slot of every column; returns the slot. */
  append(event: Event): number {
    const slot = this.#kinds.length;
    this.#kinds.push(OBJECT);
    this.#objects.push(event);
    for (let i = 0; i < WORDS; i++) this.#words.push(0);
    this.#accountCodes.push(this.#accounts.code(event.account_id));
    this.#time.push(Date.parse(event.event_timestamp));
    for (const field of EVENT_FIELDS) {
      const column = this.#columns[field];
      column.codes.push(column.dictionary.code(READ[field](event)));
    }
    this.#listCodes.push(this.#listCode(event.event.attributes));
    return slot;
  }

  /**
   * The code of an attribute list: shared lists by identity, others by their values. `byIdentity`:
   * whether to remember a frozen list by identity for later events (the seed generator remembers
   * its lists' codes itself).
   */
  #listCode(attributes: readonly EventAttribute[], byIdentity = true): number {
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
    if (byIdentity && Object.isFrozen(attributes)) this.#listByIdentity.set(attributes, code);
    return code;
  }

  /** Makes `slot` a hole (its event removed). */
  remove(slot: number): void {
    this.#kinds.data[slot] = HOLE;
    this.#objects[slot] = undefined;
    this.#holes += 1;
  }

  /** The id of the event in `slot`. */
  idOf(slot: number): string {
    const object = this.#objects[slot];
    return object ? object.id : IdFactory.uuidText(this.#words.data, slot * WORDS);
  }

  /** The event in `slot`: its object, or one made from the columns for a seeded event. */
  event(slot: number): Event {
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
   * Free text: which values of the fields of `EVENT_TEXT_FIELDS` (`query/text.ts`) and which
   * attribute lists contain `needle`, internal ids left out; worked out once per distinct value.
   */
  textMatches(needle: string): TextMatches {
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
    return { fields, lists, listCodes: this.#listCodes.data };
  }

  /**
   * Drops the holes: every column moves its live values down, in the same insertion order, and the
   * dictionaries drop the values no kept event uses. Answers the new slot of each old one (holes'
   * entries are meaningless), for the caller to renumber what it keeps by slot.
   */
  compact(): Int32Array {
    const n = this.#kinds.length;
    const renumber = new Int32Array(n);
    const kinds = this.#kinds.data;
    const words = this.#words.data;
    const ints = [
      kinds,
      this.#accountCodes.data,
      this.#listCodes.data,
      ...EVENT_FIELDS.map((field) => this.#columns[field].codes.data),
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
    for (const field of EVENT_FIELDS) this.#columns[field].codes.truncate(to);
    this.#holes = 0;
    this.#shrinkDictionaries(to);
    return renumber;
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
      ...EVENT_FIELDS.map((field) => ({
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
