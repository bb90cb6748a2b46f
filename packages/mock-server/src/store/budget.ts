/**
 * The mock's one memory budget ({@link MemoryBudget}): every store that keeps something at run time
 * (records the API or the control plane adds, data a session loads, the journal, the event log,
 * faults, one-off answers, waits, timed runs, the scenario's steps, webhook deliveries and their
 * attempts) charges its bytes here, by the heap's measure ({@link heapBytes}, {@link textBytes}), at
 * the moment it keeps them, and releases them when they go. A session's core has a budget of its own
 * (its share), whose charges count against the mock's too: both must have room.
 *
 * Past the budget a store either refuses (a 409 `budget_exceeded` naming the store, the budget, what
 * it holds and the option that raises it; nothing changes) or, for a store that drops its oldest
 * entries anyway (journal, event log, attempt log), drops them until the new one fits
 * ({@link BUDGET_STORES} says which). The store's own bounds (counts, bytes) stay as second bounds.
 *
 * The start data (the mock's options) is outside the budget: the budget bounds what is added after
 * the start. The default is half the heap limit where the runtime tells it ({@link defaultBudgetBytes}:
 * Node, Bun and Deno, through `process.getBuiltinModule('node:v8')`, with no import of `node:`), else
 * a fixed {@link DEFAULT_BUDGET_BYTES} (browsers, workers).
 *
 * @module
 */
import { type NumberRange, resolveOptionGroup } from '../errors/ranges.js';
import { HttpError } from '../errors.js';

/** What a store does when a charge would pass the budget. */
export type BudgetFull = 'refuses' | 'evicts';

/** One store the budget charges: what it keeps, what it does when full, and how to make room. */
export interface BudgetStoreInfo {
  /** What it keeps, as messages name it. */
  readonly keeps: string;
  /** `refuses`: the write is a 409 `budget_exceeded`; `evicts`: its oldest entries go first. */
  readonly full: BudgetFull;
  /** How a test makes room in it (for a refusing store's message). */
  readonly room: string;
}

/**
 * The stores the budget charges, by name (`control.budget().stores` answers their bytes). The docs'
 * table (`docs/security.md`, "The memory budget") lists them as here.
 */
export const BUDGET_STORES = Object.freeze({
  data: {
    keeps:
      'the data: a session’s data, data loaded over the control plane beyond the start data, and the records the API and the control plane add',
    full: 'refuses',
    room: 'delete records, load smaller data (POST /__mock/seed) or end sessions',
  },
  journal: { keeps: 'the journal of requests', full: 'evicts', room: 'oldest entries dropped first' },
  events: { keeps: 'the event log', full: 'evicts', room: 'oldest events dropped first' },
  faults: { keeps: 'the endpoint faults', full: 'refuses', room: 'DELETE /__mock/faults' },
  oneOff: { keeps: 'the one-off answers', full: 'refuses', room: 'DELETE /__mock/responses' },
  waits: { keeps: 'the pending waits', full: 'refuses', room: 'let waits end, or wait with a smaller match' },
  timedRuns: {
    keeps: 'the pending timed runs',
    full: 'refuses',
    room: 'advance the clock (POST /__mock/clock)',
  },
  scenario: {
    keeps: 'the scenario’s pending steps',
    full: 'refuses',
    room: 'POST /__mock/reset, or a smaller timeline',
  },
  webhooks: {
    keeps: 'the webhook integrations and deliveries under way',
    full: 'refuses',
    room: 'delete integrations, or advance the clock so that deliveries end',
  },
  attempts: { keeps: 'the delivery attempt log', full: 'evicts', room: 'oldest attempts dropped first' },
  requests: {
    keeps: 'the bodies of the requests being handled',
    full: 'refuses',
    room: 'send fewer large bodies at once',
  },
} as const satisfies Record<string, BudgetStoreInfo>);

/** A store the budget charges ({@link BUDGET_STORES}). */
export type BudgetStore = keyof typeof BUDGET_STORES;

/** The names of {@link BUDGET_STORES}, in their order. */
export const BUDGET_STORE_NAMES = Object.freeze(Object.keys(BUDGET_STORES) as BudgetStore[]);

/** The default budget where the heap limit is not known (browsers, workers): 256 MiB. */
export const DEFAULT_BUDGET_BYTES = 256 * 1024 * 1024;

/** The share of the heap limit the default budget is ({@link heapShareBudget}): a half. */
export const HEAP_BUDGET_SHARE = 0.5;

