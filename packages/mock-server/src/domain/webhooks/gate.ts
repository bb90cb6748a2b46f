/**
 * The gate of the deliveries under way ({@link DeliveryGate}): at most
 * {@link MAX_DELIVERIES_IN_FLIGHT} attempts of queued deliveries are sent at once, per mock; the
 * others wait their turn, first come first served, and a clear or reset (their generation aborted)
 * drops the waiting ones without sending them. A scene's 100 integrations and a scenario's many
 * notifications start thousands of deliveries at once: this keeps their requests, timers and
 * answers to a bounded number, whatever the data holds. A turn handed on after a slice of
 * `SLICE_MS` of deliveries goes after a turn of the event loop: attempts answered at once (a
 * `webhookFetch` in process) would otherwise chain thousands of sends without one.
 *
 * @module
 */
import { pause, slice } from '../../query/pause.js';

/** The most attempts of queued deliveries under way at once, per mock (a session has its own). */
export const MAX_DELIVERIES_IN_FLIGHT = 64;

/** One attempt waiting its turn. */
interface Turn {
  readonly go: () => void;
  /** Its generation was aborted while it waited: it is skipped. */
  dropped: boolean;
}

/** Lets at most `max` attempts through at once; the others wait, in order. */
export class DeliveryGate {
  readonly #max: number;
  #open = 0;
  /** The waiting turns from `#head` on (the ones before it are gone). */
  #turns: Turn[] = [];
  #head = 0;
  /** The slice the turns are handed on in; spent, the next hand-off waits for a turn of the event loop. */
  #slice = slice();

  /** @param max how many may be under way at once (default {@link MAX_DELIVERIES_IN_FLIGHT}). */
  constructor(max = MAX_DELIVERIES_IN_FLIGHT) {
    this.#max = max;
  }

  /** How many attempts are under way. */
  get open(): number {
    return this.#open;
  }

  /** How many attempts wait their turn (dropped ones not counted once passed). */
  get waiting(): number {
    return this.#turns.length - this.#head;
  }

  /**
   * Waits for a turn: `true` when the attempt may go (call {@link DeliveryGate.leave} once it is
   * done), `false` when `signal` aborted first (it is not sent, and holds no turn).
   */
  enter(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (this.#open < this.#max) {
      this.#open += 1;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const turn: Turn = {
        dropped: false,
        go: () => {
          signal.removeEventListener('abort', drop);
          resolve(true);
        },
      };
      const drop = () => {
        turn.dropped = true;
        resolve(false);
      };
      signal.addEventListener('abort', drop, { once: true });
      this.#turns.push(turn);
    });
  }

  /** Ends an attempt's turn: the next waiting one goes (after a turn of the event loop once a slice is spent). */
  leave(): void {
    if (!this.#slice.spent()) {
      this.#handOn();
      return;
    }
    void pause().then(() => {
      this.#slice = slice();
      this.#handOn();
    });
  }

  /** Hands the ended turn to the next waiting attempt, or closes it. */
  #handOn(): void {
    while (this.#head < this.#turns.length) {
      const turn = this.#turns[this.#head] as Turn;
      this.#head += 1;
      this.#compact();
      if (turn.dropped) continue;
      turn.go();
      return;
    }
    this.#open -= 1;
  }

  /** Forgets the passed turns once they are half the list (each leave stays O(1) on average). */
  #compact(): void {
    if (this.#head < 1024 || this.#head * 2 < this.#turns.length) return;
    this.#turns = this.#turns.slice(this.#head);
    this.#head = 0;
  }
}
