/** Control route: `POST /__mock/rate-limit`, and the check of `control.setRateLimit`. @module */
import * as z from 'zod';
import { rangeSchema } from '../errors/ranges.js';
import { parseOr400 } from '../errors.js';
import {
  RATE_LIMIT_RANGES,
  type RateLimit,
  rateLimitOf,
  SERVICE_RATE_LIMIT,
  toRateLimit,
} from '../pipeline/rate-limit.js';
import { type ControlRoute, controlRoute, ok } from './route.js';

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

/**
 * A custom limit as `control.setRateLimit` takes it: both members, each checked by the same member
 * schema as the route's (the in-process method takes `true`, `false` or this, not the route's body).
 */
const CustomRateLimit = z.strictObject(RATE_LIMIT_MEMBERS);

/**
 * The rate limit `control.setRateLimit` names (`true`: the service's, `false`: off, or a custom
 * limit), checked as the route checks its body: 400 naming the member, its range and what came (the
 * in-process control methods answer as the routes do).
 */
export function controlRateLimit(setting: unknown): RateLimit | undefined {
  if (typeof setting === 'boolean') return toRateLimit(setting);
  return rateLimitOf(parseOr400(CustomRateLimit, setting));
}

/** The rate limit a checked {@link RateLimitBody} names: off, or its members (the service's when absent). */
function bodyRateLimit(body: z.output<typeof RateLimitBody>): RateLimit | undefined {
  if (!body.enabled) return undefined;
  return rateLimitOf({
    limit: body.limit ?? SERVICE_RATE_LIMIT.limit,
    windowSeconds: body.windowSeconds ?? SERVICE_RATE_LIMIT.windowSeconds,
  });
}

/** The rate-limit route. */
export const rateLimitRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'POST',
    path: '/__mock/rate-limit',
    summary: "the service's rate limit, off by default: { enabled, limit?, windowSeconds? }",
    body: RateLimitBody,
    handler: ({ deps, body }) => {
      deps.rateLimiter.set(bodyRateLimit(body));
      const current = deps.rateLimiter.setting;
      return ok(
        current
          ? { enabled: true, limit: current.limit, windowSeconds: current.windowMs / 1000 }
          : { enabled: false },
      );
    },
  }),
];
