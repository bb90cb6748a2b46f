/**
 * How many cases a property-based (fuzz) test runs. `pnpm test` runs the counts written in the tests;
 * `pnpm test:fuzz` runs the same tests with every count multiplied by `IACM_FUZZ_FACTOR` (set by the
 * `fuzz` project of vitest.suites.config.ts). Seeds stay fixed, so a failure repeats; set
 * `IACM_FUZZ_SEED` to explore other cases (fast-check prints the seed and path of a failure).
 */
export function fuzzRuns(runs: number): number {
  const factor = Number(process.env.IACM_FUZZ_FACTOR ?? '1');
  return Number.isInteger(factor) && factor > 0 ? runs * factor : runs;
}

/** The seed of a fuzz test: `IACM_FUZZ_SEED` when set, else the test's own fixed seed. */
export function fuzzSeed(seed: number): number {
  const chosen = Number(process.env.IACM_FUZZ_SEED);
  return Number.isInteger(chosen) ? chosen : seed;
}
