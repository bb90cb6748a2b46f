import type { LoginResponse } from '../contract/auth.js';
import { IacmError } from './errors.js';
import type { AuthOption } from './options.js';

/** Refresh a cached token when this little of its life is left (the public record's clients use 10 minutes). */
export const REFRESH_MARGIN_SECONDS = 600;

/** The longest access token {@link issuedAt} reads (a JWT's claims are a few hundred characters). */
const MAX_READ_TOKEN = 8192;

/**
 * The `iat` claim (issued at, epoch seconds) of an access token that is a JSON Web Token, or
 * `undefined` for any other token (opaque, malformed, too long, no numeric `iat`). Read only to time
 * the refresh; the token is never verified or changed here.
 */
export function issuedAt(token: string): number | undefined {
  if (token.length > MAX_READ_TOKEN) return undefined;
  const parts = token.split('.');
  const payload = parts[1];
  if (parts.length !== 3 || payload === undefined || !/^[A-Za-z0-9_-]+$/.test(payload)) return undefined;
  try {
    const text = atob(
      payload.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (payload.length % 4)) % 4),
    );
    const iat = (JSON.parse(text) as { iat?: unknown } | null)?.iat;
    return typeof iat === 'number' && Number.isFinite(iat) ? iat : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How long a token just received lives, seconds, judged by the service's own clock where the answer
 * tells it: `expiresAt` less the token's `iat` when it is a JWT that has one (both stamped by the
 * service), else `expiresAt` less `nowSeconds` (this machine's clock). The two clocks may disagree:
 * a mock whose clock is set in the past (`clock: () => Date.UTC(2026, 0, 1)`), a skewed host. Judged
 * by this machine's clock alone, such a token would look expired on arrival, and every call would
 * log in first.
 */
export function tokenLife(
  answer: Pick<LoginResponse, 'accessToken' | 'expiresAt'>,
  nowSeconds: number,
): number {
  const iat = issuedAt(answer.accessToken);
  return iat !== undefined && iat <= answer.expiresAt
    ? answer.expiresAt - iat
    : answer.expiresAt - nowSeconds;
}

/** Gets bearer tokens for requests, as the `auth` option says. */
export class TokenManager {
  readonly #auth: AuthOption | undefined;
  readonly #login: (accessKey: string, secretKey: string, signal?: AbortSignal) => Promise<LoginResponse>;
  readonly #now: () => number;
  #cached: { token: string; refreshAt: number } | undefined;
  #pending: Promise<string> | undefined;

  /**
   * @param auth the `auth` option.
   * @param login logs in with a key pair (the client's `POST /v2/login`).
   * @param now the clock, epoch milliseconds.
   */
  constructor(
    auth: AuthOption | undefined,
    login: (accessKey: string, secretKey: string, signal?: AbortSignal) => Promise<LoginResponse>,
    now: () => number = Date.now,
  ) {
    this.#auth = auth;
    this.#login = login;
    this.#now = now;
  }

  /** Whether a 401 may be cured by getting a token again (a key pair or a token function). */
  get canRenew(): boolean {
    return typeof this.#auth === 'function' || (typeof this.#auth === 'object' && 'accessKey' in this.#auth);
  }

  /** Forgets the cached token, so the next call logs in again. */
  invalidate(token?: string): void {
    if (token === undefined || this.#cached?.token === token) this.#cached = undefined;
  }

  /**
   * The token for the next request. With a key pair: the cached token while it has more than the
   * refresh margin left; otherwise one login shared by every concurrent caller.
   */
  async token(signal?: AbortSignal): Promise<string> {
    const auth = this.#auth;
    if (auth === undefined) {
      throw new IacmError(
        'no credentials: pass the auth option ({ token } or { accessKey, secretKey }) or set IACM_TOKEN, or IACM_ACCESS_KEY and IACM_SECRET_KEY',
      );
    }
    if (typeof auth === 'function') {
      const token = await auth();
      if (typeof token !== 'string' || token === '')
        throw new IacmError('the auth function returned no token (expected a non-empty string)');
      return token;
    }
    if ('token' in auth) return auth.token;
    if (this.#cached && this.#now() < this.#cached.refreshAt) return this.#cached.token;
    if (!this.#pending) {
      this.#pending = this.#login(auth.accessKey, auth.secretKey, signal)
        .then((answer) => {
          const now = this.#now();
          const life = tokenLife(answer, now / 1000);
          // Refresh 10 minutes before expiry; for short-lived tokens, half-way through their life. A
          // life that cannot be known is used until the service refuses the token (401: one login again).
          const margin = Math.min(REFRESH_MARGIN_SECONDS, Math.max(0, life / 2));
          const refreshAt = life > 0 ? now + (life - margin) * 1000 : Number.POSITIVE_INFINITY;
          this.#cached = { token: answer.accessToken, refreshAt };
          return answer.accessToken;
        })
        .finally(() => {
          this.#pending = undefined;
        });
    }
    return this.#pending;
  }
}
