/**
 * Control routes: webhook integrations, their deliveries and the delivery policy; and the same as
 * the in-process `control.webhooks` ({@link webhookControl}). Each body is parsed once, by the
 * route's schema or, in process, by {@link parseControlBody} with the same schema; the hub then takes
 * the typed value.
 *
 * @module
 */
import { DeliveryPolicyBody } from '../domain/delivery-policy.js';
import {
  IntegrationCreateBody,
  type IntegrationCreateInput,
  IntegrationUpdateBody,
  type IntegrationView,
} from '../domain/webhooks.js';
import { notFound } from '../errors.js';
import {
  type ControlRoute,
  type CoreView,
  controlRoute,
  ok,
  parseControlBody,
  type WebhookControl,
} from './route.js';

/**
 * Body of `PUT /__mock/deliveries/policy`: `attempts` 1 to 10, `baseDelayMs` 100 to 60,000,
 * `maxDelayMs` 100 to 600,000, `maxTotalMs` 1,000 to 3,600,000, `timeoutMs` 100 to 120,000; a value
 * outside its range is a 400 naming the member, the range and what came. The delivery policy's one
 * schema (`DeliveryPolicyBody`), under the name the package exports.
 */
export const PolicyBody = DeliveryPolicyBody;

/**
 * Creates an integration in the account the body names (the primary account when it names none;
 * 404 for an account the mock does not have), after a successful test delivery.
 */
function createIntegration(core: CoreView, body: IntegrationCreateInput): Promise<IntegrationView> {
  const accounts = core.accounts();
  const accountId = body.accountId ?? accounts[0]?.id;
  if (!accountId || !accounts.some((a) => a.id === accountId))
    throw notFound('account', body.accountId ?? '');
  return core.webhooks.create(accountId, body);
}

/** The attempts of one integration; 404 when there is no such integration. */
function integrationDeliveries(core: CoreView, id: string) {
  if (!core.webhooks.list().some((i) => i.id === id)) throw notFound('webhook integration', id);
  return core.webhooks.attempts(id);
}

/**
 * The in-process `control.webhooks`: each method that takes a body parses it once, with its route's
 * schema (the same 400 as over HTTP), then calls the hub with the typed value.
 */
export function webhookControl(core: CoreView): WebhookControl {
  return {
    create: async (body) =>
      createIntegration(core, parseControlBody(IntegrationCreateBody, body ?? undefined)),
    list: (accountId) => core.webhooks.list(accountId),
    update: async (id, body) =>
      core.webhooks.update(id, parseControlBody(IntegrationUpdateBody, body ?? undefined)),
    remove: (id) => core.webhooks.remove(id),
    test: (id) => core.webhooks.test(id),
    deliveries: (integrationId) => core.webhooks.attempts(integrationId),
    setPolicy: (policy) => core.webhooks.setPolicy(parseControlBody(DeliveryPolicyBody, policy)),
    runDue: () => core.webhooks.runDue(),
  };
}

/** The webhook routes. */
export const webhooksRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'POST',
    path: '/__mock/integrations/webhook',
    summary: 'create a webhook integration',
    body: IntegrationCreateBody,
    handler: async ({ core, body }) => ok(await createIntegration(core, body), 201),
  }),
  controlRoute({
    method: 'GET',
    path: '/__mock/integrations/webhook',
    summary: 'the webhook integrations (?accountId=)',
    handler: ({ core, query }) =>
      ok(core.webhooks.list(typeof query.accountId === 'string' ? query.accountId : undefined)),
  }),
  controlRoute({
    method: 'PATCH',
    path: '/__mock/integrations/webhook/{id}',
    summary: 'rename it, change its URL or credentials',
    body: IntegrationUpdateBody,
    handler: async ({ core, params, body }) => ok(await core.webhooks.update(params.id, body)),
  }),
  controlRoute({
    method: 'DELETE',
    path: '/__mock/integrations/webhook/{id}',
    summary: 'remove it',
    handler: ({ core, params }) => {
      core.webhooks.remove(params.id);
      return ok(undefined, 204);
    },
  }),
  controlRoute({
    method: 'POST',
    path: '/__mock/integrations/webhook/{id}/test',
    summary: 'send it a test notification now',
    handler: async ({ core, params }) => ok(await core.webhooks.test(params.id)),
  }),
  controlRoute({
    method: 'GET',
    path: '/__mock/integrations/webhook/{id}/deliveries',
    summary: 'its delivery attempts',
    handler: ({ core, params }) => ok(integrationDeliveries(core, params.id)),
  }),
  controlRoute({
    method: 'GET',
    path: '/__mock/deliveries',
    summary: 'every delivery attempt',
    handler: ({ core }) => ok(core.webhooks.attempts()),
  }),
  controlRoute({
    method: 'POST',
    path: '/__mock/deliveries/flush',
    summary: 'wait until every delivery in progress has finished',
    handler: async ({ core }) => {
      await core.webhooks.flush();
      return ok(core.webhooks.attempts());
    },
  }),
  controlRoute({
    method: 'POST',
    path: '/__mock/deliveries/run-due',
    summary: "send the retries due by the mock's clock now",
    handler: async ({ core }) => {
      await core.webhooks.runDue();
      return ok(core.webhooks.attempts());
    },
  }),
  controlRoute({
    method: 'PUT',
    path: '/__mock/deliveries/policy',
    summary: 'delivery retries: { attempts, baseDelayMs, maxDelayMs, maxTotalMs, timeoutMs }',
    body: DeliveryPolicyBody,
    handler: ({ core, body }) => ok(core.webhooks.setPolicy(body)),
  }),
];
