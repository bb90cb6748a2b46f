/**
 * Generated data kept unchanged, and shared by every store made from it ({@link DataTemplate}), and
 * the process-wide cache that finds it again by what it was generated from ({@link templateFor}).
 *
 * Copy on write, by layer:
 * - **Records** (workspaces, runs, rules, notification configurations, stacks, backends, modules,
 *   repositories, accounts) are frozen, deeply, and shared: the domain never changes a record in
 *   place, it stores a new version (`Collection.update`, `RunStore.set`, a stack replaced in its
 *   list), and a frozen record turns a change in place into a `TypeError` instead of a change seen by
 *   every store that shares it.
 * - **Containers** are each store's own: a store indexes the shared records into its own maps and
 *   sorted indexes (linear in the records, built lazily for sorts), and copies the stack list.
 * - **Events** are columns too large to copy per store: each store gets a fork of the template's
 *   log (`EventLog.fork`), which copies the columns on its first change.
 * - **Seeded runs** are made again on demand from replay points (`runs.ts`), which are shared.
 *
 * So a mock, a session or a reset that loads data generated before costs the containers, not the
 * generation: see `docs/mock-server.md` (Sessions) and the sessions figure of `pnpm bench`.
 *
 * @module
 */
import { drain } from '../query/pause.js';
import { EventLog } from './event-log.js';
import type { RunSource } from './runs.js';
import type { Steps } from './seed/helpers.js';
import { DEFAULT_SIZES, type MockState, type SeedSizes } from './state.js';
import type { SeededParts } from './store.js';

/** How many objects {@link freezeSteps} freezes between two points where it may stop: 4,096. */
const FREEZE_STEP = 4096;

/**
 * Freezes `value` and everything it holds (plain objects and arrays), in steps of
 * {@link FREEZE_STEP} objects (see {@link Steps}); what is frozen already is taken as frozen
 * through. Records are JSON, so there are no cycles. An iterative walk (no recursion): each object
 * is frozen when it is reached, then what it holds is walked; nothing sees the value before the
 * walk ends.
 */
function* freezeSteps(value: unknown): Steps {
  const stack: unknown[] = [value];
  let frozen = 0;
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null || Object.isFrozen(item)) continue;
    Object.freeze(item);
    if (Array.isArray(item)) {
      for (const inner of item) if (typeof inner === 'object' && inner !== null) stack.push(inner);
    } else {
      for (const key in item) {
        const inner = (item as Record<string, unknown>)[key];
        if (typeof inner === 'object' && inner !== null) stack.push(inner);
      }
    }
    if (++frozen % FREEZE_STEP === 0) yield;
  }
}

/** {@link freezeSteps} whole. */
function freezeDeep(value: unknown): void {
  drain(freezeSteps(value));
}

/** Data generated once and shared, unchanged, by the stores made from it. */
export class DataTemplate {
  /** The state, records frozen; each account's `events` empty (they are in {@link #seeded}). */
  readonly #state: MockState;
  /** Per account (by position): its seeded runs' replay points, and its events as a log never changed. */
  readonly #seeded: ReadonlyArray<{ runs: RunSource | undefined; events: EventLog }>;

