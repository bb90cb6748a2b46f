/** Control route: `POST /__mock/reset`. @module */
import { type ControlRoute, controlRoute, ok } from './route.js';

/** The reset route. */
export const resetRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'POST',
    path: '/__mock/reset',
    summary: 'back to how the mock started',
    handler: ({ deps }) => ok({ status: 'reset', restored: [...deps.reset()] }),
  }),
];
