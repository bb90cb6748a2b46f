/**
 * The control plane's types: its in-process API ({@link ControlPlane}), and what a control route
 * is and gets ({@link ControlRoute}, {@link ControlContext}), typed from the route's declared body
 * check and path template ({@link controlRoute}).
 *
 * @module
 */
import type { EndpointName, IacStack, JsonBounds, WebhookPayload, WorkspaceRun } from '@iacm/sdk/contract';
import type * as z from 'zod';
import type { CheckedEvaluation } from '../domain/dry-run.js';
import type { GuardrailEvaluation } from '../domain/evaluate.js';
import type { OutboxEntry } from '../domain/events.js';
import type { CheckedFinding, FindingInput } from '../domain/findings.js';
import type { CheckedNotification } from '../domain/notify.js';
import type { CheckedScenario, Scenario, ScenarioAnswer, ScenarioProgress } from '../domain/scenario.js';
import type { CheckedSimulatedRun, RunTimingInput, SimulatedRunInput } from '../domain/simulate.js';
import type { TimedRunAnswer } from '../domain/timed-runs.js';
import type { DeliveryAttempt, DeliveryPolicy, IntegrationView, WebhookHub } from '../domain/webhooks.js';
import { parseOr400 } from '../errors.js';
import type { MockResponse } from '../http/message.js';
import type { MockClock } from '../pipeline/clock.js';
import type { Fault, FaultBook, FaultRule } from '../pipeline/faults.js';
import type { Journal, JournalEntry } from '../pipeline/journal.js';
import type { JournalCall } from '../pipeline/journal-calls.js';
import type { OneOff, OneOffAnswer, OneOffBook } from '../pipeline/one-off.js';
import type { RateLimiter } from '../pipeline/rate-limit.js';
import type { NextDeliveryOptions, Waiters, WaitForOptions } from '../pipeline/waiters.js';
import type { CheckedScene, Scene } from '../store/seed/scene.js';
import type { MockAccount, MockState, SeedSizes } from '../store/state.js';

