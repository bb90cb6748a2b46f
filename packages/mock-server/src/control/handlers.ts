/**
 * The handlers of the control table's rows (`table.ts`), bound in the core: each gets the checked
 * body, query and path parameters of its row's route (over HTTP and in process alike) and answers
 * the value the route sends as JSON; the router adds the status. A row whose in-process method goes
 * through another row's route (`via`) has no handler of its own.
 *
 * @module
 */
import type { ScenarioAnswer } from '../domain/scenario.js';
import { HttpError, notFound } from '../errors.js';
import { checkMove, instantOf } from '../pipeline/clock.js';
import { checkEndpointName } from '../pipeline/endpoint-name.js';
import { toCall } from '../pipeline/journal-calls.js';
import type { ControlHandlers } from './bind.js';
import { journalListingLimit, queryNumber } from './journal.js';
import { liveFeed } from './live.js';
import { bodyRateLimit } from './rate-limit.js';
import type { CoreView } from './route.js';
import { sessionsOf } from './sessions.js';
import { MAX_SNAPSHOT_BYTES, snapshotBytes } from './state.js';
import type { ControlTableOf } from './table.js';
import { checkNextDelivery, checkWaitFor, fromQuery } from './waits.js';
import { createIntegration } from './webhooks.js';

/** A query member given once, as text (`undefined` otherwise). */
function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The clock's instant as `GET`/`POST /__mock/clock` answer it. */
function clockAnswer(core: CoreView) {
  return { now: new Date(core.clock.now()).toISOString() };
}

/** What a wait for a delivery reads: the attempts made and the integrations they went to. */
function deliverySources(core: CoreView) {
  return () => ({ attempts: core.webhooks.attempts(), integrations: core.webhooks.list() });
}

/** The attempts of one integration; 404 when there is no such integration. */
function integrationAttempts(core: CoreView, id: string) {
  if (!core.webhooks.list().some((i) => i.id === id)) throw notFound('webhook integration', id);
  return core.webhooks.attempts(id);
}

