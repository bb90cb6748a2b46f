/** Control routes: `GET` and `POST /__mock/clock`. @module */
import * as z from 'zod';
import { type ControlRoute, ok } from './route.js';

/** Body of `POST /__mock/clock`: stop it at `now`, move it by `advanceMs`, or `resume` it. */
export const ClockBody = z.strictObject({
  now: z.union([z.iso.datetime(), z.number().int()]).optional(),
  advanceMs: z.number().int().min(-315_360_000_000).max(315_360_000_000).optional(),
  resume: z.boolean().optional(),
});

/** The clock routes. */
export const clockRoutes: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/__mock/clock',
    summary: "the mock's clock",
    handler: ({ plane }) => ok({ now: new Date(plane.clock.now()).toISOString() }),
  },
  {
    method: 'POST',
    path: '/__mock/clock',
    summary: "stop, move or resume the mock's clock: { now } | { advanceMs } | { resume: true }",
    body: ClockBody,
    handler: ({ plane, body }) => {
      const parsed = body as z.output<typeof ClockBody>;
      if (parsed.resume) plane.clock.resume();
      if (parsed.now !== undefined) plane.clock.set(parsed.now);
      if (parsed.advanceMs !== undefined) plane.clock.advance(parsed.advanceMs);
      return ok({ now: new Date(plane.clock.now()).toISOString() });
    },
  },
];
