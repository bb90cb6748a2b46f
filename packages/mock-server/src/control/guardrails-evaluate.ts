/** Control route: `POST /__mock/guardrails/evaluate`, a dry run of guardrail rules. @module */
import { type ControlRoute, ok } from './route.js';

/** The dry-run route. */
export const guardrailsEvaluateRoutes: readonly ControlRoute[] = [
  {
    method: 'POST',
    path: '/__mock/guardrails/evaluate',
    summary: 'dry-run guardrail rules against a plan; stores nothing',
    handler: ({ plane, body }) => ok(plane.evaluate(body)),
  },
];
