/**
 * Failed logins are throttled per access key on the mock's clock, and the rate limit counts a
 * client by its network address, not by a header it chooses (issue 13, L6).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_THROTTLE, LoginThrottle, toLoginThrottle } from '../src/core/login.js';
import { expectError, refusal, setup } from './helpers.js';

const login = (ctx: Awaited<ReturnType<typeof setup>>, accessKey: string, secretKey: string) =>
  ctx.core.handle({ method: 'POST', path: '/v2/login', body: { accessKey, secretKey } });

describe('the login throttle', () => {
  it('answers 20 failed logins of one access key with 401, then 429 with Retry-After, even for the right secret', async () => {
    const ctx = await setup();
    const { accessKey, secretKey } = ctx.primary;
    const messages = new Set<string>();
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.maxFailures; i++) {
      messages.add(
        expectError(await login(ctx, accessKey, `wrong-${i}`), 401, 'invalid_credentials').message,
      );
      ctx.advance(1000);
    }
    expect(messages.size).toBe(1);
    const refused = await login(ctx, accessKey, secretKey);
    const body = expectError(refused, 429, 'rate_limited');
    // The first failure was 20 s ago: it leaves the 60 s window in 40 s.
    expect(refused.headers['retry-after']).toBe('40');
    expect(body.message).toContain('retry after 40 s');
    expect(JSON.stringify(body)).not.toContain(accessKey);
    // Another access key is not affected.
    expect((await login(ctx, ctx.other.accessKey, ctx.other.secretKey)).status).toBe(200);
    ctx.advance(40_000);
    expect((await login(ctx, accessKey, secretKey)).status).toBe(200);
  });

  it('throttles unknown access keys the same way, with the same 401 message as a wrong secret', async () => {
    const ctx = await setup();
    const unknown = expectError(await login(ctx, 'iacm_ak_nobody', 'x'), 401, 'invalid_credentials');
    const wrongSecret = expectError(await login(ctx, ctx.primary.accessKey, 'x'), 401, 'invalid_credentials');
    expect(unknown.message).toBe(wrongSecret.message);
    for (let i = 1; i < DEFAULT_LOGIN_THROTTLE.maxFailures; i++) await login(ctx, 'iacm_ak_nobody', 'x');
    expectError(await login(ctx, 'iacm_ak_nobody', 'x'), 429, 'rate_limited');
  });

  it('forgets the failures of a key after a successful login', async () => {
    const ctx = await setup();
    const { accessKey, secretKey } = ctx.primary;
    for (let i = 1; i < DEFAULT_LOGIN_THROTTLE.maxFailures; i++) await login(ctx, accessKey, 'wrong');
    expect((await login(ctx, accessKey, secretKey)).status).toBe(200);
    for (let i = 1; i < DEFAULT_LOGIN_THROTTLE.maxFailures; i++)
      expect((await login(ctx, accessKey, 'wrong')).status).toBe(401);
  });

  it('is cleared by reset()', async () => {
    const ctx = await setup();
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.maxFailures; i++)
      await login(ctx, ctx.primary.accessKey, 'wrong');
    expectError(await login(ctx, ctx.primary.accessKey, ctx.primary.secretKey), 429, 'rate_limited');
    ctx.core.control.reset();
    expect((await login(ctx, ctx.primary.accessKey, ctx.primary.secretKey)).status).toBe(200);
  });

  it('takes its setting from the option, refusing numbers out of range by name', () => {
    expect(toLoginThrottle(undefined)).toEqual({ maxFailures: 20, windowMs: 60_000, maxKeys: 10_000 });
    expect(toLoginThrottle(false)).toBeUndefined();
    expect(toLoginThrottle({ maxFailures: 3 })).toEqual({
      maxFailures: 3,
      windowMs: 60_000,
      maxKeys: 10_000,
    });
    expect(() => toLoginThrottle({ windowSeconds: 0 })).toThrow(
      'loginThrottle.windowSeconds expects a whole number from 1 to 86400, received 0',
    );
    const off = new LoginThrottle(undefined);
    for (let i = 0; i < 100; i++) off.attempt('k', 0);
    expect(off.trackedKeys).toBe(0);
  });

  it('forgets a key whose window is empty, and tracks at most `maxKeys` keys', () => {
    const throttle = new LoginThrottle({ maxFailures: 2, windowMs: 1000, maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) throttle.attempt(key, 0);
    expect(throttle.trackedKeys).toBe(3);
    throttle.attempt('d', 1);
    expect(refusal(() => throttle.attempt('d', 2)).status).toBe(429);
    // At 1000 the windows of `b` and `c` (a failure at 0) are empty: both are forgotten (`a` was, for `d`).
    throttle.attempt('e', 1000);
    expect(throttle.trackedKeys).toBe(2);
    throttle.reset();
    expect(throttle.trackedKeys).toBe(0);
    expect(() => throttle.attempt('e', 1000)).not.toThrow();
  });
});

describe('the rate limit', () => {
  it('counts requests by network address: a changing X-Forwarded-For does not escape it', async () => {
    const ctx = await setup({ rateLimit: { limit: 3, windowSeconds: 60 } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await ctx.core.handle({
        method: 'GET',
        path: '/v2/health',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
        clientAddress: '192.0.2.1',
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([204, 204, 204, 429, 429, 429]);
    const other = await ctx.core.handle({ method: 'GET', path: '/v2/health', clientAddress: '192.0.2.2' });
    expect(other.status).toBe(204);
  });
});
