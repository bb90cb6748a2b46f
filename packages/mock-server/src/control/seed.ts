/** Control route: `POST /__mock/seed`, new data from a seed and sizes. @module */
import * as z from 'zod';
import { stripUndefined } from '../http/objects.js';
import { checkSeedSizes, SIZE_MAXIMA } from '../store/seed/limits.js';
import { DEFAULT_SIZES } from '../store/state.js';
import { type ControlDeps, type ControlRoute, controlRoute, ok } from './route.js';

const count = (max: number) => z.number().int().min(0).max(max);

/**
 * Body of `POST /__mock/seed`: each size within its documented maximum (`SIZE_MAXIMA`), and the sizes
 * together within the memory budget (`SEED_MEMORY_BUDGET`); 400 naming the field otherwise.
 */
export const SeedBody = z
  .strictObject({
    seed: z.union([z.number().int(), z.string().min(1).max(200)]),
    sizes: z
      .strictObject({
        accounts: count(SIZE_MAXIMA.accounts).min(1).optional(),
        workspaces: count(SIZE_MAXIMA.workspaces).optional(),
        runsPerWorkspace: count(SIZE_MAXIMA.runsPerWorkspace).optional(),
        rules: count(SIZE_MAXIMA.rules).optional(),
        stacks: count(SIZE_MAXIMA.stacks).optional(),
        events: count(SIZE_MAXIMA.events).optional(),
        integrations: count(SIZE_MAXIMA.integrations).min(1).optional(),
      })
      .optional(),
  })
  .superRefine((body, ctx) => {
    const problem = checkSeedSizes({ ...DEFAULT_SIZES, ...stripUndefined(body.sizes ?? {}) });
    if (problem) ctx.addIssue({ code: 'custom', path: problem.field.split('.'), message: problem.message });
  });

/** Generates new data from a body {@link SeedBody} checked: the route's and `control.seed`'s one path. */
export function reseed(deps: ControlDeps, body: z.output<typeof SeedBody>): void {
  deps.reseed(body.seed, stripUndefined(body.sizes ?? {}));
}

/** The seed route. */
export const seedRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'POST',
    path: '/__mock/seed',
    summary: 'generate new data: { seed, sizes? }',
    body: SeedBody,
    handler: ({ deps, body }) => {
      reseed(deps, body);
      return ok({ status: 'seeded', seed: body.seed });
    },
  }),
];
