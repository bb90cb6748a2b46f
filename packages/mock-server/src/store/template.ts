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
import { EventLog } from './event-log.js';
import type { RunSource } from './runs.js';
import { DEFAULT_SIZES, type MockState, type SeedSizes } from './state.js';
import type { SeededParts } from './store.js';

/**
 * Freezes `value` and everything it holds (plain objects and arrays), depth first; what is frozen
 * already is taken as frozen through. Records are JSON, so there are no cycles.
 */
function freezeDeep(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  if (Array.isArray(value)) {
    for (const item of value) freezeDeep(item);
  } else {
    for (const key in value) freezeDeep((value as Record<string, unknown>)[key]);
  }
  Object.freeze(value);
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

/**
 * The key of a checked scene: its JSON (a checked scene's members come in the schema's order, and
 * its size is bounded by `SCENE_LIMITS`).
 */
export function sceneKey(scene: unknown): string {
  return `scene:${JSON.stringify(scene)}`;
}

/**
 * The template of `key`: the one still in memory (made before, in this process, by any mock), or a
 * new one from `make` (then kept for the next caller, weakly). `make` must always give the same data
 * for the same key.
 */
export function templateFor(key: string, make: () => DataTemplate): DataTemplate {
  const known = templates.get(key)?.deref();
  if (known) {
    // Most recently used last, so that the oldest key goes first.
    templates.delete(key);
    templates.set(key, new WeakRef(known));
    return known;
  }
  const template = make();
  templates.delete(key);
  templates.set(key, new WeakRef(template));
  collected.register(template, key);
  while (templates.size > TEMPLATE_CACHE_KEYS) {
    const oldest = templates.keys().next();
    if (oldest.done) break;
    templates.delete(oldest.value);
  }
  return template;
}

/** Whether a template for `key` is in memory (for the sessions' memory estimate). */
export function hasTemplate(key: string): boolean {
  return templates.get(key)?.deref() !== undefined;
}