  /**
   * Takes over generated data: `state`'s records are frozen, and each account's events (its log in
   * `seeded`, or its `events` list, made into a log here) are kept as a log that is only forked.
   */
  constructor(state: MockState, seeded: ReadonlyArray<SeededParts> = []) {
    this.#seeded = state.accounts.map((account, index) => {
      const parts = seeded[index];
      freezeDeep(account.events);
      return { runs: parts?.runs, events: parts?.events ?? new EventLog(account.events) };
    });
    const accounts = state.accounts.map((account) => ({ ...account, events: [] }));
    for (const account of accounts) freezeDeep(account);
    this.#state = Object.freeze({ ...state, sizes: Object.freeze({ ...state.sizes }), accounts });
  }

  /**
   * A template of generated data made in steps ({@link Steps}, run by `drive` or `drain` of
   * `query/pause.ts`): the records frozen in steps of a few thousand objects, then the template made
   * (as the constructor makes it, its freezing then done). The same template as
   * `new DataTemplate(state, seeded)`; nothing sees `state` half frozen but the caller.
   */
  static *build(state: MockState, seeded: ReadonlyArray<SeededParts> = []): Steps<DataTemplate> {
    for (const account of state.accounts) {
      for (const [name, member] of Object.entries(account)) if (name !== 'events') yield* freezeSteps(member);
      yield* freezeSteps(account.events);
    }
    return new DataTemplate(state, seeded);
  }

  /**
   * A state and seeded parts for a new store (`new Store(state, seeded)`): the shared records, in
   * lists of the store's own where the store changes the list itself (the stacks), and a fork of
   * each account's events.
   */
  instance(): { state: MockState; seeded: SeededParts[] } {
    const accounts = this.#state.accounts.map((account) => ({ ...account, stacks: [...account.stacks] }));
    return {
      state: { ...this.#state, accounts },
      seeded: this.#seeded.map((parts) => ({ runs: parts.runs, events: parts.events.fork() })),
    };
  }
}

/**
 * The most events the primary account of seeded data may have for the data to be shared: 100,000.
 * Larger data is generated for each load and not shared (so not frozen either): its store's first
 * event would copy the event columns (about 100 MB and 100 ms at a million events), and sessions of
 * such sizes do not fit the sessions' memory budget anyway.
 */
export const TEMPLATE_MAX_EVENTS = 100_000;

/**
 * How many keys the template cache keeps at most (oldest dropped first): 64. A template lives while
 * a store made from it does (the cache holds it weakly), so this bounds the keys only; memory is
 * bounded by the live mocks and sessions.
 */
export const TEMPLATE_CACHE_KEYS = 64;

/** The templates by key, held weakly; a key goes once its template is collected. */
const templates = new Map<string, WeakRef<DataTemplate>>();
const collected = new FinalizationRegistry<string>((key) => {
  if (templates.get(key)?.deref() === undefined) templates.delete(key);
});

/**
 * The key of a seed and its sizes: the same for the same seed (a number and its text differ) and
 * sizes, whatever the order of the sizes' members.
 */
export function seedKey(seed: number | string, sizes: SeedSizes): string {
  const ordered = (Object.keys(DEFAULT_SIZES) as Array<keyof SeedSizes>).map((name) => sizes[name]);
  return `seed:${JSON.stringify([seed, ordered])}`;
}

/** The keys of the checked scenes seen, by scene (a scene is hashed once, however often it is loaded). */
const SCENE_KEYS = new WeakMap<object, string>();

/**
 * The key of a checked scene: a 64-bit hash of its JSON values and their order (a checked scene's
 * members come in the schema's order; long texts sampled), with its count of values; not its text,
 * which would keep a second copy of a large scene. Two scenes may share a hash: the cache compares the scene a template
 * was made from with the one asked for ({@link templateFor}), so a collision costs a generation,
 * never another scene's data. An iterative walk, once per scene object.
 */
export function sceneKey(scene: object): string {
  let key = SCENE_KEYS.get(scene);
  if (key === undefined) {
    key = `scene:${jsonHash(scene)}`;
    SCENE_KEYS.set(scene, key);
  }
  return key;
}

/** How many characters of each end of a long text {@link jsonHash} mixes in (and as many between): 16. */
const TEXT_SAMPLE = 16;

/**
 * A 64-bit hash (two 32-bit words, hex) of a JSON value's values in order, and their count; a text
 * longer than 48 characters by its length and 48 of its characters.
 */