/**
 * The mock's budget (the `budget` option): `bytes`, what the mock may keep at run time beyond its
 * start data, sessions included; `sessionBytes`, what one session may keep of it.
 */
export interface BudgetOptions {
  /**
   * Bytes the mock keeps at run time, by the heap's measure, sessions included: 1 MiB to 64 GiB.
   * Default half the heap limit where the runtime tells it (Node, Bun, Deno), else
   * {@link DEFAULT_BUDGET_BYTES} (256 MiB): `defaultBudgetBytes` of `store/budget.ts`.
   */
  bytes: number;
  /**
   * Bytes one session keeps (its data, journal, faults, ...), counted against `bytes` too: 0 to
   * `bytes`. Default a quarter of `bytes`, so that one session cannot take what every other needs.
   */
  sessionBytes: number;
}

/** The documented range of each member of the `budget` option, both ends included. */
export const BUDGET_RANGES = Object.freeze({
  bytes: { min: 1024 * 1024, max: 64 * 1024 ** 3, unit: 'bytes' },
  sessionBytes: { min: 0, max: 64 * 1024 ** 3, unit: 'bytes' },
} as const satisfies Record<keyof BudgetOptions, NumberRange>);

/** A session's default share of the budget: a quarter. */
export const SESSION_BUDGET_SHARE = 0.25;

/**
 * The whole `budget` option from a partial one (`fallback` is the default `bytes`), each member
 * checked against {@link BUDGET_RANGES}, `sessionBytes` at most `bytes`.
 * @throws RangeError naming the member, its range and what came.
 */
export function toBudgetOptions(
  given: Partial<BudgetOptions> | undefined,
  fallback: number = defaultBudgetBytes(),
): BudgetOptions {
  const resolved = resolveOptionGroup(
    {
      ranges: BUDGET_RANGES,
      defaults: {
        bytes: fallback,
        sessionBytes: Math.floor((given?.bytes ?? fallback) * SESSION_BUDGET_SHARE),
      },
    },
    given,
    'MockOptions budget',
    'member',
  );
  if (resolved.sessionBytes > resolved.bytes) {
    throw new RangeError(
      `MockOptions budget.sessionBytes: expected at most budget.bytes (${resolved.bytes}), received ${resolved.sessionBytes}`,
    );
  }
  return resolved;
}

/**
 * The heap limit of this process, bytes (`v8.getHeapStatistics().heap_size_limit`), where the
 * runtime offers `process.getBuiltinModule` (Node 20.16+, Bun, Deno): read without importing
 * `node:v8`, so that the core still loads in browsers and workers (`undefined` there).
 */
export function heapSizeLimit(): number | undefined {
  type V8 = { getHeapStatistics?: () => { heap_size_limit?: unknown } };
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  let limit: unknown;
  try {
    limit = (runtime?.getBuiltinModule?.('node:v8') as V8 | undefined)?.getHeapStatistics?.().heap_size_limit;
  } catch {
    limit = undefined;
  }
  return typeof limit === 'number' && Number.isFinite(limit) && limit > 0 ? limit : undefined;
}

/**
 * The default `budget.bytes`: {@link heapShareBudget} of the heap limit where it is known
 * ({@link heapSizeLimit}), else {@link DEFAULT_BUDGET_BYTES}.
 */
export function defaultBudgetBytes(): number {
  const limit = heapSizeLimit();
  return limit === undefined ? DEFAULT_BUDGET_BYTES : heapShareBudget(limit);
}

/**
 * The default budget for a heap of `heapSizeLimit` bytes: {@link HEAP_BUDGET_SHARE} of it, within
 * {@link BUDGET_RANGES}.
 */
export function heapShareBudget(heapSizeLimit: number): number {
  const share = Math.floor(heapSizeLimit * HEAP_BUDGET_SHARE);
  return Math.min(Math.max(share, BUDGET_RANGES.bytes.min), BUDGET_RANGES.bytes.max);
}

/**
 * What {@link heapBytes} charges, in bytes: each part at least what V8 (64-bit, without pointer
 * compression) takes for it, rounding and spare capacity included. Shared values are charged at each
 * use.
 */
export const HEAP_BYTES = Object.freeze({
  /** A string: its header, then {@link perCharacter} per character (a two-byte string's size). */
  string: 24,
  /** Per character of a string. */
  perCharacter: 2,
  /** A number (a heap number; small integers take less). */
  number: 16,
  /** An array: the array object and its backing store's header. */
  array: 64,
  /** Per item of an array (its slot, with room for spare capacity). */
  perItem: 16,
  /** An object: its header. */
  object: 64,
  /** Per member of an object (its slot, or its entry when the object is a dictionary), its name charged as a string besides. */
  perMember: 96,
});

