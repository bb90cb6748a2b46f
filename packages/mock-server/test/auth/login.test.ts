/**
 * Login's own rules, below the HTTP route (issue 20, finding 12: the mutation run over auth/login.ts):
 * the throttle's setting and its ranges, a throttle that is off, the message of a failed login, and
 * which tokens the verified-token cache answers (seen through the signature checks it spares).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenSigner } from '../../src/auth/jwt.js';
import {
  DEFAULT_LOGIN_THROTTLE,
  Login,
  LoginThrottle,
  toLoginThrottle,
  VERIFIED_TOKEN_CACHE_SIZE,
} from '../../src/auth/login.js';
import { HttpError } from '../../src/errors.js';

const SECRET = 'k'.repeat(32);
const T0 = Date.UTC(2026, 0, 15, 12);
const SECONDS = T0 / 1000;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('toLoginThrottle', () => {
  it('is the default for true and absent, off for false, and takes each member alone', () => {
    const defaults = { maxFailures: 20, windowMs: 60_000, maxKeys: 10_000 };
    expect(toLoginThrottle(true)).toEqual(defaults);
    expect(toLoginThrottle(undefined)).toEqual(defaults);
    expect(toLoginThrottle({})).toEqual(defaults);
    expect(toLoginThrottle(false)).toBeUndefined();
    expect(toLoginThrottle({ windowSeconds: 5 })).toEqual({ ...defaults, windowMs: 5000 });
    expect(toLoginThrottle({ maxKeys: 7 })).toEqual({ ...defaults, maxKeys: 7 });
  });

  it('takes each range from 1 to its maximum, and refuses one past either end, naming the member', () => {
    for (const [name, max, unit] of [
      ['maxFailures', 1_000_000, 'failed logins'],
      ['windowSeconds', 86_400, 'seconds'],
      ['maxKeys', 1_000_000, 'access keys'],
    ] as const) {
      expect(() => toLoginThrottle({ [name]: 1 })).not.toThrow();
      expect(() => toLoginThrottle({ [name]: max })).not.toThrow();
      for (const value of [0, max + 1, 1.5, -1]) {
        expect(() => toLoginThrottle({ [name]: value }), `${name} ${value}`).toThrow(
          new RangeError(
            `MockOptions loginThrottle.${name}: expected an integer from 1 to ${max} (${unit}), received ${value}`,
          ),
        );
      }
    }
  });
});

describe('LoginThrottle', () => {
  it('shows a copy of its setting, unchanged by the object it was given', () => {
    const given = { maxFailures: 2, windowMs: 1000, maxKeys: 3 };
    const throttle = new LoginThrottle(given);
    given.maxFailures = 100;
    expect(throttle.setting).toEqual({ maxFailures: 2, windowMs: 1000, maxKeys: 3 });
    const shown = throttle.setting as { maxFailures: number };
    shown.maxFailures = 50;
    expect(throttle.setting?.maxFailures).toBe(2);
    throttle.attempt('k', 0);
    throttle.attempt('k', 1);
    expect(() => throttle.attempt('k', 2)).toThrow(HttpError);
  });

  it('when off, counts nothing, and forgetting is a no-op', () => {
    const off = new LoginThrottle(undefined);
    expect(off.setting).toBeUndefined();
    for (let i = 0; i < 100; i++) off.attempt('k', 0);
    expect(() => off.succeeded('k')).not.toThrow();
    expect(() => off.reset()).not.toThrow();
    expect(off.trackedKeys).toBe(0);
  });

  it('forgets a key that logged in, and only that key', () => {
    const throttle = new LoginThrottle({ maxFailures: 1, windowMs: 1000, maxKeys: 10 });
    throttle.attempt('a', 0);
    throttle.attempt('b', 0);
    throttle.succeeded('a');
    expect(throttle.trackedKeys).toBe(1);
    expect(() => throttle.attempt('a', 1)).not.toThrow();
    expect(() => throttle.attempt('b', 1)).toThrow(HttpError);
  });
});

describe('Login', () => {
  it('throttles failed logins by default, with the default setting', () => {
    expect(new Login(SECRET).throttle.setting).toEqual(toLoginThrottle(true));
    expect(DEFAULT_LOGIN_THROTTLE).toEqual({ maxFailures: 20, windowSeconds: 60, maxKeys: 10_000 });
  });

  it('refuses a key pair that matches no account with 401 invalid_credentials', async () => {
    const login = new Login(SECRET);
    const refused = await login.login([], 'ak', 'sk', T0, () => 'id').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({
      status: 401,
      code: 'invalid_credentials',
      message: 'the access key and secret key do not match any account',
    });
  });
});

describe('the verified-token cache', () => {
  const signer = new TokenSigner(SECRET);
  const token = (jti: string, exp = SECONDS + 3600) => signer.sign({ sub: 'acct', iat: SECONDS, exp, jti });

  it('checks a token’s signature once, then answers from the cache until it is forgotten', async () => {
    const login = new Login(SECRET);
    const verify = vi.spyOn(TokenSigner.prototype, 'verify');
    const t = await token('a');
    expect(await login.verify(t, T0)).toMatchObject({ claims: { jti: 'a' } });
    expect(await login.verify(t, T0 + 1000)).toMatchObject({ claims: { jti: 'a' } });
    expect(verify).toHaveBeenCalledTimes(1);
    login.forgetVerified();
    expect(await login.verify(t, T0)).toMatchObject({ claims: { jti: 'a' } });
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('expires a token at its `exp` second, on its first check and from the cache', async () => {
    const login = new Login(SECRET);
    const exp = SECONDS + 60;
    const fresh = await token('fresh', exp);
    expect(await login.verify(fresh, (exp - 1) * 1000)).toMatchObject({ claims: { jti: 'fresh' } });
    expect(await login.verify(fresh, exp * 1000)).toEqual({ problem: 'expired' });
    const late = await token('late', exp);
    expect(await login.verify(late, exp * 1000)).toEqual({ problem: 'expired' });
    expect(await login.verify(late, exp * 1000 - 1)).toMatchObject({ claims: { jti: 'late' } });
  });

  it(`keeps the ${VERIFIED_TOKEN_CACHE_SIZE} most recently used tokens: the least recent is checked again`, async () => {
    const login = new Login(SECRET);
    const tokens = await Promise.all(
      Array.from({ length: VERIFIED_TOKEN_CACHE_SIZE + 1 }, (_, i) => token(`t${i}`)),
    );
    const first = tokens[0] as string;
    const second = tokens[1] as string;
    await login.verify(first, T0);
    await login.verify(second, T0);
    // `first` used again: now `second` is the least recent.
    await login.verify(first, T0);
    for (const t of tokens.slice(2, VERIFIED_TOKEN_CACHE_SIZE)) await login.verify(t, T0);
    const verify = vi.spyOn(TokenSigner.prototype, 'verify');
    // The cache is full: all of them are answered from it.
    await login.verify(first, T0);
    await login.verify(second, T0);
    await login.verify(tokens[VERIFIED_TOKEN_CACHE_SIZE - 1] as string, T0);
    expect(verify).toHaveBeenCalledTimes(0);
    // One more: the least recent (`tokens[2]`, as `first` and `second` were just used) makes way.
    await login.verify(tokens[VERIFIED_TOKEN_CACHE_SIZE] as string, T0);
    expect(verify).toHaveBeenCalledTimes(1);
    await login.verify(tokens[3] as string, T0);
    expect(verify).toHaveBeenCalledTimes(1);
    await login.verify(tokens[2] as string, T0);
    expect(verify).toHaveBeenCalledTimes(2);
  }, 60_000);
});
