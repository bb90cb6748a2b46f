/**
 * Sessions ({@link MockSessions}): separate mocks inside one, each selected by the request header
 * `X-Iacm-Mock-Session`. A session is a core of its own (its data, journal, faults, one-off answers,
 * rate-limit counters, clock, webhooks and waits, and its own token-signing key), made with the
 * parent's options and its own data source. The registry is bounded: at most `max` sessions (409
 * `conflict` past it), and a session unused for `idleMs` of wall time (the real clock, not a
 * session's) is ended the next time the registry is touched (a create, a listing, a request to any
 * session): O(sessions) each time.
 *
 * @module
 */

import type { SessionView } from '../control/route.js';
import { type NumberRange, type OptionGroup, resolveOptionGroup } from '../errors/ranges.js';
import { HttpError } from '../errors.js';
import { clip } from '../http/objects.js';
import { randomHex } from './secrets.js';

export { SESSION_HEADER } from '../control/remote-wire.js';

/** How many sessions a mock keeps, and how long an unused one lives. */
export interface SessionBounds {
  /** The most sessions at a time (0: none can be created). 0 to 1,000. Default 32. */
  max: number;
  /**
   * Wall-clock milliseconds after its last request (or its creation) that a session is ended, checked
   * lazily when the registry is touched. 1,000 (a second) to 604,800,000 (a week). Default 1,800,000
   * (30 minutes).
   */
  idleMs: number;
}

/** The documented range of each session bound, both ends included. */
export const SESSION_RANGES = Object.freeze({
  max: { min: 0, max: 1_000, unit: 'sessions' },
  idleMs: { min: 1_000, max: 604_800_000, unit: 'milliseconds' },
} as const satisfies Record<keyof SessionBounds, NumberRange>);

/** The default session bounds: 32 sessions, ended after 30 minutes unused. */
export const DEFAULT_SESSION_BOUNDS: Readonly<SessionBounds> = Object.freeze({ max: 32, idleMs: 1_800_000 });

/** The session bounds as a group of options: each bound's range and default. */
const SESSION_GROUP: OptionGroup<keyof SessionBounds> = {
  ranges: SESSION_RANGES,
  defaults: DEFAULT_SESSION_BOUNDS,
};

/**
 * Whole session bounds from the defaults and a partial set (the `sessions` option), each checked.
 * @throws RangeError naming the bound, its range and what came (`MockOptions sessions.max: ...`).
 */
export function toSessionBounds(given: Partial<SessionBounds> | undefined): SessionBounds {
  return resolveOptionGroup(SESSION_GROUP, given, 'MockOptions sessions', 'bound');
}

/**
 * @deprecated The sessions no longer have a budget of their own: they share the mock's memory budget
 * (the `budget` option, `store/budget.ts`), each within its `budget.sessionBytes`. This is the core's
 * default `budget.bytes` (256 MiB).
 */
export const SESSIONS_MEMORY_BUDGET = 256 * 1024 * 1024;

/** One live session of the registry. */
interface SessionEntry<T> {
  readonly id: string;
  readonly core: T;
  readonly createdAt: number;
  lastUsedAt: number;
  /** Requests to it not yet answered: a session is not ended as idle while one is under way. */
  inFlight: number;
}

/** A session entered by a request ({@link MockSessions.enter}): its core, and how the request ended. */
export interface SessionUse<T> {
  /** The session's core. */
  readonly core: T;
  /**
   * Tells that the request has been answered: `granted` when it passed its access checks (its
   * answer is not a 401 or a 403), which marks the session used now; a refused request does not.
   */
  done(granted: boolean): void;
}

/**
 * The sessions of a mock, by id. `T` is the session's core (the registry only holds it); `end` is told
 * of each session ended (by `end`, by idleness), to cancel its waits and timers.
 */
export class MockSessions<T> {
  readonly #entries = new Map<string, SessionEntry<T>>();