/**
 * About the heap a JSON text takes while a request is handled, before it is parsed: its parsed value
 * and the copy a check makes of it (twice the value, by {@link HEAP_BYTES}: each `{` an object, each
 * `[` an array, each `,` and `:` a value's slot), and the text itself. Counted with `indexOf` (no walk
 * by character in script, nothing parsed): a body of 300,000 empty objects, one megabyte of text, is
 * some forty megabytes of heap once parsed and checked.
 */
export function jsonTextHeapBytes(text: string): number {
  const containers = HEAP_BYTES.object * occurrences(text, '{') + HEAP_BYTES.array * occurrences(text, '[');
  const slots = HEAP_BYTES.perItem * occurrences(text, ',') + HEAP_BYTES.perMember * occurrences(text, ':');
  return textBytes(text) + 2 * (containers + slots);
}

/** How many times `char` occurs in `text`. */
function occurrences(text: string, char: string): number {
  let count = 0;
  for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) count += 1;
  return count;
}

/**
 * An upper bound of the heap a JSON-like value takes, by {@link HEAP_BYTES}: strings, numbers,
 * arrays and objects (member names included); `true`, `false`, `null` and `undefined` take nothing of
 * their own. An iterative walk (no recursion), linear in the value's size; for a value within the
 * JSON bounds (no cycles).
 */
export function heapBytes(value: unknown): number {
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      bytes += HEAP_BYTES.string + HEAP_BYTES.perCharacter * item.length;
    } else if (typeof item === 'number') {
      bytes += HEAP_BYTES.number;
    } else if (Array.isArray(item)) {
      bytes += HEAP_BYTES.array + HEAP_BYTES.perItem * item.length;
      for (const inner of item) stack.push(inner);
    } else if (typeof item === 'object' && item !== null) {
      bytes += HEAP_BYTES.object;
      for (const [name, inner] of Object.entries(item)) {
        bytes += HEAP_BYTES.perMember + HEAP_BYTES.string + HEAP_BYTES.perCharacter * name.length;
        stack.push(inner);
      }
    }
  }
  return bytes;
}

/**
 * What the budget charges for one kept thing (a fault, a one-off answer, a wait, a timed run, an
 * integration, a delivery) beside its measured parts: its own object, id, small members and index
 * slot, 512 bytes. So that a thing with no `match` or body is charged too.
 */
export const KEPT_ITEM_BYTES = 512;

/** What a kept text takes by the heap's measure: a string's header and two bytes a character (0 for none). */
export function textBytes(text: string | undefined): number {
  return text === undefined ? 0 : HEAP_BYTES.string + HEAP_BYTES.perCharacter * text.length;
}

/** What `control.budget()` and `GET /__mock/budget` answer: what a budget allows and holds, bytes. */
export interface BudgetView {
  /** The bytes it allows: the mock's `budget.bytes`, or in a session its `budget.sessionBytes`. */
  limit: number;
  /** The bytes charged now (in the mock's view: the sessions' included). */
  used: number;
  /** The option that sets `limit` (`budget.bytes`, `budget.sessionBytes`). */
  option: string;
  /** The bytes each store holds (of this mock or session; not its sessions'). */
  stores: Record<BudgetStore, number>;
  /** In the mock's view: the bytes its sessions hold together. */
  sessions?: number;
  /** In a session's view: the whole mock's budget, which every session shares. */
  mock?: { limit: number; used: number };
}

