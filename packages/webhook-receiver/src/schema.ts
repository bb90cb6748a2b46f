/**
 * The payload schema (spec §2.11) and the notification kinds. The schemas have one source of truth,
 * the contract of `@iacm/sdk` (`packages/sdk/src/contract/webhooks.ts`), imported through the package
 * boundary as `@iacm/sdk/contract` (a devDependency): the build bundles it into this package, code and
 * types, so that the published receiver depends on no sibling package.
 *
 * @module
 */

import {
  DriftNotification,
  describe,
  GhostResourceNotification,
  InsightDetectedNotification,
  MAX_LISTED_ISSUES,
  NOTIFICATION_TYPES,
  UnmanagedResourceNotification,
  WebhookDrift,
  WebhookDriftSample,
  WebhookPayload,
  WebhookSample,
  WebhookTestDelivery,
  zodIssues,
} from '@iacm/sdk/contract';
import type * as z from 'zod/mini';
import type { WebhookIssue } from './errors.js';
import { compileLater, passesCompiled } from './fast-path.js';

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
  | {
      readonly ok: false;
      /** The first issues found, at most the cap given to {@link parseDelivery}. */
      readonly issues: WebhookIssue[];
      /** Whether validation stopped at the cap: the body may have more issues than those listed. */
      readonly stopped: boolean;
    };

/** The schema of each notification type, looked up by own keys only (never `constructor`, `__proto__`). */
const SCHEMA_BY_TYPE: ReadonlyMap<string, z.ZodMiniType> = new Map<NotificationType, z.ZodMiniType>([
  ['Drift', DriftNotification],
  ['UnmanagedResource', UnmanagedResourceNotification],
  ['GhostResource', GhostResourceNotification],
  ['InsightDetected', InsightDetectedNotification],
]);

