/**
 * One issue formatter for the contract, the mock and the receiver: the contract's `zodIssues` in the
 * `delivery` wording gives exactly the issues the webhook receiver reports today, so the receiver
 * can use it in place of its own copy.
 */
import { WebhookPayload, WebhookTestDelivery, zodIssues } from '@iacm/sdk/contract';
import { generateNotification, WEBHOOK_KINDS } from '@iacm/webhook-receiver';
import { describe, expect, it } from 'vitest';
import { parseDelivery } from '../../packages/webhook-receiver/src/schema.js';

/** The contract's formatter as the receiver words its issues (a field by its bare path, `body` for the body). */
function contractIssues(value: Record<string, unknown>): unknown[] {
  const schema = Object.hasOwn(value, 'notificationType') ? WebhookPayload : WebhookTestDelivery;
  const parsed = schema.safeParse(value);
  if (parsed.success) return [];
  return zodIssues(parsed.error, value, { label: (where) => where || 'body', dialect: 'delivery' });
}

const WRONG_VALUES: unknown[] = [42, 'no', null, [], {}, true, '2024-05-01T12:30:00.123Z', 'x'.repeat(300)];

/** Bad deliveries: every member of a notification and of its first sample set to each wrong value. */
function badDeliveries(): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const kind of WEBHOOK_KINDS) {
    const good = generateNotification(kind) as unknown as Record<string, unknown>;
    for (const [member] of Object.entries(good)) {
      for (const wrong of WRONG_VALUES) out.push({ ...good, [member]: wrong });
    }
    const samples = good.samples as Array<Record<string, unknown>> | undefined;
    const sample = samples?.[0];
    if (sample) {
      for (const [member, value] of Object.entries(sample)) {
        for (const wrong of WRONG_VALUES) out.push({ ...good, samples: [{ ...sample, [member]: wrong }] });
        if (Array.isArray(value) && value[0] && typeof value[0] === 'object') {
          for (const [inner] of Object.entries(value[0] as object))
            for (const wrong of WRONG_VALUES)
              out.push({ ...good, samples: [{ ...sample, [member]: [{ ...value[0], [inner]: wrong }] }] });
        }
      }
      out.push({ ...good, samples: [{ ...sample, drifts: [] }] });
    }
    out.push({ ...good, notificationType: 'Heartbeat' });
  }
  return out;
}

describe('the issue formatter in the delivery wording', () => {
  it('reports what the webhook receiver reports, for every bad delivery', () => {
    const deliveries = badDeliveries();
    expect(deliveries.length).toBeGreaterThan(500);
    let bad = 0;
    for (const delivery of deliveries) {
      const parsed = parseDelivery(delivery);
      if (parsed.ok) continue;
      bad++;
      expect(JSON.stringify(contractIssues(delivery)), JSON.stringify(delivery).slice(0, 200)).toBe(
        JSON.stringify(parsed.issues),
      );
    }
    expect(bad).toBeGreaterThan(300);
  });
});
