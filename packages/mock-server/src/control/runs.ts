/** Control route: `POST /__mock/workspaces/{id}/runs`, a simulated CI run (timed or not). @module */
import { SimulatedRunBody } from '../domain/simulate.js';
import { type ControlRoute, controlRoute, ok } from './route.js';

/** The simulated-run route. */
export const runsRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'POST',
    path: '/__mock/workspaces/{id}/runs',
    summary: 'simulate a CI run, evaluated against the guardrail rules',
    body: SimulatedRunBody,
    handler: ({ core, params, body }) => {
      const result = core.simulateRun(params.id, body);
      // A timed run is accepted, not yet finished: 202 with its id, schedule and the run as it is now.
      if ('schedule' in result) return ok(result, 202);
      return ok({ run: result.run, evaluation: result.evaluation }, 201);
    },
  }),
];
