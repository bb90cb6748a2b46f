/** Control route: `POST /__mock/rate-limit`. @module */
import * as z from 'zod';
import { rangeSchema } from '../errors/ranges.js';
import { parseOr400 } from '../errors.js';
import {
  RATE_LIMIT_RANGES,
  type RateLimit,
  SERVICE_RATE_LIMIT,
  toRateLimit,
} from '../pipeline/rate-limit.js';
import { type ControlRoute, ok } from './route.js';

/**
 * Body of `POST /__mock/rate-limit`: `limit` 1 to 1,000,000 requests and `windowSeconds` 1 to 86,400
 * (each the service's 500 per 60 s when absent); out of range, a 400 naming the member, the range and
 * what came.
 */
export const RateLimitBody = z.strictObject({
  enabled: z.boolean(),
  limit: rangeSchema(RATE_LIMIT_RANGES.limit).optional(),
  windowSeconds: rangeSchema(RATE_LIMIT_RANGES.windowSeconds).optional(),
});

/** A custom limit as `control.setRateLimit` takes it: both members, each within its range. */
const CustomRateLimit = z.strictObject({
  limit: rangeSchema(RATE_LIMIT_RANGES.limit),
  windowSeconds: rangeSchema(RATE_LIMIT_RANGES.windowSeconds),
});

/**
 * The rate limit `control.setRateLimit` names (`true`: the service's, `false`: off, or a custom
 * limit), checked as the route checks its body: 400 naming the member, its range and what came (the
 * in-process control methods answer as the routes do).
 */
export function controlRateLimit(setting: unknown): RateLimit | undefined {
  return toRateLimit(typeof setting === 'boolean' ? setting : parseOr400(CustomRateLimit, setting));
}

/** The rate-limit route. */
export const rateLimitRoutes: readonly ControlRoute[] = [
  {
    method: 'POST',
    path: '/__mock/rate-limit',
    summary: "the service's rate limit, off by default: { enabled, limit?, windowSeconds? }",
    body: RateLimitBody,
    handler: ({ plane, deps, body }) => {
      const parsed = body as z.output<typeof RateLimitBody>;
      plane.setRateLimit(
        parsed.enabled
          ? {
              limit: parsed.limit ?? SERVICE_RATE_LIMIT.limit,
              windowSeconds: parsed.windowSeconds ?? SERVICE_RATE_LIMIT.windowSeconds,
            }
          : false,
      );
      const current = deps.rateLimiter.setting;
      return ok(
        current
          ? { enabled: true, limit: current.limit, windowSeconds: current.windowMs / 1000 }
          : { enabled: false },
      );
    },
  },
];
