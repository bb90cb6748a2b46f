/** Control route: `POST /__mock/guardrails/evaluate`, a dry run of guardrail rules. @module */
import { GuardrailCreateBody, ObjectId } from '@iacm/sdk/contract';
import { z } from 'zod';
import { PlanContentSchema, RunScopeSchema } from '../domain/simulate.js';
import { type ControlRoute, ok } from './route.js';

/** Body of `POST /__mock/guardrails/evaluate`. */
export const EvaluateBody = z.strictObject({
  accountId: ObjectId.optional(),
  rules: z.array(GuardrailCreateBody).max(1000).optional(),
  run: RunScopeSchema,
  plan: PlanContentSchema,
});

/** The dry-run route. */
export const guardrailsEvaluateRoutes: readonly ControlRoute[] = [
  {
    method: 'POST',
    path: '/__mock/guardrails/evaluate',
    summary: 'dry-run guardrail rules against a plan; stores nothing',
    handler: ({ plane, body }) => ok(plane.evaluate(body)),
  },
];
