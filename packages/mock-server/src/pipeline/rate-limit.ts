/**
 * The rate-limit stage: at most `limit` requests per client in any window; its setting (off by
 * default) and its per-client counters live here. A client is the request's network address (the
 * socket's, as the node:http adapter gives it; `local` in-process); forwarding headers count only
 * when the mock is told it runs behind a proxy it trusts (`trustProxy`). The counters are bounded:
 * a client whose window is empty is forgotten, and at most {@link DEFAULT_MAX_RATE_LIMIT_CLIENTS}
 * clients are tracked.
 *
 * @module
 */
import { readHeader, SERVICE_RATE_LIMIT } from '@iacm/sdk/contract';
import { WindowCounter } from '../auth/window-counter.js';
import { type NumberRange, type OptionGroup, resolveOptionGroup } from '../errors/ranges.js';
import { rateLimited } from '../errors.js';
import type { MockRequest } from '../http/message.js';

/** A rate limit: at most `limit` requests per client address in any `windowMs`. */
export interface RateLimit {
  /** Requests allowed per window. */
  limit: number;
  /** The window, milliseconds. */
  windowMs: number;
}

export { SERVICE_RATE_LIMIT };

/**
 * How many clients the rate limiter tracks at most by default. Clients whose window is empty are
 * forgotten (once a window); a new client beyond the maximum makes the limiter forget the client
 * whose latest counted request is the oldest (whose counter starts again).
 */
export const DEFAULT_MAX_RATE_LIMIT_CLIENTS = 10_000;

/**
 * The documented range of each member of a custom rate limit: `limit` 1 to 1,000,000 requests,
 * `windowSeconds` 1 to 86,400 (a day).
 */
export const RATE_LIMIT_RANGES: Readonly<Record<'limit' | 'windowSeconds', NumberRange>> = Object.freeze({
  limit: { min: 1, max: 1_000_000, unit: 'requests' },
  windowSeconds: { min: 1, max: 86_400, unit: 'seconds' },
});

/** The rate limit as a group of options: its ranges, and the service's limit as the defaults. */
const RATE_LIMIT_GROUP: OptionGroup<'limit' | 'windowSeconds'> = {
  ranges: RATE_LIMIT_RANGES,
  defaults: SERVICE_RATE_LIMIT,
};

/**
 * The rate limit an option or `setRateLimit` names: `true` is {@link SERVICE_RATE_LIMIT}, `false`
 * (or nothing) off, an object a custom limit within {@link RATE_LIMIT_RANGES} (a member it lacks
 * takes the service's value).
 * @param label names the option in errors (`MockOptions rateLimit`).
 * @throws RangeError naming the member, its range and what came.
 */
export function toRateLimit(
  option: boolean | { limit: number; windowSeconds: number } | undefined,
  label = 'MockOptions rateLimit',
): RateLimit | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return toRateLimit(SERVICE_RATE_LIMIT, label);
  return rateLimitOf(resolveOptionGroup(RATE_LIMIT_GROUP, option, label));
}

/** A checked custom limit (each member within {@link RATE_LIMIT_RANGES}) as the limiter takes it. */
export function rateLimitOf(checked: { limit: number; windowSeconds: number }): RateLimit {
  return { limit: checked.limit, windowMs: checked.windowSeconds * 1000 };
}

/**
 * Which proxies in front of the mock are trusted to say who the client is (the `trustProxy` option):
 * `false` (the default) none, the client is the network address; `true` one; a number that many.
 */
export type TrustProxy = boolean | number;

/** The request's network address, as the adapter gave it (`clientAddress`), else `local` (in-process). */
export function addressOf(request: MockRequest): string {
  return request.clientAddress || 'local';
}

/**
 * The client a request counts against. By default its network address ({@link addressOf}):
 * `X-Forwarded-For` is a header anyone can send, so it is ignored. With `trustProxy` (`true`: one
 * proxy; `n`: `n` proxies in a chain), the client is the address the outermost trusted proxy saw:
 * the `n`-th entry of `X-Forwarded-For` counted from the right (each proxy appends the address it
 * received from), or the leftmost when there are fewer; the network address when there is none.
 */
export function clientOf(request: MockRequest, trustProxy: TrustProxy = false): string {
  const hops = trustProxy === true ? 1 : trustProxy === false ? 0 : Math.max(0, Math.floor(trustProxy));
  if (hops === 0) return addressOf(request);
  const forwarded = readHeader(request.headers, 'x-forwarded-for');
  if (forwarded === undefined) return addressOf(request);
  const entries = forwarded
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return addressOf(request);
  const entry = entries[Math.max(0, entries.length - hops)] as string;
  // An address is at most 45 characters (IPv6 with an IPv4 tail); anything longer is not one.
  return entry.length > 64 ? entry.slice(0, 64) : entry;
}

/** The rate limit per client: its setting and the counters of recent requests. */
export class RateLimiter {
  readonly #start: RateLimit | undefined;
  readonly #maxClients: number;
  #setting: RateLimit | undefined;
  /** Recent requests per client (`undefined` while the limit is off). */
  #counter: WindowCounter | undefined;

  /**
   * Creates a limiter with its start setting (`undefined`: off) and the most clients it tracks
   * (default {@link DEFAULT_MAX_RATE_LIMIT_CLIENTS}).
   */
  constructor(start: RateLimit | undefined, options: { maxClients?: number } = {}) {
    this.#start = start && { ...start };
    this.#maxClients = Math.max(1, options.maxClients ?? DEFAULT_MAX_RATE_LIMIT_CLIENTS);
    this.set(start);
  }

  /** The current setting (`undefined`: off). */
  get setting(): RateLimit | undefined {
    return this.#setting && { ...this.#setting };
  }

  /** How many clients have requests counted in their window now (at most the limiter's maximum). */
  get trackedClients(): number {
    return this.#counter?.size ?? 0;
  }

  /** Changes the setting and empties the counters. */
  set(setting: RateLimit | undefined): void {
    this.#setting = setting && { ...setting };
    this.#counter = setting && new WindowCounter({ windowMs: setting.windowMs, maxKeys: this.#maxClients });
  }

  /** Counts a request of `client` at `now`; throws 429 with `Retry-After` when it is over the limit. */
  check(client: string, now: number): void {
    const limit = this.#setting;
    if (!limit || !this.#counter) return;
    const waitMs = this.#counter.take(client, now, limit.limit);
    if (waitMs === undefined) return;
    throw rateLimited(
      waitMs,
      (seconds) =>
        `rate limit of ${limit.limit} requests per ${limit.windowMs / 1000} s exceeded; retry after ${seconds} s`,
    );
  }

  /** Back to the start setting, with empty counters. */
  reset(): void {
    this.set(this.#start);
  }
}
