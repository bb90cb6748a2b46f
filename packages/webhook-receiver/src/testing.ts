/**
 * Helpers for tests: the exact request the service sends for a notification, and realistic payloads
 * of every kind.
 *
 * @module
 */
import type { WebhookPayload, WebhookSample, WebhookTestDelivery } from '@iacm/sdk/contract';
import { encodeAuthorization, type WebhookCredentials } from './credentials.js';
import type { WebhookKind, WebhookPayloadByKind } from './schema.js';

/** Input of {@link createTestDelivery}. */
export interface TestDeliveryOptions {
  /** The payload to send: a notification of spec §2.11 or the test delivery (`{ text }`). Not validated, so invalid payloads can be sent on purpose. */
  readonly notification: WebhookPayload | WebhookTestDelivery | Readonly<Record<string, unknown>>;
  /** The credentials configured on the integration, or `"none"` (no `Authorization` header). */
  readonly credentials: WebhookCredentials | 'none';
}

/**
 * A delivery as the service sends it. It is a valid `fetch` `RequestInit` (`fetch(url, delivery)`)
 * and a valid {@link WebhookRequest} (`receiver.verify(delivery)`).
 */
export interface TestDelivery {
  /** Always `POST`. */
  readonly method: 'POST';
  /** `content-type: application/json`, and `authorization` unless the credentials are `"none"`. */
  readonly headers: Readonly<Record<string, string>>;
  /** `JSON.stringify(notification)`. */
  readonly body: string;
}

/**
 * Builds the request the service sends for a notification, byte for byte: the body is
 * `JSON.stringify(notification)`, `content-type` is `application/json`, and `authorization` is
 * {@link encodeAuthorization} of the credentials (absent for `"none"`).
 * @param options the notification and the integration's credentials.
 * @example
 * const delivery = createTestDelivery({ notification: generateNotification('Drift'), credentials });
 * const answer = await fetch('http://127.0.0.1:3000/webhooks', delivery);
 */
export function createTestDelivery(options: TestDeliveryOptions): TestDelivery {
  const authorization = encodeAuthorization(options.credentials);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization !== undefined) headers.authorization = authorization;
  return { method: 'POST', headers, body: JSON.stringify(options.notification) };
}

const owner = {
  ActionType: 'Modified',
  eventName: 'PutBucketVersioning',
  eventTime: '2024-05-01T11:58:42.512000000Z',
  otherOwnerData: null,
  userIdentity: { displayName: 'Jane Doe', initials: 'JD', type: 'IAMUser' },
  workflowId: 'wf-6a1c2e',
} as const;

function sample(index: number): WebhookSample {
  const name = `acme-logs-${index}`;
  return {
    ARN: `arn:aws:s3:::${name}`,
    FRN: `frn:aws:s3:us-east-1:123456789012:bucket/${name}`,
    crawlerId: `crawler-${(1000 + index).toString(16)}`,
    name,
    firstSeen: `2024-04-2${index}T08:15:30.123456789Z`,
    inventoryUpdateTime: '2024-05-01T12:00:00.000000000Z',
    lastResourceStateChange: `2024-05-01T11:58:4${index}.512000000Z`,
    isChild: false,
    isCrawlerEventDriven: index % 2 === 1,
    isExcluded: false,
    isLocked: false,
    ownerData: { ...owner, userIdentity: { ...owner.userIdentity } },
  };
}

const base = {
  accountId: '64b7f0c2e4a1b2c3d4e5f601',
  accountName: 'acme-production',
  assetType: 'aws_s3_bucket',
  integrationId: '64b7f0c2e4a1b2c3d4e5f602',
  integrationIdentifier: '123456789012',
  integrationName: 'aws-production',
  providerType: 'aws',
  region: 'us-east-1',
  workflowId: 'wf-6a1c2e',
} as const;

/**
 * Builds a realistic, valid payload of a kind: the same one every time for the same input. Two
 * samples per notification; `Drift` samples carry `drifts`. `overrides` replaces top-level members.
 * @param kind `'Drift'`, `'UnmanagedResource'`, `'GhostResource'`, `'InsightDetected'` or `'test'`.
 * @param overrides top-level members to replace (for example `{ samples: [] }` or `{ region: 'eu-west-1' }`).
 * @example generateNotification('Drift', { accountName: 'staging' })
 */
export function generateNotification<K extends WebhookKind>(
  kind: K,
  overrides?: Partial<WebhookPayloadByKind[K]>,
): WebhookPayloadByKind[K] {
  let payload: WebhookPayloadByKind[WebhookKind];
  switch (kind as WebhookKind) {
    case 'test':
      payload = { text: 'This is a test notification from the IaC management service.' };
      break;
    case 'Drift':
      payload = {
        ...base,
        notificationType: 'Drift',
        samples: [0, 1].map((index) => ({
          ...sample(index),
          drifts: [
            {
              iacType: 'terraform',
              iacValue: 'Enabled',
              keyName: 'versioning.status',
              providerValue: 'Suspended',
            },
            {
              iacType: 'terraform',
              iacValue: 'team=platform',
              keyName: 'tags.team',
              providerValue: 'team=data',
            },
          ],
        })),
      };
      break;
    case 'UnmanagedResource':
    case 'GhostResource':
    case 'InsightDetected':
      payload = {
        ...base,
        notificationType: kind as Exclude<WebhookKind, 'test' | 'Drift'>,
        samples: [sample(0), sample(1)],
      };
      break;
    default:
      throw new TypeError(
        `generateNotification: unknown kind; expected one of Drift, UnmanagedResource, GhostResource, InsightDetected, test`,
      );
  }
  return { ...payload, ...overrides } as WebhookPayloadByKind[K];
}
