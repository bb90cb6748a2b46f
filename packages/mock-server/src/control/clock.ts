/** Control routes: `GET` and `POST /__mock/clock`. @module */
import * as z from 'zod';
import { expectedOf, rangeSchema } from '../errors/ranges.js';
import { CLOCK_ADVANCE_RANGE, CLOCK_RANGE, checkMove, instantOf } from '../pipeline/clock.js';
import { type ControlRoute, controlRoute, ok } from './route.js';

/**
 * Body of `POST /__mock/clock`: stop it at `now` (ISO 8601 or epoch milliseconds, from
 * 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z), move it by `advanceMs` (at most
 * 315,360,000,000 either way, to an instant in that range), or `resume` it. Out of range: 400 naming
 * the member, the range and what came; nothing changes.
 */
export const ClockBody = z.strictObject({
  now: z
    .union([z.iso.datetime(), rangeSchema(CLOCK_RANGE)], {
      error: `expected an ISO 8601 instant (2026-01-15T12:00:00.000Z) or ${expectedOf(CLOCK_RANGE)}`,
    })
    .optional(),
  advanceMs: rangeSchema(CLOCK_ADVANCE_RANGE).optional(),
  resume: z.boolean().optional(),
});

/** The clock routes. */
export const clockRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'GET',
    path: '/__mock/clock',
    summary: "the mock's clock",
    handler: ({ plane }) => ok({ now: new Date(plane.clock.now()).toISOString() }),
  }),
  controlRoute({
    method: 'POST',
    path: '/__mock/clock',
    summary: "stop, move or resume the mock's clock: { now } | { advanceMs } | { resume: true }",
    body: ClockBody,
    handler: ({ plane, body: parsed }) => {
      // Checked in full before anything changes: a 400 leaves the clock as it was.
      const at = parsed.now === undefined ? undefined : instantOf(parsed.now);
      // A move after `resume` starts from the underlying clock, known only once resumed: its value and
      // range are checked from the wall clock's instant (a move of at most 10 years from now lands in range).
      if (parsed.advanceMs !== undefined) {
        checkMove(at ?? (parsed.resume ? Date.now() : plane.clock.now()), parsed.advanceMs);
      }
      if (parsed.resume) plane.clock.resume();
      if (at !== undefined) plane.clock.set(at);
      if (parsed.advanceMs !== undefined) plane.clock.advance(parsed.advanceMs);
      return ok({ now: new Date(plane.clock.now()).toISOString() });
    },
  }),
];
