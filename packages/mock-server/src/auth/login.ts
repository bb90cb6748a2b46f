/**
 * Login: key pairs in, bearer tokens out (`POST /v2/login`), and the check of a bearer token the
 * authenticate stage makes. Owns the token signer (made once per mock and kept across resets, so
 * earlier tokens stay valid), the tokens' lifetime, and the throttle of failed logins per access
 * key ({@link LoginThrottle}, which `reset()` empties).
 *
 * @module
 */
import { type NumberRange, type OptionGroup, resolveOptionGroup } from '../errors/ranges.js';
import { HttpError, rateLimited } from '../errors.js';
import type { AccountStore } from '../store/store.js';
import { constantTimeEqual, type TokenClaims, type TokenProblem, TokenSigner } from './jwt.js';
import { WindowCounter } from './window-counter.js';

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

/**
 * The default throttle of failed logins: at most 20 failed logins per access key in any 60 seconds
 * of the mock's clock (the next one is refused with 429 and `Retry-After` until the oldest leaves
 * the window), for at most 10,000 access keys at once (while 10,000 keys have failures in their
 * window, a login with any other access key is refused with 429 until one of those windows empties).
 */
export const DEFAULT_LOGIN_THROTTLE = Object.freeze({ maxFailures: 20, windowSeconds: 60, maxKeys: 10_000 });

/** The documented range of each member of the `loginThrottle` option. */
export const LOGIN_THROTTLE_RANGES: Readonly<Record<keyof typeof DEFAULT_LOGIN_THROTTLE, NumberRange>> =
  Object.freeze({
    maxFailures: { min: 1, max: 1_000_000, unit: 'failed logins' },
    windowSeconds: { min: 1, max: 86_400, unit: 'seconds' },
    maxKeys: { min: 1, max: 1_000_000, unit: 'access keys' },
  });

/** The login throttle as a group of options: its ranges and defaults. */
const LOGIN_THROTTLE_GROUP: OptionGroup<keyof typeof DEFAULT_LOGIN_THROTTLE> = {
  ranges: LOGIN_THROTTLE_RANGES,
  defaults: DEFAULT_LOGIN_THROTTLE,
};

/** The `loginThrottle` option of a mock: `false` turns the throttle off; an object changes some of the defaults (20 failures in 60 s, 10,000 keys tracked). */
export type LoginThrottleOption =
  | boolean
  | {
      /** Failed logins allowed per access key in a window (1 to 1,000,000). Default 20. */
      maxFailures?: number;
      /** The window, seconds of the mock's clock (1 to 86,400). Default 60. */
      windowSeconds?: number;
      /**
       * Access keys tracked at once (1 to 1,000,000). A key is forgotten only when its window is
       * empty (or it logs in, or on reset): while this many keys have failures in their window, a
       * login with another access key is refused with 429. Default 10,000.
       */
      maxKeys?: number;
    };

/** A throttle setting, as {@link LoginThrottle} uses it. */
export interface LoginThrottleSetting {
  /** Failed logins allowed per access key in a window. */
  maxFailures: number;
  /** The window, milliseconds. */
  windowMs: number;
  /** Access keys tracked at once. */
  maxKeys: number;
}

/**
 * The throttle setting a `loginThrottle` option names: absent or `true` is
 * {@link DEFAULT_LOGIN_THROTTLE}, `false` is off (`undefined`).
 * @throws RangeError naming the member when a number is not a whole number in its range.
 */
export function toLoginThrottle(
  option: LoginThrottleOption | undefined,
  label = 'MockOptions loginThrottle',
): LoginThrottleSetting | undefined {
  if (option === false) return undefined;
  const { maxFailures, windowSeconds, maxKeys } = resolveOptionGroup(
    LOGIN_THROTTLE_GROUP,
    typeof option === 'object' ? option : undefined,
    label,
  );
  return { maxFailures, windowMs: windowSeconds * 1000, maxKeys };
}

