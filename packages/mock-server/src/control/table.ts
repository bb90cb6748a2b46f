/**
 * The control table: every control capability of the mock, declared once (`control/declare.ts` says
 * what a row holds). From it come the router of `/__mock` (`routes.ts`), the in-process `control.*`
 * methods and their types (`plane.ts`, `ControlPlane`), the landing page's list of control routes,
 * the CLI's help for the flags of the same concepts, and the control-plane tables of
 * `docs/mock-server.md` (generated; a test checks them). Each row's handler is bound in the core
 * (`handlers.ts`). Importable without the core, msw or `node:`.
 *
 * Synchronous in process: the methods whose work is bounded by small constants (reads, faults,
 * one-off answers, the clock, the rate limit, a simulated run, a finding, a dry run). A method that
 * replaces data or may work over user-sized input answers a Promise (`sync: false`): waits,
 * webhook calls, and (see `docs/mock-server.md`, "Synchronous and asynchronous methods") the loads.
 *
 * @module
 */
import type { EndpointName, IacStack, WebhookPayload, WorkspaceRun } from '@iacm/sdk/contract';
import { DeliveryPolicyBody } from '../domain/delivery-policy.js';
import { EvaluateBody } from '../domain/dry-run.js';
import type { GuardrailEvaluation } from '../domain/evaluate.js';
import type { OutboxEntry } from '../domain/events.js';
import { FindingBody, type FindingInput } from '../domain/findings.js';
import type { Scenario, ScenarioAnswer, ScenarioProgress } from '../domain/scenario.js';
import { SCENARIO_LIMITS } from '../domain/scenario.js';
import { type RunTimingInput, SimulatedRunBody, type SimulatedRunInput } from '../domain/simulate.js';
import type { TimedRunAnswer } from '../domain/timed-runs.js';
import {
  type DeliveryAttempt,
  type DeliveryPolicy,
  IntegrationCreateBody,
  IntegrationUpdateBody,
  type IntegrationView,
  NotificationBody,
} from '../domain/webhooks.js';
import type { Fault, FaultRule } from '../pipeline/faults.js';
import { FAULT_LIMITS } from '../pipeline/faults.js';
import type { JournalEntry } from '../pipeline/journal.js';
import { type JournalCall, toCall } from '../pipeline/journal-calls.js';
import { checkOneOff, ONE_OFF_LIMITS, type OneOff, type OneOffAnswer } from '../pipeline/one-off.js';
import { SERVICE_RATE_LIMIT } from '../pipeline/rate-limit.js';
import type { NextDeliveryOptions, WaitForOptions } from '../pipeline/waiters.js';
import { SCENE_LIMITS, type Scene } from '../store/seed/scene.js';
import { DEFAULT_SEED, type MockAccount, type MockState, type SeedSizes } from '../store/state.js';
import { ClockBody } from './clock.js';
import { answers, type ControlTransport, capability } from './declare.js';
import { checkFault } from './faults.js';
import { JournalListingQuery } from './journal.js';
import { RateLimitBody } from './rate-limit.js';
import type { SessionCreated, SessionView } from './route.js';
import { checkScenarioBody } from './scenario.js';
import { checkSceneBody } from './scene.js';
import { SeedBody } from './seed.js';
import { checkSessionBody } from './sessions.js';
import { checkSnapshot, MAX_SNAPSHOT_BYTES, STATE_JSON_BOUNDS } from './state.js';
import {
  CancelWaitsBody,
  checkNextDelivery,
  checkWaitFor,
  JournalWaitQuery,
  NextDeliveryQuery,
} from './waits.js';

/** An instant as `POST /__mock/clock` takes it: a Date or text `Date` reads as epoch ms; anything else as given (and checked). */
function epochOf(instant: unknown): unknown {
  if (instant instanceof Date) return instant.getTime();
  if (typeof instant !== 'string') return instant;
  const at = Date.parse(instant);
  return Number.isNaN(at) ? instant : at;
}

