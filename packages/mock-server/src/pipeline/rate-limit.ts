/**
 * The rate-limit stage: at most `limit` requests per client address in any window; its setting
 * (off by default) and its per-client counters live here.
 *
 * @module
 */
import { SERVICE_RATE_LIMIT } from '@iacm/sdk/contract';
import { type MockRequest, readHeader } from '../core/http.js';
import { HttpError } from '../errors.js';

/** A rate limit: at most `limit` requests per client address in any `windowMs`. */
export interface RateLimit {
  /** Requests allowed per window. */
  limit: number;
  /** The window, milliseconds. */
  windowMs: number;
}

export { SERVICE_RATE_LIMIT };

/** The rate limit an option or `setRateLimit` names: `true` is {@link SERVICE_RATE_LIMIT}, `false` off. */
export function toRateLimit(
  option: boolean | { limit: number; windowSeconds: number } | undefined,
): RateLimit | undefined {
  if (!option) return undefined;
  const { limit, windowSeconds } = option === true ? SERVICE_RATE_LIMIT : option;
  return { limit, windowMs: windowSeconds * 1000 };
}

/** The client a request counts against: the first `X-Forwarded-For` address, else `local`. */
export function clientOf(request: MockRequest): string {
  return readHeader(request.headers, 'x-forwarded-for')?.split(',')[0]?.trim() || 'local';
}

/** The rate limit per client address: its setting and the counters of recent requests. */
export class RateLimiter {
  readonly #start: RateLimit | undefined;
  #setting: RateLimit | undefined;
  readonly #hits = new Map<string, number[]>();

  /** Creates a limiter with its start setting (`undefined`: off). */
  constructor(start: RateLimit | undefined) {
    this.#start = start && { ...start };
    this.#setting = start && { ...start };
  }

  /** The current setting (`undefined`: off). */
  get setting(): RateLimit | undefined {
    return this.#setting && { ...this.#setting };
  }

  /** Changes the setting and empties the counters. */
  set(setting: RateLimit | undefined): void {
    this.#setting = setting && { ...setting };
    this.#hits.clear();
  }

  /** Counts a request of `client` at `now`; throws 429 with `Retry-After` when it is over the limit. */
  check(client: string, now: number): void {
    const limit = this.#setting;
    if (!limit) return;
    const hits = (this.#hits.get(client) ?? []).filter((t) => t > now - limit.windowMs);
    if (hits.length >= limit.limit) {
      const retryAfter = Math.max(1, Math.ceil(((hits[0] as number) + limit.windowMs - now) / 1000));
      this.#hits.set(client, hits);
      throw new HttpError(
        429,
        'rate_limited',
        `rate limit of ${limit.limit} requests per ${limit.windowMs / 1000} s exceeded; retry after ${retryAfter} s`,
        { headers: { 'retry-after': String(retryAfter) } },
      );
    }
    hits.push(now);
    this.#hits.set(client, hits);
  }

  /** Back to the start setting, with empty counters. */
  reset(): void {
    this.set(this.#start);
  }
}
