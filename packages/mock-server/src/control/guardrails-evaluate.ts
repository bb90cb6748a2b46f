/** Control route: `POST /__mock/guardrails/evaluate`, a dry run of guardrail rules. @module */
import { EvaluateBody } from '../domain/dry-run.js';
import { type ControlRoute, controlRoute, ok } from './route.js';

/** The dry-run route. */
export const guardrailsEvaluateRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'POST',
    path: '/__mock/guardrails/evaluate',
    summary: 'dry-run guardrail rules against a plan; stores nothing',
    body: EvaluateBody,
    handler: ({ core, body }) => ok(core.evaluate(body)),
  }),
];