function jsonHash(value: unknown): string {
  let a = 0x811c9dc5;
  let b = 0x6a09e667;
  let values = 0;
  const mix = (code: number) => {
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  };
  // A long text by its length, its ends and characters spread between them (the cache compares
  // whole scenes on a hit, so a sample is enough, and hashing stays linear in the values, not the text).
  const text = (t: string) => {
    mix(t.length);
    if (t.length <= 3 * TEXT_SAMPLE) {
      for (let i = 0; i < t.length; i++) mix(t.charCodeAt(i));
      return;
    }
    const step = (t.length - 2 * TEXT_SAMPLE) / TEXT_SAMPLE;
    for (let i = 0; i < TEXT_SAMPLE; i++) {
      mix(t.charCodeAt(i));
      mix(t.charCodeAt(t.length - 1 - i));
      mix(t.charCodeAt(TEXT_SAMPLE + Math.floor(i * step)));
    }
  };
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    values += 1;
    if (typeof item === 'string') {
      mix(1);
      text(item);
    } else if (typeof item === 'number' || typeof item === 'boolean' || item === null || item === undefined) {
      mix(2);
      text(String(item));
    } else if (Array.isArray(item)) {
      mix(3);
      mix(item.length);
      for (let i = item.length - 1; i >= 0; i--) stack.push(item[i]);
    } else if (typeof item === 'object') {
      const names = Object.keys(item);
      mix(4);
      mix(names.length);
      for (let i = names.length - 1; i >= 0; i--) {
        const name = names[i] as string;
        stack.push((item as Record<string, unknown>)[name]);
        stack.push(name);
      }
    }
  }
  const hex = (word: number) => (word >>> 0).toString(16).padStart(8, '0');
  return `${hex(a)}${hex(b)}:${values}`;
}

/**
 * Whether two JSON values are the same: the same values, members in the same order (checked scenes'
 * are). An iterative walk that stops at the first difference.
 */
export function sameJson(left: unknown, right: unknown): boolean {
  const stack: unknown[] = [left, right];
  while (stack.length > 0) {
    const r = stack.pop();
    const l = stack.pop();
    if (l === r) continue;
    if (typeof l !== 'object' || typeof r !== 'object' || l === null || r === null) return false;
    if (Array.isArray(l) !== Array.isArray(r)) return false;
    const lNames = Object.keys(l);
    const rNames = Object.keys(r);
    if (lNames.length !== rNames.length) return false;
    for (let i = 0; i < lNames.length; i++) {
      const name = lNames[i] as string;
      if (name !== rNames[i]) return false;
      stack.push((l as Record<string, unknown>)[name], (r as Record<string, unknown>)[name]);
    }
  }
  return true;
}

/** What each cached template was made from, where its key alone does not say it (a scene). */
const SOURCES = new WeakMap<DataTemplate, object>();

/** Whether `template` was made from `source` (always, when no source is named). */
export function madeFrom(template: DataTemplate, source: object | undefined): boolean {
  if (source === undefined) return true;
  const kept = SOURCES.get(template);
  return kept !== undefined && (kept === source || sameJson(kept, source));
}

/**
 * The template of `key` (and `source`, the scene it is made from, for a scene's hashed key): the one
 * still in memory (made before, in this process, by any mock), or a new one from `make` (then kept
 * for the next caller, weakly). `make` must always give the same data for the same key and source.
 * A template in memory under the same key but of another source (a hash collision) stays cached;
 * the one `make` gives is not.
 */
export function templateFor(key: string, make: () => DataTemplate, source?: object): DataTemplate {
  const known = templates.get(key)?.deref();
  if (known && madeFrom(known, source)) {
    // Most recently used last, so that the oldest key goes first.
    templates.delete(key);
    templates.set(key, new WeakRef(known));
    return known;
  }
  const template = make();
  if (known) return template;
  templates.delete(key);
  templates.set(key, new WeakRef(template));
  if (source !== undefined) SOURCES.set(template, source);
  collected.register(template, key);
  while (templates.size > TEMPLATE_CACHE_KEYS) {
    const oldest = templates.keys().next();
    if (oldest.done) break;
    templates.delete(oldest.value);
  }
  return template;
}

/**
 * The template of `key` (and `source`, see {@link templateFor}) when it is in memory, else
 * `undefined`; unlike {@link templateFor}, it neither makes one nor counts as a use.
 */
export function findTemplate(key: string, source?: object): DataTemplate | undefined {
  const known = templates.get(key)?.deref();
  return known && madeFrom(known, source) ? known : undefined;
}

/**
 * Whether a template for `key` (and `source`, see {@link templateFor}) is in memory (for the
 * sessions' memory estimate).
 */
export function hasTemplate(key: string, source?: object): boolean {
  return findTemplate(key, source) !== undefined;
}