/** The handler of every row of the control table that has a route of its own. */
export const CONTROL_HANDLERS: ControlHandlers<ControlTableOf> = {
  accounts: ({ core }) => core.accounts(),
  reset: async ({ deps }) => ({ status: 'reset', restored: [...(await deps.reset())] }),
  seed: async ({ deps, body }) => {
    await deps.load(body);
    return { status: 'seeded', seed: body.source.seed };
  },
  getState: ({ core, transport }) => {
    // Serialised as it is over HTTP (no copy; the in-process method copies).
    const state = core.store.toState();
    if (transport === 'http' && snapshotBytes(state, MAX_SNAPSHOT_BYTES) > MAX_SNAPSHOT_BYTES) {
      throw new HttpError(
        409,
        'conflict',
        `the state is larger than a snapshot can be (${MAX_SNAPSHOT_BYTES} bytes of JSON, what PUT /__mock/state and --state take): make it again from its seed and sizes instead (POST /__mock/seed with ${JSON.stringify({ seed: state.seed, sizes: state.sizes }).slice(0, 300)})`,
      );
    }
    return state;
  },
  setState: async ({ deps, body }) => {
    await deps.load(body);
    return { status: 'loaded' };
  },
  scene: async ({ deps, body }) => {
    await deps.load(body);
    return { status: 'loaded' };
  },
  // A scenario's data always plays its timeline, and answers it.
  play: async ({ deps, body }) => (await deps.load(body)) as ScenarioAnswer,
  scenarioProgress: ({ deps }) => deps.scenarioProgress(),
  budget: ({ deps }) => deps.budget(),
  // With ?endpoint=, the entries as `control.calls(name)` answers them (one shape in process and over HTTP).
  journal: ({ deps, query }) => {
    const limit = journalListingLimit(queryNumber(query.limit));
    if (query.endpoint === undefined) return deps.journal.list(limit);
    return deps.journal.list(limit, checkEndpointName(query.endpoint)).map((entry) => toCall(entry));
  },
  live: ({ core, deps, query }) => liveFeed(core, deps, query),
  clearJournal: ({ deps }) => deps.journal.clear(),
  waitFor: ({ deps, body, signal }) => deps.waiters.waitFor(deps.journal, body, signal),
  waitForQuery: ({ deps, query, signal }) => {
    const { accountId, ...rest } = fromQuery(query);
    const raw = accountId === undefined ? rest : { ...rest, match: { accountId } };
    return deps.waiters.waitFor(deps.journal, checkWaitFor(raw, 'http', 'query'), signal);
  },
  nextDelivery: ({ core, deps, body, signal }) =>
    deps.waiters.nextDelivery(body, deliverySources(core), signal),
  nextDeliveryQuery: ({ core, deps, query, signal }) =>
    deps.waiters.nextDelivery(
      checkNextDelivery(fromQuery(query), 'http', 'query'),
      deliverySources(core),
      signal,
    ),
  waitForRun: ({ core, deps, body, signal }) => {
    const { workspaceId, run } = core.currentRun(body.workspaceId, body.runId);
    const hint = () =>
      `the mock's clock reads ${new Date(core.clock.now()).toISOString()}: a timed run takes its next status when the clock reaches its step (control.clock.advance(ms), POST /__mock/clock { "advanceMs": ms })`;
    return deps.waiters.waitForRun({ ...body, workspaceId }, run, hint, signal);
  },
  cancelWaits: ({ deps, body, transport }) => ({
    cancelled: deps.waiters.rejectAll(
      body.reason ??
        (transport === 'http' ? 'POST /__mock/waits/cancel was called' : 'control.cancelWaits() was called'),
    ),
  }),
  addFault: ({ deps, body }) => deps.faults.add(body),
  faults: ({ deps }) => deps.faults.list(),
  clearFaults: ({ deps }) => deps.faults.clear(),
  respond: ({ deps, body }) => deps.oneOff.add(body),
  responses: ({ deps }) => deps.oneOff.list(),
  clearResponses: ({ deps }) => deps.oneOff.clear(),
  setRateLimit: ({ deps, body }) => {
    deps.rateLimiter.set(bodyRateLimit(body));
    const current = deps.rateLimiter.setting;
    return current
      ? { enabled: true, limit: current.limit, windowSeconds: current.windowMs / 1000 }
      : { enabled: false };
  },
  'clock.now': ({ core }) => clockAnswer(core),
  'clock.move': ({ core, body }) => {
    // Checked in full before anything changes: a 400 leaves the clock as it was.
    const at = body.now === undefined ? undefined : instantOf(body.now);
    // A move after `resume` starts from the underlying clock, known only once resumed: its value and
    // range are checked from the wall clock's instant (a move of at most 10 years from now lands in range).
    if (body.advanceMs !== undefined) {
      checkMove(at ?? (body.resume ? Date.now() : core.clock.now()), body.advanceMs);
    }
    if (body.resume) core.clock.resume();
    if (at !== undefined) core.clock.set(at);
    if (body.advanceMs !== undefined) core.clock.advance(body.advanceMs);
    return clockAnswer(core);
  },
  simulateRun: ({ core, params, body }) => {
    const result = core.simulateRun(params.id, body);
    // A timed run is accepted, not yet finished: its id, schedule and the run as it is now.
    if ('schedule' in result) return result;
    return { run: result.run, evaluation: result.evaluation };
  },
  evaluate: ({ core, body }) => core.evaluate(body),
  recordFinding: ({ core, params, body }) => core.recordFinding(params.id, body),
  outbox: ({ core, query }) => core.outbox(single(query.accountId)),
  notify: ({ core, body }) => core.notify(body),
  'webhooks.create': ({ core, body }) => createIntegration(core, body),
  'webhooks.list': ({ core, query }) => core.webhooks.list(single(query.accountId)),
  'webhooks.update': ({ core, params, body }) => core.webhooks.update(params.id, body),
  'webhooks.remove': ({ core, params }) => core.webhooks.remove(params.id),
  'webhooks.test': ({ core, params }) => core.webhooks.test(params.id),
  'webhooks.integrationDeliveries': ({ core, params }) => integrationAttempts(core, params.id),
  'webhooks.deliveries': ({ core, query }) => core.webhooks.attempts(single(query.integrationId)),
  flushDeliveries: async ({ core }) => {
    await core.webhooks.flush();
    return core.webhooks.attempts();
  },
  'webhooks.runDue': async ({ core }) => {
    await core.webhooks.runDue();
    return core.webhooks.attempts();
  },
  'webhooks.setPolicy': ({ core, body }) => core.webhooks.setPolicy(body),
  createSession: ({ deps, body }) => sessionsOf(deps).create(body),
  sessions: ({ deps }) => sessionsOf(deps).list(),
  endSession: ({ deps, params }) => sessionsOf(deps).end(params.id),
};
