/** The body of `POST /__mock/rate-limit` (`control.setRateLimit`) and the limit it names. @module */
import * as z from 'zod';
import { rangeSchema } from '../errors/ranges.js';
import {
  RATE_LIMIT_RANGES,
  type RateLimit,
  rateLimitOf,
  SERVICE_RATE_LIMIT,
} from '../pipeline/rate-limit.js';

/** The members of a custom limit, each within its range: the route's and `control.setRateLimit`'s. */
const RATE_LIMIT_MEMBERS = {
  limit: rangeSchema(RATE_LIMIT_RANGES.limit),
  windowSeconds: rangeSchema(RATE_LIMIT_RANGES.windowSeconds),
};

/**
 * Body of `POST /__mock/rate-limit`: `limit` 1 to 1,000,000 requests and `windowSeconds` 1 to 86,400
 * (each the service's 500 per 60 s when absent); out of range, a 400 naming the member, the range and
 * what came.
 */
export const RateLimitBody = z.strictObject({
  enabled: z.boolean(),
  limit: RATE_LIMIT_MEMBERS.limit.optional(),
  windowSeconds: RATE_LIMIT_MEMBERS.windowSeconds.optional(),
});

/** The rate limit a checked {@link RateLimitBody} names: off, or its members (the service's when absent). */
export function bodyRateLimit(body: z.output<typeof RateLimitBody>): RateLimit | undefined {
  if (!body.enabled) return undefined;
  return rateLimitOf({
    limit: body.limit ?? SERVICE_RATE_LIMIT.limit,
    windowSeconds: body.windowSeconds ?? SERVICE_RATE_LIMIT.windowSeconds,
  });
}
