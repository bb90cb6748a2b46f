/** Control routes: `GET` and `POST /__mock/clock`. @module */
import * as z from 'zod';
import { expectedOf, rangeSchema } from '../errors/ranges.js';
import { CLOCK_ADVANCE_RANGE, CLOCK_RANGE } from '../pipeline/clock.js';

/**
 * Body of `POST /__mock/clock`: stop it at `now` (ISO 8601 or epoch milliseconds, from
 * 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z), move it by `advanceMs` (at most
 * 315,360,000,000 either way, to an instant in that range), or `resume` it. Out of range: 400 naming
 * the member, the range and what came; nothing changes.
 */
export const ClockBody = z.strictObject({
  now: z
    .union([z.iso.datetime({ offset: true }), rangeSchema(CLOCK_RANGE)], {
      error: `expected an ISO 8601 instant (2026-01-15T12:00:00.000Z) or ${expectedOf(CLOCK_RANGE)}`,
    })
    .optional(),
  advanceMs: rangeSchema(CLOCK_ADVANCE_RANGE).optional(),
  resume: z.boolean().optional(),
});
