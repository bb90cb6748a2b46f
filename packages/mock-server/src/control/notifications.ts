/** Control routes: `POST /__mock/notifications` and `GET /__mock/outbox`. @module */
import { type ControlRoute, ok } from './route.js';

/** The notification routes. */
export const notificationsRoutes: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/__mock/outbox',
    summary: 'notifications queued for delivery (?accountId=)',
    handler: ({ plane, query }) =>
      ok(plane.outbox(typeof query.accountId === 'string' ? query.accountId : undefined)),
  },
  {
    method: 'POST',
    path: '/__mock/notifications',
    summary: 'queue and deliver a notification',
    handler: ({ plane, body }) => ok(plane.notify(body), 202),
  },
];
