/**
 * The guardrail dry run (`POST /__mock/guardrails/evaluate`): rules evaluated against a plan, nothing
 * stored.
 *
 * @module
 */
import { GuardrailCreateBody, type GuardrailRule, ObjectId } from '@iacm/sdk/contract';
import * as z from 'zod';
import type { Store } from '../store/store.js';
import { evaluateGuardrails, type GuardrailEvaluation } from './evaluate.js';
import { PlanContentSchema, RunScopeSchema } from './simulate.js';

/** Body of `POST /__mock/guardrails/evaluate`. */
export const EvaluateBody = z.strictObject({
  accountId: z.optional(ObjectId),
  rules: z.array(GuardrailCreateBody).max(1000).optional(),
  run: RunScopeSchema,
  plan: PlanContentSchema,
});

/** A dry run's body as {@link EvaluateBody} parsed it. */
export type CheckedEvaluation = z.output<typeof EvaluateBody>;

/**
 * Dry-runs guardrail rules against a plan: the given rules (create bodies), or the account's own
 * (primary by default), in the given run scope. The body comes checked (by the route, or by
 * `control.evaluate`, with {@link EvaluateBody}).
 */
export function dryRunGuardrails(store: Store, input: CheckedEvaluation, now: number): GuardrailEvaluation {
  const account = store.accountOrPrimary(input.accountId);
  const at = new Date(now).toISOString();
  const rules: GuardrailRule[] = input.rules
    ? input.rules.map((r, i) => ({
        ...r,
        id: String(i + 1).padStart(24, '0'),
        accountId: account.account.id,
        isEnabled: r.isEnabled ?? true,
        createdAt: at,
        updatedAt: at,
      }))
    : [...account.rules.values()];
  return evaluateGuardrails(rules, input.run, input.plan);
}
