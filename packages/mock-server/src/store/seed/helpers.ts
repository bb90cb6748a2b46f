/**
 * Small helpers of the seed generator: time units, the fast timestamp writer, weighted choices,
 * random digits and versions, the id factory, frozen shared leaves. Repository and CI URLs are in
 * `urls.ts`.
 */
import type { TaskBackendSummary, WorkspaceBackendSummary } from '@iacm/sdk/contract';
import type { Random } from '../random.js';

// ---------------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------------

/** One second in milliseconds. */
export const SECOND = 1000;
/** One minute in milliseconds. */
export const MINUTE = 60 * SECOND;
/** One hour in milliseconds. */
export const HOUR = 60 * MINUTE;
/** One day in milliseconds. */
export const DAY = 24 * HOUR;

/** How far back workspaces, runs and rules go. */
export const HISTORY = 90 * DAY;
/** How far back events go. */
export const EVENT_WINDOW = 30 * DAY;

// The API's timestamp text of epoch milliseconds, made fast: its home is `query/dates.ts` (the
// journal writes one per request too).
export { iso } from '../../query/dates.js';

/** A step of the seed generator, which may be run in slices (`query/pause.ts`). */
export type { Steps } from '../../query/pause.js';

/**
 * About how much work a generator step does between two points where it may stop, in records (a
 * workspace, a run, an event, a rule...): 128, well under a millisecond of work.
 */
export const STEP_RECORDS = 128;

/**
 * Counts a step's work ({@link STEP_RECORDS} a stop): `add(n)` answers whether the step has done
 * enough since its last stop to stop again (`if (work.add(1)) yield;`).
 */
export class StepCounter {
  #work = 0;
  readonly #every: number;

  /** A counter that stops every `every` units of work. */
  constructor(every: number = STEP_RECORDS) {
    this.#every = every;
  }

  /** Counts `units` more work; `true` when it is time to stop (then counting starts again). */
  add(units = 1): boolean {
    this.#work += units;
    if (this.#work < this.#every) return false;
    this.#work = 0;
    return true;
  }
}

/** A weighted choice table, built once and sampled many times. */
export class Weighted<T> {
  readonly #items: T[];
  readonly #cumulative: number[];
  readonly #total: number;

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    this.#items = entries.map(([item]) => item);
    let sum = 0;
    this.#cumulative = entries.map(([, weight]) => {
      sum += weight;
      return sum;
    });
    this.#total = sum;
  }

  pick(rng: Random): T {
    const x = rng.next() * this.#total;
    const cumulative = this.#cumulative;
    for (let i = 0; i < cumulative.length; i++) {
      if (x < (cumulative[i] as number)) return this.#items[i] as T;
    }
    return this.#items[this.#items.length - 1] as T;
  }
}

/** `n` random digits (the first one non-zero). */
export function digits(rng: Random, n: number): string {
  let out = String(rng.int(1, 9));
  while (out.length < n) out += String(rng.int(0, 9));
  return out;
}

/** A `major.minor.patch` version. */
export function semver(rng: Random, maxMajor: number): string {
  return `${rng.int(0, maxMajor)}.${rng.int(0, 12)}.${rng.int(0, 9)}`;
}

export { IdFactory, word } from '../ids.js';

/** A `{ description }` wrapper, as runs and tasks carry enumerated members. */
export type Described<T extends string = string> = { description: T };

/** The `{ description }` wrappers of some values, made once, frozen and shared. */
export function described<T extends string>(values: readonly T[]): Map<T, Described<T>> {
  return new Map(values.map((value) => [value, Object.freeze({ description: value })]));
}

/** Freezes plain JSON data, all the way down. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

/** A workspace's (or a stack's) backend as workspaces and runs show it, and as run tasks show it. */
export interface BackendSummaries {
  backendSummary: WorkspaceBackendSummary;
  taskBackend: TaskBackendSummary;
}

/** Both backend summaries of a backend, frozen, to be shared. */
export function backendSummaries(summary: WorkspaceBackendSummary): BackendSummaries {
  const { backendType: type, backendConfig: config, managedResourceCount: resources } = deepFreeze(summary);
  return {
    backendSummary: summary,
    taskBackend: Object.freeze({
      type,
      config,
      resources,
      description: `${type} backend, ${resources} resources`,
    }),
  };
}

/** A URL or name made into a lower-case, dash-separated slug. */
export function slug(value: string): string {
  return value
    .replace(/^[a-z0-9]+:\/\//, '')
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
}
