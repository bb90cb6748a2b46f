/**
 * The seeded data generator: a realistic, mutually consistent and fully deterministic mock state.
 *
 * Everything comes from {@link Random} seeded with the state's seed, and every timestamp is derived from
 * {@link SEED_EPOCH} going back in time, so one seed and one set of sizes always yield the same bytes.
 * Each account and each kind of record draws from its own stream (`<seed>:<account>:<kind>`), so
 * changing one size leaves the other kinds of record of the same seed mostly unchanged.
 */

import { resolveOptionGroup } from '../../errors/ranges.js';
import { drain } from '../../query/pause.js';
import { EventLog } from '../event-log.js';
import { Random } from '../random.js';
import type { RunSource } from '../runs.js';
import { type AccountState, DEFAULT_SEED, DEFAULT_SIZES, type MockState, type SeedSizes } from '../state.js';
import { accountRecord, generateIntegrations, generatePeople } from './accounts.js';
import { AccountContext, type AccountPins, type AccountPlan, Progress, type Shared } from './context.js';
import { generateEvents } from './events.js';
import { generateBackends, generateModules, generateStacks, stackRecords } from './explorer.js';
import { assignGuardrails, generateRules } from './guardrails.js';
import { IdFactory, type Steps } from './helpers.js';
import { SIZE_GROUP } from './limits.js';
import { generateRuns, RunReplays, replayRuns } from './runs.js';
import type { CheckedScene } from './scene.js';
import { pinEvents, pinGuardrails, pinRules, pinStackRecords, pinWorkspaces } from './scene-pins.js';
import { generateWorkspaces } from './workspaces.js';

// ---------------------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------------------

/** Options of {@link generateState}. */
export interface GenerateStateOptions {
  /** The seed (default {@link DEFAULT_SEED}); the same seed and sizes always give the same state. */
  seed?: number | string | undefined;
  /**
   * Sizes to override, each within its range (`SIZE_RANGES`: `accounts` and `integrations` at least
   * 1, the others at least 0); the others come from {@link DEFAULT_SIZES}.
   */
  sizes?: { [K in keyof SeedSizes]?: SeedSizes[K] | undefined } | undefined;
  /**
   * Called while the state is generated, for a progress display: `done` records of `total` are
   * generated, counting the workspaces (each once its runs are made) and the events of every
   * account, the bulk of the work. Called each time `progressEvery` more records are done, and last
   * with `done === total` (also when `total` is 0); `done` never decreases. It runs synchronously,
   * inside `generateState`, and does not change the generated state.
   */
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** How many records between two calls of `onProgress` (a whole number, at least 1). Default 5,000. */
  progressEvery?: number | undefined;
}

/** How many records between two calls of {@link GenerateStateOptions.onProgress} by default. */
const DEFAULT_PROGRESS_EVERY = 5000;

/**
 * Merges the requested sizes with the defaults and checks each against its range (`SIZE_RANGES`, as
 * every other path that takes sizes): a `RangeError` naming the size, its range and what came
 * (`generateState sizes.accounts: expected an integer from 1 to 50, received 0`).
 */
function resolveSizes(partial: GenerateStateOptions['sizes']): SeedSizes {
  return resolveOptionGroup(SIZE_GROUP, partial, 'generateState sizes', 'size');
}

/** The progress counter `onProgress` asks for, if any. */
function progressOf(options: GenerateStateOptions, plans: AccountPlan[]): Progress | undefined {
  const { onProgress, progressEvery = DEFAULT_PROGRESS_EVERY } = options;
  if (!onProgress) return undefined;
  if (!Number.isSafeInteger(progressEvery) || progressEvery < 1) {
    throw new RangeError(
      `generateState: progressEvery must be a whole number of at least 1, received ${String(progressEvery)}`,
    );
  }
  return new Progress(progressTotal(plans), progressEvery, onProgress);
}

/** The records that generation progress counts: every account's workspaces and events. */
function progressTotal(plans: readonly AccountPlan[]): number {
  return plans.reduce((sum, plan) => sum + plan.workspaces + plan.events, 0);
}

/**
 * The total that generation progress reports for `sizes` (`onProgress(done, total)`): every
 * account's workspaces and events. Data already generated is reported done at once with it.
 */
export function seedProgressTotal(sizes: SeedSizes): number {
  const resolved = resolveSizes(sizes);
  return progressTotal(Array.from({ length: resolved.accounts }, (_, index) => accountPlan(resolved, index)));
}

