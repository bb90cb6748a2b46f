/** Control routes: `POST`, `GET` and `DELETE /__mock/faults`. @module */
import { FAULT_LIMITS, FaultBody } from '../pipeline/faults.js';
import { type ControlRoute, controlRoute, ok } from './route.js';

/** The fault routes. */
export const faultsRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'POST',
    path: '/__mock/faults',
    summary: 'inject a fault (status, delay, dropped connection)',
    body: FaultBody,
    maxBodyBytes: FAULT_LIMITS.maxBodyBytes,
    handler: ({ deps, body }) => ok(deps.faults.add(body), 201),
  }),
  controlRoute({
    method: 'GET',
    path: '/__mock/faults',
    summary: 'faults still waiting',
    handler: ({ plane }) => ok(plane.faults()),
  }),
  controlRoute({
    method: 'DELETE',
    path: '/__mock/faults',
    summary: 'remove all faults',
    handler: ({ plane }) => {
      plane.clearFaults();
      return ok(undefined, 204);
    },
  }),
];
