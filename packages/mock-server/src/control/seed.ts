/** Control route: `POST /__mock/seed`, new data from a seed and sizes. @module */
import * as z from 'zod';
import { optionGroupSchema, rangeSchema } from '../errors/ranges.js';
import { stripUndefined } from '../http/objects.js';
import {
  checkSeedSizes,
  SEED_EXPECTED,
  SEED_RANGE,
  SEED_TEXT_LENGTH,
  SIZE_GROUP,
} from '../store/seed/limits.js';
import { DEFAULT_SIZES } from '../store/state.js';

/**
 * A seed, as `POST /__mock/seed`, `control.seed` and a snapshot's `seed` take it: a number within
 * `SEED_RANGE` or a text of `SEED_TEXT_LENGTH` characters (the `seed` option's range too); one issue
 * naming both otherwise.
 */
export const SeedValue = z.union(
  [
    rangeSchema(SEED_RANGE),
    z
      .string()
      .min(SEED_TEXT_LENGTH.min, { error: `expected ${SEED_EXPECTED}` })
      .max(SEED_TEXT_LENGTH.max, { error: `expected ${SEED_EXPECTED}` }),
  ],
  { error: `expected ${SEED_EXPECTED}` },
);

/**
 * Seed sizes, some or all, each within its range (`SIZE_RANGES`, as the `sizes` option, the CLI's
 * size flags and `generateState`): `POST /__mock/seed`'s and a snapshot's `sizes`.
 */
export const SeedSizesBody = optionGroupSchema(SIZE_GROUP);

/**
 * Body of `POST /__mock/seed`: a seed (a number within `SEED_RANGE` or a text of 1 to 200
 * characters), each size within its range
 * (`SIZE_RANGES`), and the sizes together within the memory budget (`SEED_MEMORY_BUDGET`); 400
 * naming the field otherwise.
 */
export const SeedBody = z
  .strictObject({
    seed: SeedValue,
    sizes: SeedSizesBody.optional(),
  })
  .superRefine((body, ctx) => {
    const problem = checkSeedSizes({ ...DEFAULT_SIZES, ...stripUndefined(body.sizes ?? {}) });
    // A size out of its range has its issue already (the member's schema); this adds the budget's.
    if (problem?.field === 'sizes')
      ctx.addIssue({ code: 'custom', path: ['sizes'], message: problem.message });
  });
