/** Control routes: `POST`, `GET` and `DELETE /__mock/responses`, one-off answers. @module */
import { checkOneOff, ONE_OFF_LIMITS } from '../pipeline/one-off.js';
import { type ControlRoute, controlRoute, ok } from './route.js';

/** The one-off answer routes. */
export const responsesRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'POST',
    path: '/__mock/responses',
    summary: 'set a one-off answer of an endpoint, checked against the strict contract',
    body: checkOneOff,
    maxBodyBytes: ONE_OFF_LIMITS.maxBodyBytes,
    handler: ({ deps, body }) => ok(deps.oneOff.add(body), 201),
  }),
  controlRoute({
    method: 'GET',
    path: '/__mock/responses',
    summary: 'one-off answers still waiting',
    handler: ({ plane }) => ok(plane.responses()),
  }),
  controlRoute({
    method: 'DELETE',
    path: '/__mock/responses',
    summary: 'remove all one-off answers',
    handler: ({ plane }) => {
      plane.clearResponses();
      return ok(undefined, 204);
    },
  }),
];