/** What one account gets: the sizes for the primary account, scaled down for the others. */
function accountPlan(sizes: SeedSizes, index: number): AccountPlan {
  if (index === 0) {
    return {
      workspaces: sizes.workspaces,
      runsPerWorkspace: sizes.runsPerWorkspace,
      rules: sizes.rules,
      stacks: sizes.stacks,
      events: sizes.events,
      integrations: Math.max(1, sizes.integrations),
    };
  }
  return {
    workspaces: Math.max(3, Math.floor(sizes.workspaces / 10)),
    runsPerWorkspace: Math.max(1, sizes.runsPerWorkspace),
    rules: Math.max(4, Math.floor(sizes.rules / 10)),
    stacks: Math.max(3, Math.floor(sizes.stacks / 10)),
    events: Math.max(25, Math.floor(sizes.events / 10)),
    integrations: Math.max(2, Math.floor(sizes.integrations / 10)),
  };
}

/**
 * Generates one account's records, each family from its own random stream, in a fixed order. With
 * `lazy`, the runs are not kept: the account's {@link RunSource} makes them again on demand. In
 * steps (see {@link Steps}): the families whose work grows with the sizes yield every so often.
 */
function* generateAccount(
  shared: Shared,
  index: number,
  plan: AccountPlan,
  lazy: boolean,
  pins?: AccountPins,
): Steps<{ state: AccountState; runs?: RunSource; events?: EventLog }> {
  const g = new AccountContext(shared, index, plan, pins);
  const account = accountRecord(g);
  generatePeople(g);
  yield* generateIntegrations(g);
  yield* generateWorkspaces(g);
  pinWorkspaces(g);
  const { rules, notifications } = yield* generateRules(g);
  pinRules(g);
  yield* assignGuardrails(g);
  pinGuardrails(g);
  yield* generateStacks(g);
  const replays = lazy ? new RunReplays(g.workspaces.length, g.shared.ids) : undefined;
  const { workspaces, runs } = yield* generateRuns(g, replays);
  const stacks = yield* stackRecords(g);
  pinStackRecords(g, stacks);
  const backends = yield* generateBackends(g);
  const { modules, repositories } = yield* generateModules(g);
  const log = lazy ? new EventLog() : undefined;
  const events = yield* generateEvents(g, log?.seeder(plan.events));
  pinEvents(g, events);
  yield;
  log?.seal();
  const state = {
    account,
    workspaces,
    runs,
    rules,
    notifications,
    stacks,
    backends,
    modules,
    repositories,
    events,
  };
  return replays && log ? { state, runs: runSource(g, replays), events: log } : { state };
}

/**
 * The runs of an account generated lazily: the replay points packed in typed arrays (a few dozen
 * bytes per workspace), and the account context the runs are made again in. What only the events
 * needed of the context is dropped.
 */
function runSource(g: AccountContext, replays: RunReplays): RunSource {
  g.violatingRuns.length = 0;
  g.ruleLists.clear();
  const workspaceIds: string[] = [];
  for (let i = 0; i < replays.length; i++) {
    workspaceIds.push((g.workspaces[replays.position(i)] as { id: string }).id);
  }
  return { workspaceIds, replay: (i) => replayRuns(g, replays.at(i)) };
}

/**
 * Generates the mock's whole state from a seed: accounts with their key pairs, workspaces and their
 * runs, guardrail rules and their notification configurations, IaC stacks, backends, repositories,
 * modules and event center events.
 *
 * - **Deterministic**: the same seed and sizes give the same state, byte for byte; timestamps lie in
 *   the 90 days before {@link SEED_EPOCH} (events in the last 30), never after it.
 * - **Sizes**: the primary account (the first) gets `sizes.workspaces` workspaces, `sizes.rules`
 *   rules (the first four are one of each kind), `min(sizes.stacks, workspaces)` stacks and
 *   `sizes.events` events over `max(1, sizes.integrations)` integrations; each workspace gets 0 to
 *   `sizes.runsPerWorkspace` runs (most get at least one). The other accounts get about a tenth, with
 *   small minimums (3 workspaces, 4 rules, 3 stacks, 25 events, 2 integrations).
 * - **Consistent**: `runsCount`, `lastRunStatus` and the `last*Time` members follow the runs;
 *   workspaces, stacks, backends, repositories and modules refer to each other; run violations and
 *   guardrail events name the account's rules. Ids are unique across the state.
 * - **Compact**: the state is plain JSON, but immutable leaves that many records repeat are shared
 *   between records and frozen: the `backendSummary` of workspaces and runs (one per stack), a
 *   run's `ownerSummary`, the tasks' `{ description }` wrappers, backend, guardrail and changed-file
 *   summaries (and the empty `apply` list), and event `attributes`. Replace such a member rather
 *   than mutating it. (100,000 workspaces and 1,000,000 events take about 8 s and about 1 GB of
 *   heap as objects; the mock itself stores a seed lazily: `generateLazyState` in `store/seed`.)
 *
 * - **Progress**: `onProgress` is told how many workspaces and events are done, every
 *   `progressEvery` (5,000) of them; it changes nothing in the state.
 *
 * @throws RangeError when a size is not a non-negative integer, `sizes.accounts` is 0, or
 *   `progressEvery` is not a whole number of at least 1.
 */
