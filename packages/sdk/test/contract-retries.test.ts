/**
 * The contract's retry rules, shared by the SDK and the mock server: `parseRetryAfter` (the one reader
 * of `retry-after-ms` and `Retry-After`, with its 64-character cap) and the webhook delivery retry
 * rule (`WEBHOOK_DELIVERY_RETRIES`, `isRetriedDeliveryStatus`).
 */
import {
  isRetriedDeliveryStatus,
  MAX_RETRY_AFTER_LENGTH,
  parseRetryAfter,
  WEBHOOK_DELIVERY_RETRIES,
} from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { RateLimitError } from '../src/core/errors.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('parseRetryAfter: how long an answer asks to wait', () => {
  it('reads retry-after-ms as decimal milliseconds, before Retry-After', () => {
    expect(parseRetryAfter({ 'retry-after-ms': '1500' }, NOW)).toBe(1500);
    expect(parseRetryAfter({ 'retry-after-ms': '250.5' }, NOW)).toBe(250.5);
    expect(parseRetryAfter({ 'retry-after-ms': ' 20 ', 'retry-after': '9' }, NOW)).toBe(20);
    // An unreadable retry-after-ms falls back to Retry-After.
    expect(parseRetryAfter({ 'retry-after-ms': 'soon', 'retry-after': '2' }, NOW)).toBe(2000);
  });

  it('reads Retry-After as decimal seconds', () => {
    expect(parseRetryAfter({ 'retry-after': '120' }, NOW)).toBe(120_000);
    expect(parseRetryAfter({ 'retry-after': '0.5' }, NOW)).toBe(500);
    expect(parseRetryAfter({ 'retry-after': '0' }, NOW)).toBe(0);
    expect(parseRetryAfter({ 'retry-after': '  7  ' }, NOW)).toBe(7000);
  });

  it('reads Retry-After as an HTTP date, in each of its three forms, compared with now (a past date is 0)', () => {
    const in90s = new Date(NOW + 90_000);
    expect(parseRetryAfter({ 'retry-after': in90s.toUTCString() }, NOW)).toBe(90_000);
    expect(parseRetryAfter({ 'retry-after': 'Thursday, 15-Jan-26 12:01:30 GMT' }, NOW)).toBe(90_000);
    const asctime = parseRetryAfter({ 'retry-after': 'Thu Jan 15 12:01:30 2026' }, NOW);
    expect(asctime).toBeTypeOf('number');
    expect(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 1970 00:00:10 GMT' }, NOW)).toBe(0);
  });

  it(`ignores a value longer than MAX_RETRY_AFTER_LENGTH (${MAX_RETRY_AFTER_LENGTH}) characters, spaces around it aside`, () => {
    const longest = `${'0'.repeat(MAX_RETRY_AFTER_LENGTH - 1)}3`;
    expect(parseRetryAfter({ 'retry-after': longest }, NOW)).toBe(3000);
    expect(parseRetryAfter({ 'retry-after': `  ${longest}  ` }, NOW)).toBe(3000);
    expect(parseRetryAfter({ 'retry-after': `0${longest}` }, NOW)).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after-ms': `0${longest}` }, NOW)).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': `${new Date(NOW).toUTCString()}${' x'.repeat(20)}` }, NOW)).toBe(
      undefined,
    );
  });

  it('ignores what is absent, empty, negative, or neither a decimal number nor an HTTP date', () => {
    for (const value of [
      '',
      '   ',
      'soon',
      '-1',
      '-5',
      '1e3',
      '0x10',
      'Infinity',
      'NaN',
      '1.',
      '.5',
      '1.5.2',
      '12abc',
      'soon 5',
      '2026-01-15',
    ]) {
      expect(parseRetryAfter({ 'retry-after': value }, NOW), JSON.stringify(value)).toBeUndefined();
      expect(parseRetryAfter({ 'retry-after-ms': value }, NOW), JSON.stringify(value)).toBeUndefined();
    }
    expect(parseRetryAfter({}, NOW)).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': undefined }, NOW)).toBeUndefined();
  });

  it("is what the SDK's RateLimitError reads (seconds), retry-after-ms included", () => {
    const error = (headers: Record<string, string>) =>
      new RateLimitError(
        'workspaces.search',
        429,
        { status: 429, code: 'rate_limited', message: 'x' },
        headers,
      );
    expect(error({ 'retry-after-ms': '1500' }).retryAfter).toBe(1.5);
    expect(error({ 'retry-after': '3' }).retryAfter).toBe(3);
    expect(error({ 'retry-after': '9'.repeat(MAX_RETRY_AFTER_LENGTH + 1) }).retryAfter).toBeUndefined();
    expect(error({}).retryAfter).toBeUndefined();
  });
});

describe('the webhook delivery retry rule', () => {
  it('retries no answer, 408, 429 and every 5xx; nothing else', () => {
    for (const status of [0, 408, 429, 500, 502, 503, 504, 599])
      expect(isRetriedDeliveryStatus(status)).toBe(true);
    for (const status of [200, 204, 301, 400, 401, 403, 404, 409, 410, 422]) {
      expect(isRetriedDeliveryStatus(status)).toBe(false);
    }
    expect(WEBHOOK_DELIVERY_RETRIES.retriedStatuses).toEqual([408, 429]);
  });

  it('documents its defaults within their ranges, and is frozen', () => {
    const { defaults, ranges, minDelayMs, jitter } = WEBHOOK_DELIVERY_RETRIES;
    expect(defaults).toEqual({
      attempts: 5,
      baseDelayMs: 1000,
      maxDelayMs: 60_000,
      maxTotalMs: 600_000,
      timeoutMs: 10_000,
    });
    for (const [name, value] of Object.entries(defaults)) {
      const [min, max] = ranges[name as keyof typeof defaults];
      expect(value, name).toBeGreaterThanOrEqual(min);
      expect(value, name).toBeLessThanOrEqual(max);
    }
    expect(ranges.baseDelayMs[0]).toBe(minDelayMs);
    expect(jitter).toEqual([0.5, 1]);
    expect(Object.isFrozen(WEBHOOK_DELIVERY_RETRIES)).toBe(true);
    expect(Object.isFrozen(defaults)).toBe(true);
    expect(Object.isFrozen(ranges.attempts)).toBe(true);
  });
});
