/**
 * The control plane's in-process API ({@link createControlPlane}); over HTTP, the same through the
 * table of routes (`routes.ts`) and its router.
 *
 * A method that takes a body checks it once, with the schema its route declares
 * ({@link parseControlBody}), then goes the route's way: to the core's methods and the stages'
 * state, which take checked values. So a bad body gets the same 400 in process as over HTTP, and a
 * route's handler, whose body the router checked, never calls these methods (that would check twice).
 *
 * @module
 */

import { EvaluateBody } from '../domain/dry-run.js';
import { FindingBody } from '../domain/findings.js';
import { SimulatedRunBody, type SimulatedRunInput } from '../domain/simulate.js';
import { NotificationBody } from '../domain/webhooks.js';
import { checkEndpointName } from '../pipeline/endpoint-name.js';
import { journalCalls } from '../pipeline/journal-calls.js';
import { checkOneOff } from '../pipeline/one-off.js';
import { checkFault } from './faults.js';
import { journalListingLimit } from './journal.js';
import { controlRateLimit } from './rate-limit.js';
import {
  type ControlBodyReader,
  type ControlDeps,
  type ControlPlane,
  type CoreView,
  parseControlBody,
} from './route.js';
import { dispatchControl } from './router.js';
import { CONTROL_ROUTES } from './routes.js';
import { checkScenarioBody } from './scenario.js';
import { checkSceneBody } from './scene.js';
import { reseed, SeedBody } from './seed.js';
import { checkSessionBody, sessionsOf } from './sessions.js';
import { checkSnapshot } from './state.js';
import { checkNextDelivery, checkWaitFor } from './waits.js';
import { webhookControl } from './webhooks.js';

/** Whether a control request's `body` is a reader (the core's) rather than the body itself. */
function isBodyReader(body: unknown): body is ControlBodyReader {
  return typeof body === 'function';
}

/** Builds the control plane of a core. */
export function createControlPlane(core: CoreView, deps: ControlDeps): ControlPlane {
  const plane: ControlPlane = {
    reset: () => {
      deps.reset();
    },
    seed: (seed, sizes = {}) => reseed(deps, parseControlBody(SeedBody, { seed, sizes })),
    // The caller's own copy: the mock's records are shared (and frozen) between stores.
    getState: () => structuredClone(core.store.toState()),
    setState: (state) => deps.setState(checkSnapshot(state)),
    scene: (scene) => deps.setScene(checkSceneBody(scene)),
    play: (scenario) => deps.play(checkScenarioBody(scenario)),
    scenarioProgress: () => deps.scenarioProgress(),
    accounts: () => core.accounts(),
    journal: (limit) => deps.journal.list(journalListingLimit(limit)),
    clearJournal: () => deps.journal.clear(),
    calls: (name) => journalCalls(deps.journal, checkEndpointName(name, 'body') as typeof name),
    waitFor: async (name, options = {}) =>
      deps.waiters.waitFor(deps.journal, checkWaitFor({ ...options, endpoint: name })),
    nextDelivery: async (options = {}) =>
      deps.waiters.nextDelivery(checkNextDelivery(options), () => ({
        attempts: core.webhooks.attempts(),
        integrations: core.webhooks.list(),
      })),
    cancelWaits: (reason = 'control.cancelWaits() was called') => deps.waiters.rejectAll(reason),
    addFault: (rule) => deps.faults.add(checkFault(rule)),
    faults: () => deps.faults.list(),
    clearFaults: () => deps.faults.clear(),
    respond: (name, answer) => deps.oneOff.add(checkOneOff({ ...answer, endpoint: name })),
    responses: () => deps.oneOff.list(),
    clearResponses: () => deps.oneOff.clear(),
    // One implementation of the overloads: the answer's form follows the body's `timing`.
    simulateRun: ((workspaceId: string, body: SimulatedRunInput) =>
      core.simulateRun(workspaceId, parseControlBody(SimulatedRunBody, body))) as ControlPlane['simulateRun'],
    recordFinding: (stackId, body) => core.recordFinding(stackId, parseControlBody(FindingBody, body)),
    evaluate: (body) => core.evaluate(parseControlBody(EvaluateBody, body)),
    outbox: (accountId) => core.outbox(accountId),
    clock: core.clock,
    notify: (body) => core.notify(parseControlBody(NotificationBody, body)),
    flushDeliveries: () => core.webhooks.flush(),
    createSession: (source = {}) => sessionsOf(deps).create(checkSessionBody(source)),
    sessions: () => sessionsOf(deps).list(),
    endSession: (id) => sessionsOf(deps).end(id),
    webhooks: webhookControl(core),
    setRateLimit: (limit) => deps.rateLimiter.set(controlRateLimit(limit)),
    // `body` is the parsed body, or a reader (`serveControl` passes one, so that the body is read only
    // once a route matched, with the route's size limit).
    handle: (method, path, query, body, _requestId, http) =>
      dispatchControl(CONTROL_ROUTES, method, path, {
        contentType: http ? http.contentType : null,
        signal: http?.signal,
        plane,
        core,
        deps,
        query,
        readBody: isBodyReader(body) ? body : () => Promise.resolve(body),
      }),
  };
  return plane;
}
