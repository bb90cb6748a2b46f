/** Control route: `POST /__mock/workspaces/{id}/runs`, a simulated CI run. @module */
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
      return ok({ run: result.run, evaluation: result.evaluation }, 201);
    },
  }),
];
