/**
 * The control plane's in-process API ({@link createControlPlane}); over HTTP, the same through the
 * table of routes (`routes.ts`) and its router.
 *
 * @module
 */

import { IntegrationCreateBody, IntegrationUpdateBody } from '../domain/webhooks.js';
import { notFound, parseOr400 } from '../errors.js';
import { stripUndefined } from '../http/objects.js';
import { controlRateLimit } from './rate-limit.js';
import type { ControlBodyReader, ControlDeps, ControlPlane, CoreView } from './route.js';
import { dispatchControl } from './router.js';
import { CONTROL_ROUTES } from './routes.js';
import { SeedBody } from './seed.js';
import { checkSnapshot } from './state.js';
import { PolicyBody } from './webhooks.js';

/** Builds the control plane of a core. */
export function createControlPlane(core: CoreView, deps: ControlDeps): ControlPlane {
  const plane: ControlPlane = {
    reset: () => {
      deps.reset();
    },
    seed: (seed, sizes = {}) => {
      const body = parseOr400(SeedBody, { seed, sizes });
      deps.reseed(body.seed, stripUndefined(body.sizes ?? {}));
    },
    getState: () => core.store.toState(),
    setState: (state) => deps.setState(checkSnapshot(state)),
    accounts: () => core.accounts(),
    journal: (limit) => deps.journal.list(limit),
    clearJournal: () => deps.journal.clear(),
    addFault: (rule) => deps.faults.add(rule),
    faults: () => deps.faults.list(),
    clearFaults: () => deps.faults.clear(),
    simulateRun: (workspaceId, body) => core.simulateRun(workspaceId, body),
    recordFinding: (stackId, body) => core.recordFinding(stackId, body),
    evaluate: (body) => core.evaluate(body),
    outbox: (accountId) => core.outbox(accountId),
    clock: core.clock,
    notify: (body) => core.notify(body),
    flushDeliveries: () => core.webhooks.flush(),
    webhooks: {
      create: async (body) => {
        const parsed = parseOr400(IntegrationCreateBody, body ?? {});
        const accountId = parsed.accountId ?? core.accounts()[0]?.id;
        if (!accountId || !core.accounts().some((a) => a.id === accountId))
          throw notFound('account', parsed.accountId ?? '');
        return core.webhooks.create(accountId, parsed);
      },
      list: (accountId) => core.webhooks.list(accountId),
      update: async (id, body) => core.webhooks.update(id, parseOr400(IntegrationUpdateBody, body ?? {})),
      remove: (id) => core.webhooks.remove(id),
      test: (id) => core.webhooks.test(id),
      deliveries: (integrationId) => core.webhooks.attempts(integrationId),
      setPolicy: (policy) => core.webhooks.setPolicy(stripUndefined(parseOr400(PolicyBody, policy))),
      runDue: () => core.webhooks.runDue(),
    },
    setRateLimit: (limit) => deps.rateLimiter.set(controlRateLimit(limit)),
    // `body` is the parsed body, or a reader (the core passes one, so that the body is read only once
    // a route matched, with the route's size limit).
    handle: (method, path, query, body, _requestId, http) =>
      dispatchControl(CONTROL_ROUTES, method, path, {
        contentType: http ? http.contentType : null,
        plane,
        deps,
        query,
        readBody: typeof body === 'function' ? (body as ControlBodyReader) : () => Promise.resolve(body),
      }),
  };
  return plane;
}
