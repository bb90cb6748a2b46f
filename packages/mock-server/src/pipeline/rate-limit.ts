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

/**
 * How many clients the rate limiter tracks at most by default. A new client beyond it first makes
 * the limiter forget every client whose window is empty, then, if none was, the client seen least
 * recently (whose counter starts again).
 */
export const DEFAULT_MAX_RATE_LIMIT_CLIENTS = 10_000;

/** The rate limit an option or `setRateLimit` names: `true` is {@link SERVICE_RATE_LIMIT}, `false` off. */
export function toRateLimit(
  option: boolean | { limit: number; windowSeconds: number } | undefined,
): RateLimit | undefined {
  if (!option) return undefined;
  const { limit, windowSeconds } = option === true ? SERVICE_RATE_LIMIT : option;
  return { limit, windowMs: windowSeconds * 1000 };
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

/** The times of one client's counted requests in the window, oldest first (`times[head]` on). */
interface Hits {
  times: number[];
  head: number;
}

/** The rate limit per client: its setting and the counters of recent requests. */
export class RateLimiter {
  readonly #start: RateLimit | undefined;
  readonly #maxClients: number;
  #setting: RateLimit | undefined;
  /** Per client, in the order they were last seen (least recent first). */
  readonly #hits = new Map<string, Hits>();
  /** When the counters were last swept of empty windows. */
  #swept = Number.NEGATIVE_INFINITY;

  /**
   * Creates a limiter with its start setting (`undefined`: off) and the most clients it tracks
   * (default {@link DEFAULT_MAX_RATE_LIMIT_CLIENTS}).
   */
  constructor(start: RateLimit | undefined, options: { maxClients?: number } = {}) {
    this.#start = start && { ...start };
    this.#setting = start && { ...start };
    this.#maxClients = Math.max(1, options.maxClients ?? DEFAULT_MAX_RATE_LIMIT_CLIENTS);
  }

  /** The current setting (`undefined`: off). */
  get setting(): RateLimit | undefined {
    return this.#setting && { ...this.#setting };
  }

  /** How many clients have requests counted in their window now (at most the limiter's maximum). */
  get trackedClients(): number {
    return this.#hits.size;
  }

  /** Changes the setting and empties the counters. */
  set(setting: RateLimit | undefined): void {
    this.#setting = setting && { ...setting };
    this.#hits.clear();
    this.#swept = Number.NEGATIVE_INFINITY;
  }

  /** Counts a request of `client` at `now`; throws 429 with `Retry-After` when it is over the limit. */
  check(client: string, now: number): void {
    const limit = this.#setting;
    if (!limit) return;
    // Once a window, forget the clients whose windows have emptied (amortised: linear once a window).
    if (now - this.#swept >= limit.windowMs || now < this.#swept) this.#sweep(now, limit.windowMs);
    let hits = this.#hits.get(client);
    if (hits) {
      expire(hits, now, limit.windowMs);
      this.#hits.delete(client); // re-inserted below: the map stays in order of last use
    } else {
      hits = { times: [], head: 0 };
      if (this.#hits.size >= this.#maxClients) this.#makeRoom(now, limit.windowMs);
    }
    const count = hits.times.length - hits.head;
    if (count >= limit.limit) {
      this.#hits.set(client, hits);
      const oldest = hits.times[hits.head] as number;
      const retryAfter = Math.max(1, Math.ceil((oldest + limit.windowMs - now) / 1000));
      throw new HttpError(
        429,
        'rate_limited',
        `rate limit of ${limit.limit} requests per ${limit.windowMs / 1000} s exceeded; retry after ${retryAfter} s`,
        { headers: { 'retry-after': String(retryAfter) } },
      );
    }
    hits.times.push(now);
    this.#hits.set(client, hits);
  }

  /** Back to the start setting, with empty counters. */
  reset(): void {
    this.set(this.#start);
  }

  /** Forgets every client whose window is empty at `now`. */
  #sweep(now: number, windowMs: number): void {
    this.#swept = now;
    for (const [client, hits] of this.#hits) {
      expire(hits, now, windowMs);
      if (hits.head >= hits.times.length) this.#hits.delete(client);
    }
  }

  /** Makes room for one more client: forgets the empty windows, else the client seen least recently. */
  #makeRoom(now: number, windowMs: number): void {
    this.#sweep(now, windowMs);
    if (this.#hits.size < this.#maxClients) return;
    const oldest = this.#hits.keys().next();
    if (!oldest.done) this.#hits.delete(oldest.value);
  }
}

/** Drops the times that left the window ending at `now`; compacts the list when half of it is dropped. */
function expire(hits: Hits, now: number, windowMs: number): void {
  while (hits.head < hits.times.length && (hits.times[hits.head] as number) <= now - windowMs) hits.head += 1;
  if (hits.head > 32 && hits.head * 2 >= hits.times.length) {
    hits.times = hits.times.slice(hits.head);
    hits.head = 0;
  }
}
