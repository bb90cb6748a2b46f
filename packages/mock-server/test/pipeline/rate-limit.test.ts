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

  it('counts a request against the first X-Forwarded-For address, else `local`', () => {
    expect(
      clientOf({ method: 'GET', path: '/', headers: { 'x-forwarded-for': ' 10.0.0.1 , 10.0.0.2' } }),
    ).toBe('10.0.0.1');
    expect(clientOf({ method: 'GET', path: '/' })).toBe('local');
  });
});
