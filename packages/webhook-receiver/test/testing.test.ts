import {
  createTestDelivery,
  generateNotification,
  WEBHOOK_KINDS,
  WebhookPayload,
  WebhookTestDelivery,
} from '@iacm/webhook-receiver';
import { describe, expect, it } from 'vitest';
import { basic, header } from './helpers.js';

describe('createTestDelivery', () => {
  const notification = generateNotification('Drift');

  it('builds the exact request the service sends, per credential method', () => {
    expect(createTestDelivery({ notification, credentials: basic })).toEqual({
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`iacm-hooks:${'pässword-Zq8#SECRET-7f3a'}`)))}`,
      },
      body: JSON.stringify(notification),
    });
    expect(createTestDelivery({ notification, credentials: header }).headers).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer tok_SECRET_9b1d4e7a2c',
    });
    expect(createTestDelivery({ notification, credentials: 'none' }).headers).toEqual({
      'content-type': 'application/json',
    });
  });

  it('the body is JSON.stringify of the notification, byte for byte (no pretty printing, key order kept)', () => {
    const custom = { text: 'héllo', z: 1, a: [1, 2] };
    expect(createTestDelivery({ notification: custom, credentials: 'none' }).body).toBe(
      '{"text":"héllo","z":1,"a":[1,2]}',
    );
  });
});

describe('generateNotification', () => {
  it('builds a valid payload of every kind', () => {
    for (const kind of WEBHOOK_KINDS) {
      const payload = generateNotification(kind);
      if (kind === 'test') {
        expect(WebhookTestDelivery.safeParse(payload).success).toBe(true);
        expect('notificationType' in payload).toBe(false);
      } else {
        const parsed = WebhookPayload.safeParse(payload);
        expect(parsed.success, kind).toBe(true);
        expect(parsed.data?.notificationType).toBe(kind);
        expect(parsed.data?.samples.length).toBeGreaterThan(0);
      }
    }
  });

  it('puts drifts on Drift samples only', () => {
    expect(generateNotification('Drift').samples.every((sample) => sample.drifts.length > 0)).toBe(true);
    for (const kind of ['UnmanagedResource', 'GhostResource', 'InsightDetected'] as const) {
      expect(generateNotification(kind).samples.every((sample) => !('drifts' in sample))).toBe(true);
    }
  });

  it('is deterministic and applies overrides', () => {
    expect(JSON.stringify(generateNotification('GhostResource'))).toBe(
      JSON.stringify(generateNotification('GhostResource')),
    );
    const custom = generateNotification('Drift', { region: 'eu-west-1', samples: [] });
    expect(custom.region).toBe('eu-west-1');
    expect(custom.samples).toEqual([]);
    expect(custom.notificationType).toBe('Drift');
    expect(generateNotification('test', { text: 'ping' })).toEqual({ text: 'ping' });
  });

  it('returns fresh objects (mutating one does not change the next)', () => {
    const first = generateNotification('Drift');
    first.samples[0]?.drifts.push({ iacType: 'helm', iacValue: '', keyName: 'k', providerValue: '' });
    expect(generateNotification('Drift').samples[0]?.drifts).toHaveLength(2);
  });

  it('refuses an unknown kind', () => {
    expect(() => generateNotification('Heartbeat' as never)).toThrow(/unknown kind/);
  });
});
