/**
 * The mock's data, one concept in four forms, and its one check ({@link checkData}). A **scene** is
 * partial data (what it leaves out is generated from its seed), a **snapshot** is complete data, a
 * **seed** with sizes is data made entirely by the generator, and a **scenario** is a scene plus a
 * timeline. Each form's shape is its own module's (`scene.ts`, `state.ts`, `seed.ts`,
 * `scenario.ts`): the strict contract, then references and unique keys by one function
 * (`store/references.ts`, declared per form), then the form's impossible combinations. Every entry
 * point checks through here: the options (`seed`, `sizes`, `state`, `scene`, `scenario`), the CLI's
 * files, `POST /__mock/seed`, `PUT /__mock/state`, `POST /__mock/scene`, `POST /__mock/scenario`
 * and a session's data (`POST /__mock/sessions`), in process and over HTTP alike; a mistake reads
 * the same in each (`scene.accounts[0].stacks[0].workspace: expected the name of one of the
 * account's workspaces`, the path under the body where the data sits). What is checked is applied
 * by one path too: the core's `load` (`ControlDeps.load`), which a reset walks in stages.
 *
 * @module
 */
import type { CheckedScenario } from '../domain/scenario.js';
import { nestedError, parseOr400 } from '../errors.js';
import { stripUndefined } from '../http/objects.js';
import { drive } from '../query/pause.js';
import { heapBytes } from '../store/budget.js';
import { estimateRecordBytes, estimateSeedBytes, generatedCounts } from '../store/seed/limits.js';
import type { CheckedScene } from '../store/seed/scene.js';
import { DEFAULT_SIZES, type MockState, type SeedSizes } from '../store/state.js';
import { checkScenarioBody, scenarioCheckSteps } from './scenario.js';
import { checkSceneBody } from './scene.js';
import { SeedBody } from './seed.js';
import { checkSnapshot } from './state.js';

/** Generated data: a seed and all seven sizes. */
export type SeededSource = { readonly seed: number | string; readonly sizes: SeedSizes };

/**
 * Where a mock's data comes from, checked: a seed and sizes (generated), a snapshot (kept as JSON,
 * so that each load, a reset's too, gets fresh records), a snapshot's state loaded once (a
 * `setState`), or a scene.
 */
export type DataSource =
  | SeededSource
  | { readonly snapshot: string }
  | { readonly state: MockState }
  | { readonly scene: CheckedScene };

/** Data checked by {@link checkData}: what to load, and a scenario's timeline when it has one. */
export interface CheckedData<S extends DataSource = DataSource> {
  /** The data to load. */
  readonly source: S;
  /** The scenario whose timeline plays once its scene is loaded (a scenario's data only). */
  readonly scenario?: CheckedScenario | undefined;
}

/** The forms the mock's data comes in, and the source each gives once checked. */
export interface DataForms {
  /** `{ seed, sizes? }`: generated data (`POST /__mock/seed`). */
  seed: SeededSource;
  /** A snapshot, what `GET /__mock/state` gives (`PUT /__mock/state`, the `state` option). */
  snapshot: { readonly state: MockState };
  /** A scene (`POST /__mock/scene`, the `scene` option). */
  scene: { readonly scene: CheckedScene };
  /** A scenario: a scene and a timeline (`POST /__mock/scenario`, the `scenario` option). */
  scenario: { readonly scene: CheckedScene };
}