  /**
   * @param bounds the most sessions and their idle time.
   * @param onEnd called with each session's core when it ends (by `end`, or idle).
   * @param now the wall clock, epoch milliseconds (default `Date.now`; a test passes its own).
   */
  constructor(
    private readonly bounds: SessionBounds,
    private readonly onEnd: (core: T, reason: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Adds a session made by `make` (called only once there is room), with a new random id. What its
   * data takes is charged by its core, against its own share of the mock's memory budget.
   * @throws HttpError 409 `conflict` naming the bound when `max` sessions are live; whatever `make`
   *   throws (a 409 `budget_exceeded` for data past the budget).
   */
  create(make: () => T): { id: string; core: T } {
    this.checkRoom();
    const core = make();
    let id = `ses_${randomHex(8)}`;
    while (this.#entries.has(id)) id = `ses_${randomHex(8)}`;
    const at = this.now();
    this.#entries.set(id, { id, core, createdAt: at, lastUsedAt: at, inFlight: 0 });
    return { id, core };
  }

  /**
   * Checks that there is room for one more session (ends idle sessions first), as {@link create}
   * does before it makes one: for a caller that prepares a session's data before creating it, so
   * that a session refused costs nothing. {@link create} checks again.
   * @throws HttpError 409 `conflict` naming the bound when `max` sessions are live.
   */
  checkRoom(): void {
    this.#sweep();
    if (this.#entries.size >= this.bounds.max) {
      throw new HttpError(
        409,
        'conflict',
        `at most ${this.bounds.max} sessions at a time (the sessions.max bound): end one with DELETE /__mock/sessions/{id}`,
      );
    }
  }

  /**
   * Enters a live session for one request (ends idle sessions first): its core, and `done` to call
   * once the request is answered. The session is marked used when the request is granted (passed
   * its access checks), not before: a request refused with 401 or 403 does not keep a session alive.
   * While a request is under way the session is not ended as idle.
   * @throws HttpError 404 `not_found` naming the id (clipped) when there is no such live session.
   */
  enter(id: string): SessionUse<T> {
    this.#sweep();
    const entry = this.#entries.get(id);
    if (!entry) {
      throw new HttpError(
        404,
        'not_found',
        `no session with id "${clip(id, 40)}" (ended, expired after ${this.bounds.idleMs} ms unused, or never created)`,
      );
    }
    entry.inFlight += 1;
    let ended = false;
    return {
      core: entry.core,
      done: (granted) => {
        if (ended) return;
        ended = true;
        entry.inFlight -= 1;
        if (granted) entry.lastUsedAt = this.now();
      },
    };
  }

  /** The live sessions, oldest first (idle ones ended first). */
  list(): SessionView[] {
    this.#sweep();
    return [...this.#entries.values()].map((e) => ({
      id: e.id,
      createdAt: new Date(e.createdAt).toISOString(),
      lastUsedAt: new Date(e.lastUsedAt).toISOString(),
    }));
  }

  /**
   * Ends a session: its waits are cancelled and its timers stopped (through `onEnd`).
   * @throws HttpError 404 `not_found` naming the id when there is no such live session.
   */
  end(id: string): void {
    this.#sweep();
    const entry = this.#entries.get(id);
    if (!entry) throw new HttpError(404, 'not_found', `no session with id "${clip(id, 40)}"`);
    this.#entries.delete(id);
    this.onEnd(entry.core, `the session ${id} was ended`);
  }

  /** How many sessions are live (idle ones not yet swept included). */
  get size(): number {
    return this.#entries.size;
  }

  /** Ends every session unused for `idleMs` of wall time (none with a request under way). */
  #sweep(): void {
    const limit = this.now() - this.bounds.idleMs;
    for (const entry of [...this.#entries.values()]) {
      if (entry.lastUsedAt > limit || entry.inFlight > 0) continue;
      this.#entries.delete(entry.id);
      this.onEnd(entry.core, `the session ${entry.id} expired after ${this.bounds.idleMs} ms unused`);
    }
  }
}
