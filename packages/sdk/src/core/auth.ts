import type { LoginResponse } from '../contract/auth.js';
import { IacmError } from './errors.js';
import type { AuthOption } from './options.js';

/** Refresh a cached token when this little of its life is left (the public record's clients use 10 minutes). */
export const REFRESH_MARGIN_SECONDS = 600;

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
          const nowSeconds = this.#now() / 1000;
          const life = answer.expiresAt - nowSeconds;
          // Refresh 10 minutes before expiry; for short-lived tokens, half-way through their life.
          const margin = Math.min(REFRESH_MARGIN_SECONDS, Math.max(0, life / 2));
          this.#cached = { token: answer.accessToken, refreshAt: (answer.expiresAt - margin) * 1000 };
          return answer.accessToken;
        })
        .finally(() => {
          this.#pending = undefined;
        });
    }
    return this.#pending;
  }
}
