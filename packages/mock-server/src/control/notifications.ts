/** Control routes: `POST /__mock/notifications` and `GET /__mock/outbox`. @module */
import { NotificationBody } from '../domain/webhooks.js';
import { type ControlRoute, controlRoute, ok } from './route.js';

/** The notification routes. */
export const notificationsRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'GET',
    path: '/__mock/outbox',
    summary: 'notifications queued for delivery (?accountId=)',
    handler: ({ plane, query }) =>
      ok(plane.outbox(typeof query.accountId === 'string' ? query.accountId : undefined)),
  }),
  controlRoute({
    method: 'POST',
    path: '/__mock/notifications',
    summary: 'queue and deliver a notification',
    body: NotificationBody,
    handler: ({ core, body }) => ok(core.notify(body), 202),
  }),
];
