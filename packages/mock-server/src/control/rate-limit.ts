/** Control route: `POST /__mock/rate-limit`. @module */
import * as z from 'zod';
import { SERVICE_RATE_LIMIT } from '../pipeline/rate-limit.js';
import { type ControlRoute, ok } from './route.js';

/** Body of `POST /__mock/rate-limit`. */
export const RateLimitBody = z.strictObject({
  enabled: z.boolean(),
  limit: z.number().int().min(1).max(1_000_000).optional(),
  windowSeconds: z.number().int().min(1).max(86_400).optional(),
});

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
