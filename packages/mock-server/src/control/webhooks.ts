/** Control routes: webhook integrations, their deliveries and the delivery policy. @module */
import { DeliveryPolicyBody } from '../domain/delivery-policy.js';
import type { DeliveryPolicy } from '../domain/webhooks.js';
import { notFound } from '../errors.js';
import { type ControlRoute, ok } from './route.js';

/**
 * Body of `PUT /__mock/deliveries/policy`: `attempts` 1 to 10, `baseDelayMs` 100 to 60,000,
 * `maxDelayMs` 100 to 600,000, `maxTotalMs` 1,000 to 3,600,000, `timeoutMs` 100 to 120,000; a value
 * outside its range is a 400 naming the member, the range and what came.
 */
export const PolicyBody = DeliveryPolicyBody;

/** The webhook routes. */
export const webhooksRoutes: readonly ControlRoute[] = [
  {
    method: 'POST',
    path: '/__mock/integrations/webhook',
    summary: 'create a webhook integration',
    handler: async ({ plane, body }) => ok(await plane.webhooks.create(body), 201),
  },
  {
    method: 'GET',
    path: '/__mock/integrations/webhook',
    summary: 'the webhook integrations (?accountId=)',
    handler: ({ plane, query }) =>
      ok(plane.webhooks.list(typeof query.accountId === 'string' ? query.accountId : undefined)),
  },
  {
    method: 'PATCH',
    path: '/__mock/integrations/webhook/{id}',
    summary: 'rename it, change its URL or credentials',
    handler: async ({ plane, params, body }) => ok(await plane.webhooks.update(params.id as string, body)),
  },
  {
    method: 'DELETE',
    path: '/__mock/integrations/webhook/{id}',
    summary: 'remove it',
    handler: ({ plane, params }) => {
      plane.webhooks.remove(params.id as string);
      return ok(undefined, 204);
    },
  },
  {
    method: 'POST',
    path: '/__mock/integrations/webhook/{id}/test',
    summary: 'send it a test notification now',
    handler: async ({ plane, params }) => ok(await plane.webhooks.test(params.id as string)),
  },
  {
    method: 'GET',
    path: '/__mock/integrations/webhook/{id}/deliveries',
    summary: 'its delivery attempts',
    handler: ({ plane, params }) => {
      const id = params.id as string;
      if (!plane.webhooks.list().some((i) => i.id === id)) throw notFound('webhook integration', id);
      return ok(plane.webhooks.deliveries(id));
    },
  },
  {
    method: 'GET',
    path: '/__mock/deliveries',
    summary: 'every delivery attempt',
    handler: ({ plane }) => ok(plane.webhooks.deliveries()),
  },
  {
    method: 'POST',
    path: '/__mock/deliveries/flush',
    summary: 'wait until every delivery in progress has finished',
    handler: async ({ plane }) => {
      await plane.flushDeliveries();
      return ok(plane.webhooks.deliveries());
    },
  },
  {
    method: 'POST',
    path: '/__mock/deliveries/run-due',
    summary: "send the retries due by the mock's clock now",
    handler: async ({ plane }) => {
      await plane.webhooks.runDue();
      return ok(plane.webhooks.deliveries());
    },
  },
  {
    method: 'PUT',
    path: '/__mock/deliveries/policy',
    summary: 'delivery retries: { attempts, baseDelayMs, maxDelayMs, maxTotalMs, timeoutMs }',
    body: PolicyBody,
    handler: ({ plane, body }) => ok(plane.webhooks.setPolicy(body as Partial<DeliveryPolicy>)),
  },
];
