/**
 * The payload schema (spec §2.11) and the notification kinds. The schemas have one source of truth,
 * the contract of `@iacm/sdk` (`packages/sdk/src/contract/webhooks.ts`), imported through the package
 * boundary as `@iacm/sdk/contract` (a devDependency): the build bundles it into this package, code and
 * types, so that the published receiver depends on no sibling package.
 *
 * @module
 */

import {
  type DriftNotification,
  describe,
  type GhostResourceNotification,
  type InsightDetectedNotification,
  NOTIFICATION_TYPES,
  type UnmanagedResourceNotification,
  WebhookPayload,
  WebhookTestDelivery,
  zodIssues,
} from '@iacm/sdk/contract';
import type { z } from 'zod';
import type { WebhookIssue } from './errors.js';

export {
  DriftNotification,
  GhostResourceNotification,
  InsightDetectedNotification,
  UnmanagedResourceNotification,
  WebhookDrift,
  WebhookDriftSample,
  WebhookOwnerData,
  WebhookPayload,
  WebhookSample,
  WebhookTestDelivery,
} from '@iacm/sdk/contract';

/** The payload type of each kind of delivery: the four notification types and the integration's `test`. */
export interface WebhookPayloadByKind {
  /** A resource drifted from its IaC definition; its samples carry `drifts`. */
  Drift: DriftNotification;
  /** A resource exists in the cloud but in no IaC stack. */
  UnmanagedResource: UnmanagedResourceNotification;
  /** A resource is in an IaC state but no longer in the cloud. */
  GhostResource: GhostResourceNotification;
  /** An insight was detected. */
  InsightDetected: InsightDetectedNotification;
  /** The integration's test delivery (a JSON object with a `text` member), sent when it is created or tested. */
  test: WebhookTestDelivery;
}

/** A kind of delivery: a `notificationType` of spec §2.11, or `"test"` for the integration's test delivery. */
export type WebhookKind = keyof WebhookPayloadByKind;

/** The kinds of delivery, notification types first. */
export const WEBHOOK_KINDS = [...NOTIFICATION_TYPES, 'test'] as const satisfies readonly WebhookKind[];

/** The notification types, quoted and comma-separated, as the issues of a delivery without one name them. */
const NOTIFICATION_TYPE_LIST = NOTIFICATION_TYPES.map((type) => `"${type}"`).join(', ');

/** The notification types of spec §2.11 (every kind but `"test"`). */
export type NotificationType = Exclude<WebhookKind, 'test'>;

/**
 * A verified delivery: its `kind` and its `payload`, typed by kind. Switch on `kind` to narrow the
 * payload.
 */
export type WebhookNotification = {
  [K in WebhookKind]: {
    /** The kind of delivery: the payload's `notificationType`, or `"test"`. */
    readonly kind: K;
    /** The parsed payload. Unknown members are kept. */
    readonly payload: WebhookPayloadByKind[K];
  };
}[WebhookKind];

/** Reading a parsed JSON body as a delivery: the notification, or the fields that break the schema. */
export type ParsedDelivery =
  | { readonly ok: true; readonly notification: WebhookNotification }
  | { readonly ok: false; readonly issues: WebhookIssue[] };

/**
 * Reads a parsed JSON body as a delivery. An object with a `notificationType` member is a notification
 * (validated against {@link WebhookPayload}); otherwise an object with a `text` member is the test
 * delivery; anything else breaks the schema.
 */
export function parseDelivery(value: unknown): ParsedDelivery {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      issues: [
        {
          path: '',
          message: `the body must be a JSON object (a notification with notificationType, or a test delivery with text), received ${describe(value)}`,
          expected: 'a JSON object',
          received: describe(value),
        },
      ],
    };
  }
  if (Object.hasOwn(value, 'notificationType')) {
    const parsed = WebhookPayload.safeParse(value);
    if (parsed.success) {
      const payload = parsed.data;
      return { ok: true, notification: { kind: payload.notificationType, payload } as WebhookNotification };
    }
    return { ok: false, issues: issuesFromZod(parsed.error, value) };
  }
  if (Object.hasOwn(value, 'text')) {
    const parsed = WebhookTestDelivery.safeParse(value);
    if (parsed.success) return { ok: true, notification: { kind: 'test', payload: parsed.data } };
    return { ok: false, issues: issuesFromZod(parsed.error, value) };
  }
  return {
    ok: false,
    issues: [
      {
        path: 'notificationType',
        message: `notificationType: expected one of ${NOTIFICATION_TYPE_LIST} (or a test delivery with a text member), received nothing`,
        expected: `one of ${NOTIFICATION_TYPE_LIST}`,
        received: 'nothing',
      },
    ],
  };
}

/**
 * Turns a zod error into issues, one per bad field, each naming the field, what was expected and what
 * came: the contract's one issue formatter, in the receiver's wording.
 */
function issuesFromZod(error: z.ZodError, input: unknown): WebhookIssue[] {
  // zodIssues never writes an `expected: undefined` member, so its issues are WebhookIssues.
  return zodIssues(error, input, {
    label: (where) => where || 'body',
    dialect: 'delivery',
  }) as WebhookIssue[];
}