/** Bytes as messages say them: `12.5 MiB`, `640 KiB`, `512 bytes`. */
function sized(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/**
 * How an evicting store makes room when a refusing store's charge would pass the budget: it drops its
 * oldest entries until it has released `need` bytes, or holds none ({@link Ledger.evictWith}).
 */
export type Evictor = (need: number) => void;

/**
 * One budget: the mock's, or a session's share of it (made by {@link child}, whose charges count
 * against this one too). Charges are kept by store; a store keeps its own charges in a
 * {@link Ledger} ({@link ledger}). A refusing store's charge that does not fit first makes the
 * evicting stores (the journal, the attempt log) drop their oldest entries, this budget's then its
 * sessions'; it is refused only when that is not enough. An evicting store's own charge
 * ({@link Ledger.tryCharge}) never makes another store drop anything.
 */
export class MemoryBudget {
  /** The bytes it allows. */
  readonly limit: number;
  readonly #option: string;
  readonly #owner: string;
  readonly #parent: MemoryBudget | undefined;
  #used = 0;
  readonly #stores = new Map<BudgetStore, number>();
  /** Whether {@link close} ran (a session's budget, given back). */
  #closed = false;
  /** The bytes each store holds here and in every session under this budget. */
  readonly #everywhere = new Map<BudgetStore, number>();
  /** In the mock's budget: what its sessions hold together. */
  #sessions = 0;
  /** The evicting stores' ways to make room, in the order they were given. */
  readonly #evictors: Evictor[] = [];
  /** The sessions' budgets made from this one, until they close. */
  readonly #children = new Set<MemoryBudget>();

  /**
   * A budget of `limit` bytes.
   * @param limit the bytes it allows (`Infinity`: unbounded, for a store made alone in a test).
   * @param option the option that sets `limit`, as messages name it.
   * @param owner whose budget it is, as messages name it (`the mock`, `session ses_…`).
   * @param parent the budget its charges count against too (a session's: the mock's).
   */
  constructor(limit: number, option = 'budget.bytes', owner = 'the mock', parent?: MemoryBudget) {
    this.limit = limit;
    this.#option = option;
    this.#owner = owner;
    this.#parent = parent;
  }

  /** A session's share of this budget: `limit` bytes, its charges counted here too. */
  child(limit: number, owner: string): MemoryBudget {
    const child = new MemoryBudget(limit, 'budget.sessionBytes', owner, this);
    this.#children.add(child);
    return child;
  }

  /** Adds an evicting store's way to make room (see {@link Evictor}). */
  evictWith(evictor: Evictor): void {
    this.#evictors.push(evictor);
  }

  /** Lets the evicting stores (this budget's, then its sessions') drop their oldest until `bytes` more fit. */
  #makeRoom(bytes: number): void {
    this.#shed(this.#used + bytes - this.limit);
  }

  /** Makes the evicting stores (this budget's, then its sessions') release `amount` bytes, or all they can. */
  #shed(amount: number): void {
    const target = this.#used - amount;
    for (const evict of this.#evictors) {
      if (this.#used <= target) return;
      evict(this.#used - target);
    }
    for (const child of this.#children) {
      if (this.#used <= target) return;
      child.#shed(this.#used - target);
    }
  }

  /** The bytes charged now (its sessions' included). */
  get used(): number {
    return this.#used;
  }

  /** A store's ledger: its own charges, counted here. */
  ledger(store: BudgetStore): Ledger {
    return new Ledger(this, store);
  }

  /** The first budget (this one, then its parent) that `bytes` more would pass; `undefined` if all have room. */
  #full(bytes: number): MemoryBudget | undefined {
    if (bytes <= 0) return undefined;
    if (this.#used + bytes > this.limit) return this;
    return this.#parent ? this.#parent.#full(bytes) : undefined;
  }

  /** Whether `bytes` more fit this budget and its parent's. */
  fits(bytes: number): boolean {
    return this.#full(bytes) === undefined;
  }

  /**
   * Charges `bytes` to `store` (a negative amount releases), or throws when they do not fit and
   * `force` is not set.
   * @throws HttpError 409 `budget_exceeded` naming the store, the budget, what it holds and its option.
   */
  charge(store: BudgetStore, bytes: number, force: boolean): void {
    if (!force && !this.fits(bytes)) {
      // The evicting stores make room first: in each budget of the chain that `bytes` would pass.
      for (let budget: MemoryBudget | undefined = this; budget; budget = budget.#parent) {
        if (budget.#used + bytes > budget.limit) budget.#makeRoom(bytes);
      }
      const full = this.#full(bytes);
      if (full) throw full.#refusal(store, bytes);
    }
    this.#add(store, bytes, false);
  }

  #add(store: BudgetStore, bytes: number, fromSession: boolean): void {
    // A session's budget once closed gave everything back: a late release (a request of an ended
    // session answered after its end) changes nothing, here or in the mock's budget.
    if (this.#closed) return;
    this.#used += bytes;
    this.#everywhere.set(store, (this.#everywhere.get(store) ?? 0) + bytes);
    if (fromSession) this.#sessions += bytes;
    else this.#stores.set(store, (this.#stores.get(store) ?? 0) + bytes);
    if (this.#parent) this.#parent.#add(store, bytes, true);
  }

  /**
   * The bytes `store` holds in the whole mock: in the mock's own budget and every session's (the
   * budget at the top of this one's chain).
   */
  heldInMock(store: BudgetStore): number {
    let top: MemoryBudget = this;
    while (top.#parent) top = top.#parent;
    return top.#everywhere.get(store) ?? 0;
  }

  /** The 409 for `bytes` more of `store` than this budget has room for. */
  #refusal(store: BudgetStore, bytes: number): HttpError {
    const held = [...this.#stores]
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([name, n]) => `${name} ${sized(n)}`);
    if (this.#sessions > 0) held.push(`sessions ${sized(this.#sessions)}`);
    const info = BUDGET_STORES[store];
    return new HttpError(
      409,
      'budget_exceeded',
      `${store} (${info.keeps}) would take ${sized(bytes)} more, past ${this.#owner}'s memory budget of ${sized(this.limit)} (${this.#option}), which holds ${sized(this.#used)}${held.length > 0 ? ` (${held.join(', ')})` : ''}; nothing was changed: ${info.room}, or raise ${this.#option}`,
    );
  }

  /** Releases everything it holds from its parent (a session that ended); it holds nothing after. */
  close(): void {
    const parent = this.#parent;
    if (parent) {
      parent.#children.delete(this);
      for (const [store, bytes] of this.#stores) parent.#add(store, -bytes, true);
    }
    this.#stores.clear();
    this.#everywhere.clear();
    this.#used = 0;
    this.#closed = true;
  }

  /** What it allows and holds, by store. */
  view(): BudgetView {
    const stores = Object.fromEntries(
      BUDGET_STORE_NAMES.map((name) => [name, this.#stores.get(name) ?? 0]),
    ) as Record<BudgetStore, number>;
    const view: BudgetView = { limit: this.limit, used: this.#used, option: this.#option, stores };
    if (this.#parent) view.mock = { limit: this.#parent.limit, used: this.#parent.#used };
    else view.sessions = this.#sessions;
    return view;
  }
}

/**
 * One store's charges in a budget: what it holds, charged when it keeps something and released when
 * that goes. `release` never gives back more than the ledger holds.
 */
export class Ledger {
  #held = 0;

  /**
   * A store's ledger in `budget` (made by {@link MemoryBudget.ledger}).
   * @param budget the budget it charges.
   * @param store the store it charges as.
   */
  constructor(
    private readonly budget: MemoryBudget,
    readonly store: BudgetStore,
  ) {}

  /** The bytes it holds. */
  get held(): number {
    return this.#held;
  }

  /** Another ledger of the same store in the same budget (a hold kept apart from this one's charges). */
  sibling(): Ledger {
    return this.budget.ledger(this.store);
  }

  /** What this store holds in the whole mock, the sessions' included ({@link MemoryBudget.heldInMock}). */
  get heldInMock(): number {
    return this.budget.heldInMock(this.store);
  }

  /** Whether `bytes` more fit the budget (and its parent's). */
  fits(bytes: number): boolean {
    return this.budget.fits(bytes);
  }

  /**
   * Charges `bytes` (`force`: whatever the budget says, for data a reset puts back).
   * @throws HttpError 409 `budget_exceeded` when they do not fit (nothing is charged).
   */
  charge(bytes: number, force = false): void {
    if (bytes <= 0) return;
    this.budget.charge(this.store, bytes, force);
    this.#held += bytes;
  }

  /**
   * Makes this (evicting) store drop its oldest entries when a refusing store needs the room: see
   * {@link Evictor}.
   */
  evictWith(evictor: Evictor): void {
    this.budget.evictWith(evictor);
  }

  /** Charges `bytes` if they fit (no other store drops anything for them): `false` (nothing charged) when they do not. */
  tryCharge(bytes: number): boolean {
    if (!this.budget.fits(bytes)) return false;
    this.charge(bytes);
    return true;
  }

  /**
   * Holds `bytes` instead of what it holds now (data replaced): a 409 when the difference does not
   * fit and `force` is not set (nothing changes).
   */
  set(bytes: number, force = false): void {
    const change = bytes - this.#held;
    if (change > 0) this.charge(change, force);
    else this.release(-change);
  }

  /** Releases `bytes` it holds (at most what it holds). */
  release(bytes: number): void {
    const released = Math.min(Math.max(bytes, 0), this.#held);
    this.budget.charge(this.store, -released, true);
    this.#held -= released;
  }

  /** Releases everything it holds (the store was cleared). */
  releaseAll(): void {
    this.release(this.#held);
  }
}

/** A ledger of a budget without a limit: for a store made alone (a unit test, a helper's own copy). */
export function unboundedLedger(store: BudgetStore): Ledger {
  return new MemoryBudget(Number.POSITIVE_INFINITY).ledger(store);
}
