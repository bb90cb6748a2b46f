/**
 * Retention bounds: how much of what the mock records at run time it keeps. Each bound drops the
 * oldest records first, and counts what it dropped.
 *
 * @module
 */
import { type NumberRange, type OptionGroup, resolveOptionGroup } from '../errors/ranges.js';

/** How many records of each kind the mock keeps, and how many bytes its run-time events may take. */
export interface RetentionBounds {
  /**
   * Events per account (the event center), oldest (by `event_timestamp`) dropped first as new ones
   * are recorded. An account loaded with more (a seed or a snapshot) keeps them, but does not grow:
   * each new event then drops the oldest. 1 to 5,000,000. Default 1,100,000: the largest seed
   * (1,000,000 events) and 100,000 recorded at run time.
   */
  eventsPerAccount: number;
  /**
   * Bytes the events recorded at run time may take, all accounts of the mock (or of a session)
   * together, by the event log's measure (`runtimeEventBytes` of `store/event-log.ts`): a second
   * bound besides the memory budget's `events` store, so that the event log alone cannot take the
   * whole budget. Past it, each account drops its oldest run-time events first (the seeded ones are
   * start data, outside it), and an event that still does not fit is not kept. 0 (no run-time event
   * kept) to 16 GiB. Default 64 MiB.
   */
  eventBytes: number;
  /** Notifications in each account's outbox, oldest dropped first. 1 to 1,000,000. Default 1,000. */
  outboxPerAccount: number;
  /**
   * Delivery attempt records, of all integrations together, oldest dropped first (the attempt log,
   * `webhooks/attempt-log.ts`). 1 to 1,000,000. Default 10,000.
   */
  deliveryAttempts: number;
  /**
   * Deliveries waiting for a retry, of all integrations together; past it, the one waiting longest
   * is given up (no further attempt; the delivery queue, `webhooks/queue.ts`). 1 to 100,000. Default 10,000.
   */
  waitingRetries: number;
}

/** The documented range of each retention bound, both ends included. */
export const RETENTION_RANGES: Readonly<Record<keyof RetentionBounds, readonly [number, number]>> = {
  eventsPerAccount: [1, 5_000_000],
  eventBytes: [0, 16 * 1024 ** 3],
  outboxPerAccount: [1, 1_000_000],
  deliveryAttempts: [1, 1_000_000],
  waitingRetries: [1, 100_000],
};

/** The default retention bounds. */
export const DEFAULT_RETENTION: Readonly<RetentionBounds> = Object.freeze({
  eventsPerAccount: 1_100_000,
  eventBytes: 64 * 1024 * 1024,
  outboxPerAccount: 1_000,
  deliveryAttempts: 10_000,
  waitingRetries: 10_000,
});

/** The unit of the bounds that are not counts of records, as range errors name it. */
const RETENTION_UNITS: Partial<Record<keyof RetentionBounds, string>> = { eventBytes: 'bytes' };

/** The retention bounds as a group of options: each bound's range and default. */
const RETENTION_GROUP: OptionGroup<keyof RetentionBounds> = {
  ranges: Object.fromEntries(
    Object.entries(RETENTION_RANGES).map(([name, [min, max]]) => {
      const unit = RETENTION_UNITS[name as keyof RetentionBounds];
      return [name, unit === undefined ? { min, max } : { min, max, unit }];
    }),
  ) as Record<keyof RetentionBounds, NumberRange>,
  defaults: DEFAULT_RETENTION,
};

/**
 * Whole retention bounds from the defaults and a partial set, each checked against its range.
 * @param label names the source in the error, as in `MockOptions retention`.
 * @throws RangeError naming the bound, its range and what came.
 */
export function toRetentionBounds(
  partial: Partial<RetentionBounds> = {},
  label = 'MockOptions retention',
): RetentionBounds {
  return resolveOptionGroup(RETENTION_GROUP, partial, label, 'bound');
}
