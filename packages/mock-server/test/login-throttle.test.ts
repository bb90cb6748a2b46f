/**
 * Failed logins are throttled per access key on the mock's clock, and the rate limit counts a
 * client by its network address, not by a header it chooses (issue 13, L6).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_THROTTLE, LoginThrottle, toLoginThrottle } from '../src/auth/login.js';
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
    await ctx.core.control.reset();
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
      'MockOptions loginThrottle.windowSeconds: expected an integer from 1 to 86400 (seconds), received 0',
    );
    const off = new LoginThrottle(undefined);
    for (let i = 0; i < 100; i++) off.attempt('k', 0);
    expect(off.trackedKeys).toBe(0);
  });

  it('forgets a key whose window is empty, and tracks at most `maxKeys` keys, refusing new keys while all have failures', () => {
    const throttle = new LoginThrottle({ maxFailures: 2, windowMs: 1000, maxKeys: 3 });
    for (const key of ['a', 'b', 'c']) throttle.attempt(key, 0);
    expect(throttle.trackedKeys).toBe(3);
    // The table is full of keys with failures in their window: a new key is refused, none forgotten.
    const full = refusal(() => throttle.attempt('d', 1));
    expect([full.status, full.code]).toEqual([429, 'rate_limited']);
    expect(full.message).toBe(
      'too many access keys with failed logins (3 have failures in the last 1 s, the most the mock ' +
        'tracks); retry after 1 s (POST /__mock/reset clears the count)',
    );
    expect(full.headers).toEqual({ 'retry-after': '1' });
    expect(throttle.trackedKeys).toBe(3);
    // A tracked key still counts; at its limit it is refused for its own failures.
    throttle.attempt('a', 1);
    const limit = refusal(() => throttle.attempt('a', 2));
    expect(limit.message).toBe(
      'too many failed logins with this access key (at most 2 per 1 s); retry after 1 s ' +
        '(POST /__mock/reset clears the count)',
    );
    // At 1000 the windows of `b` and `c` (a failure at 0) are empty: both are forgotten.
    throttle.attempt('d', 1000);
    expect(throttle.trackedKeys).toBe(2);
    throttle.attempt('e', 1000);
    expect(throttle.trackedKeys).toBe(3);
    // The earliest window is of `a`, whose latest failure was at 1: at 1000 it holds it 1 ms more, and
    // at 1001 it is empty: `a` is forgotten to make room, the others stay.
    expect(refusal(() => throttle.attempt('f', 1000)).headers).toEqual({ 'retry-after': '1' });
    throttle.attempt('f', 1001);
    expect(throttle.trackedKeys).toBe(3);
    throttle.attempt('d', 1001);
    expect(refusal(() => throttle.attempt('d', 1001)).status).toBe(429);
    throttle.reset();
    expect(throttle.trackedKeys).toBe(0);
    expect(() => throttle.attempt('g', 2001)).not.toThrow();
  });

  it('gives one access key at most `maxFailures` guesses per window, whatever other keys are tried (10,000 junk keys)', async () => {
    const ctx = await setup({ journalLimit: 1 });
    const { maxFailures, windowSeconds, maxKeys } = DEFAULT_LOGIN_THROTTLE;
    const windowMs = windowSeconds * 1000;
    const victim = ctx.primary.accessKey;
    const start = ctx.now();
    /** When each guess at the victim's key was answered 401 (compared), ms after the start. */
    const guesses: number[] = [];
    const guess = async (secretKey = 'a-guess') => {
      const res = await login(ctx, victim, secretKey);
      if (res.status === 401) guesses.push(ctx.now() - start);
      else expectError(res, 429, 'rate_limited');
      return res;
    };
    // The attacker spends the victim's guesses, one a second.
    for (let i = 0; i < maxFailures; i++) {
      expect((await guess()).status).toBe(401);
      ctx.advance(1000);
    }
    expect((await guess()).status).toBe(429);
    // Then fills the throttle's table with junk access keys, one a millisecond (10 s).
    const statuses = new Map<number, number>();
    for (let i = 0; i < maxKeys; i++) {
      const res = await login(ctx, `iacm_ak_junk_${i}`, 'x');
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      ctx.advance(1);
    }
    // The victim's key was not pushed out: still throttled, even with the right secret key.
    const refused = expectError(await guess(ctx.primary.secretKey), 429, 'rate_limited');
    expect(refused.message).toContain('too many failed logins with this access key');
    // It holds one place: 9,999 junk keys were counted, the 10,000th was refused.
    expect(Object.fromEntries(statuses)).toEqual({ 401: maxKeys - 1, 429: 1 });
    // A key the table does not hold is refused until the earliest window empties (the victim's, whose
    // latest failure was at 19 s: it leaves the window at 79 s; now is 30 s).
    const other = await login(ctx, ctx.other.accessKey, ctx.other.secretKey);
    expect(expectError(other, 429, 'rate_limited').message).toBe(
      `too many access keys with failed logins (${maxKeys} have failures in the last ${windowSeconds} s, ` +
        'the most the mock tracks); retry after 49 s (POST /__mock/reset clears the count)',
    );
    expect(other.headers['retry-after']).toBe('49');
    // Keep trying, a guess and a new junk key every 100 ms, for three windows.
    for (let t = ctx.now() - start; t < 3 * windowMs; t += 100) {
      ctx.advance(100);
      await guess();
      await login(ctx, `iacm_ak_more_junk_${t}`, 'x');
    }
    // In every window, at most `maxFailures` guesses were compared (and guessing went on each window).
    for (const at of guesses) {
      expect(guesses.filter((t) => t >= at && t < at + windowMs).length).toBeLessThanOrEqual(maxFailures);
    }
    expect(guesses.length).toBeGreaterThanOrEqual(3 * maxFailures);
    expect(guesses.length).toBeLessThanOrEqual(4 * maxFailures);
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
