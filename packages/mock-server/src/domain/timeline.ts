/**
 * Pending steps on the mock's clock: a min-heap by due instant, ties in the order the steps were
 * added. {@link Timeline.settle} applies every step due by an instant, in that order, in
 * O(k log n) for k due steps and a peek when none is due: no scan of the pending steps.
 *
 * @module
 */
import { realClearTimeout, realSetTimeout } from '../http/real-timers.js';
import { type Slice, WHOLE } from '../query/pause.js';

/** One pending step: when it is due, its place among steps due at the same instant, and what it is. */
interface Pending<T> {
  /** When it is due, epoch milliseconds (mock clock). */
  readonly at: number;
  /** The order it was added in (ties of `at` go by it). */
  readonly seq: number;
  /** The step. */
  readonly step: T;
}

/** Pending steps ordered by due instant (then by the order they were added). */
export class Timeline<T> {
  readonly #heap: Pending<T>[] = [];
  #seq = 0;
  #settling = false;

  /** How many steps are pending. */
  get size(): number {
    return this.#heap.length;
  }

  /** When the earliest pending step is due (epoch milliseconds), or `undefined` when none is pending. */
  nextAt(): number | undefined {
    return this.#heap[0]?.at;
  }

  /** Adds a step due at `at` (epoch milliseconds). */
  add(at: number, step: T): void {
    const heap = this.#heap;
    heap.push({ at, seq: this.#seq++, step });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as Pending<T>, heap[parent] as Pending<T>)) break;
      swap(heap, i, parent);
      i = parent;
    }
  }

  /**
   * Applies every step due by `now`, earliest first (ties in the order they were added); a step that
   * `apply` adds and that is due by `now` too is applied in the same call. A call made while
   * settling (from inside `apply`) does nothing. With a `slice` (default {@link WHOLE}), it stops
   * after the step with which the slice is spent (at least one step is applied per call): the rest
   * stays pending for the next call. Answers how many steps were applied.
   */
  settle(now: number, apply: (step: T, at: number) => void, slice: Slice = WHOLE): number {
    if (this.#settling) return 0;
    this.#settling = true;
    let applied = 0;
    try {
      for (;;) {
        const first = this.#heap[0];
        if (first === undefined || first.at > now) break;
        this.#pop();
        applied += 1;
        apply(first.step, first.at);
        if (slice.spent()) break;
      }
    } finally {
      this.#settling = false;
    }
    return applied;
  }

  /** Forgets every pending step. */
  clear(): void {
    this.#heap.length = 0;
  }

  /** Removes the earliest step. */
  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop() as Pending<T>;
    if (heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && before(heap[left] as Pending<T>, heap[least] as Pending<T>)) least = left;
      if (right < heap.length && before(heap[right] as Pending<T>, heap[least] as Pending<T>)) least = right;
      if (least === i) return;
      swap(heap, i, least);
      i = least;
    }
  }
}

/** Whether `a` comes before `b`: due earlier, or due at the same instant and added first. */
function before<T>(a: Pending<T>, b: Pending<T>): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

function swap<T>(heap: T[], i: number, j: number): void {
  const held = heap[i] as T;
  heap[i] = heap[j] as T;
  heap[j] = held;
}

/** The largest delay `setTimeout` takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The shortest wait of a {@link DueTimer}: a stopped clock is looked at again at most this often. */
const TIMER_RECHECK_MS = 100;

/**
 * A wall-time timer for the earliest pending step of a timeline: while the mock's clock runs, it
 * calls `onDue` when the step comes due (then the owner settles and arms it again). A stopped or moved
 * clock is looked at again later (at least every 100 ms); a move settles at once anyway. The timer is
 * captured at import (a test's fake timers do not replace it) and does not keep a Node process alive.
 */
export class DueTimer {
  readonly #onDue: () => void;
  #timer: { handle: ReturnType<typeof setTimeout>; for: number } | undefined;

  /** @param onDue called (once per arming) when the step armed for is due by wall time. */
  constructor(onDue: () => void) {
    this.#onDue = onDue;
  }

  /** Sets the timer for a step due at `next` (epoch milliseconds, mock clock) when the clock reads `now`; none for `undefined`. */
  arm(next: number | undefined, now: number): void {
    if (next === undefined) {
      this.disarm();
      return;
    }
    if (this.#timer && this.#timer.for === next) return;
    this.disarm();
    const wait = Math.min(Math.max(next - now, TIMER_RECHECK_MS), MAX_TIMER_MS);
    const handle = realSetTimeout(() => {
      this.#timer = undefined;
      this.#onDue();
    }, wait);
    (handle as { unref?: () => void }).unref?.();
    this.#timer = { handle, for: next };
  }

  /** Clears the timer. */
  disarm(): void {
    if (this.#timer) realClearTimeout(this.#timer.handle);
    this.#timer = undefined;
  }
}