/** Where the data sits and what fills it in. */
export interface DataCheckOptions {
  /**
   * The seed of what a scene or a scenario's scene leaves out, when it names none (the `seed`
   * option, a session's `seed`).
   */
  readonly seed?: number | string | undefined;
  /**
   * The member of the body that holds the data (`scene` in a session's body): its issues' paths
   * are named under it. Default: the body is the data.
   */
  readonly under?: string | undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `scene` with `seed` first, when a seed is given and the scene is an object (its own seed wins). */
function seeded(scene: unknown, seed: number | string | undefined): unknown {
  return seed === undefined || !isObject(scene) ? scene : { seed, ...scene };
}

/**
 * Checks the mock's data in one of its forms, the one check of every entry point (see the module):
 * the form's shape by the strict contract, its references and unique keys, its combinations; a
 * scenario's scene as a scene, then its timeline against it. Answers what to load.
 * @throws HttpError 400 `validation_failed` whose message names the first problem by its path under
 *   the form's name (`scene.`, `state.`, `scenario.`; `body.` for a seed), what was expected and what
 *   came, its issues every problem (at most 20, then a count), each path under the body.
 */
export function checkData<F extends keyof DataForms>(
  form: F,
  input: unknown,
  options: DataCheckOptions = {},
): CheckedData<DataForms[F]> {
  try {
    return check(form, input, options) as CheckedData<DataForms[F]>;
  } catch (error) {
    throw options.under === undefined ? error : nestedError(error, options.under);
  }
}

/**
 * {@link checkData} of a scenario in slices that yield (`scenarioCheckSteps`, run by `drive`): its
 * 10,000 steps are user-sized work, so `control.play` and `POST /__mock/scenario` check them a slice
 * at a time. The same answer and the same 400 as `checkData('scenario', ...)`.
 */
export async function checkScenarioInSlices(
  input: unknown,
  options: DataCheckOptions = {},
): Promise<CheckedData<DataForms['scenario']>> {
  try {
    const scenario = await drive(scenarioCheckSteps(scenarioInput(input, options.seed)));
    return { source: { scene: scenario.scene }, scenario };
  } catch (error) {
    throw options.under === undefined ? error : nestedError(error, options.under);
  }
}

/** A scenario as checked: its scene with `seed` first, when one is given (see {@link seeded}). */
function scenarioInput(input: unknown, seed: number | string | undefined): unknown {
  return seed !== undefined && isObject(input) ? { ...input, scene: seeded(input.scene, seed) } : input;
}

function check(form: keyof DataForms, input: unknown, options: DataCheckOptions): CheckedData {
  switch (form) {
    case 'seed': {
      const body = parseOr400(SeedBody, input === undefined ? {} : input);
      return {
        source: { seed: body.seed, sizes: { ...DEFAULT_SIZES, ...stripUndefined(body.sizes ?? {}) } },
      };
    }
    case 'snapshot':
      return { source: { state: checkSnapshot(input) } };
    case 'scene':
      return { source: { scene: checkSceneBody(seeded(input, options.seed)) } };
    case 'scenario': {
      const scenario = checkScenarioBody(scenarioInput(input, options.seed));
      return { source: { scene: scenario.scene }, scenario };
    }
  }
}

/**
 * The same data, loadable again: a snapshot's state as its JSON (each load then makes fresh
 * records), for data a reset returns to (the options' and a session's).
 */
export function reloadable(data: CheckedData): CheckedData {
  return 'state' in data.source ? { ...data, source: { snapshot: JSON.stringify(data.source.state) } } : data;
}

/**
 * About how many bytes of memory data from `source` takes once loaded (`RECORD_BYTES` a
 * record): a seed's by the records it generates; a scene's by the records it names, with what it
 * leaves out at the default sizes, plus the heap of the scene itself ({@link sceneHeapBytes}: the
 * checked scene is kept as start data, and its texts are its records' texts, which a count of
 * records does not measure); a loaded state's by its records, counted; a snapshot kept as JSON
 * about twice its text. What the budget charges when a session's data is made or replaced.
 */
export function estimateDataBytes(source: DataSource): number {
  if ('sizes' in source) return estimateSeedBytes(source.sizes);
  if ('snapshot' in source) return source.snapshot.length * 2;
  if ('state' in source) {
    return source.state.accounts.reduce(
      (sum, a) =>
        sum +
        estimateRecordBytes({
          workspaces: a.workspaces.length,
          runs: a.runs.length,
          rules: a.rules.length,
          stacks: a.stacks.length,
          events: a.events.length,
        }),
      0,
    );
  }
  const accounts = source.scene.accounts;
  const kept = sceneHeapBytes(source.scene);
  if (!accounts) return kept + estimateSeedBytes(DEFAULT_SIZES);
  return accounts.reduce((sum, account, index) => {
    const generated = generatedCounts(DEFAULT_SIZES, index > 0);
    const workspaces = account.workspaces;
    const perWorkspace = generated.workspaces > 0 ? generated.runs / generated.workspaces : 0;
    return (
      sum +
      estimateRecordBytes({
        workspaces: workspaces?.length ?? generated.workspaces,
        runs: workspaces
          ? workspaces.reduce((runs, ws) => runs + (ws.runs?.length ?? perWorkspace), 0)
          : generated.runs,
        rules: account.rules?.length ?? generated.rules,
        stacks: account.stacks?.length ?? generated.stacks,
        events: account.events?.length ?? generated.events,
      })
    );
  }, kept);
}

/** The heap of each checked scene seen ({@link sceneHeapBytes}), measured once per scene object. */
const SCENE_HEAP = new WeakMap<object, number>();

/**
 * The heap a checked scene takes, by `heapBytes` (its strings, numbers, arrays and objects), measured
 * once per scene object (a scene is estimated at its check, at its session's creation and at each
 * load): a scene of 2,000 workspaces of 50 labels of 128 characters is some 30 MB, which its record
 * count alone (3 MiB) would not say.
 */
export function sceneHeapBytes(scene: CheckedScene): number {
  let bytes = SCENE_HEAP.get(scene);
  if (bytes === undefined) {
    bytes = heapBytes(scene);
    SCENE_HEAP.set(scene, bytes);
  }
  return bytes;
}
