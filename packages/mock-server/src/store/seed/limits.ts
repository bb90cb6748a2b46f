/**
 * The documented maxima of the seed sizes, one home for the command line, `POST /__mock/seed` and the
 * `sizes` option: each size has its maximum, and what the sizes produce together has a memory budget
 * (so sizes that are each within their cap cannot multiply into an exhausted process).
 *
 * @module
 */
import type { SeedSizes } from '../state.js';

/** The largest value each size flag takes. */
export const SIZE_MAXIMA: Readonly<SeedSizes> = {
  accounts: 50,
  workspaces: 100_000,
  runsPerWorkspace: 100,
  rules: 10_000,
  stacks: 100_000,
  events: 1_000_000,
  integrations: 1_000,
};

/**
 * The most memory the generated data may take, by {@link estimateSeedBytes}: 1.5 GB, what 100,000
 * workspaces with up to 6 runs each and 1,000,000 events take (with the default 3 accounts).
 */
export const SEED_MEMORY_BUDGET = 1_500_000_000;

/**
 * About how many bytes of memory the generated data of these sizes takes, from measurements of the
 * generator: 1.5 KB a workspace, 1.6 KB a run (a workspace gets half its maximum on average), 0.4 KB
 * an event, 0.8 KB a stack, 1.6 KB a rule; each account after the first gets about a tenth of the
 * primary's data (3 workspaces, 4 rules, 3 stacks and 25 events at least).
 */
export function estimateSeedBytes(sizes: SeedSizes): number {
  const account = (workspaces: number, runs: number, rules: number, stacks: number, events: number) =>
    workspaces * 1500 +
    workspaces * runs * 800 +
    events * 400 +
    Math.min(stacks, workspaces) * 800 +
    rules * 1600;
  const primary = account(sizes.workspaces, sizes.runsPerWorkspace, sizes.rules, sizes.stacks, sizes.events);
  const other = account(
    Math.max(3, Math.floor(sizes.workspaces / 10)),
    Math.max(1, sizes.runsPerWorkspace),
    Math.max(4, Math.floor(sizes.rules / 10)),
    Math.max(3, Math.floor(sizes.stacks / 10)),
    Math.max(25, Math.floor(sizes.events / 10)),
  );
  return primary + (sizes.accounts - 1) * other;
}

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/** What is wrong with some seed sizes: the field and a sentence, or `undefined` when they are within the maxima. */
export interface SeedSizesProblem {
  /** The size at fault (`sizes.workspaces`), or `sizes` when they are too large together. */
  field: string;
  /** What was expected and what came. */
  message: string;
}

/**
 * Checks sizes against each maximum and the memory budget together (the defaults fill what is not
 * given): the first problem, or `undefined`.
 */
export function checkSeedSizes(sizes: SeedSizes): SeedSizesProblem | undefined {
  for (const key of Object.keys(SIZE_MAXIMA) as (keyof SeedSizes)[]) {
    const value = sizes[key];
    if (!Number.isSafeInteger(value) || value < 0 || value > SIZE_MAXIMA[key]) {
      return {
        field: `sizes.${key}`,
        message: `expected a whole number from 0 to ${SIZE_MAXIMA[key]}, received ${String(value).slice(0, 40)}`,
      };
    }
  }
  const bytes = estimateSeedBytes(sizes);
  if (bytes > SEED_MEMORY_BUDGET) {
    return {
      field: 'sizes',
      message: `these sizes would take about ${gb(bytes)} of memory; the most is ${gb(SEED_MEMORY_BUDGET)} (for example 100000 workspaces with 6 runs each and 1000000 events): lower workspaces, runsPerWorkspace, events or accounts`,
    };
  }
  return undefined;
}
