/** Control route: `GET /__mock/accounts`, the accounts and their key pairs. @module */
import { type ControlRoute, controlRoute, ok } from './route.js';

/** The accounts route. */
export const accountsRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'GET',
    path: '/__mock/accounts',
    summary: 'the accounts and their key pairs',
    handler: ({ plane }) => ok(plane.accounts()),
  }),
];
