/**
 * Control routes: webhook integrations, their deliveries and the delivery policy; and the same as
 * the in-process `control.webhooks` ({@link webhookControl}). Each body is parsed once, by the
 * route's schema or, in process, by {@link parseControlBody} with the same schema; the hub then takes
 * the typed value.
 *
 * @module
 */
import { DeliveryPolicyBody } from '../domain/delivery-policy.js';
import type { IntegrationCreateInput, IntegrationView } from '../domain/webhooks.js';
import { notFound } from '../errors.js';
import type { CoreView } from './route.js';

/**
 * Body of `PUT /__mock/deliveries/policy`: `attempts` 1 to 10, `baseDelayMs` 100 to 60,000,
 * `maxDelayMs` 100 to 600,000, `maxTotalMs` 1,000 to 3,600,000, `timeoutMs` 100 to 120,000; a value
 * outside its range is a 400 naming the member, the range and what came. The delivery policy's one
 * schema (`DeliveryPolicyBody`), under the name the package exports.
 */
export const PolicyBody = DeliveryPolicyBody;

/**
 * Creates an integration in the account the body names (the primary account when it names none;
 * 404 for an account the mock does not have), after a successful test delivery.
 */
export function createIntegration(core: CoreView, body: IntegrationCreateInput): Promise<IntegrationView> {
  const accounts = core.accounts();
  const accountId = body.accountId ?? accounts[0]?.id;
  if (!accountId || !accounts.some((a) => a.id === accountId))
    throw notFound('account', body.accountId ?? '');
  return core.webhooks.create(accountId, body);
}
