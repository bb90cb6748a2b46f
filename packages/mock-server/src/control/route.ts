/**
 * The control plane's types: what the core lends it ({@link CoreView}, {@link ControlDeps}), and what the router runs
 * ({@link ControlRoute}, {@link ControlContext}).
 *
 * @module
 */

import type { IacStack, JsonBounds, WebhookPayload, WorkspaceRun } from '@iacm/sdk/contract';
import type * as z from 'zod';
import type { CheckedEvaluation } from '../domain/dry-run.js';
import type { GuardrailEvaluation } from '../domain/evaluate.js';
import type { OutboxEntry } from '../domain/events.js';
import type { CheckedFinding } from '../domain/findings.js';
import type { CheckedNotification } from '../domain/notify.js';
import type { ScenarioAnswer, ScenarioProgress } from '../domain/scenario.js';
import type { CheckedSimulatedRun, RunStatusChange } from '../domain/simulate.js';
import type { TimedRunAnswer } from '../domain/timed-runs.js';
import type { WebhookHub } from '../domain/webhooks.js';
import { parseOr400 } from '../errors.js';
import type { MockResponse } from '../http/message.js';
import type { MockClock } from '../pipeline/clock.js';
import type { FaultBook } from '../pipeline/faults.js';
import type { Journal } from '../pipeline/journal.js';
import type { OneOffBook } from '../pipeline/one-off.js';
import type { RateLimiter } from '../pipeline/rate-limit.js';
import type { Waiters } from '../pipeline/waiters.js';
import type { BudgetView } from '../store/budget.js';
import type { MockAccount, MockState } from '../store/state.js';
import type { CheckedData } from './data.js';
import type { ControlBodyCheck, ControlMethod, ControlTransport } from './declare.js';

/** What a session starts from, checked: a seed and sizes, or a scene (nothing: the mock's own seed and sizes). */
export interface CheckedSessionSource {
  /** The seed the session's body named (with `sizes`, or the seed of what its scene leaves out). */
  seed?: number | string;
  /** Its data, checked as all data is (`checkData`); none: the mock's own `seed` and `sizes`. */
  data?: CheckedData;
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
  /**
   * Creates a session from a checked source; 409 past the bound or its budget (refused before its
   * data is generated, which is then done in slices that yield: so it answers a Promise).
   */
  create(source: CheckedSessionSource): Promise<SessionCreated>;
  /** The live sessions, oldest first. */
  list(): SessionView[];
  /** Ends a session; 404 for an unknown one. */
  end(id: string): void;
}

/**
 * Reads a control request's body with a size limit (bytes) and the shape bounds of its JSON (the
 * contract's defaults when not given): the parsed body, or rejects with 413, 415 or 400. `checked`,
 * when given, is called once the body is checked, before the handler runs (the body's charge to the
 * memory budget's `requests` store goes back then: what the handler keeps, it charges itself).
 */
export type ControlBodyReader = ((limit: number, jsonBounds?: JsonBounds) => Promise<unknown>) & {
  checked?: () => void;
};

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
  /** Resets every part of the state; answers the parts, in order, once the steps due are applied. */
  reset(): Promise<readonly string[]>;
  /**
   * Replaces the data with checked data, the one apply path of every form (a seed, a snapshot, a
   * scene, a scenario): the data loaded, a scene's webhook integrations stored, a scenario's
   * timeline played from the clock's now (its answer, once the steps due are applied); until the
   * next reset, which returns to the start data.
   */
  load(data: CheckedData): Promise<ScenarioAnswer | undefined>;
  /** How far the scenario being played has gone. */
  scenarioProgress(): ScenarioProgress;
  /** What the memory budget allows and what each store holds (`control.budget()`). */
  budget(): BudgetView;
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
  /**
   * A workspace's run as it is now (after the steps due), for a wait on its status: the workspace's
   * id as the store keeps it, and the run of `runId` (or the workspace's latest; `undefined` when it
   * has none yet) as a status it has. 404 for an unknown workspace.
   */
  currentRun(workspaceId: string, runId?: string): { workspaceId: string; run: RunStatusChange | undefined };
  /** The clock. */
  clock: MockClock;
  /** The webhook hub. */
  webhooks: WebhookHub;
}

/**
 * What a control route's handler gets. `Body` is what the route's body check answered; `Params` the
 * route's path parameters; `Query` what its query schema answered.
 */
export interface ControlContext<
  Body = unknown,
  Params = Readonly<Record<string, string>>,
  Query = Record<string, string | string[]>,
> {
  /** The core, whose methods take checked bodies. */
  readonly core: CoreView;
  /** The stages' state. */
  readonly deps: ControlDeps;
  /** Path parameters (`{id}`), decoded. */
  readonly params: Params;
  /** Query parameters: checked by the route's `query` schema, when it declares one; else as sent. */
  readonly query: Query;
  /** The body: checked by the route's `body` once, before the handler runs; else as sent. */
  readonly body: Body;
  /** Who called: an in-process method, or a request over HTTP. */
  readonly transport: ControlTransport;
  /** Aborts when the client has gone (over HTTP); a long poll stops waiting then. */
  readonly signal?: AbortSignal | undefined;
}

/** The largest body of a control route that names no limit of its own, bytes (1 MiB). */
export const DEFAULT_CONTROL_BODY_BYTES = 1024 * 1024;

/** A route of the control plane as the router runs it: a table row's route, bound to its handler. */
export interface ControlRoute {
  /** The row's name in the control table. */
  readonly name: string;
  /** The method. */
  readonly method: ControlMethod;
  /** The path under `/__mock`; `{name}` segments are parameters. */
  readonly path: string;
  /** What it does, for the landing page. */
  readonly summary: string;
  /** The body's check, run once before the handler. */
  readonly body?: ControlBodyCheck | undefined;
  /** The query's schema, parsed before the handler. */
  readonly query?: z.ZodType | undefined;
  /** The largest body this route takes, bytes (default {@link DEFAULT_CONTROL_BODY_BYTES}). */
  readonly maxBodyBytes?: number | undefined;
  /** The shape bounds of this route's JSON body. */
  readonly jsonBounds?: JsonBounds | undefined;
  /** `false`: its successful answers are not journalled (the row's `route.journalled`). */
  readonly journalled?: false | undefined;
  /** Answers the request: the row's handler, its answer with the row's status. */
  handler(ctx: ControlContext): MockResponse | Promise<MockResponse>;
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
