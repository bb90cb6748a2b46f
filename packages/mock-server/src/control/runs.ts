/** Control route: `POST /__mock/workspaces/{id}/runs`, a simulated CI run. @module */
import { SimulatedRunBody, type SimulatedRunInput } from '../domain/simulate.js';
import { type ControlRoute, ok } from './route.js';

/** The simulated-run route. */
export const runsRoutes: readonly ControlRoute[] = [
  {
    method: 'POST',
    path: '/__mock/workspaces/{id}/runs',
    summary: 'simulate a CI run, evaluated against the guardrail rules',
    body: SimulatedRunBody,
    handler: ({ plane, params, body }) => {
      const result = plane.simulateRun(params.id as string, body as SimulatedRunInput);
      return ok({ run: result.run, evaluation: result.evaluation }, 201);
    },
  },
];
