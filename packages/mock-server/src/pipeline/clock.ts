/**
 * The mock's clock: the one source of "now" for tokens, timestamps, the rate limit and the journal;
 * it can be stopped, moved and resumed, and owns its offset. It stays within {@link CLOCK_RANGE}, the
 * instants every answer can write: setting or moving it outside is a 400 naming the field, the range
 * and what came, and a running clock stops at the range's ends.
 *
 * @module
 */

import { checkRange, expectedOf, type NumberRange, receivedOf } from '../errors/ranges.js';
import { HttpError } from '../errors.js';

/** The earliest instant of the mock's clock: 1970-01-01T00:00:00.000Z (epoch 0). */
export const MIN_CLOCK_MS = 0;

/**
 * The latest instant of the mock's clock: 9999-12-31T23:59:59.999Z, the last the API's timestamps
 * (ISO 8601 with a four-digit year) can write.
 */
export const MAX_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * The range of the mock's clock, epoch milliseconds: from 1970-01-01T00:00:00.000Z to
 * 9999-12-31T23:59:59.999Z. Earlier instants have negative epoch seconds (token claims, object ids),
 * later ones no four-digit year; past 8.64e15 there is no date at all.
 */
export const CLOCK_RANGE: NumberRange = Object.freeze({
  min: MIN_CLOCK_MS,
  max: MAX_CLOCK_MS,
  expected: `an instant from ${new Date(MIN_CLOCK_MS).toISOString()} to ${new Date(MAX_CLOCK_MS).toISOString()} (epoch milliseconds ${MIN_CLOCK_MS} to ${MAX_CLOCK_MS})`,
});

/**
 * How far one move of the clock goes at most, milliseconds, either way: 315,360,000,000 (10 years of
 * 365 days); the instant it arrives at must be within {@link CLOCK_RANGE} too.
 */
export const CLOCK_ADVANCE_RANGE: NumberRange = Object.freeze({
  min: -315_360_000_000,
  max: 315_360_000_000,
  unit: 'milliseconds',
});

/** The mock's movable clock. */
export interface MockClock {
  /** The current instant, epoch milliseconds (from 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z). */
  now(): number;
  /**
   * Stops the clock at an instant (epoch ms, ISO 8601 or a Date) from 1970-01-01T00:00:00.000Z to
   * 9999-12-31T23:59:59.999Z; an `HttpError` 400 naming `now`, the range and what came otherwise.
   */
  set(instant: number | string | Date): void;
  /**
   * Moves the clock by `ms` milliseconds, at most 315,360,000,000 (10 years) either way, to an instant
   * within its range; an `HttpError` 400 naming `advanceMs` otherwise.
   */
  advance(ms: number): void;
  /** Lets the clock run from the underlying clock again. */
  resume(): void;
}

/** The mock's clock over an underlying clock: stopped, moved, or running. */
export class MovableClock implements MockClock {
  readonly #base: () => number;
  #frozenAt: number | undefined;
  #offset = 0;

  /** Creates a clock running from `base` (epoch milliseconds). */
  constructor(base: () => number) {
    this.#base = base;
  }

  /**
   * The current instant, epoch milliseconds. A running clock that passes an end of
   * {@link CLOCK_RANGE} (a moved clock after centuries, or an underlying clock outside it) stays at
   * that end.
   */
  readonly now = (): number => {
    const ms = this.#frozenAt ?? this.#base() + this.#offset;
    return Math.min(Math.max(ms, MIN_CLOCK_MS), MAX_CLOCK_MS);
  };

  /**
   * Stops the clock at an instant (epoch ms, ISO 8601 or a Date) within {@link CLOCK_RANGE}; `advance`
   * moves it from there. 400 naming `now`, the range and what came otherwise ({@link instantOf}).
   */
  readonly set = (instant: number | string | Date): void => {
    this.#frozenAt = instantOf(instant);
  };

  /**
   * Moves the clock by `ms` milliseconds (back, when negative), at most {@link CLOCK_ADVANCE_RANGE}
   * either way and only to an instant within {@link CLOCK_RANGE}; 400 naming `advanceMs` otherwise
   * ({@link checkMove}).
   */
  readonly advance = (ms: number): void => {
    const target = checkMove(this.now(), ms);
    if (this.#frozenAt !== undefined) this.#frozenAt = target;
    else this.#offset += target - (this.#base() + this.#offset);
  };

  /** Lets the clock run from the underlying clock again, unmoved. */
  readonly resume = (): void => {
    this.#frozenAt = undefined;
    this.#offset = 0;
  };

  /** Back to the underlying clock (as `resume`). */
  reset(): void {
    this.resume();
  }
}

/**
 * The clock as its users move it: after each move (`set`, `advance`, `resume`), `onMove` runs (the
 * mock sends the delivery retries that became due).
 */
export function notifyingMoves(clock: MockClock, onMove: () => void): MockClock {
  return {
    now: clock.now,
    set: (instant) => {
      clock.set(instant);
      onMove();
    },
    advance: (ms) => {
      clock.advance(ms);
      onMove();
    },
    resume: () => {
      clock.resume();
      onMove();
    },
  };
}

/**
 * The instant a clock setting names (epoch ms, ISO 8601 or a Date), epoch milliseconds, when it is
 * one within {@link CLOCK_RANGE}; else a 400 naming `now`, the range and what came.
 */
export function instantOf(instant: unknown): number {
  // `+ 0` turns -0 into 0.
  if (typeof instant === 'number') return checkRange('now', instant, CLOCK_RANGE) + 0;
  const ms =
    typeof instant === 'string' || instant instanceof Date ? new Date(instant).getTime() : Number.NaN;
  if (Number.isFinite(ms) && ms >= MIN_CLOCK_MS && ms <= MAX_CLOCK_MS) return ms;
  const shown = instant instanceof Date ? 'a Date' : receivedOf(instant);
  throw clockError(
    'now',
    Number.isFinite(ms) ? `${shown} (epoch milliseconds ${ms})` : `${shown}, not an instant`,
  );
}

/**
 * Where moving the clock from `from` by `ms` milliseconds takes it, when the move is within
 * {@link CLOCK_ADVANCE_RANGE} and arrives within {@link CLOCK_RANGE}; else a 400 naming `advanceMs`.
 */
export function checkMove(from: number, ms: unknown): number {
  const move = checkRange('advanceMs', ms, CLOCK_ADVANCE_RANGE);
  const target = from + move;
  if (target >= MIN_CLOCK_MS && target <= MAX_CLOCK_MS) return target;
  // Both within their ranges, so `target` is a date (within ±2.7e14 ms of the epoch).
  const path = `${new Date(from).toISOString()} to ${new Date(target).toISOString()}`;
  throw clockError('advanceMs', `number ${move}, which would move the clock from ${path}`);
}

/** A 400 for a clock setting that would leave {@link CLOCK_RANGE}, naming the field and what came. */
function clockError(field: 'now' | 'advanceMs', received: string): HttpError {
  const range = expectedOf(CLOCK_RANGE);
  const expected = field === 'now' ? range : `a move that keeps the clock within ${range}`;
  const message = `body.${field}: expected ${expected}, received ${received}`;
  return new HttpError(400, 'validation_failed', message, {
    issues: [{ location: 'body', path: field, message, expected, received }],
  });
}
