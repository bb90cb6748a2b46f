/**
 * Reset: the parts of a mock's state that `reset()` (and `POST /__mock/reset`) restore to their start
 * values. Each part owns its own `reset()`; `MockCore` walks {@link RESET_STAGES} in order.
 *
 * @module
 */

/**
 * The parts of a mock's state that `reset()` puts back to their start values, in the order it
 * resets them. Every piece of state a mock holds belongs to one of them; a new piece of state adds
 * its part here (and to the reset test).
 */
export const RESET_STAGES = [
  'data',
  'webhooks',
  'journal',
  'faults',
  'rateLimit',
  'clock',
  'loginThrottle',
] as const;

/**
 * One part of a mock's state that `reset()` restores:
 * - `data`: accounts and their records (the start seed's data, or the start snapshot), the outboxes,
 *   the generator of new ids and build numbers, and the timed runs' pending steps (`simulateRun` with
 *   `timing`, `domain/timed-runs.ts`: dropped, as whenever the data is replaced);
 * - `webhooks`: integrations, delivery attempts, deliveries in progress (cancelled), the retry policy;
 * - `journal`: the journaled requests and the request-id counter (`pipeline/journal.ts`), and the
 *   pending waits (`control.waitFor`, `control.nextDelivery`: rejected, `pipeline/waiters.ts`);
 * - `faults`: the waiting faults and the fault-id counter (`pipeline/faults.ts`), and the waiting
 *   one-off answers and their id counter (`pipeline/one-off.ts`);
 * - `rateLimit`: the setting (as the options gave it) and the per-client counters (`pipeline/rate-limit.ts`);
 * - `clock`: the clock as the options gave it, not stopped, not moved (`pipeline/clock.ts`);
 * - `loginThrottle`: the failed-login counts per access key (`auth/login.ts`).
 */
export type ResetStage = (typeof RESET_STAGES)[number];

/** A part of a mock's state that `reset()` puts back to its start value. */
export interface Resettable {
  /** Puts this part back to its start value. */
  reset(): void;
}
