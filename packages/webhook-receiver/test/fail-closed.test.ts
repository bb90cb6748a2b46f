/**
 * The receiver fails closed (issue 20, finding 12): only the credential check's `'ok'` lets a
 * delivery through. The check is replaced here by one answering what the test says, so that a result
 * the receiver does not know (a future one, or a bug) is shown to be refused.
 */
import { createTestDelivery, createWebhookReceiver, generateNotification } from '@iacm/webhook-receiver';
import { describe, expect, it, vi } from 'vitest';
import { json } from './helpers.js';

const check = vi.hoisted(() => ({ result: 'ok' as string }));

vi.mock('../src/credentials.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/credentials.js')>();
  return { ...original, checkAuthorization: () => check.result };
});

const credentials = { type: 'basic', username: 'u', password: 'p' } as const;
const delivery = createTestDelivery({ notification: generateNotification('Drift'), credentials });

describe('the credential check fails closed', () => {
  it("lets a delivery through on 'ok' only", async () => {
    check.result = 'ok';
    const receiver = createWebhookReceiver({ credentials });
    expect((await receiver.handle(delivery)).status).toBe(200);
  });

  for (const result of ['OK', '', 'accepted', 'unknown', 'none', 'true']) {
    it(`refuses the result ${JSON.stringify(result)} as invalid credentials (401 with the challenge)`, async () => {
      check.result = result;
      const receiver = createWebhookReceiver({ credentials });
      const answer = await receiver.handle(delivery);
      expect(answer.status).toBe(401);
      expect(json(answer).code).toBe('invalid_credentials');
      expect(answer.headers['www-authenticate']).toBe('Basic realm="iacm-webhooks", charset="UTF-8"');
      const verified = await receiver.verify(delivery);
      expect(verified.ok).toBe(false);
    });
  }
});
