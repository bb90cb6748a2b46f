/**
 * Long work in slices: {@link pause} gives the event loop a turn between two slices, so that no
 * request holds it for long (a health check, a timer, another request or another session go in
 * between). A {@link Slice} says when a slice has run its time ({@link SLICE_MS}); a long job written
 * as a generator that yields at points where it may stop is run in slices by {@link drive}, or whole
 * (where the caller must answer synchronously) by {@link drain}.
 *
 * The turn is taken with the `setImmediate` (else `setTimeout`) captured when this module is first
 * imported: a test's fake timers, installed later, do not replace it, so the mock's own work never
 * waits for a faked clock.
 *
 * @module
 */

/** How long one slice of long work may run before it gives the event loop a turn, milliseconds: 8. */
export const SLICE_MS = 8;

const realImmediate = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate;
const realTimeout = globalThis.setTimeout;
const clock: { now(): number } = globalThis.performance ?? Date;

/** Gives the event loop a turn (a macrotask, so timers and I/O run). */
export function pause(): Promise<void> {
  return new Promise((resolve) => (realImmediate ? realImmediate(resolve) : realTimeout(resolve, 0)));
}

/**
 * A pause that also stops the work when `signal` has aborted (the client has gone): it throws the
 * signal's reason after the turn.
 */
export async function pauseUnless(signal: AbortSignal | undefined): Promise<void> {
  await pause();
  signal?.throwIfAborted();
}

/** One slice of long work: `spent()` answers whether it has run its time (then the work stops at its next point). */
export interface Slice {
  /** Whether the slice has run its time. */
  spent(): boolean;
}

/** A slice that never ends: the work runs whole, in one go (a caller that must answer synchronously). */
export const WHOLE: Slice = { spent: () => false };

/** A slice of `ms` milliseconds ({@link SLICE_MS}) from now, by the runtime's monotonic clock. */
export function slice(ms: number = SLICE_MS): Slice {
  const end = clock.now() + ms;
  return { spent: () => clock.now() >= end };
}

/**
 * A job that may be run in slices: a generator that yields (nothing) at points where its driver may
 * stop and give the event loop a turn ({@link drive}), or runs whole ({@link drain}), and answers
 * `T`. Yielding draws nothing, so what it makes is the same either way.
 */
export type Steps<T = void> = Generator<undefined, T, unknown>;

/**
 * Runs a job written as a generator in slices: it runs until it yields with its slice spent, then
 * the event loop gets a turn ({@link pause}), then it goes on. Answers what the job returns.
 */
export async function drive<T>(job: Iterator<unknown, T>, ms: number = SLICE_MS): Promise<T> {
  for (;;) {
    const current = slice(ms);
    for (;;) {
      const step = job.next();
      if (step.done) return step.value;
      if (current.spent()) break;
    }
    await pause();
  }
}

/** Runs a job written as a generator whole, in one go (see {@link drive}); answers what it returns. */
export function drain<T>(job: Iterator<unknown, T>): T {
  for (;;) {
    const step = job.next();
    if (step.done) return step.value;
  }
}
