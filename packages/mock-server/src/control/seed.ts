/** Control route: `POST /__mock/seed`, new data from a seed and sizes. @module */
import { z } from 'zod';
import { stripUndefined } from '../core/objects.js';
import { type ControlRoute, ok } from './route.js';

const count = (max: number) => z.number().int().min(0).max(max);

/** Body of `POST /__mock/seed`. */
export const SeedBody = z.strictObject({
  seed: z.union([z.number().int(), z.string().min(1).max(200)]),
  sizes: z
    .strictObject({
      accounts: count(50).min(1).optional(),
      workspaces: count(1_000_000).optional(),
      runsPerWorkspace: count(1000).optional(),
      rules: count(100_000).optional(),
      stacks: count(1_000_000).optional(),
      events: count(10_000_000).optional(),
      integrations: count(1000).min(1).optional(),
    })
    .optional(),
});

/** The seed route. */
export const seedRoutes: readonly ControlRoute[] = [
  {
    method: 'POST',
    path: '/__mock/seed',
    summary: 'generate new data: { seed, sizes? }',
    body: SeedBody,
    handler: ({ deps, body }) => {
      const parsed = body as z.output<typeof SeedBody>;
      deps.reseed(parsed.seed, stripUndefined(parsed.sizes ?? {}));
      return ok({ status: 'seeded', seed: parsed.seed });
    },
  },
];
