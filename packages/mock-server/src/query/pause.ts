/**
 * Long work in chunks: {@link pause} gives the event loop a turn between two chunks, so that no
 * request holds it for long (a health check, a timer, another request go in between).
 *
 * @module
 */

/** Gives the event loop a turn (a macrotask, so timers and I/O run). */
export function pause(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
}

/**
 * A pause that also stops the work when `signal` has aborted (the client has gone): it throws the
 * signal's reason after the turn.
 */
export async function pauseUnless(signal: AbortSignal | undefined): Promise<void> {
  await pause();
  signal?.throwIfAborted();
}