/**
 * Failed logins per access key, on the mock's clock: past `maxFailures` in any window, a login
 * with that access key (whether the key exists or not, so the answer tells nothing about it) is
 * refused with 429 `rate_limited` and `Retry-After` before any key is compared. A successful
 * login forgets the key's failures; a key whose window is empty is forgotten; `reset()` forgets
 * every key. At most `maxKeys` keys are tracked, and a key with failures in its window is never
 * forgotten to make room (that would give it `maxFailures` fresh guesses): while the table is full
 * of such keys, a login with an access key it does not hold is refused with 429 (`Retry-After`:
 * until the earliest of those windows empties). So no sequence of logins, whatever its access keys,
 * gets more than `maxFailures` guesses at one access key in a window; memory stays within
 * `maxKeys` keys of at most 512 characters, each with at most `maxFailures` times.
 */
export class LoginThrottle {
  /** The setting and the failed attempts per access key (`undefined`: off). */
  readonly #on: { readonly setting: LoginThrottleSetting; readonly failures: WindowCounter } | undefined;

  /** Creates a throttle with its setting (`undefined`: off), as {@link toLoginThrottle} gives it. */
  constructor(setting: LoginThrottleSetting | undefined) {
    this.#on = setting && {
      setting: { ...setting },
      failures: new WindowCounter({
        windowMs: setting.windowMs,
        maxKeys: setting.maxKeys,
        whenFull: 'refuse',
      }),
    };
  }

  /** The setting (`undefined`: off). */
  get setting(): LoginThrottleSetting | undefined {
    return this.#on && { ...this.#on.setting };
  }

  /** How many access keys have failures counted now. */
  get trackedKeys(): number {
    return this.#on?.failures.size ?? 0;
  }

  /**
   * Counts a login attempt with `accessKey` at `now` as a failure until {@link succeeded} says
   * otherwise (counted first, so concurrent attempts cannot pass the limit together); throws 429
   * with `Retry-After` when the key already has `maxFailures` in the window, or when it is not
   * tracked and `maxKeys` keys with failures in their window are.
   */
  attempt(accessKey: string, now: number): void {
    if (!this.#on) return;
    const { setting, failures } = this.#on;
    const count = failures.count(accessKey, now, setting.maxFailures);
    if (count.counted) return;
    const seconds = setting.windowMs / 1000;
    const why =
      count.reason === 'limit'
        ? `too many failed logins with this access key (at most ${setting.maxFailures} per ${seconds} s)`
        : `too many access keys with failed logins (${setting.maxKeys} have failures in the last ${seconds} s, the most the mock tracks)`;
    throw rateLimited(
      count.waitMs,
      (retryAfter) => `${why}; retry after ${retryAfter} s (POST /__mock/reset clears the count)`,
    );
  }

  /** The attempt with `accessKey` succeeded: its failures are forgotten. */
  succeeded(accessKey: string): void {
    this.#on?.failures.forget(accessKey);
  }

  /** Forgets every access key. */
  reset(): void {
    this.#on?.failures.clear();
  }
}

/** How many verified tokens {@link Login} remembers (least recently used dropped first). */
export const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

/** Issues and verifies login tokens. */
export class Login {
  readonly #signer: TokenSigner;
  readonly #ttlSeconds: number;
  /**
   * Tokens whose signature was verified, and their claims, least recently used first (at most
   * {@link VERIFIED_TOKEN_CACHE_SIZE}): a token seen again skips the HMAC round trip through
   * WebCrypto; its expiry is still checked against the mock's clock on every use.
   */
  readonly #verified = new Map<string, TokenClaims>();
  /** The token last moved to the end of {@link #verified} (the most recently used one), and its claims. */
  #lastUsed: string | undefined;
  #lastClaims: TokenClaims | undefined;
  /** The throttle of failed logins (a stage of `reset()`: the core resets it, not this class). */
  readonly throttle: LoginThrottle;

