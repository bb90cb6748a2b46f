/**
 * The control plane's home in the core: the parts of the state `reset()` restores
 * ({@link RESET_STAGES}), and the names the control plane exports. Each control concept has its
 * module under `control/` (one per route family, assembled in `control/routes.ts`); each pipeline
 * stage's state lives with its stage under `pipeline/`.
 *
 * @module
 */

export { ClockBody } from '../control/clock.js';
export { EvaluateBody } from '../control/guardrails-evaluate.js';
export { createControlPlane } from '../control/plane.js';
export { RateLimitBody } from '../control/rate-limit.js';
export type { ControlPlane, WebhookControl } from '../control/route.js';
export { CONTROL_ROUTES, controlRouteListing } from '../control/routes.js';
export { SeedBody } from '../control/seed.js';
export { StateSchema } from '../control/state.js';
export { PolicyBody } from '../control/webhooks.js';
export { type MockClock, MovableClock } from '../pipeline/clock.js';
export { type Fault, FaultBody, FaultBook, type FaultRule } from '../pipeline/faults.js';
export { Journal, type JournalEntry } from '../pipeline/journal.js';
export { type RateLimit, RateLimiter, toRateLimit } from '../pipeline/rate-limit.js';

/**
 * The parts of a mock's state that `reset()` puts back to their start values, in the order it
 * resets them. Every piece of state a mock holds belongs to one of them; a new piece of state adds
 * its part here (and to the reset test).
 */
export const RESET_STAGES = ['data', 'webhooks', 'journal', 'faults', 'rateLimit', 'clock'] as const;

/**
 * One part of a mock's state that `reset()` restores:
 * - `data`: accounts and their records (the start seed's data, or the start snapshot), the outboxes,
 *   the generator of new ids and build numbers;
 * - `webhooks`: integrations, delivery attempts, deliveries in progress (cancelled), the retry policy;
 * - `journal`: the journaled requests and the request-id counter (`pipeline/journal.ts`);
 * - `faults`: the waiting faults and the fault-id counter (`pipeline/faults.ts`);
 * - `rateLimit`: the setting (as the options gave it) and the per-client counters (`pipeline/rate-limit.ts`);
 * - `clock`: the clock as the options gave it, not stopped, not moved (`pipeline/clock.ts`).
 */
export type ResetStage = (typeof RESET_STAGES)[number];

/** A part of a mock's state that `reset()` puts back to its start value. */
export interface Resettable {
  /** Puts this part back to its start value. */
  reset(): void;
}
