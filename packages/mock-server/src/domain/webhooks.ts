/**
 * Webhook integrations and deliveries: the names other modules import, from the parts that hold them
 * (`webhooks/`): the request bodies (`bodies.ts`), the integration registry (`integrations.ts`), the
 * delivery queue and its retry rule (`queue.ts`), the sender (`sender.ts`), the attempt log
 * (`attempt-log.ts`) and the hub that wires them (`hub.ts`). The policy is `delivery-policy.ts`.
 *
 * @module
 */
export { DEFAULT_DELIVERY_POLICY, type DeliveryPolicy } from './delivery-policy.js';
export type { DeliveryAttempt } from './webhooks/attempt-log.js';
export {
  IntegrationCreateBody,
  type IntegrationCreateInput,
  IntegrationCredentialsSchema,
  IntegrationUpdateBody,
  type IntegrationUpdateInput,
  NotificationBody,
} from './webhooks/bodies.js';
export {
  type DroppedDeliveries,
  WebhookHub,
  type WebhookHubOptions,
  type WebhookLedgers,
} from './webhooks/hub.js';
export {
  type CredentialMethod,
  type IntegrationStatus,
  type IntegrationView,
  MAX_INTEGRATIONS,
} from './webhooks/integrations.js';
