/**
 * What a seed and seed sizes may be, one home for every path that takes them: the `seed` and `sizes`
 * options, `POST /__mock/seed` and `control.seed`, a snapshot's `seed` and `sizes` (`PUT
 * /__mock/state`, `setState`, the `state` option, `--state`), the command line's `--seed` and size
 * flags, and `generateState`. Each size has its documented range ({@link SIZE_RANGES}), and what the
 * sizes produce together has a memory budget (so sizes that are each within their cap cannot
 * multiply into an exhausted process); a seed is a safe integer or a short text ({@link SEED_RANGE},
 * {@link SEED_TEXT_LENGTH}).
 *
 * @module
 */
import {
  expectedOf,
  isInRange,
  type NumberRange,
  type OptionGroup,
  receivedOf,
} from '../../errors/ranges.js';
import { DEFAULT_SIZES, type SeedSizes } from '../state.js';

/**
 * The documented range of each seed size, both ends included: at least one account and one
 * integration (every account has its integrations), any other size from 0; each at most what the
 * generator is measured for. The one range of each size: the `sizes` option, `POST /__mock/seed`,
 * a snapshot's `sizes`, the CLI's size flags and `generateState` all read it.
 */
export const SIZE_RANGES: Readonly<Record<keyof SeedSizes, NumberRange>> = Object.freeze({
  accounts: { min: 1, max: 50 },
  workspaces: { min: 0, max: 100_000 },
  runsPerWorkspace: { min: 0, max: 100 },
  rules: { min: 0, max: 10_000 },
  stacks: { min: 0, max: 100_000 },
  events: { min: 0, max: 1_000_000 },
  integrations: { min: 1, max: 1_000 },
});

/** The sizes as an option group: each size's range ({@link SIZE_RANGES}) and default (`DEFAULT_SIZES`). */
export const SIZE_GROUP: OptionGroup<keyof SeedSizes> = Object.freeze({
  ranges: SIZE_RANGES,
  defaults: DEFAULT_SIZES,
});

/** The largest value each size takes (the upper end of its {@link SIZE_RANGES} range). */
export const SIZE_MAXIMA: Readonly<SeedSizes> = Object.freeze({
  accounts: SIZE_RANGES.accounts.max,
  workspaces: SIZE_RANGES.workspaces.max,
  runsPerWorkspace: SIZE_RANGES.runsPerWorkspace.max,
  rules: SIZE_RANGES.rules.max,
  stacks: SIZE_RANGES.stacks.max,
  events: SIZE_RANGES.events.max,
  integrations: SIZE_RANGES.integrations.max,
});

/** How many characters a seed that is a text has: 1 to 200. */
export const SEED_TEXT_LENGTH: NumberRange = Object.freeze({ min: 1, max: 200, unit: 'characters' });

/**
 * The numbers a seed may be: a safe integer (what JSON and every path carry exactly). The other
 * kind of seed is a text of {@link SEED_TEXT_LENGTH} characters, which messages name with it: its
 * `expected` is what a seed may be, either kind.
 */
export const SEED_RANGE: NumberRange = Object.freeze({
  min: Number.MIN_SAFE_INTEGER,
  max: Number.MAX_SAFE_INTEGER,
  expected: `an integer from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}, or a text of ${SEED_TEXT_LENGTH.min} to ${SEED_TEXT_LENGTH.max} characters`,
});

/** What a seed may be, as messages say it (either kind). */
export const SEED_EXPECTED = expectedOf(SEED_RANGE);

/** Whether `value` is a seed: a number within {@link SEED_RANGE}, or a text of {@link SEED_TEXT_LENGTH} characters. */
export function isSeed(value: unknown): value is number | string {
  return typeof value === 'string' ? isInRange(value.length, SEED_TEXT_LENGTH) : isInRange(value, SEED_RANGE);
}

/**
 * `value`, when it is a seed ({@link isSeed}); else throws a `RangeError` naming the option, what a
 * seed may be and what came: `MockOptions seed: expected an integer from -9007199254740991 to
 * 9007199254740991, or a text of 1 to 200 characters, received 1.5`.
 * @param label the option, as the message names it (`MockOptions seed`).
 */
