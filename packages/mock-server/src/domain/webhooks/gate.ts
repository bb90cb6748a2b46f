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
import { pause, type Slice, slice } from '../../query/pause.js';

/** The most attempts of queued deliveries under way at once, per mock (a session has its own). */
export const MAX_DELIVERIES_IN_FLIGHT = 64;

/** One attempt waiting its turn. */
interface Turn {
  /** Its generation (a clear or reset aborts it: the turn is then dropped). */
  readonly signal: AbortSignal;
  readonly resolve: (go: boolean) => void;
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
  /**
   * The generations the gate listens to, one listener each (not one per waiting turn: thousands of
   * turns would each add one to the same signal, and Node warns past ten).
   */
  readonly #watched = new WeakSet<AbortSignal>();
  /** The slice the attempts go on in; spent, the next step of any of them waits for a turn of the event loop. */
  #slice: Slice;
  /** The next turn of the event loop, shared by every attempt that waits for it. */
  #next: Promise<void> | undefined;

  readonly #newSlice: () => Slice;

  /**
   * @param max how many may be under way at once (default {@link MAX_DELIVERIES_IN_FLIGHT}).
   * @param newSlice makes the slice attempts go on in (default `slice()`: `SLICE_MS` from now).
   */
  constructor(max = MAX_DELIVERIES_IN_FLIGHT, newSlice: () => Slice = slice) {
    this.#max = max;
    this.#newSlice = newSlice;
    this.#slice = newSlice();
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
    if (!this.#watched.has(signal)) {
      this.#watched.add(signal);
      signal.addEventListener('abort', () => this.#drop(signal), { once: true });
    }
    return new Promise<boolean>((resolve) => {
      this.#turns.push({ signal, resolve, dropped: false });
    });
  }

  /**
   * Where an attempt under way may stop: `undefined` while the slice lasts; once it is spent, the
   * next turn of the event loop (one for every attempt that asks, the slice renewed after it). Each
   * attempt asks between its steps, so that attempts answered at once (a `webhookFetch` in process)
   * hold the loop for a slice and one step each, not for all of them.
   */
  turn(): Promise<void> | undefined {
    if (!this.#slice.spent()) return undefined;
    this.#next ??= pause().then(() => {
      this.#next = undefined;
      this.#slice = this.#newSlice();
    });
    return this.#next;
  }

  /** Ends an attempt's turn: the next waiting one goes (after a turn of the event loop once a slice is spent). */
  leave(): void {
    const wait = this.turn();
    if (wait) void wait.then(() => this.#handOn());
    else this.#handOn();
  }

  /** Drops the waiting turns of an aborted generation (they answer `false`). */
  #drop(signal: AbortSignal): void {
    for (let i = this.#head; i < this.#turns.length; i++) {
      const turn = this.#turns[i] as Turn;
      if (turn.signal !== signal || turn.dropped) continue;
      turn.dropped = true;
      turn.resolve(false);
    }
  }

  #handOn(): void {
    while (this.#head < this.#turns.length) {
      const turn = this.#turns[this.#head] as Turn;
      this.#head += 1;
      this.#compact();
      if (turn.dropped) continue;
      turn.resolve(true);
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
