/**
 * The rows of the data a mock holds: its accounts, reset, a seed, a snapshot, a scene, a scenario, and
 * sessions (each its own data). Rows of the control table (`../table.ts`); `../declare.ts` says what a
 * row holds.
 *
 * @module
 */
import type { Scenario, ScenarioAnswer, ScenarioProgress } from '../../domain/scenario.js';
import { SCENARIO_LIMITS } from '../../domain/scenario.js';
import type { BudgetView } from '../../store/budget.js';
import { SCENE_LIMITS, type Scene } from '../../store/seed/scene.js';
import { DEFAULT_SEED, type MockAccount, type MockState, type SeedSizes } from '../../store/state.js';
import { checkData, checkScenarioInSlices } from '../data.js';
import { answers, capability } from '../declare.js';
import type { SessionCreated, SessionView } from '../route.js';
import { checkSessionBody } from '../sessions.js';
import { MAX_SNAPSHOT_BYTES, STATE_JSON_BOUNDS } from '../state.js';

/** The rows of the data a mock holds: its accounts, reset, a seed, a snapshot, a scene, a scenario, and sessions (each its own data). */
export const DATA_ROWS = {
  /** The accounts and their key pairs, primary first (`GET /__mock/accounts`). */
  accounts: capability<() => MockAccount[]>()({
    route: { method: 'GET', path: '/__mock/accounts', summary: 'the accounts and their key pairs' },
    call: { sync: true, args: () => ({}) },
    docs: { about: '`[{ id, name, accessKey, secretKey }]` of the seeded accounts' },
    writes: [],
  }),
  /**
   * Puts the mock back to how it started: the start data (the seed and sizes of the options, or the
   * `state`, `scene` or `scenario` it was created with), no webhook integrations or deliveries, an
   * empty journal, no faults or one-off answers, the rate limit and delivery policy of the options
   * with empty counters, and the clock of the options. Tokens issued before stay valid for accounts
   * that still exist. `POST /__mock/reset` answers `{ status: 'reset', restored: [...] }` naming the
   * parts restored.
   */
  reset: capability<() => Promise<void>>()({
    route: { method: 'POST', path: '/__mock/reset', summary: 'back to how the mock started' },
    call: { sync: false, args: () => ({}), result: () => undefined },
    answer: answers<{ status: 'reset'; restored: string[] }>(),
    docs: {
      about:
        'back to how the mock started: start data, no journal, faults or integrations, start settings and clock ([Reset](#reset))',
    },
    writes: [
      'data',
      'scenario',
      'timedRuns',
      'webhooks',
      'journal',
      'waits',
      'faults',
      'oneOff',
      'rateLimit',
      'clock',
    ],
  }),
  /** Generates new data from a seed and sizes (until the next reset, which returns to the start data). */
  seed: capability<(seed: number | string, sizes?: Partial<SeedSizes>) => Promise<void>>()({
    route: {
      method: 'POST',
      path: '/__mock/seed',
      summary: 'generate new data: { seed, sizes? }',
      body: (raw: unknown) => checkData('seed', raw),
    },
    call: {
      sync: false,
      params: ['seed', 'sizes'],
      args: (seed, sizes = {}) => ({ body: { seed, sizes } }),
      result: () => undefined,
    },
    answer: answers<{ status: 'seeded'; seed: number | string }>(),
    resetStage: 'data',
    docs: { about: 'generate new data (until the next reset, which returns to the start data)' },
    writes: ['data', 'scenario', 'timedRuns'],
    option: {
      option: 'seed',
      flag: '--seed <seed>',
      help: `seed of the generated data (default ${DEFAULT_SEED})`,
    },
  }),
  /**
   * A JSON snapshot of the whole state: the caller's own copy (change it freely, and load it with
   * `setState`); nothing in it is shared with the mock. Over HTTP (`GET /__mock/state`), a state
   * larger than a snapshot can be is a 409 naming its seed and sizes.
   */
  getState: capability<() => Promise<MockState>>()({
    route: { method: 'GET', path: '/__mock/state', summary: 'the whole state as JSON' },
    // The mock's records are shared (and frozen) between stores: the caller gets its own copy.
    call: { sync: false, args: () => ({}), result: (state: MockState) => structuredClone(state) },
    docs: {
      about: 'the whole state as JSON ([Snapshots](#snapshots); a state larger than a snapshot can be → 409)',
    },
    writes: [],
  }),
  /** Replaces the whole state with a snapshot (validated record by record); reset returns to the start data. */
  setState: capability<(state: unknown) => Promise<void>>()({
    route: {
      method: 'PUT',
      path: '/__mock/state',
      summary: 'load a snapshot',
      body: (raw: unknown) => checkData('snapshot', raw),
      maxBodyBytes: MAX_SNAPSHOT_BYTES,
      jsonBounds: STATE_JSON_BOUNDS,
    },
    call: {
      sync: false,
      params: ['state'],
      args: (state) => ({ body: state }),
      result: () => undefined,
      docs: 'control.setState(snapshot)',
    },
    answer: answers<{ status: 'loaded' }>(),
    resetStage: 'data',
    docs: {
      about: 'load a snapshot (every record validated, as the `state` option is; a bad one → 400 naming it)',
    },
    writes: ['data', 'scenario', 'timedRuns'],
    option: {
      option: 'state',
      flag: '--state <file>',
      help: 'start from a JSON snapshot (from GET /__mock/state) instead of generating',
    },
  }),
  /**
   * Replaces the data with a scene (`POST /__mock/scene`): what it names, exactly, and what it leaves
   * out generated from its seed. Checked whole before anything changes (an `HttpError` 400 naming the
   * path, what was expected and what came). Until the next reset, as `seed()` and `setState()`:
   * `reset()` returns to the start data. See `docs/testing-with-the-mock.md`, "Scenes".
   */
  scene: capability<(scene: Scene) => Promise<void>>()({
    route: {
      method: 'POST',
      path: '/__mock/scene',
      summary: 'replace the data with a scene, until the next reset (which returns to the start data)',
      body: (raw: unknown) => checkData('scene', raw),
      maxBodyBytes: SCENE_LIMITS.maxBodyBytes,
    },
    call: { sync: false, params: ['scene'], args: (scene) => ({ body: scene }), result: () => undefined },
    answer: answers<{ status: 'loaded' }>(),
    resetStage: 'data',
    docs: {
      about:
        "replace the data with a scene, until the next reset ([Scenes](#scenes)); 200 `{ status: 'loaded' }`",
    },
    writes: ['data', 'scenario', 'timedRuns', 'webhooks'],
    option: {
      option: 'scene',
      flag: '--scene <file>',
      help: 'start from a JSON scene (what POST /__mock/scene takes: the records to hold,\nthe rest generated from the seed); reset returns to it',
    },
  }),
  /**
   * Plays a scenario (`POST /__mock/scenario`): replaces the data with its scene (as
   * `control.scene`), then schedules its timeline on the mock's clock from its now: each step applies
   * when the clock passes its `at`. Checked whole before anything changes (an `HttpError` 400 naming
   * the path: `scenario.timeline[3].simulateRun.workspace: ...`). Until the next reset, which drops
   * the pending steps (a mock started with a `scenario` plays that one again). Answers how many steps
   * there are and when they fall. See `docs/testing-with-the-mock.md`, "Scenarios".
   */
  play: capability<(scenario: Scenario) => Promise<ScenarioAnswer>>()({
    route: {
      method: 'POST',
      path: '/__mock/scenario',
      summary:
        "replace the data with a scenario's scene and play its timeline on the mock's clock, until the next reset",
      // Its steps checked in slices that yield (10,000 steps are some 20 to 100 ms of checking).
      body: (raw: unknown) => checkScenarioInSlices(raw),
      maxBodyBytes: SCENARIO_LIMITS.maxBodyBytes,
    },
    call: { sync: false, params: ['scenario'], args: (scenario) => ({ body: scenario }) },
    resetStage: 'data',
    docs: {
      about:
        "load the scenario's scene and play its timeline on the mock's clock; 200 `{ status: 'playing', steps, startsAt, endsAt }`; until the next reset ([Scenarios](#scenarios))",
    },
    writes: ['data', 'scenario', 'timedRuns', 'webhooks'],
    option: {
      option: 'scenario',
      flag: '--scenario <file>',
      help: 'start from a JSON scenario (what POST /__mock/scenario takes: a scene and a\ntimeline of steps); its steps apply as the clock passes them; reset loads\nthe scene again and plays the timeline again from then',
    },
  }),
  /**
   * How far the scenario being played has gone (`GET /__mock/scenario`): `{ status: 'none' }` when
   * none was played since the data was last replaced; otherwise `playing` or `finished`, with the
   * steps applied, pending and skipped (the first 100 listed with their position, instant and reason).
   */
  scenarioProgress: capability<() => ScenarioProgress>()({
    route: {
      method: 'GET',
      path: '/__mock/scenario',
      summary: 'how far the scenario being played has gone: steps applied, pending and skipped (with why)',
    },
    call: { sync: true, args: () => ({}) },
    docs: {
      about:
        'how far the scenario being played has gone: steps applied, pending and skipped, with why ([Scenarios](#scenarios))',
    },
    writes: [],
  }),
  /**
   * What the mock's memory budget allows and holds (`GET /__mock/budget`): `limit` and `used` in
   * bytes, the option that sets the limit, and the bytes each store holds (`stores.journal`,
   * `stores.faults`, ...); in a session, its own share and the whole mock's (`mock`). A write past
   * the budget is a 409 `budget_exceeded` naming the store and the option. See `docs/security.md`,
   * "The memory budget".
   */
  budget: capability<() => BudgetView>()({
    route: {
      method: 'GET',
      path: '/__mock/budget',
      summary: "what the memory budget allows and what each store holds, bytes (a session's: its share)",
    },
    call: { sync: true, args: () => ({}) },
    option: {
      option: 'budget',
      flag: '--budget-bytes <n>',
      help: "bytes the mock keeps at run time, sessions included (default: half the heap\nlimit; --session-budget-bytes <n>: one session's share, default a quarter)",
    },
    docs: {
      about:
        'what the memory budget allows and what each store holds, bytes; in a session its own share ([The memory budget](security.md#the-memory-budget))',
    },
    writes: [],
  }),
  /**
   * Creates a session (`POST /__mock/sessions`): a separate mock inside this one, selected by the
   * request header `X-Iacm-Mock-Session: <id>`, with its own data (from `seed` and `sizes`, or a
   * `scene`; default: this mock's `seed` and `sizes` options), journal, faults, one-off answers,
   * rate-limit counters, clock, webhooks and token-signing key. Answers its id and its accounts' key
   * pairs. 400 naming the field of a bad body; 409 past the `sessions.max` bound; 409 inside a session.
   * See `docs/testing-with-the-mock.md`, "Sessions".
   */
  createSession: capability<
    (source?: {
      seed?: number | string;
      sizes?: Partial<SeedSizes>;
      scene?: Scene;
    }) => Promise<SessionCreated>
  >()({
    route: {
      method: 'POST',
      path: '/__mock/sessions',
      summary: 'create a session (its own data, journal, faults, clock, tokens): { seed?, sizes?, scene? }',
      body: checkSessionBody,
      status: 201,
      maxBodyBytes: SCENE_LIMITS.maxBodyBytes,
    },
    call: {
      sync: false,
      params: ['source'],
      args: (source = {}) => ({ body: source }),
      docs: 'control.createSession(source)',
    },
    docs: {
      about: 'create a session ([Sessions](#sessions)); 201 `{ id, accounts }`; 409 past `sessions.max`',
    },
    writes: ['sessions'],
    option: { option: 'sessions', flag: '--max-sessions <n>' },
  }),
  /** The live sessions, oldest first (`GET /__mock/sessions`); idle ones are ended first. */
  sessions: capability<() => SessionView[]>()({
    route: {
      method: 'GET',
      path: '/__mock/sessions',
      summary: 'the live sessions: { id, createdAt, lastUsedAt }',
    },
    call: { sync: true, args: () => ({}) },
    docs: { about: 'the live sessions: `[{ id, createdAt, lastUsedAt }]`' },
    writes: ['sessions'],
  }),
  /** Ends a session (`DELETE /__mock/sessions/{id}`): its pending waits are cancelled; 404 for an unknown id. */
  endSession: capability<(id: string) => void>()({
    route: {
      method: 'DELETE',
      path: '/__mock/sessions/{id}',
      summary: 'end a session (its pending waits are cancelled)',
      status: 204,
    },
    call: { sync: true, params: ['id'], args: (id) => ({ params: { id } }) },
    docs: { about: 'end a session (its pending waits rejected with 409); 204; 404 for an unknown id' },
    writes: ['sessions'],
  }),
} as const;
