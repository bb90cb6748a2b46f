/**
 * The mock's clock: the one source of "now" for tokens, timestamps, the rate limit and the journal;
 * it can be stopped, moved and resumed, and owns its offset.
 *
 * @module
 */
import { HttpError } from '../errors.js';

/** The mock's movable clock. */
export interface MockClock {
  /** The current instant, epoch milliseconds. */
  now(): number;
  /** Stops the clock at an instant (epoch ms, ISO 8601 or a Date). */
  set(instant: number | string | Date): void;
  /** Moves the clock by `ms` milliseconds. */
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

  /** The current instant, epoch milliseconds. */
  readonly now = (): number => this.#frozenAt ?? this.#base() + this.#offset;

  /** Stops the clock at an instant (epoch ms, ISO 8601 or a Date); `advance` moves it from there. */
  readonly set = (instant: number | string | Date): void => {
    const ms = typeof instant === 'number' ? instant : new Date(instant).getTime();
    if (!Number.isFinite(ms))
      throw new HttpError(400, 'validation_failed', 'clock: expected an instant (epoch ms or ISO 8601)');
    this.#frozenAt = ms;
  };

  /** Moves the clock by `ms` milliseconds (back, when negative). */
  readonly advance = (ms: number): void => {
    if (this.#frozenAt !== undefined) this.#frozenAt += ms;
    else this.#offset += ms;
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
