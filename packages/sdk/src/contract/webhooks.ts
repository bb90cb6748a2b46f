import * as z from 'zod/mini';
import { IAC_TYPES, WEBHOOK_PROVIDER_TYPES } from './enums.js';
import { NanoTimestamp, openEnum } from './primitives.js';
import { looseObject } from './zod.js';

/** One drifted key of a drifted resource (spec §2.11). */
export const WebhookDrift = looseObject({
  iacType: openEnum(IAC_TYPES),
  iacValue: z.string(),
  keyName: z.string(),
  providerValue: z.string(),
});
/** One drifted key of a drifted resource. */
export type WebhookDrift = z.infer<typeof WebhookDrift>;

/** Who last changed a resource, as a webhook sample reports it. */
export const WebhookOwnerData = looseObject({
  ActionType: z.string(),
  eventName: z.string(),
  eventTime: NanoTimestamp,
  otherOwnerData: z.null(),
  userIdentity: looseObject({ displayName: z.string(), initials: z.string(), type: z.string() }),
  workflowId: z.string(),
});
/** Who last changed a resource. */
export type WebhookOwnerData = z.infer<typeof WebhookOwnerData>;

const sampleShape = {
  ARN: z.string(),
  FRN: z.string(),
  crawlerId: z.string(),
  name: z.string(),
  firstSeen: NanoTimestamp,
  inventoryUpdateTime: NanoTimestamp,
  lastResourceStateChange: NanoTimestamp,
  isChild: z.boolean(),
  isCrawlerEventDriven: z.boolean(),
  isExcluded: z.boolean(),
  isLocked: z.boolean(),
  ownerData: WebhookOwnerData,
};

/** A sample of a `Drift` notification: a resource with its drifted keys. */
export const WebhookDriftSample = looseObject({ ...sampleShape, drifts: z.array(WebhookDrift) });
/** A sample of a `Drift` notification. */
export type WebhookDriftSample = z.infer<typeof WebhookDriftSample>;

/** A sample of a notification other than `Drift`: `drifts` is absent. */
export const WebhookSample = looseObject({
  ...sampleShape,
  drifts: z.optional(z.undefined({ error: 'drifts appears only on Drift notifications' })),
});
/** A sample of a notification other than `Drift`. */
export type WebhookSample = z.infer<typeof WebhookSample>;

const payloadShape = {
  accountId: z.string(),
  accountName: z.string(),
  assetType: z.string(),
  integrationId: z.string(),
  integrationIdentifier: z.string(),
  integrationName: z.string(),
  providerType: openEnum(WEBHOOK_PROVIDER_TYPES),
  region: z.string(),
  workflowId: z.string(),
};

/** A `Drift` notification. */
export const DriftNotification = looseObject({
  ...payloadShape,
  notificationType: z.literal('Drift'),
  samples: z.array(WebhookDriftSample),
});
/** A `Drift` notification. */
export type DriftNotification = z.infer<typeof DriftNotification>;

/** An `UnmanagedResource` notification. */
export const UnmanagedResourceNotification = looseObject({
  ...payloadShape,
  notificationType: z.literal('UnmanagedResource'),
  samples: z.array(WebhookSample),
});
/** An `UnmanagedResource` notification. */
export type UnmanagedResourceNotification = z.infer<typeof UnmanagedResourceNotification>;

/** A `GhostResource` notification. */
export const GhostResourceNotification = looseObject({
  ...payloadShape,
  notificationType: z.literal('GhostResource'),
  samples: z.array(WebhookSample),
});
/** A `GhostResource` notification. */
export type GhostResourceNotification = z.infer<typeof GhostResourceNotification>;

/** An `InsightDetected` notification. */
export const InsightDetectedNotification = looseObject({
  ...payloadShape,
  notificationType: z.literal('InsightDetected'),
  samples: z.array(WebhookSample),
});
/** An `InsightDetected` notification. */
export type InsightDetectedNotification = z.infer<typeof InsightDetectedNotification>;

/**
 * A webhook notification payload (spec §2.11), discriminated by `notificationType`. Unknown members
 * are tolerated; `drifts` appears only on `Drift` samples.
 */
export const WebhookPayload = z.discriminatedUnion('notificationType', [
  DriftNotification,
  UnmanagedResourceNotification,
  GhostResourceNotification,
  InsightDetectedNotification,
]);
/** A webhook notification payload. */
export type WebhookPayload = z.infer<typeof WebhookPayload>;

/**
 * The integration's test delivery (a heartbeat sent when an integration is created or tested): a
 * JSON object with a `text` member.
 */
export const WebhookTestDelivery = looseObject({ text: z.string() });
/** The integration's test delivery. */
export type WebhookTestDelivery = z.infer<typeof WebhookTestDelivery>;
