/**
 * How the service retries a webhook delivery that failed: which answers are retried, and the retry
 * policy's members with their documented defaults and ranges. The mock server delivers by it (its
 * `deliveryPolicy` option and `PUT /__mock/deliveries/policy` take a policy within these ranges), and
 * the OpenAPI document's text about retries is written from it.
 *
 * @module
 */

/** A webhook delivery retry policy: each member a whole number, milliseconds but `attempts`. */
export interface WebhookDeliveryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Delay before the first retry, doubled for each next one, milliseconds. */
  baseDelayMs: number;
  /** The longest delay between two attempts, backoff and `Retry-After` alike, milliseconds. */
  maxDelayMs: number;
  /** No retry is due later than this after the first attempt, milliseconds. */
  maxTotalMs: number;
  /** Timeout of one attempt, milliseconds. */
  timeoutMs: number;
}

/** The retry rule of webhook deliveries: see {@link WEBHOOK_DELIVERY_RETRIES}. */
export interface WebhookDeliveryRetries {
  /**
   * The statuses retried besides every 5xx; an attempt with no answer (a network error, the timeout)
   * is retried too. Any other status is not: 2xx is delivered, 401 and 403 set the integration's status.
   */
  readonly retriedStatuses: readonly number[];
  /** The policy's defaults. */
  readonly defaults: Readonly<WebhookDeliveryPolicy>;
  /** Each member's documented range, `[min, max]`, both ends included. */
  readonly ranges: Readonly<Record<keyof WebhookDeliveryPolicy, readonly [min: number, max: number]>>;
  /** The shortest delay before a retry, milliseconds: no jitter or `Retry-After: 0` goes below it. */
  readonly minDelayMs: number;
  /**
   * The jitter: each backoff delay is multiplied by a factor drawn from `[min, max)` (the mock draws
   * it from a generator seeded with its seed, the notification, the integration and the attempt).
   */
  readonly jitter: readonly [min: number, max: number];
}

/**
 * The webhook delivery retry rule, one home for the service's documented behaviour.
 *
 * - Retried: no answer, 408, 429 and every 5xx ({@link isRetriedDeliveryStatus}); 401, 403 and
 *   the other 4xx are not.
 * - Retry _n_ (1 for the first) waits `baseDelayMs × 2^(n-1)`, capped at `maxDelayMs`, times a
 *   jitter factor in `[0.5, 1)`; at least what `Retry-After` asked (capped at `maxDelayMs` too),
 *   and never less than `minDelayMs` (100 ms).
 * - Defaults: 5 attempts, 1 s doubling (about 1, 2, 4, 8 s apart), at most 60 s apart and 10 minutes
 *   in all, 10 s timeout per attempt.
 * - Ranges: `attempts` 1 to 10, `baseDelayMs` 100 to 60,000, `maxDelayMs` 100 to 600,000,
 *   `maxTotalMs` 1,000 to 3,600,000, `timeoutMs` 100 to 120,000.
 *
 * @example
 * const { attempts, baseDelayMs } = WEBHOOK_DELIVERY_RETRIES.defaults; // 5, 1000
 */
export const WEBHOOK_DELIVERY_RETRIES: WebhookDeliveryRetries = Object.freeze({
  retriedStatuses: Object.freeze([408, 429]),
  defaults: Object.freeze({
    attempts: 5,
    baseDelayMs: 1000,
    maxDelayMs: 60_000,
    maxTotalMs: 600_000,
    timeoutMs: 10_000,
  }),
  ranges: Object.freeze({
    attempts: Object.freeze([1, 10] as const),
    baseDelayMs: Object.freeze([100, 60_000] as const),
    maxDelayMs: Object.freeze([100, 600_000] as const),
    maxTotalMs: Object.freeze([1_000, 3_600_000] as const),
    timeoutMs: Object.freeze([100, 120_000] as const),
  }),
  minDelayMs: 100,
  jitter: Object.freeze([0.5, 1] as const),
});

/**
 * Whether a delivery attempt that got `status` is retried: no answer (`0`), a status of
 * {@link WebhookDeliveryRetries.retriedStatuses} (408, 429), or any 5xx.
 * @param status the endpoint's status, `0` when there was no answer.
 * @example isRetriedDeliveryStatus(503) // true; isRetriedDeliveryStatus(401) // false
 */
export function isRetriedDeliveryStatus(status: number): boolean {
  return status === 0 || status >= 500 || WEBHOOK_DELIVERY_RETRIES.retriedStatuses.includes(status);
}