export function checkSeedOption(label: string, value: unknown): number | string {
  if (isSeed(value)) return value;
  const received =
    typeof value === 'string'
      ? `a text of ${value.length} characters`
      : typeof value === 'number'
        ? Object.is(value, -0)
          ? '-0'
          : String(value)
        : `a value of type ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`;
  throw new RangeError(`${label}: expected ${SEED_EXPECTED}, received ${received}`);
}

/**
 * The most memory the generated data may take, by {@link estimateSeedBytes}: 1.5 GB, what 100,000
 * workspaces with up to 6 runs each and 1,000,000 events take (with the default 3 accounts).
 */
export const SEED_MEMORY_BUDGET = 1_500_000_000;

/**
 * About how many bytes of memory one record of each kind takes once loaded, from measurements of the
 * generator: 1.5 KB a workspace, 1.6 KB a run, 0.4 KB an event, 0.8 KB a stack, 1.6 KB a rule.
 */
export const RECORD_BYTES = Object.freeze({
  workspace: 1500,
  run: 1600,
  event: 400,
  stack: 800,
  rule: 1600,
});

/** How many records of each kind one account holds, for {@link estimateRecordBytes}. */
export interface RecordCounts {
  /** Workspaces. */
  workspaces: number;
  /** Runs, all workspaces together. */
  runs: number;
  /** Guardrail rules. */
  rules: number;
  /** IaC stacks. */
  stacks: number;
  /** Events. */
  events: number;
}

/** About how many bytes of memory an account's records take once loaded ({@link RECORD_BYTES}). */
export function estimateRecordBytes(counts: RecordCounts): number {
  return (
    counts.workspaces * RECORD_BYTES.workspace +
    counts.runs * RECORD_BYTES.run +
    counts.events * RECORD_BYTES.event +
    counts.stacks * RECORD_BYTES.stack +
    counts.rules * RECORD_BYTES.rule
  );
}

/**
 * The records the generator makes for one account of these sizes: the primary's, or (`other`) those
 * of each account after the first, about a tenth of the primary's (3 workspaces, 4 rules, 3 stacks
 * and 25 events at least); a workspace gets half its most runs on average.
 */
export function generatedCounts(sizes: SeedSizes, other = false): RecordCounts {
  const workspaces = other ? Math.max(3, Math.floor(sizes.workspaces / 10)) : sizes.workspaces;
  const runsPerWorkspace = other ? Math.max(1, sizes.runsPerWorkspace) : sizes.runsPerWorkspace;
  const stacks = other ? Math.max(3, Math.floor(sizes.stacks / 10)) : sizes.stacks;
  return {
    workspaces,
    runs: (workspaces * runsPerWorkspace) / 2,
    rules: other ? Math.max(4, Math.floor(sizes.rules / 10)) : sizes.rules,
    stacks: Math.min(stacks, workspaces),
    events: other ? Math.max(25, Math.floor(sizes.events / 10)) : sizes.events,
  };
}

/**
 * About how many bytes of memory the generated data of these sizes takes ({@link RECORD_BYTES} of
 * the records {@link generatedCounts} says the generator makes).
 */
export function estimateSeedBytes(sizes: SeedSizes): number {
  return (
    estimateRecordBytes(generatedCounts(sizes)) +
    (sizes.accounts - 1) * estimateRecordBytes(generatedCounts(sizes, true))
  );
}

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/** What is wrong with some seed sizes: the field and a sentence, or `undefined` when they are within their ranges and budget. */
export interface SeedSizesProblem {
  /** The size at fault (`sizes.workspaces`), or `sizes` when they are too large together. */
  field: string;
  /** What was expected and what came. */
  message: string;
}

/**
 * Checks whole sizes against each range ({@link SIZE_RANGES}) and the memory budget together: the
 * first problem, or `undefined`. The size ranges are checked first (the budget is estimated only for
 * sizes within them), in the range helper's words.
 */
export function checkSeedSizes(sizes: SeedSizes): SeedSizesProblem | undefined {
  for (const key of Object.keys(SIZE_RANGES) as (keyof SeedSizes)[]) {
    const value: unknown = sizes[key];
    if (!isInRange(value, SIZE_RANGES[key])) {
      return {
        field: `sizes.${key}`,
        message: `expected ${expectedOf(SIZE_RANGES[key])}, received ${receivedOf(value)}`,
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