/** The control plane of a mock: in-process methods, and the same over HTTP under `/__mock`. */
export interface ControlPlane {
  /**
   * Puts the mock back to how it started: the start data (the seed and sizes of the options, or the
   * `state` it was created with), no webhook integrations or deliveries, an empty journal, no faults,
   * the rate limit and delivery policy of the options with empty counters, and the clock of the
   * options. Tokens issued before stay valid for accounts that still exist. `POST /__mock/reset`
   * answers `{ status: 'reset', restored: [...] }` naming the parts restored.
   */
  reset(): void;
  /** Generates new data from a seed and sizes (until the next reset, which returns to the start data). */
  seed(seed: number | string, sizes?: Partial<SeedSizes>): void;
  /**
   * A JSON snapshot of the whole state: the caller's own copy (change it freely, and load it with
   * `setState`); nothing in it is shared with the mock.
   */
  getState(): MockState;
  /** Replaces the whole state with a snapshot (validated record by record); reset returns to the start data. */
  setState(state: unknown): void;
  /**
   * Replaces the data with a scene (`POST /__mock/scene`): what it names, exactly, and what it leaves
   * out generated from its seed. Checked whole before anything changes (an `HttpError` 400 naming the
   * path, what was expected and what came). Until the next reset, as `seed()` and `setState()`: `reset()`
   * returns to the start data (a scene given as the `scene` option, for one). See
   * `docs/testing-with-the-mock.md`, "Scenes".
   */
  scene(scene: Scene): void;
  /**
   * Plays a scenario (`POST /__mock/scenario`): replaces the data with its scene (as {@link
   * ControlPlane.scene}), then schedules its timeline on the mock's clock from its now: each step applies
   * when the clock passes its `at` (`clock.advance()`, `clock.set()`, or a running clock). Checked whole
   * before anything changes (an `HttpError` 400 naming the path: `scenario.timeline[3].simulateRun.workspace:
   * ...`). Until the next reset, as `scene()`: `reset()` returns to the start data, and drops the pending
   * steps (a mock started with a `scenario` plays that one again). Answers how many steps there are and when
   * they fall. See `docs/testing-with-the-mock.md`, "Scenarios".
   */
  play(scenario: Scenario): ScenarioAnswer;
  /**
   * How far the scenario being played has gone (`GET /__mock/scenario`): `{ status: 'none' }` when none
   * was played since the data was last replaced; otherwise `playing` or `finished`, with the steps
   * applied, pending and skipped (the first 100 listed with their position, instant and reason: a
   * step whose workspace or stack was deleted through the API, or that a bound refused).
   */
  scenarioProgress(): ScenarioProgress;
  /** The accounts and their key pairs, primary first. */
  accounts(): MockAccount[];
  /** The last requests, oldest first (at most `limit`). */
  journal(limit?: number): JournalEntry[];
  /** Empties the journal. */
  clearJournal(): void;
  /**
   * The journal's entries of endpoint `name`, oldest first, typed from the endpoint table: `params`,
   * `query` and `body` as the route stage validated them, `status`, `requestId`, `accountId`
   * (`GET /__mock/journal?endpoint=name`). An unknown name is a 400 listing the closest names.
   */
  calls<N extends EndpointName>(name: N): JournalCall<N>[];
  /**
   * Resolves with the first call of endpoint `name` that `options.match` selects (partial body,
   * partial query, account: as `respond` matches), recorded after `options.since` (default `'now'`,
   * the moment of the call; `'start'`: any the journal still keeps; a request id or an entry: after
   * that request's entry), typed as `calls(name)` types it. Rejects (an `HttpError`) after
   * `options.timeout` ms (default 5,000; real time, whatever fake timers do) with 408 listing the
   * first 10 requests that did arrive and their count; 409 past 100 pending waits, on `reset()` and on
   * `cancelWaits()`. `GET`/`POST /__mock/journal/wait` over HTTP (at most 30 s).
   */
  waitFor<N extends EndpointName>(name: N, options?: WaitForOptions<N>): Promise<JournalCall<N>>;
  /**
   * Resolves with the next webhook delivery attempt (of `options.kind`: `Drift`, ... or `test`; to
   * `integrationId` or `nickname`), made after the call (`since: 'start'`: one the attempt log holds
   * counts). Rejects as {@link ControlPlane.waitFor} does. `GET /__mock/deliveries/next` over HTTP.
   */
  nextDelivery(options?: NextDeliveryOptions): Promise<DeliveryAttempt>;
  /**
   * Rejects every pending `waitFor` and `nextDelivery` (409 saying they were cancelled); answers how
   * many; `reason` is said in their message (default: that `cancelWaits()` was called). `reset()` and
   * a standalone server's `close()` do this; with MSW, call it in `afterAll`.
   */
  cancelWaits(reason?: string): number;
  /**
   * Adds a fault (`POST /__mock/faults`); returns it with its id. It names exactly one of `path` (a
   * glob, with `method`: applied before routing) and `endpoint` (with `match`, the one-off answers'
   * matcher: applied after routing, authentication and validation). An unknown endpoint is a 400
   * naming `endpoint` and the closest names.
   */
  addFault<N extends EndpointName>(rule: FaultRule<N>): Fault;
  /** The faults still waiting. */
  faults(): Fault[];
  /** Removes every fault. */
  clearFaults(): void;
  /**
   * Sets a one-off answer of endpoint `name` (`POST /__mock/responses`): the next `times` (default 1)
   * requests to it that `match` selects (partial body, partial query, `accountId`) get `status`
   * (default: the success status) with `body` and `headers`, after authentication and validation,
   * instead of the operation. The body is typed by the endpoint and checked against the contract's
   * strict schemas (the endpoint's answer for its success status; the error body for one of its
   * documented errors), unless `validate: false`; a bad one is a 400 naming the path. 409 past
   * `ONE_OFF_LIMITS`. `reset()` removes them (with the faults).
   */
  respond<N extends EndpointName>(name: N, answer: OneOffAnswer<N>): OneOff;
  /** The one-off answers still waiting, oldest first. */
  responses(): OneOff[];
  /** Removes every one-off answer. */
  clearResponses(): void;
  /**
   * Turns the rate limit on (`true` = 500 per 60 s, or a custom limit: `limit` 1 to 1,000,000,
   * `windowSeconds` 1 to 86,400) or off (`false`); 400 naming the member out of range.
   */
  setRateLimit(limit: boolean | { limit: number; windowSeconds: number }): void;
  /**
   * Simulates a CI run on a workspace. With `timing`, the run lives on the mock's clock (`docs/mock-server.md`,
   * "Runs that live in time"): the answer is its id and schedule, and the run as it is now (`null`
   * before it starts).
   */
  simulateRun(workspaceId: string, body: SimulatedRunInput & { timing: RunTimingInput }): TimedRunAnswer;
  /** Simulates a CI run on a workspace, finished at once: the created run and the guardrail evaluation. */
  simulateRun(
    workspaceId: string,
    body: SimulatedRunInput & { timing?: undefined },
  ): { run: WorkspaceRun; evaluation: GuardrailEvaluation };
  /** Simulates a CI run on a workspace, timed or not (as the two forms above). */
  simulateRun(
    workspaceId: string,
    body: SimulatedRunInput,
  ): { run: WorkspaceRun; evaluation: GuardrailEvaluation } | TimedRunAnswer;
  /** Records a finding on an IaC stack: the updated stack and the queued notification. */
  recordFinding(stackId: string, body: FindingInput): { stack: IacStack; notification: WebhookPayload };
  /** Dry-runs guardrail rules against a plan. */
  evaluate(body: unknown): GuardrailEvaluation;
  /** Notifications waiting for delivery. */
  outbox(accountId?: string): OutboxEntry[];
  /** The mock's clock. */
  clock: MockClock;
  /** Webhook integrations and deliveries. */
  webhooks: WebhookControl;
  /** Queues and delivers a notification (`{ notificationType, ...payload members }`). */
  notify(body: unknown): OutboxEntry;
  /** Waits until every webhook delivery in progress, retries included, has finished. */
  flushDeliveries(): Promise<void>;
  /**
   * Creates a session (`POST /__mock/sessions`): a separate mock inside this one, selected by the
   * request header `X-Iacm-Mock-Session: <id>`, with its own data (from `seed` and `sizes`, or a
   * `scene`; default: this mock's `seed` and `sizes` options), journal, faults, one-off answers,
   * rate-limit counters, clock, webhooks and token-signing key. Answers its id and its accounts' key
   * pairs. 400 naming the field of a bad body; 409 past the `sessions.max` bound; 409 inside a session.
   * See `docs/testing-with-the-mock.md`, "Sessions".
   */
  createSession(source?: {
    seed?: number | string;
    sizes?: Partial<SeedSizes>;
    scene?: Scene;
  }): SessionCreated;
  /** The live sessions, oldest first (`GET /__mock/sessions`); idle ones are ended first. */
  sessions(): SessionView[];
  /** Ends a session (`DELETE /__mock/sessions/{id}`): its pending waits are cancelled; 404 for an unknown id. */
  endSession(id: string): void;
  /**
   * Serves the control plane over HTTP (`control/serve.ts` calls it for paths under `/__mock`, after
   * checking access). `body` is the parsed body, or a reader `(limit) => Promise<body>`: `serveControl`
   * passes a reader, called only once a route matched, with that route's size and JSON bounds. `http`
   * carries what came over HTTP: with it, a mutating route needs a JSON `http.contentType` (the
   * contract's `isJsonMediaType`; 415 otherwise).
   */
  handle(
    method: string,
    path: string,
    query: Record<string, string | string[]>,
    body: unknown,
    requestId: string,
    http?: { contentType: string | undefined; signal?: AbortSignal | undefined },
  ): Promise<MockResponse>;
}

