/**
 * The timers of the mock's own waits (waits' timeouts, the timed runs' timer), captured when this
 * module is first imported: a test's fake timers (`vi.useFakeTimers()`, installed later) replace the
 * globals, not these, so the mock's waits keep running on real time.
 *
 * @module
 */

/** `setTimeout` as it was when the mock was imported. */
export const realSetTimeout: typeof setTimeout = globalThis.setTimeout;

/** `clearTimeout` as it was when the mock was imported. */
export const realClearTimeout: typeof clearTimeout = globalThis.clearTimeout;
