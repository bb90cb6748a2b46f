/**
 * Login: key pairs in, bearer tokens out (`POST /v2/login`), and the check of a bearer token the
 * authenticate stage makes. Owns the token signer (made once per mock and kept across resets, so
 * earlier tokens stay valid) and the tokens' lifetime.
 *
 * @module
 */
import { HttpError } from '../errors.js';
import type { AccountStore } from '../store/store.js';
import { constantTimeEqual, type TokenClaims, type TokenProblem, TokenSigner } from './jwt.js';

/** A login token's lifetime by default, seconds. */
export const DEFAULT_TOKEN_TTL_SECONDS = 3600;

/** The body `POST /v2/login` answers. */
export interface LoginAnswer {
  /** The bearer token. */
  accessToken: string;
  /** When it expires, epoch seconds. */
  expiresAt: number;
  /** Always `Bearer`. */
  tokenType: 'Bearer';
}

/** Issues and verifies login tokens. */
export class Login {
  readonly #signer: TokenSigner;
  readonly #ttlSeconds: number;

  /** Creates the login service with the token signer's secret and the tokens' lifetime (seconds). */
  constructor(secret: string, ttlSeconds: number = DEFAULT_TOKEN_TTL_SECONDS) {
    this.#signer = new TokenSigner(secret);
    this.#ttlSeconds = ttlSeconds;
  }

  /**
   * Logs in with a key pair against `accounts`: a token for the matching account, or 401
   * `invalid_credentials`. Every account's pair is compared, so the time taken does not tell which
   * key was wrong.
   */
  async login(
    accounts: Iterable<AccountStore>,
    accessKey: string,
    secretKey: string,
    nowMs: number,
    tokenId: () => string,
  ): Promise<LoginAnswer> {
    let match: AccountStore | undefined;
    for (const account of accounts) {
      const [a, s] = await Promise.all([
        constantTimeEqual(accessKey, account.account.accessKey),
        constantTimeEqual(secretKey, account.account.secretKey),
      ]);
      if (a && s) match = account;
    }
    if (!match)
      throw new HttpError(
        401,
        'invalid_credentials',
        'the access key and secret key do not match any account',
      );
    const iat = Math.floor(nowMs / 1000);
    const exp = iat + this.#ttlSeconds;
    const accessToken = await this.#signer.sign({ sub: match.account.id, iat, exp, jti: tokenId() });
    return { accessToken, expiresAt: exp, tokenType: 'Bearer' };
  }

  /** Verifies a bearer token at `nowMs`: its claims, or why it was refused. */
  verify(token: string, nowMs: number): Promise<{ claims: TokenClaims } | { problem: TokenProblem }> {
    return this.#signer.verify(token, Math.floor(nowMs / 1000));
  }
}