/** What a session starts from, checked: a seed and sizes, or a scene (nothing: the mock's own seed and sizes). */
export interface CheckedSessionSource {
  /** The seed (with `sizes`), or the seed of what the scene leaves out. */
  seed?: number | string;
  /** Sizes, merged with the defaults (not with a scene). */
  sizes?: Partial<SeedSizes>;
  /** A checked scene. */
  scene?: CheckedScene;
}

/** A session as `GET /__mock/sessions` lists it: its id, and when it was created and last used (wall time). */
export interface SessionView {
  /** The session's id (`ses_` and 16 hexadecimal digits). */
  id: string;
  /** When it was created (ISO 8601, wall time). */
  createdAt: string;
  /** When a request last selected it (ISO 8601, wall time). */
  lastUsedAt: string;
}

/** The answer of `POST /__mock/sessions` and `control.createSession`: the id, and the session's accounts and key pairs. */
export interface SessionCreated {
  /** The id to send in `X-Iacm-Mock-Session`. */
  id: string;
  /** The session's accounts, the primary first, with the key pairs `POST /v2/login` takes. */
  accounts: MockAccount[];
}

/** The mock's sessions, as the control plane reaches them (the default session's control plane only). */
export interface SessionControl {
  /** Creates a session from a checked source; 409 past the bound. */
  create(source: CheckedSessionSource): SessionCreated;
  /** The live sessions, oldest first. */
  list(): SessionView[];
  /** Ends a session; 404 for an unknown one. */
  end(id: string): void;
}

/**
 * Reads a control request's body with a size limit (bytes) and the shape bounds of its JSON (the
 * contract's defaults when not given): the parsed body, or rejects with 413, 415 or 400.
 */
export type ControlBodyReader = (limit: number, jsonBounds?: JsonBounds) => Promise<unknown>;

