/**
 * Notifications on their way out: queued by hand (`POST /__mock/notifications`), and handed from the
 * outbox to the webhook integrations that should receive them.
 *
 * @module
 */
import { fieldIssuesFromZod, WebhookPayload } from '@iacm/sdk/contract';
import { generateNotification } from '@iacm/webhook-receiver';
import type * as z from 'zod';
import { validationError } from '../errors.js';
import type { AccountStore, Store } from '../store/store.js';
import type { EventRecorder, OutboxEntry } from './events.js';
import type { NotificationBody, WebhookHub } from './webhooks.js';

/** A notification's body as `NotificationBody` parsed it (its kind, its account, payload members). */
export type CheckedNotification = z.output<typeof NotificationBody>;

/**
 * The payload a notification body makes for an account: the generated one of its kind, with the
 * members given replacing the generated ones (not yet checked: `WebhookPayload` checks it).
 */
export function notificationPayload(
  account: { id: string; name: string },
  input: CheckedNotification,
): Record<string, unknown> {
  const { accountId: _a, ...given } = input;
  return {
    ...generateNotification(input.notificationType, { accountId: account.id, accountName: account.name }),
    ...given,
  };
}

/**
 * Queues a notification given by kind (generated) or as a whole payload (members given replace the
 * generated ones); 400 naming each bad field when the result is not a valid payload. The body comes
 * checked (by the route, or by `control.notify`, with `NotificationBody`); what is checked here is the
 * payload it makes.
 */
export function queueNotification(
  store: Store,
  input: CheckedNotification,
  events: EventRecorder,
): OutboxEntry {
  const account = store.accountOrPrimary(input.accountId);
  const payload = notificationPayload(account.account, input);
  const checked = WebhookPayload.safeParse(payload);
  if (!checked.success) throw validationError(fieldIssuesFromZod(checked.error, 'body', payload));
  return events.queue(account, { kind: 'manual' }, checked.data);
}

/**
 * Delivers a queued notification: a guardrail violation through its rule's notification
 * configuration (nowhere when the rule has none), anything else to every integration of the account.
 */
export function dispatchNotification(webhooks: WebhookHub, account: AccountStore, entry: OutboxEntry): void {
  if (entry.source.kind === 'guardrail_violation' && !entry.source.notificationId) return;
  const configured =
    entry.source.kind === 'guardrail_violation' && entry.source.notificationId
      ? (account.notifications.get(entry.source.notificationId)?.integrationIds ?? [])
      : [];
  webhooks.deliver(account.account.id, entry, configured);
}

/** Notifications waiting for delivery, oldest first: of one account, or of all. */
export function outboxOf(store: Store, accountId?: string): OutboxEntry[] {
  const accounts = accountId
    ? [store.accounts.get(accountId)].filter((a) => a !== undefined)
    : [...store.accounts.values()];
  return accounts.flatMap((a) => a.outbox);
}
