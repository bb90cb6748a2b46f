/**
 * When the SDK logs in again: the token's life is judged by the service's own clock where the token
 * tells it (a JWT's `iat`), so a service whose clock differs from this machine's (a mock set in the
 * past, a skewed host) does not make every call log in first.
 */
import { describe, expect, it, vi } from 'vitest';
import { issuedAt, REFRESH_MARGIN_SECONDS, TokenManager, tokenLife } from '../src/core/auth.js';

const KEYS = { accessKey: 'ak', secretKey: 'sk' };

/** A JWT-shaped token with these claims (unsigned: the SDK never verifies it). */
function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.c2ln`;
}

/** A token manager whose logins answer what `answer` makes, and a clock the test moves. */
function manager(answer: (n: number) => { accessToken: string; expiresAt: number }) {
  let now = Date.UTC(2026, 11, 2);
  const login = vi.fn(async () => ({ ...answer(login.mock.calls.length - 1), tokenType: 'Bearer' }));
  const tokens = new TokenManager(KEYS, login, () => now);
  return {
    tokens,
    login,
    move: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

describe('the token life', () => {
  it("reads a JWT's iat, and nothing from an opaque, malformed or huge token", () => {
    expect(issuedAt(jwt({ iat: 1767225600, exp: 1767229200 }))).toBe(1767225600);
    expect(issuedAt('opaque-token')).toBeUndefined();
    expect(issuedAt('a.b.c')).toBeUndefined(); // "b" is no JSON
    expect(issuedAt(jwt({ iat: '1767225600' }))).toBeUndefined();
    expect(issuedAt(`${jwt({ iat: 1 })}${'x'.repeat(9000)}`)).toBeUndefined();
    expect(issuedAt('a.b+/.c')).toBeUndefined();
  });

  it("is expiresAt less iat (the service's clock), else expiresAt less this machine's now", () => {
    const past = Date.UTC(2026, 0, 1) / 1000;
    expect(
      tokenLife({ accessToken: jwt({ iat: past, exp: past + 3600 }), expiresAt: past + 3600 }, past + 9e6),
    ).toBe(3600);
    expect(tokenLife({ accessToken: 'opaque', expiresAt: 5000 }, 1400)).toBe(3600);
    // An iat after expiresAt is not believed.
    expect(tokenLife({ accessToken: jwt({ iat: 9000 }), expiresAt: 5000 }, 1400)).toBe(3600);
  });
});

describe('TokenManager', () => {
  it("logs in once for many calls when the service's clock is months behind, and again 10 minutes before the token's hour ends", async () => {
    const past = Date.UTC(2026, 0, 1) / 1000; // the mock's clock: 11 months before this machine's
    const { tokens, login, move } = manager((n) => ({
      accessToken: jwt({ iat: past, exp: past + 3600, n }),
      expiresAt: past + 3600,
    }));
    for (let i = 0; i < 6; i += 1) await tokens.token();
    expect(login).toHaveBeenCalledTimes(1);
    move((3600 - REFRESH_MARGIN_SECONDS - 1) * 1000);
    await tokens.token();
    expect(login).toHaveBeenCalledTimes(1);
    move(2000);
    await tokens.token();
    expect(login).toHaveBeenCalledTimes(2);
  });

  it('keeps an opaque token that looks expired on arrival until the service refuses it', async () => {
    const { tokens, login, move, now } = manager((n) => ({
      accessToken: `opaque-${n}`,
      expiresAt: Math.floor(now() / 1000) - 86_400, // a day "ago" by this machine's clock
    }));
    expect(await tokens.token()).toBe('opaque-0');
    move(7 * 86_400_000);
    expect(await tokens.token()).toBe('opaque-0');
    expect(login).toHaveBeenCalledTimes(1);
    tokens.invalidate('opaque-0'); // what a 401 does
    expect(await tokens.token()).toBe('opaque-1');
  });

  it('refreshes a short-lived token half-way through its life', async () => {
    const { tokens, login, move, now } = manager(() => ({
      accessToken: 'short',
      expiresAt: Math.floor(now() / 1000) + 60,
    }));
    await tokens.token();
    move(29_000);
    await tokens.token();
    expect(login).toHaveBeenCalledTimes(1);
    move(2000);
    await tokens.token();
    expect(login).toHaveBeenCalledTimes(2);
  });
});