/** `samples[3]` + `firstSeen` -> `samples[3].firstSeen`; `samples` + `[3]` -> `samples[3]`. */
function joinPath(prefix: string, where: string): string {
  if (prefix === '') return where;
  if (where === '') return prefix;
  return where.startsWith('[') ? `${prefix}${where}` : `${prefix}.${where}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The issues of one delivery, gathered part by part (the envelope, then each sample, then each drift)
 * until the cap: zod reports every bad element of an array it checks, so arrays are never given to it
 * whole, and validation stops as soon as the cap is reached.
 */
class Issues {
  readonly list: WebhookIssue[] = [];
  stopped = false;
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** Whether the cap is reached; from then on, nothing more is checked. */
  full(): boolean {
    if (this.list.length < this.#max) return false;
    this.stopped = true;
    return true;
  }

  /** Adds the issues of a zod error of `input`, found at `prefix` inside the body. */
  add(error: z.core.$ZodError, input: unknown, prefix: string): void {
    const issues = zodIssues(error, input, {
      label: (where) => joinPath(prefix, where) || 'body',
      dialect: 'delivery',
      max: Math.max(1, this.#max - this.list.length),
    });
    for (const issue of issues) {
      if (issue.omitted !== undefined) {
        this.stopped = true;
        continue;
      }
      // zodIssues never writes an `expected: undefined` member, so its issues are WebhookIssues.
      this.list.push(
        (prefix === '' ? issue : { ...issue, path: joinPath(prefix, issue.path) }) as WebhookIssue,
      );
    }
  }
}

/**
 * Checks one part of the body with `schema`; its issues go to `issues`.
 * @returns the parsed value, or undefined when it breaks the schema.
 */
function check(schema: z.ZodMiniType, value: unknown, prefix: string, issues: Issues): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  issues.add(parsed.error, value, prefix);
  return undefined;
}

/**
 * Checks each item of an array with `schema`, one at a time, stopping at the cap.
 * @returns the parsed items, or undefined when one of them breaks the schema.
 */
function checkEach(
  schema: (item: unknown, prefix: string) => unknown,
  items: readonly unknown[],
  prefix: string,
  issues: Issues,
): unknown[] | undefined {
  const out: unknown[] = [];
  let ok = true;
  for (let i = 0; i < items.length; i++) {
    if (issues.full()) return undefined;
    const parsed = schema(items[i], `${prefix}[${i}]`);
    if (parsed === undefined) ok = false;
    else out.push(parsed);
  }
  return ok ? out : undefined;
}

/**
 * Checks an object with `schema`, the array in its member `member` (when it is one) item by item
 * with `item`: the object is checked with that member empty, then each item on its own.
 */
function checkWithList(
  schema: z.ZodMiniType,
  value: unknown,
  member: string,
  item: (item: unknown, prefix: string) => unknown,
  prefix: string,
  issues: Issues,
): unknown {
  const list = isRecord(value) ? value[member] : undefined;
  if (!Array.isArray(list)) return check(schema, value, prefix, issues);
  const shell = { ...(value as Record<string, unknown>), [member]: [] };
  const parsed = check(schema, shell, prefix, issues) as Record<string, unknown> | undefined;
  const items = checkEach(item, list, joinPath(prefix, member), issues);
  if (parsed === undefined || items === undefined) return undefined;
  parsed[member] = items;
  return parsed;
}

/** How each sample of a notification type is checked: a Drift sample's drifts one by one. */
function sampleChecker(type: NotificationType, issues: Issues): (item: unknown, prefix: string) => unknown {
  if (type !== 'Drift') return (item, prefix) => check(WebhookSample, item, prefix, issues);
  const drift = (item: unknown, prefix: string) => check(WebhookDrift, item, prefix, issues);
  return (item, prefix) => checkWithList(WebhookDriftSample, item, 'drifts', drift, prefix, issues);
}

/**
 * A verified notification: the parsed body itself is the payload. The schemas transform nothing and
 * keep unknown members (a test asserts it), so a valid body is its own parse; it is not copied, and
 * its members keep the order they arrived in, by either path (compiled or walked).
 */
function notificationOf(value: unknown): WebhookNotification {
  const payload = value as WebhookPayload;
  return { kind: payload.notificationType, payload } as WebhookNotification;
}

/**
 * Reads a parsed JSON body as a delivery. An object with a `notificationType` member is a notification
 * (validated against {@link WebhookPayload}); otherwise an object with a `text` member is the test
 * delivery; anything else breaks the schema. Validation stops once `maxIssues` issues are found (the
 * work is linear in the body, and bounded by the cap when the body is bad): the envelope, each sample
 * and each drift are checked on their own, so that zod never reports every bad item of a long array.
 * Once a notification type has verified twice in this process, its compiled schema (`fast-path.ts`) checks
 * it first; a body it refuses is walked as above. Either way the payload is the parsed body itself.
 * @param value the parsed JSON body.
 * @param maxIssues the most issues to find. Default {@link MAX_LISTED_ISSUES} (100).
 */
export function parseDelivery(value: unknown, maxIssues: number = MAX_LISTED_ISSUES): ParsedDelivery {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      stopped: false,
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
  const issues = new Issues(maxIssues);
  if (Object.hasOwn(value, 'notificationType')) {
    const type = (value as { notificationType?: unknown }).notificationType;
    const schema = typeof type === 'string' ? SCHEMA_BY_TYPE.get(type) : undefined;
    if (schema !== undefined && passesCompiled(type as NotificationType, value)) {
      return { ok: true, notification: notificationOf(value) };
    }
    let payload: unknown;
    if (schema === undefined) {
      // Not a known type: the union names the known ones (the samples are not looked at).
      const samples = (value as { samples?: unknown }).samples;
      check(WebhookPayload, Array.isArray(samples) ? { ...value, samples: [] } : value, '', issues);
    } else {
      const sample = sampleChecker(type as NotificationType, issues);
      payload = checkWithList(schema, value, 'samples', sample, '', issues);
    }
    if (payload !== undefined && issues.list.length === 0) {
      compileLater(type as NotificationType, schema as z.ZodMiniType);
      return { ok: true, notification: notificationOf(value) };
    }
    return { ok: false, issues: issues.list, stopped: issues.stopped };
  }
  if (Object.hasOwn(value, 'text')) {
    const parsed = WebhookTestDelivery.safeParse(value);
    if (parsed.success) return { ok: true, notification: { kind: 'test', payload: parsed.data } };
    issues.add(parsed.error, value, '');
    return { ok: false, issues: issues.list, stopped: issues.stopped };
  }
  return {
    ok: false,
    stopped: false,
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
