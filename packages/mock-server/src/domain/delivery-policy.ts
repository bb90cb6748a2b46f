/**
 * The webhook delivery retry policy as the mock takes it: its members, their documented ranges and
 * defaults (read from the contract's `WEBHOOK_DELIVERY_RETRIES`, where the OpenAPI document reads them
 * too), and the one check of a policy: {@link DeliveryPolicyBody} for a partial policy (the HTTP route
 * and the in-process `control.webhooks.setPolicy`, a 400), {@link toDeliveryPolicy} for the
 * `deliveryPolicy` option (a `RangeError`). The schedule the policy gives is the delivery queue's
 * (`domain/webhooks/queue.ts`).
 *
 * @module
 */
import { WEBHOOK_DELIVERY_RETRIES, type WebhookDeliveryPolicy } from '@iacm/sdk/contract';
import type * as z from 'zod';
import {
  type NumberRange,
  type OptionGroup,
  optionGroupSchema,
  resolveOptionGroup,
} from '../errors/ranges.js';

/**
 * Delivery retry policy: `attempts` (1 to 10, default 5), `baseDelayMs` (100 to 60,000, default
 * 1,000), `maxDelayMs` (100 to 600,000, default 60,000), `maxTotalMs` (1,000 to 3,600,000, default
 * 600,000), `timeoutMs` (100 to 120,000, default 10,000): the contract's `WebhookDeliveryPolicy`.
 */
export type DeliveryPolicy = WebhookDeliveryPolicy;

/** The shortest delay before a retry, milliseconds: no jitter or `Retry-After: 0` goes below it. */
export const MIN_RETRY_DELAY_MS: number = WEBHOOK_DELIVERY_RETRIES.minDelayMs;

/** The documented range of each member of {@link DeliveryPolicy}, both ends included. */
export const DELIVERY_POLICY_RANGES: Readonly<Record<keyof DeliveryPolicy, readonly [number, number]>> =
  WEBHOOK_DELIVERY_RETRIES.ranges;

/**
 * The default delivery policy: 5 attempts, retries about 1 s, 2 s, 4 s, 8 s apart (jittered down to
 * half), at most 60 s apart and 10 minutes in all, 10 s timeout each.
 */
export const DEFAULT_DELIVERY_POLICY: Readonly<DeliveryPolicy> = WEBHOOK_DELIVERY_RETRIES.defaults;

/** The policy's members, in the order messages list them. */
const MEMBERS: readonly (keyof DeliveryPolicy)[] = [
  'attempts',
  'baseDelayMs',
  'maxDelayMs',
  'maxTotalMs',
  'timeoutMs',
];

/** Each member's range as the range helpers take it: milliseconds but `attempts`. */
function rangeOf(name: keyof DeliveryPolicy): NumberRange {
  const [min, max] = DELIVERY_POLICY_RANGES[name];
  return name === 'attempts' ? { min, max } : { min, max, unit: 'milliseconds' };
}

/** The delivery policy as a group of options: each member's range and default. */
const DELIVERY_POLICY_GROUP: OptionGroup<keyof DeliveryPolicy> = {
  ranges: {
    attempts: rangeOf('attempts'),
    baseDelayMs: rangeOf('baseDelayMs'),
    maxDelayMs: rangeOf('maxDelayMs'),
    maxTotalMs: rangeOf('maxTotalMs'),
    timeoutMs: rangeOf('timeoutMs'),
  },
  defaults: DEFAULT_DELIVERY_POLICY,
};

/**
 * A partial delivery policy as `PUT /__mock/deliveries/policy` and `control.webhooks.setPolicy` take
 * it: each member within its documented range ({@link DELIVERY_POLICY_RANGES}), else a 400 naming
 * the member, the range and what came. The one schema of the policy.
 */
export const DeliveryPolicyBody = optionGroupSchema(DELIVERY_POLICY_GROUP);

/** A partial delivery policy once {@link DeliveryPolicyBody} checked it: each member given within its range. */
export type DeliveryPolicyPatch = z.output<typeof DeliveryPolicyBody>;

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
 * `policy` with the members a checked patch gives replaced (the members it leaves out, or gives as
 * `undefined`, unchanged): a new object.
 */
export function applyPolicyPatch(policy: DeliveryPolicy, patch: DeliveryPolicyPatch): DeliveryPolicy {
  const next = { ...policy };
  for (const name of MEMBERS) {
    const value = patch[name];
    if (value !== undefined) next[name] = value;
  }
  return next;
}
