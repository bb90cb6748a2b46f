import { describe, expect, it } from 'vitest';
import { clientOf, RateLimiter, toRateLimit } from '../../src/pipeline/rate-limit.js';
import { refusal } from '../helpers.js';

describe('rate-limit stage', () => {
  it("names the service's 500 per 60 s for `true`, nothing for `false`", () => {
    expect(toRateLimit(true)).toEqual({ limit: 500, windowMs: 60_000 });
    expect(toRateLimit(false)).toBeUndefined();
    expect(toRateLimit({ limit: 2, windowSeconds: 3 })).toEqual({ limit: 2, windowMs: 3000 });
  });

  it('allows `limit` requests per client in a sliding window, then 429 with Retry-After', () => {
    const limiter = new RateLimiter({ limit: 2, windowMs: 10_000 });
    limiter.check('a', 0);
    limiter.check('a', 4000);
    limiter.check('b', 4000);
    const refused = refusal(() => limiter.check('a', 5000));
    expect(refused?.status).toBe(429);
    expect(refused?.code).toBe('rate_limited');
    expect(refused?.headers['retry-after']).toBe('5');
    expect(() => limiter.check('a', 10_001)).not.toThrow();
  });

  it('is off without a setting; set() changes it and empties the counters; reset() restores the start', () => {
    const limiter = new RateLimiter(undefined);
    for (let i = 0; i < 1000; i++) limiter.check('a', 0);
    limiter.set({ limit: 1, windowMs: 1000 });
    limiter.check('a', 0);
    expect(refusal(() => limiter.check('a', 1)).status).toBe(429);
    limiter.reset();
    expect(limiter.setting).toBeUndefined();
    expect(() => limiter.check('a', 2)).not.toThrow();
  });

  it('counts a request against its network address, ignoring X-Forwarded-For unless told to trust a proxy', () => {
    const request = {
      method: 'GET',
      path: '/',
      clientAddress: '192.0.2.7',
      headers: { 'x-forwarded-for': ' 10.0.0.1 , 10.0.0.2' },
    };
    expect(clientOf(request)).toBe('192.0.2.7');
    expect(clientOf({ method: 'GET', path: '/', headers: request.headers })).toBe('local');
    // Behind one proxy, the client is the address that proxy appended (the last entry); behind two, the one before.
    expect(clientOf(request, true)).toBe('10.0.0.2');
    expect(clientOf(request, 2)).toBe('10.0.0.1');
    expect(clientOf(request, 5)).toBe('10.0.0.1');
    expect(clientOf({ ...request, headers: {} }, true)).toBe('192.0.2.7');
  });

  it('forgets a client once its window is empty', () => {
    const limiter = new RateLimiter({ limit: 5, windowMs: 1000 });
    for (let i = 0; i < 100; i++) limiter.check(`10.0.0.${i}`, 0);
    expect(limiter.trackedClients).toBe(100);
    limiter.check('late', 1000);
    expect(limiter.trackedClients).toBe(1);
  });

  it('tracks at most `maxClients`, forgetting the least recent first', () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 60_000 }, { maxClients: 3 });
    for (const client of ['a', 'b', 'c', 'd']) limiter.check(client, 0);
    expect(limiter.trackedClients).toBe(3);
    // `a` was forgotten to make room for `d`: its counter starts again; `d` is still counted.
    expect(() => limiter.check('a', 1)).not.toThrow();
    expect(refusal(() => limiter.check('d', 1)).status).toBe(429);
    expect(limiter.trackedClients).toBe(3);
  });
});
