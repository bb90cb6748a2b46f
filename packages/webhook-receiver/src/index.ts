/**
 * `@iacm/webhook-receiver`: parse and verify webhook deliveries of the IaC management service.
 *
 * One transport-free core ({@link WebhookReceiver}) checks the method, the credentials, the content
 * type, the size, the JSON and the schema of a delivery, and answers with an exact HTTP status.
 * {@link createFetchHandler} mounts it in fetch-style servers (Hono, Bun, Deno, Workers, Next.js);
 * `@iacm/webhook-receiver/node` has the node:http, Express and Fastify adapters. Web-standard APIs
 * only: it runs in Node ≥ 20, Deno, Bun, browsers and edge runtimes.
 *
 * @packageDocumentation
 */

// The body forms, the reader's type and the header forms are the contract's, shared with the mock server.
export type { BodyReader, BodyReadProblem, HeaderSource, RawBody } from '@iacm/sdk/contract';
export { readWebStream } from './body.js';
export {
  type AuthorizationHeaderCredentials,
  type BasicCredentials,
  type CredentialsOption,
  encodeAuthorization,
  type WebhookCredentials,
} from './credentials.js';
export {
  WEBHOOK_ERROR_STATUS,
  WebhookError,
  type WebhookErrorBody,
  type WebhookErrorCode,
  type WebhookErrorOptions,
  type WebhookIssue,
} from './errors.js';
export { createFetchHandler } from './fetch.js';
export {
  createWebhookReceiver,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_DEPTH,
  DEFAULT_REALM,
  type VerifyResult,
  type WebhookAnyHandler,
  type WebhookErrorHandler,
  type WebhookHandler,
  WebhookReceiver,
  type WebhookReceiverLike,
  type WebhookReceiverOptions,
  type WebhookRequest,
  type WebhookResponse,
} from './receiver.js';
export {
  DriftNotification,
  GhostResourceNotification,
  InsightDetectedNotification,
  type NotificationType,
  UnmanagedResourceNotification,
  WEBHOOK_KINDS,
  WebhookDrift,
  WebhookDriftSample,
  type WebhookKind,
  type WebhookNotification,
  WebhookOwnerData,
  WebhookPayload,
  type WebhookPayloadByKind,
  WebhookSample,
  WebhookTestDelivery,
} from './schema.js';
export {
  createTestDelivery,
  generateNotification,
  type TestDelivery,
  type TestDeliveryOptions,
} from './testing.js';

/** The version of this package. */
export const VERSION = '0.2.0';