  /**
   * Creates the login service with the token signer's secret, the tokens' lifetime (seconds) and
   * the throttle of failed logins (by default a new one with {@link DEFAULT_LOGIN_THROTTLE}).
   */
  constructor(
    secret: string,
    ttlSeconds: number = DEFAULT_TOKEN_TTL_SECONDS,
    throttle: LoginThrottle = new LoginThrottle(toLoginThrottle(true)),
  ) {
    this.#signer = new TokenSigner(secret);
    this.#ttlSeconds = ttlSeconds;
    this.throttle = throttle;
  }

  /**
   * Logs in with a key pair against `accounts`: a token for the matching account, or 401
   * `invalid_credentials` with one message whether the access key is unknown or the secret key
   * wrong. Every account's pair is compared, so the time taken does not tell which key was wrong.
   * Past the throttle's failures for this access key, 429 `rate_limited` with `Retry-After`
   * before anything is compared.
   */
  async login(
    accounts: Iterable<AccountStore>,
    accessKey: string,
    secretKey: string,
    nowMs: number,
    tokenId: () => string,
  ): Promise<LoginAnswer> {
    this.throttle.attempt(accessKey, nowMs);
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
    this.throttle.succeeded(accessKey);
    const iat = Math.floor(nowMs / 1000);
    const exp = iat + this.#ttlSeconds;
    const accessToken = await this.#signer.sign({ sub: match.account.id, iat, exp, jti: tokenId() });
    return { accessToken, expiresAt: exp, tokenType: 'Bearer' };
  }

  /**
   * Verifies a bearer token at `nowMs`: its claims, or why it was refused. A token verified before
   * is taken from a bounded cache (its signature cannot have changed), and its expiry checked at
   * `nowMs` as for a new one.
   */
  async verify(token: string, nowMs: number): Promise<{ claims: TokenClaims } | { problem: TokenProblem }> {
    const nowSeconds = Math.floor(nowMs / 1000);
    const cached = this.#verified.get(token);
    if (cached) {
      this.#used(token, cached);
      return cached.exp <= nowSeconds ? { problem: 'expired' } : { claims: cached };
    }
    // A signature check does not depend on the time: verify at the start of time, then check expiry.
    const result = await this.#signer.verify(token, Number.NEGATIVE_INFINITY);
    if ('problem' in result) return result;
    if (this.#verified.size >= VERIFIED_TOKEN_CACHE_SIZE) {
      // Full, so not empty: the first key is the least recently used token.
      this.#verified.delete(this.#verified.keys().next().value as string);
    }
    // (Another request may have verified it meanwhile: it goes last either way.)
    this.#used(token, result.claims);
    return result.claims.exp <= nowSeconds ? { problem: 'expired' } : result;
  }

  /**
   * The claims of a token verified before and not expired at `nowMs` (from the cache {@link verify}
   * reads, without waiting), or `undefined`: then {@link verify} says what the token is.
   */
  verifiedClaims(token: string, nowMs: number): TokenClaims | undefined {
    // The most recently used token (a client's next request) is last already.
    const last = token === this.#lastUsed;
    const cached = last ? this.#lastClaims : this.#verified.get(token);
    if (cached === undefined || cached.exp <= Math.floor(nowMs / 1000)) return undefined;
    if (!last) this.#used(token, cached);
    return cached;
  }

  /** Puts a verified token last in {@link #verified} (the most recently used). */
  #used(token: string, claims: TokenClaims): void {
    this.#verified.delete(token);
    this.#verified.set(token, claims);
    this.#lastUsed = token;
    this.#lastClaims = claims;
  }

  /** Forgets the verified tokens (on reset and when a state is loaded; the tokens stay valid). */
  forgetVerified(): void {
    this.#verified.clear();
    this.#lastUsed = undefined;
    this.#lastClaims = undefined;
  }
}