/** Every control capability, in the order the landing page and the docs list them. */
export const CONTROL_TABLE = {
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
      body: SeedBody,
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
      body: checkSnapshot,
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
      body: checkSceneBody,
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
      body: checkScenarioBody,
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
  /** The last requests, oldest first (at most `limit`: 0 to the most the journal keeps). */
  journal: capability<(limit?: number) => JournalEntry[]>()({
    route: {
      method: 'GET',
      path: '/__mock/journal',
      summary:
        'the last requests (?limit=N; ?endpoint=workspaces.search: that endpoint only), credentials redacted',
      query: JournalListingQuery,
    },
    call: {
      sync: true,
      params: ['limit'],
      args: (limit) => ({ query: { limit } }),
      docs: 'control.journal(n)',
    },
    docs: { about: 'the last requests (bounded by `journalLimit`, 500), credentials redacted' },
    writes: [],
    option: {
      option: 'journalLimit',
      flag: '--journal-limit <n>',
    },
  }),
  /**
   * The journal's entries of endpoint `name`, oldest first, typed from the endpoint table: `params`,
   * `query` and `body` as the route stage validated them, `status`, `requestId`, `accountId`
   * (`GET /__mock/journal?endpoint=name`). An unknown name is a 400 listing the closest names.
   */
  calls: capability<<N extends EndpointName>(name: N) => JournalCall<N>[]>()({
    via: 'journal',
    call: {
      sync: true,
      params: ['name'],
      // Always sent: a missing or wrong name is a 400 naming `query.endpoint` and the closest names.
      args: (name) => ({ query: { endpoint: String(name) } }),
      result: (entries: JournalEntry[]) => entries.map((entry) => toCall(entry)),
    },
    docs: {
      about:
        "that endpoint's entries, oldest first (typed in process); an unknown name → 400 naming the closest",
      request: '`GET /__mock/journal?endpoint=workspaces.search`',
    },
    writes: [],
  }),
  /** Empties the journal. */
  clearJournal: capability<() => void>()({
    route: { method: 'DELETE', path: '/__mock/journal', summary: 'empty the journal', status: 204 },
    call: { sync: true, args: () => ({}) },
    resetStage: 'journal',
    docs: { about: 'empty the journal' },
    writes: ['journal'],
  }),
  /**
   * Resolves with the first call of endpoint `name` that `options.match` selects (partial body,
   * partial query, account: as `respond` matches), recorded after `options.since` (default `'now'`,
   * the moment of the call; `'start'`: any the journal still keeps; a request id or an entry: after
   * that request's entry), typed as `calls(name)` types it. Rejects (an `HttpError`) after
   * `options.timeout` ms (default 5,000; real time, whatever fake timers do) with 408 listing the
   * first 10 requests that did arrive and their count; 409 past 100 pending waits, on `reset()` and on
   * `cancelWaits()`. `GET`/`POST /__mock/journal/wait` over HTTP (at most 30 s).
   */
  waitFor: capability<
    <N extends EndpointName>(name: N, options?: WaitForOptions<N>) => Promise<JournalCall<N>>
  >()({
    route: {
      method: 'POST',
      path: '/__mock/journal/wait',
      summary: 'long poll as GET, with { endpoint, match: { body, query, accountId }, since, timeout }',
      body: (raw: unknown, transport: ControlTransport) => checkWaitFor(raw, transport),
    },
    call: {
      sync: false,
      params: ['name', 'options'],
      args: (name, options = {}) => ({ body: { ...options, endpoint: name } }),
      docs: 'control.waitFor(name, options)',
    },
    docs: {
      about: 'long poll: the first matching call ([Waits](#waits)); 408 listing what arrived',
      request: '`POST /__mock/journal/wait` `{ endpoint, match, since, timeout }`',
    },
    writes: ['waits'],
  }),
  /** `GET /__mock/journal/wait`: the long poll of `waitFor`, its inputs in the query. */
  waitForQuery: capability()({
    route: {
      method: 'GET',
      path: '/__mock/journal/wait',
      summary:
        'long poll: the first call of ?endpoint= (&accountId=) recorded after ?since= (now, start, a request id); ?timeout= ms, at most 30000; 408 listing what arrived',
      query: JournalWaitQuery,
    },
    answer: answers<JournalCall>(),
    docs: {
      about: 'long poll as `POST`, its inputs in the query (at most 30 s)',
      request: '`GET /__mock/journal/wait?endpoint=&since=&timeout=&accountId=`',
      call: 'the `GET` form of `control.waitFor`',
    },
    writes: ['waits'],
  }),
  /**
   * Resolves with the next webhook delivery attempt (of `options.kind`: `Drift`, ... or `test`; to
   * `integrationId` or `nickname`), made after the call (`since: 'start'`: one the attempt log holds
   * counts). Rejects as `waitFor` does. `GET` and `POST /__mock/deliveries/next` over HTTP.
   */
  nextDelivery: capability<(options?: NextDeliveryOptions) => Promise<DeliveryAttempt>>()({
    route: {
      method: 'POST',
      path: '/__mock/deliveries/next',
      summary: 'long poll as GET, with { kind, integrationId, nickname, since, timeout }',
      body: (raw: unknown, transport: ControlTransport) => checkNextDelivery(raw, transport),
    },
    call: {
      sync: false,
      params: ['options'],
      args: (options = {}) => ({ body: options }),
      docs: 'control.nextDelivery(options)',
    },
    docs: {
      about: 'long poll: the next webhook delivery attempt ([Waits](#waits))',
      request: '`POST /__mock/deliveries/next` `{ kind, integrationId, nickname, since, timeout }`',
    },
    writes: ['waits'],
  }),
  /** `GET /__mock/deliveries/next`: the long poll of `nextDelivery`, its inputs in the query. */
  nextDeliveryQuery: capability()({
    route: {
      method: 'GET',
      path: '/__mock/deliveries/next',
      summary:
        'long poll: the next webhook delivery attempt (?kind=Drift, ?integrationId=, ?nickname=, ?since=start); ?timeout= ms, at most 30000',
      query: NextDeliveryQuery,
    },
    answer: answers<DeliveryAttempt>(),
    docs: {
      about: 'long poll as `POST`, its inputs in the query (at most 30 s)',
      request: '`GET /__mock/deliveries/next?kind=Drift&integrationId=&nickname=&since=&timeout=`',
      call: 'the `GET` form of `control.nextDelivery`',
    },
    writes: ['waits'],
  }),
  /**
   * Rejects every pending `waitFor` and `nextDelivery` (409 saying they were cancelled); answers how
   * many; `reason` is said in their message (default: that `cancelWaits()` was called). `reset()` and
   * a standalone server's `close()` do this; with MSW, call it in `afterAll`.
   */
  cancelWaits: capability<(reason?: string) => number>()({
    route: {
      method: 'POST',
      path: '/__mock/waits/cancel',
      summary: 'reject every pending wait (409 naming the reason): { reason? }; answers { cancelled }',
      body: CancelWaitsBody,
    },
    call: {
      sync: true,
      params: ['reason'],
      args: (reason) => ({ body: { reason } }),
      result: (answer: { cancelled: number }) => answer.cancelled,
    },
    resetStage: 'journal',
    docs: {
      about:
        "reject every pending wait (409 naming the reason); answers `{ cancelled }` (in process, the count); `reset()` and a standalone server's `close()` do it",
    },
    writes: ['waits'],
  }),
  /**
   * Adds a fault (`POST /__mock/faults`); returns it with its id. It names exactly one of `path` (a
   * glob, with `method`: applied before routing) and `endpoint` (with `match`, the one-off answers'
   * matcher: applied after routing, authentication and validation). An unknown endpoint is a 400
   * naming `endpoint` and the closest names.
   */
  addFault: capability<<N extends EndpointName>(rule: FaultRule<N>) => Fault>()({
    route: {
      method: 'POST',
      path: '/__mock/faults',
      summary: 'inject a fault (status, delay, dropped connection) on a path or an endpoint',
      body: checkFault,
      status: 201,
      maxBodyBytes: FAULT_LIMITS.maxBodyBytes,
    },
    call: { sync: true, params: ['rule'], args: (rule) => ({ body: rule }) },
    resetStage: 'faults',
    docs: { about: 'inject a fault (below)' },
    writes: ['faults'],
    option: { option: 'delayMs', flag: '--delay <ms>' },
  }),
  /** The faults still waiting. */
  faults: capability<() => Fault[]>()({
    route: { method: 'GET', path: '/__mock/faults', summary: 'faults still waiting' },
    call: { sync: true, args: () => ({}) },
    docs: { about: 'faults still waiting' },
    writes: [],
  }),
  /** Removes every fault. */
  clearFaults: capability<() => void>()({
    route: { method: 'DELETE', path: '/__mock/faults', summary: 'remove all faults', status: 204 },
    call: { sync: true, args: () => ({}) },
    resetStage: 'faults',
    docs: { about: 'remove all faults' },
    writes: ['faults'],
  }),
  /**
   * Sets a one-off answer of endpoint `name` (`POST /__mock/responses`): the next `times` (default 1)
   * requests to it that `match` selects (partial body, partial query, `accountId`) get `status`
   * (default: the success status) with `body` and `headers`, after authentication and validation,
   * instead of the operation. The body is typed by the endpoint and checked against the contract's
   * strict schemas (the endpoint's answer for its success status; the error body for one of its
   * documented errors), unless `validate: false`; a bad one is a 400 naming the path. 409 past
   * `ONE_OFF_LIMITS`. `reset()` removes them (with the faults).
   */
  respond: capability<<N extends EndpointName>(name: N, answer: OneOffAnswer<N>) => OneOff>()({
    route: {
      method: 'POST',
      path: '/__mock/responses',
      summary: 'set a one-off answer of an endpoint, checked against the strict contract',
      body: checkOneOff,
      status: 201,
      maxBodyBytes: ONE_OFF_LIMITS.maxBodyBytes,
    },
    call: {
      sync: true,
      params: ['name', 'answer'],
      args: (name, answer) => ({ body: { ...answer, endpoint: name } }),
      docs: 'control.respond(name, a)',
    },
    resetStage: 'faults',
    docs: {
      about:
        'set a one-off answer of an endpoint, checked against the strict contract ([One-off answers](#one-off-answers))',
    },
    writes: ['oneOff'],
  }),
  /** The one-off answers still waiting, oldest first. */
  responses: capability<() => OneOff[]>()({
    route: { method: 'GET', path: '/__mock/responses', summary: 'one-off answers still waiting' },
    call: { sync: true, args: () => ({}) },
    docs: { about: 'one-off answers still waiting' },
    writes: [],
  }),
  /** Removes every one-off answer. */
  clearResponses: capability<() => void>()({
    route: {
      method: 'DELETE',
      path: '/__mock/responses',
      summary: 'remove all one-off answers',
      status: 204,
    },
    call: { sync: true, args: () => ({}) },
    resetStage: 'faults',
    docs: { about: 'remove all one-off answers' },
    writes: ['oneOff'],
  }),
  /**
   * Turns the rate limit on (`true` = 500 per 60 s, or a custom limit: `limit` 1 to 1,000,000,
   * `windowSeconds` 1 to 86,400) or off (`false`); 400 naming the member out of range.
   */
  setRateLimit: capability<(limit: boolean | { limit?: number; windowSeconds?: number }) => void>()({
    route: {
      method: 'POST',
      path: '/__mock/rate-limit',
      summary: "the service's rate limit, off by default: { enabled, limit?, windowSeconds? }",
      body: RateLimitBody,
    },
    call: {
      sync: true,
      params: ['limit'],
      args: (limit) => ({
        body: typeof limit === 'object' && limit !== null ? { enabled: true, ...limit } : { enabled: limit },
      }),
      result: () => undefined,
      docs: 'control.setRateLimit(...)',
    },
    answer: answers<{ enabled: boolean; limit?: number; windowSeconds?: number }>(),
    resetStage: 'rateLimit',
    docs: {
      about:
        'the service\'s rate limit (500 per 60 s per client: the socket address, or with `--trust-proxy`/`trustProxy` the last `X-Forwarded-For` entry; "local" in-process), off by default; over it → 429 with `Retry-After`',
    },
    writes: ['rateLimit'],
    option: {
      option: 'rateLimit',
      flag: '--rate-limit',
      help: `enforce the service's rate limit (${SERVICE_RATE_LIMIT.limit} requests per ${SERVICE_RATE_LIMIT.windowSeconds} s per client)`,
    },
  }),
  /** The mock's clock: read, stop, move or resume it (`control.clock.*`, `GET`/`POST /__mock/clock`). */
  clock: {
    /** The current instant of the mock's clock, epoch milliseconds (`GET /__mock/clock` answers it as ISO 8601). */
    now: capability<() => number>()({
      route: { method: 'GET', path: '/__mock/clock', summary: "the mock's clock" },
      call: {
        sync: true,
        args: () => ({}),
        result: (answer: { now: string }) => Date.parse(answer.now),
        docs: 'control.clock.now()',
      },
      docs: { about: "the mock's clock: `{ now }` (ISO 8601; in process, epoch milliseconds)" },
      writes: [],
      option: {
        option: 'clock',
        flag: '--clock <real|manual>',
        help: "real (default): the mock's clock runs; manual: it stands at the start instant\nuntil POST /__mock/clock moves it (timed runs and scenarios then wait for it)",
      },
    }),
    /** `POST /__mock/clock`: stops, moves or resumes the clock (`control.clock.set`, `advance`, `resume`). */
    move: capability()({
      route: {
        method: 'POST',
        path: '/__mock/clock',
        summary: "stop, move or resume the mock's clock: { now } | { advanceMs } | { resume: true }",
        body: ClockBody,
      },
      answer: answers<{ now: string }>(),
      resetStage: 'clock',
      docs: {
        about:
          'one request for the three: `{ now }` stops it at an instant, `{ advanceMs }` moves it, `{ resume: true }` lets it run; answers `{ now }`',
        call: '`control.clock.set`, `advance`, `resume`',
      },
      writes: ['clock', 'data', 'scenario', 'timedRuns', 'webhooks'],
    }),
    /**
     * Stops the clock at an instant (epoch ms, ISO 8601 or a Date) from 1970-01-01T00:00:00.000Z to
     * 9999-12-31T23:59:59.999Z; an `HttpError` 400 naming `now`, the range and what came otherwise.
     * The steps that became due apply (timed runs, a scenario), then the delivery retries.
     */
    set: capability<(instant: number | string | Date) => void>()({
      via: 'clock.move',
      call: {
        sync: true,
        params: ['instant'],
        // A Date as its epoch ms; text `Date` reads (any ISO 8601 form, as `MockCore.clock.set` takes) too.
        args: (instant) => ({ body: { now: epochOf(instant) } }),
        result: () => undefined,
      },
      resetStage: 'clock',
      docs: {
        about:
          'stop the clock at an instant (ISO 8601, epoch ms or a `Date` in process); the steps that became due apply',
        request: '`POST /__mock/clock` `{ now }`',
      },
      writes: ['clock'],
    }),
    /**
     * Moves the clock by `ms` milliseconds, at most 315,360,000,000 (10 years) either way, to an instant
     * within its range; an `HttpError` 400 naming `advanceMs` otherwise.
     */
    advance: capability<(ms: number) => void>()({
      via: 'clock.move',
      call: {
        sync: true,
        params: ['ms'],
        args: (ms) => ({ body: { advanceMs: ms } }),
        result: () => undefined,
      },
      resetStage: 'clock',
      docs: {
        about:
          'move the clock by `advanceMs` (either way, at most 10 years); the steps that became due apply, then the delivery retries',
        request: '`POST /__mock/clock` `{ advanceMs }`',
      },
      writes: ['clock'],
    }),
    /** Lets the clock run from the underlying clock again. */
    resume: capability<() => void>()({
      via: 'clock.move',
      call: { sync: true, args: () => ({ body: { resume: true } }), result: () => undefined },
      resetStage: 'clock',
      docs: {
        about: 'let the clock run from the underlying clock again',
        request: '`POST /__mock/clock` `{ resume: true }`',
      },
      writes: ['clock'],
    }),
  },
  /**
   * Simulates a CI run on a workspace (`POST /__mock/workspaces/{id}/runs`): evaluated against the
   * guardrail rules, stored, events recorded; 201 with the run and the evaluation. With `timing`, the
   * run lives on the mock's clock (`docs/mock-server.md`, "Runs that live in time"): 202 with its id
   * and schedule, and the run as it is now (`null` before it starts).
   */
  simulateRun: capability<
    // Timed (scheduled on the clock), finished at once, or either.
    {
      (workspaceId: string, body: SimulatedRunInput & { timing: RunTimingInput }): TimedRunAnswer;
      (
        workspaceId: string,
        body: SimulatedRunInput & { timing?: undefined },
      ): { run: WorkspaceRun; evaluation: GuardrailEvaluation };
      (
        workspaceId: string,
        body: SimulatedRunInput,
      ): { run: WorkspaceRun; evaluation: GuardrailEvaluation } | TimedRunAnswer;
    }
  >()({
    route: {
      method: 'POST',
      path: '/__mock/workspaces/{id}/runs',
      summary: 'simulate a CI run, evaluated against the guardrail rules',
      body: SimulatedRunBody,
      status: (answer: object) => ('schedule' in answer ? 202 : 201),
    },
    call: {
      sync: true,
      params: ['workspaceId', 'body'],
      args: (workspaceId, body) => ({ params: { id: workspaceId }, body }),
      docs: 'control.simulateRun(id, body)',
    },
    resetStage: 'data',
    docs: {
      about:
        'simulate a CI run: evaluated against the guardrail rules, stored, events recorded ([guardrails.md](guardrails.md)); 201 `{ run, evaluation }`; with `timing`, 202 and the run lives on the mock\'s clock ([guardrails.md](guardrails.md), "Runs that live in time")',
    },
    writes: ['data', 'timedRuns'],
  }),
  /** Dry-runs guardrail rules against a plan (`POST /__mock/guardrails/evaluate`); stores nothing. */
  evaluate: capability<(body: unknown) => GuardrailEvaluation>()({
    route: {
      method: 'POST',
      path: '/__mock/guardrails/evaluate',
      summary: 'dry-run guardrail rules against a plan; stores nothing',
      body: EvaluateBody,
    },
    call: { sync: true, params: ['body'], args: (body) => ({ body }) },
    docs: { about: 'dry-run rules against a plan; stores nothing' },
    writes: [],
  }),
  /** Records a finding on an IaC stack: the updated stack and the queued notification. */
  recordFinding: capability<
    (stackId: string, body: FindingInput) => { stack: IacStack; notification: WebhookPayload }
  >()({
    route: {
      method: 'POST',
      path: '/__mock/stacks/{id}/findings',
      summary: 'record a finding on an IaC stack',
      body: FindingBody,
      status: 201,
    },
    call: {
      sync: true,
      params: ['stackId', 'body'],
      args: (stackId, body) => ({ params: { id: stackId }, body }),
      docs: 'control.recordFinding(id, body)',
    },
    resetStage: 'data',
    docs: { about: 'record a finding (below); 201 `{ stack, notification }`' },
    writes: ['data'],
  }),
  /** Notifications waiting for delivery, oldest first: of one account, or of all. */
  outbox: capability<(accountId?: string) => OutboxEntry[]>()({
    route: {
      method: 'GET',
      path: '/__mock/outbox',
      summary: 'notifications queued for delivery (?accountId=)',
    },
    call: { sync: true, params: ['accountId'], args: (accountId) => ({ query: { accountId } }) },
    docs: { about: 'notifications queued for delivery (violations, findings, manual)' },
    writes: [],
  }),
  /** Queues and delivers a notification (`{ notificationType, ...payload members }`). */
  notify: capability<(body: unknown) => OutboxEntry>()({
    route: {
      method: 'POST',
      path: '/__mock/notifications',
      summary: 'queue and deliver a notification',
      body: NotificationBody,
      status: 202,
    },
    call: { sync: true, params: ['body'], args: (body) => ({ body }) },
    resetStage: 'data',
    docs: {
      about:
        'queue and deliver a notification: `{ "notificationType": "Drift", ...members to override }`; 202',
    },
    writes: ['data', 'webhooks'],
  }),
  /** Webhook integrations and their deliveries (`control.webhooks.*`). */
  webhooks: {
    /** Creates an integration after a successful test delivery (primary account unless `accountId`). */
    create: capability<(body: unknown) => Promise<IntegrationView>>()({
      route: {
        method: 'POST',
        path: '/__mock/integrations/webhook',
        summary: 'create a webhook integration',
        body: IntegrationCreateBody,
        status: 201,
      },
      call: { sync: false, params: ['body'], args: (body) => ({ body: body ?? undefined }) },
      resetStage: 'webhooks',
      docs: { about: 'create a webhook integration (after a successful test delivery)' },
      writes: ['webhooks'],
    }),
    /** The integrations, credentials shown by method only. */
    list: capability<(accountId?: string) => IntegrationView[]>()({
      route: {
        method: 'GET',
        path: '/__mock/integrations/webhook',
        summary: 'the webhook integrations (?accountId=)',
      },
      call: { sync: true, params: ['accountId'], args: (accountId) => ({ query: { accountId } }) },
      docs: { about: 'integrations with their status; credentials by method only' },
      writes: [],
    }),
    /** Renames, moves or (with `replaceCredentials`) re-credentials an integration. */
    update: capability<(id: string, body: unknown) => Promise<IntegrationView>>()({
      route: {
        method: 'PATCH',
        path: '/__mock/integrations/webhook/{id}',
        summary: 'rename it, change its URL or credentials',
        body: IntegrationUpdateBody,
      },
      call: {
        sync: false,
        params: ['id', 'body'],
        args: (id, body) => ({ params: { id }, body: body ?? undefined }),
      },
      resetStage: 'webhooks',
      docs: { about: 'rename, change the URL, or replace credentials' },
      writes: ['webhooks'],
    }),
    /** Removes an integration. */
    remove: capability<(id: string) => void>()({
      route: {
        method: 'DELETE',
        path: '/__mock/integrations/webhook/{id}',
        summary: 'remove it',
        status: 204,
      },
      call: { sync: true, params: ['id'], args: (id) => ({ params: { id } }) },
      resetStage: 'webhooks',
      docs: { about: 'remove an integration' },
      writes: ['webhooks'],
    }),
    /** Sends a test notification now. */
    test: capability<(id: string) => Promise<DeliveryAttempt>>()({
      route: {
        method: 'POST',
        path: '/__mock/integrations/webhook/{id}/test',
        summary: 'send it a test notification now',
      },
      call: { sync: false, params: ['id'], args: (id) => ({ params: { id } }) },
      resetStage: 'webhooks',
      docs: { about: 'send a test notification now' },
      writes: ['webhooks'],
    }),
    /** `GET /__mock/integrations/webhook/{id}/deliveries`: one integration's attempts (404 for an unknown one). */
    integrationDeliveries: capability()({
      route: {
        method: 'GET',
        path: '/__mock/integrations/webhook/{id}/deliveries',
        summary: 'its delivery attempts',
      },
      answer: answers<DeliveryAttempt[]>(),
      docs: {
        about: "one integration's delivery attempts",
        call: 'over HTTP only (`control.webhooks.deliveries(id)` answers `[]` for an unknown id)',
      },
      writes: [],
    }),
    /** Recorded delivery attempts (of one integration, or all), headers redacted. */
    deliveries: capability<(integrationId?: string) => DeliveryAttempt[]>()({
      route: {
        method: 'GET',
        path: '/__mock/deliveries',
        summary: 'every delivery attempt (?integrationId=)',
      },
      call: {
        sync: true,
        params: ['integrationId'],
        args: (integrationId) => ({ query: { integrationId } }),
        docs: 'control.webhooks.deliveries(id?)',
      },
      docs: {
        about: 'every delivery attempt (time, status, duration, error, outcome; headers redacted)',
        request: '`GET /__mock/deliveries?integrationId=`',
      },
      writes: [],
    }),
    /** Sends the retries due by the mock's clock now (moving the clock does this too); resolves when they have finished. */
    runDue: capability<() => Promise<void>>()({
      route: {
        method: 'POST',
        path: '/__mock/deliveries/run-due',
        summary: "send the retries due by the mock's clock now",
      },
      call: { sync: false, args: () => ({}), result: () => undefined },
      answer: answers<DeliveryAttempt[]>(),
      resetStage: 'webhooks',
      docs: { about: "send the retries due by the mock's clock now (moving the clock does this too)" },
      writes: ['webhooks'],
    }),
    /** Changes the retry policy (attempts, baseDelayMs, maxDelayMs, maxTotalMs, timeoutMs). */
    setPolicy: capability<(policy: Partial<DeliveryPolicy>) => DeliveryPolicy>()({
      route: {
        method: 'PUT',
        path: '/__mock/deliveries/policy',
        summary: 'delivery retries: { attempts, baseDelayMs, maxDelayMs, maxTotalMs, timeoutMs }',
        body: DeliveryPolicyBody,
      },
      call: {
        sync: true,
        params: ['policy'],
        args: (policy) => ({ body: policy }),
        docs: 'control.webhooks.setPolicy(p)',
      },
      resetStage: 'webhooks',
      docs: {
        about:
          '`{ attempts, baseDelayMs, maxDelayMs, maxTotalMs, timeoutMs }` of delivery retries (ranges: [webhooks.md](webhooks.md#deliveries-from-the-mock-server))',
      },
      writes: ['webhooks'],
      option: { option: 'deliveryPolicy' },
    }),
  },
  /** Waits until every webhook delivery in progress, retries included, has finished. */
  flushDeliveries: capability<() => Promise<void>>()({
    route: {
      method: 'POST',
      path: '/__mock/deliveries/flush',
      summary: 'wait until every delivery in progress has finished',
    },
    call: { sync: false, args: () => ({}), result: () => undefined },
    answer: answers<DeliveryAttempt[]>(),
    resetStage: 'webhooks',
    docs: {
      about:
        'send every remaining retry at once (each recorded at the instant it was due; the clock does not move) and wait until all deliveries have finished',
    },
    writes: ['webhooks'],
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

/** The table's type: what `ControlPlane` and the handlers are typed from. */
export type ControlTableOf = typeof CONTROL_TABLE;
