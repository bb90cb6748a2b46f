/** Control routes: `POST`, `GET` and `DELETE /__mock/faults`. @module */
import { FAULT_LIMITS, FaultBody, type FaultRule } from '../pipeline/faults.js';
import { type ControlRoute, ok } from './route.js';

/** The fault routes. */
export const faultsRoutes: readonly ControlRoute[] = [
  {
    method: 'POST',
    path: '/__mock/faults',
    summary: 'inject a fault (status, delay, dropped connection)',
    body: FaultBody,
    maxBodyBytes: FAULT_LIMITS.maxBodyBytes,
    handler: ({ plane, body }) => ok(plane.addFault(body as FaultRule), 201),
  },
  {
    method: 'GET',
    path: '/__mock/faults',
    summary: 'faults still waiting',
    handler: ({ plane }) => ok(plane.faults()),
  },
  {
    method: 'DELETE',
    path: '/__mock/faults',
    summary: 'remove all faults',
    handler: ({ plane }) => {
      plane.clearFaults();
      return ok(undefined, 204);
    },
  },
];
