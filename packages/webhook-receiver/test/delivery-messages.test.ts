/**
 * What a sender reads when a delivery breaks the contract: each issue's path and message, worded
 * from the contract's schemas (their fast paths for timestamps hand a refused value to zod's own
 * parser, so a date that does not exist is still reported as such).
 */
import { generateNotification } from '@iacm/webhook-receiver';
import { describe, expect, it } from 'vitest';
import { parseDelivery } from '../src/schema.js';
import { replaced } from './helpers.js';

describe('a broken delivery', () => {
  const drift = generateNotification('Drift');

  it('report a broken delivery with the messages a sender sees', () => {
    const bad = replaced(drift, ['samples', 1, 'firstSeen'], '2024-02-30T12:30:00.123456789Z');
    const worse = replaced(bad, ['samples', 0, 'drifts', 1, 'keyName'], 7);
    expect(parseDelivery(worse)).toEqual({
      ok: false,
      stopped: false,
      issues: [
        expect.objectContaining({
          path: 'samples[0].drifts[1].keyName',
          message: 'samples[0].drifts[1].keyName: expected string, received number 7',
        }),
        expect.objectContaining({
          path: 'samples[1].firstSeen',
          message:
            'samples[1].firstSeen: expected a real calendar date and time, received "2024-02-30T12:30:00.123456789Z"',
        }),
      ],
    });
  });
});