/** The control plane's view of webhook integrations and deliveries. */
export interface WebhookControl {
  /** Creates an integration after a successful test delivery (primary account unless `accountId`). */
  create(body: unknown): Promise<IntegrationView>;
  /** The integrations, credentials shown by method only. */
  list(accountId?: string): IntegrationView[];
  /** Renames, moves or (with `replaceCredentials`) re-credentials an integration. */
  update(id: string, body: unknown): Promise<IntegrationView>;
  /** Removes an integration. */
  remove(id: string): void;
  /** Sends a test notification now. */
  test(id: string): Promise<DeliveryAttempt>;
  /** Recorded delivery attempts, headers redacted. */
  deliveries(integrationId?: string): DeliveryAttempt[];
  /** Changes the retry policy (attempts, baseDelayMs, maxDelayMs, maxTotalMs, timeoutMs). */
  setPolicy(policy: Partial<DeliveryPolicy>): DeliveryPolicy;
  /** Sends the retries due by the mock's clock now (moving the clock does this too); resolves when they have finished. */
  runDue(): Promise<void>;
}

/** The parts of a mock's state the control plane reaches directly (the pipeline stages' state). */
export interface ControlDeps {
  /** The journal stage. */
  journal: Journal;
  /** The faults stage. */
  faults: FaultBook;
  /** The waiting one-off answers. */
  oneOff: OneOffBook;
  /** The rate-limit stage. */
  rateLimiter: RateLimiter;
  /** The pending waits (`waitFor`, `nextDelivery`). */
  waiters: Waiters;
  /** Resets every part of the state; answers the parts, in order. */
  reset(): readonly string[];
  /** Generates new data. */
  reseed(seed: number | string, sizes: Partial<SeedSizes>): void;
  /** Installs a validated snapshot. */
  setState(state: MockState): void;
  /** Installs a checked scene, which reset then returns to. */
  setScene(scene: CheckedScene): void;
  /** Installs a checked scenario's scene and plays its timeline from the clock's now (until the next reset). */
  play(scenario: CheckedScenario): ScenarioAnswer;
  /** How far the scenario being played has gone. */
  scenarioProgress(): ScenarioProgress;
  /** The mock's sessions; `undefined` in a session's own control plane (a session does not make sessions). */
  sessions?: SessionControl | undefined;
}

/**
 * What the control plane reads from the core. Its methods take bodies already checked (by the
 * route's schema over HTTP, by the same schema in the in-process method) and never check again.
 */
export interface CoreView {
  /** The current store. */
  store: { toState(): MockState };
  /** The accounts, primary first. */
  accounts(): MockAccount[];
  /** Simulates a CI run: finished at once, or (with `timing`) scheduled on the mock's clock. */
  simulateRun(
    workspaceId: string,
    run: CheckedSimulatedRun,
  ): { run: WorkspaceRun; evaluation: GuardrailEvaluation } | TimedRunAnswer;
  /** Records a finding. */
  recordFinding(stackId: string, finding: CheckedFinding): { stack: IacStack; notification: WebhookPayload };
  /** Dry-runs guardrail rules. */
  evaluate(evaluation: CheckedEvaluation): GuardrailEvaluation;
  /** The outbox. */
  outbox(accountId?: string): OutboxEntry[];
  /** Queues a notification. */
  notify(notification: CheckedNotification): OutboxEntry;
  /** The clock. */
  clock: MockClock;
  /** The webhook hub. */
  webhooks: WebhookHub;
}

/**
 * How a control route checks its body: a zod schema (a request without a body is checked as `{}`),
 * or a function given the body as sent (the snapshot route's `checkSnapshot`, which
 * answers the checked value or throws a 400). The same check serves the route and the in-process
 * method of the same concept, so that both refuse a bad body with the same issues.
 */
export type ControlBodyCheck = z.ZodType | ((raw: unknown) => unknown);

/**
 * The body a handler gets from its route's check: the schema's output, the check function's answer,
 * or the body as sent (`unknown`) for a route that declares no check.
 */
export type CheckedBody<B> = B extends z.ZodType
  ? z.output<B>
  : B extends (raw: unknown) => infer T
    ? T
    : unknown;

/**
 * The query a handler gets from its route's `query` schema: the schema's output; the query as sent
 * for a route that declares none.
 */
export type CheckedQuery<Q> = [Q] extends [z.ZodType] ? z.output<Q> : Record<string, string | string[]>;

/** The names of a path template's `{name}` parameters: `'/__mock/stacks/{id}/findings'` → `'id'`. */
export type PathParamName<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamName<Rest>
  : never;

/**
 * The decoded path parameters of a template: one string member per `{name}` (a route's handler reads
 * `params.id` as a `string`); any string key for a template not known literally.
 */