export function generateState(options: GenerateStateOptions = {}): MockState {
  return drain(seedState(options, false)).state;
}

/**
 * {@link generateState} for the mock's own store: the same state, except that each account's runs
 * are not in it but come from its {@link RunSource} on demand (`store/runs.ts`), which takes about half
 * the memory of a large seed off the heap.
 */
export function generateLazyState(options: GenerateStateOptions = {}): LazyState {
  return drain(lazyStateSteps(options));
}

/**
 * {@link generateLazyState} as steps: a generator that yields every so often (about every 128
 * records, well under a millisecond apart) and returns the same state, byte for byte. Run it with
 * `drive` (in slices that give the event loop a turn) or `drain` (whole) of `query/pause.ts`; one
 * run of it at a time (it is not restartable). The sizes are checked before the first step:
 * it throws the same `RangeError` as {@link generateLazyState} when the first step is taken.
 */
export function lazyStateSteps(options: GenerateStateOptions = {}): Steps<LazyState> {
  return seedState(options, true) as Steps<LazyState>;
}

/**
 * A seed stored lazily: the state without its runs and events, and per account (by position) where
 * they are: a {@link RunSource} that makes runs again, and a columnar {@link EventLog}.
 */
export interface LazyState {
  /** The state, with empty `runs` and `events`. */
  state: MockState;
  /** Per account, its runs. */
  runs: RunSource[];
  /** Per account, its events. */
  events: EventLog[];
}

function* seedState(
  options: GenerateStateOptions,
  lazy: boolean,
): Steps<{ state: MockState; runs: Array<RunSource | undefined>; events: Array<EventLog | undefined> }> {
  const seed = options.seed ?? DEFAULT_SEED;
  const sizes = resolveSizes(options.sizes);
  const plans = Array.from({ length: sizes.accounts }, (_, index) => accountPlan(sizes, index));
  const shared: Shared = {
    seed,
    ids: new IdFactory(new Random(`${String(seed)}:ids`)),
    progress: progressOf(options, plans),
  };
  const accounts: AccountState[] = [];
  const runs: Array<RunSource | undefined> = [];
  const events: Array<EventLog | undefined> = [];
  for (const [index, plan] of plans.entries()) {
    const made = yield* generateAccount(shared, index, plan, lazy);
    accounts.push(made.state);
    runs.push(made.runs);
    events.push(made.events);
  }
  shared.progress?.finish();
  return { state: { version: 1, seed, sizes, accounts }, runs, events };
}

/**
 * The state a checked scene describes (`scene.ts`), generated whole (a scene is small): its
 * accounts (three at the default sizes when it names none), each collection it names holding
 * exactly its records, kept to while they are generated, and what it leaves out generated from its
 * seed at the default sizes. The same scene always gives the same state.
 */
export function generateSceneState(scene: CheckedScene): MockState {
  return drain(sceneStateSteps(scene));
}

/**
 * {@link generateSceneState} as steps (see {@link lazyStateSteps}): the same state, byte for byte,
 * from a generator that yields every so often.
 */
export function* sceneStateSteps(scene: CheckedScene): Steps<MockState> {
  const seed = scene.seed ?? DEFAULT_SEED;
  const pinned = scene.accounts;
  const count = pinned?.length ?? DEFAULT_SIZES.accounts;
  const shared: Shared = { seed, ids: new IdFactory(new Random(`${String(seed)}:ids`)), progress: undefined };
  const accounts: AccountState[] = [];
  for (let index = 0; index < count; index++) {
    const pins = pinned?.[index];
    const plan = { ...accountPlan(DEFAULT_SIZES, index) };
    if (pins?.workspaces) plan.workspaces = pins.workspaces.length;
    if (pins?.rules) plan.rules = pins.rules.length;
    if (pins?.stacks) plan.stacks = pins.stacks.length;
    if (pins?.events) plan.events = pins.events.length;
    if (pins?.workspaces) {
      plan.runsPerWorkspace = Math.max(
        plan.runsPerWorkspace,
        ...pins.workspaces.map((w) => w.runs?.length ?? 0),
      );
    }
    accounts.push((yield* generateAccount(shared, index, plan, false, pins)).state);
  }
  return { version: 1, seed, sizes: { ...DEFAULT_SIZES, accounts: count }, accounts };
}
