/** Control routes: webhook integrations, their deliveries and the delivery policy. @module */
import { z } from 'zod';
import type { DeliveryPolicy } from '../domain/webhooks.js';
import { notFound } from '../errors.js';
import { type ControlRoute, ok } from './route.js';

/** Body of `PUT /__mock/deliveries/policy`. */
export const PolicyBody = z.strictObject({
  attempts: z.number().int().min(1).max(20).optional(),
  baseDelayMs: z.number().int().min(0).max(600_000).optional(),
  timeoutMs: z.number().int().min(1).max(600_000).optional(),
});

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
    method: 'PUT',
    path: '/__mock/deliveries/policy',
    summary: 'delivery retries: { attempts, baseDelayMs, timeoutMs }',
    body: PolicyBody,
    handler: ({ plane, body }) => ok(plane.webhooks.setPolicy(body as Partial<DeliveryPolicy>)),
  },
];
