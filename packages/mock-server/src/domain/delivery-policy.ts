/**
 * The webhook delivery retry policy: its members, their documented ranges and defaults, and the
 * schedule it gives (exponential backoff with seeded jitter, a minimum delay, `Retry-After` honoured
 * up to a cap, a cap on attempts and on the total time). Delays are instants of the mock's clock.
 *
 * @module
 */
import {
  type NumberRange,
  type OptionGroup,
  optionGroupSchema,
  resolveOptionGroup,
} from '../errors/ranges.js';
import type { Random } from '../store/random.js';

/** Delivery retry policy. */
export interface DeliveryPolicy {
  /** Attempts in all, the first included: 1 to 10. Default 5. */
  attempts: number;
  /** Delay before the first retry, doubled for each next one, milliseconds: 100 to 60,000. Default 1000. */
  baseDelayMs: number;
  /** The longest delay between two attempts, backoff and `Retry-After` alike, milliseconds: 100 to 600,000. Default 60,000. */
  maxDelayMs: number;
  /** No retry is due later than this after the first attempt, milliseconds: 1000 to 3,600,000. Default 600,000. */
  maxTotalMs: number;
  /** Timeout of one attempt (wall time), milliseconds: 100 to 120,000. Default 10,000. */
  timeoutMs: number;
}

/** The shortest delay before a retry, milliseconds: no jitter or `Retry-After: 0` goes below it. */
export const MIN_RETRY_DELAY_MS = 100;

/** The documented range of each member of {@link DeliveryPolicy}, both ends included. */
export const DELIVERY_POLICY_RANGES: Readonly<Record<keyof DeliveryPolicy, readonly [number, number]>> = {
  attempts: [1, 10],
  baseDelayMs: [MIN_RETRY_DELAY_MS, 60_000],
  maxDelayMs: [MIN_RETRY_DELAY_MS, 600_000],
  maxTotalMs: [1_000, 3_600_000],
  timeoutMs: [100, 120_000],
};

/**
 * The default delivery policy: 5 attempts, retries about 1 s, 2 s, 4 s, 8 s apart (jittered down to
 * half), at most 60 s apart and 10 minutes in all, 10 s timeout each.
 */
export const DEFAULT_DELIVERY_POLICY: Readonly<DeliveryPolicy> = Object.freeze({
  attempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  maxTotalMs: 600_000,
  timeoutMs: 10_000,
});

/** The delivery policy as a group of options: each member's range (milliseconds but `attempts`) and default. */
const DELIVERY_POLICY_GROUP: OptionGroup<keyof DeliveryPolicy> = {
  ranges: Object.fromEntries(
    Object.entries(DELIVERY_POLICY_RANGES).map(([name, [min, max]]) => [
      name,
      name === 'attempts' ? { min, max } : { min, max, unit: 'milliseconds' },
    ]),
  ) as Record<keyof DeliveryPolicy, NumberRange>,
  defaults: DEFAULT_DELIVERY_POLICY,
};

/**
 * A partial delivery policy as `PUT /__mock/deliveries/policy` and the `deliveryPolicy` option take
 * it: each member within its documented range ({@link DELIVERY_POLICY_RANGES}), else a 400 naming
 * the member, the range and what came.
 */
export const DeliveryPolicyBody = optionGroupSchema(DELIVERY_POLICY_GROUP);

/**
 * A whole policy from the defaults and a partial one, checked against the documented ranges.
 * @param label names the source in the error, as in `MockOptions deliveryPolicy`.
 * @throws RangeError naming the member, its range and what came.
 */
export function toDeliveryPolicy(
  partial: Partial<DeliveryPolicy> = {},
  label = 'MockOptions deliveryPolicy',
): DeliveryPolicy {
  try {
    return resolveOptionGroup(DELIVERY_POLICY_GROUP, partial, label);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new RangeError(
      `${error.message} (flushDeliveries() sends the retries without waiting: tests need no short delays)`,
    );
  }
}

/**
 * The delay before retry number `retry` (1 for the first retry), milliseconds: `baseDelayMs × 2^(retry-1)`,
 * capped at `maxDelayMs`, times a jitter factor in [0.5, 1) drawn from `random`; at least what
 * `Retry-After` asked (capped at `maxDelayMs` too), and never less than {@link MIN_RETRY_DELAY_MS}.
 */
export function retryDelay(
  policy: DeliveryPolicy,
  retry: number,
  random: Pick<Random, 'next'>,
  retryAfterMs?: number,
): number {
  const backoff = Math.min(policy.baseDelayMs * 2 ** Math.min(retry - 1, 30), policy.maxDelayMs);
  const jittered = Math.round(backoff * (0.5 + random.next() / 2));
  const asked = retryAfterMs === undefined ? 0 : Math.min(retryAfterMs, policy.maxDelayMs);
  return Math.max(jittered, asked, MIN_RETRY_DELAY_MS);
}

/**
 * The delay a `Retry-After` header value asks for, milliseconds: delay-seconds (`120`), or an
 * HTTP date compared with `wallNow` (the endpoint's date is wall time, not the mock's clock);
 * `undefined` when there is none or it is not one of those.
 */
export function parseRetryAfter(value: string | null | undefined, wallNow: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text.length === 0 || text.length > 64) return undefined;
  if (/^\d+$/.test(text)) return Math.min(Number(text), 1e9) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - wallNow);
}