export type PathParams<P extends string> = string extends P
  ? Readonly<Record<string, string>>
  : { readonly [K in PathParamName<P>]: string };

/**
 * What a control route's handler gets. `Body` is what the route's body check answered (see
 * {@link CheckedBody}); `Params` the route's path parameters (see {@link PathParams}).
 */
export interface ControlContext<
  Body = unknown,
  Params = Readonly<Record<string, string>>,
  Query = Record<string, string | string[]>,
> {
  /** The in-process control plane (its methods that take a body check it: a handler calls `core` instead). */
  readonly plane: ControlPlane;
  /** The core, whose methods take checked bodies: what a handler calls with its checked body. */
  readonly core: CoreView;
  /** The stages' state. */
  readonly deps: ControlDeps;
  /** Path parameters (`{id}`), decoded. */
  readonly params: Params;
  /** Query parameters: checked by the route's `query` schema, when it declares one; else as sent. */
  readonly query: Query;
  /** The body: checked by the route's `body` once, before the handler runs; else as sent. */
  readonly body: Body;
  /** Aborts when the client has gone (over HTTP); a long poll stops waiting then. */
  readonly signal?: AbortSignal | undefined;
}

/** The largest body of a control route that names no limit of its own, bytes (1 MiB). */
export const DEFAULT_CONTROL_BODY_BYTES = 1024 * 1024;

/** An HTTP method the control plane serves. */
export type ControlMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One route of the control plane, typed from its body check `B` and its path template `P`: the
 * handler's `body` is what `B` answers and its `params` are the template's `{names}`. Declare a route
 * with {@link controlRoute}, so that both are inferred; a table holds routes of any `B` and `P` as
 * `ControlRoute` (the defaults: any check, any path).
 */
export interface ControlRoute<
  B extends ControlBodyCheck | undefined = ControlBodyCheck | undefined,
  P extends string = string,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** The method. */
  readonly method: ControlMethod;
  /** The path under `/__mock`; `{name}` segments are parameters (`/__mock/stacks/{id}/findings`), as in the endpoint table. */
  readonly path: P;
  /** What it does, for the landing page. */
  readonly summary: string;
  /**
   * The body's check: the router runs it once, before the handler (a schema's failure is a 400 naming
   * every bad field), and hands the handler what it answers. The in-process method of the same
   * concept runs the same check.
   */
  readonly body?: B;
  /**
   * The query's schema: the router parses the query with it before the handler (a 400 naming
   * `query.<name>` otherwise), and the handler gets its output. Without one, the query as sent.
   */
  readonly query?: Q;
  /**
   * The largest body this route takes, bytes (413 beyond, before the body is read in full). Default
   * {@link DEFAULT_CONTROL_BODY_BYTES}; the snapshot routes take more.
   */
  readonly maxBodyBytes?: number;
  /**
   * The shape bounds of this route's JSON body (nesting, list length, values in all); default the
   * contract's `DEFAULT_JSON_BOUNDS` (64 levels, 10,000 entries per list, 1,000,000 values). The
   * snapshot route takes longer lists.
   */
  readonly jsonBounds?: JsonBounds;
  /**
   * Answers the request. (A method, so that a table of routes with different bodies is a
   * `ControlRoute[]`: the router only ever hands a handler the body its own route's check answered.)
   */
  handler(
    ctx: ControlContext<CheckedBody<B>, PathParams<P>, CheckedQuery<Q>>,
  ): MockResponse | Promise<MockResponse>;
}

/**
 * Declares a control route, inferring its body type from `body` and its parameters from `path`:
 * `controlRoute({ method: 'POST', path: '/__mock/stacks/{id}/findings', body: FindingBody, handler:
 * ({ params, body }) => ... })` gives the handler `params.id: string` and `body` as `FindingBody`
 * parses it. Answers the route as given.
 */
export function controlRoute<
  const P extends string,
  B extends ControlBodyCheck | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
>(route: ControlRoute<B, P, Q>): ControlRoute<B, P, Q> {
  return route;
}

/**
 * The one parse of a control body by a schema: a missing body (`undefined`) is checked as `{}`; 400
 * `validation_failed` naming each bad field. The router runs it for a route's schema, and each
 * in-process control method runs it with the same schema, so that a bad body gets the same issues
 * either way.
 */
export function parseControlBody<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  return parseOr400(schema, raw === undefined ? {} : raw);
}

/** A JSON answer (no body and no content type for `undefined`). */
export function ok(value: unknown, status = 200): MockResponse {
  return {
    status,
    headers: value === undefined ? {} : { 'content-type': 'application/json' },
    body: value,
  };
}
