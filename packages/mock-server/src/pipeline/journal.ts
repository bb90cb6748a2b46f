/**
 * The journal stage: every answered request is written down here (bounded, credentials redacted),
 * and request ids are counted here.
 *
 * @module
 */
import type { MockRequest, MockResponse } from '../core/http.js';
import { isSecretHeader, REDACTED, redactBody, redactQuery } from '../core/redact.js';
import { redactUrl } from '../domain/webhook-url.js';
import { parseQuery } from './request.js';

/** How many requests the journal keeps by default. */
export const DEFAULT_JOURNAL_LIMIT = 500;

/** How many bytes the journal keeps by default (its entries' approximate JSON size): 16 MiB. */
export const DEFAULT_JOURNAL_MAX_BYTES = 16 * 1024 * 1024;

/** The largest request body the journal keeps by default, bytes (approximate JSON size): 64 KiB. */
export const DEFAULT_JOURNAL_BODY_BYTES = 64 * 1024;

/** The journal's body of a request whose body no stage read. */
export const NOT_READ = '[not read]';

/**
 * The journal's body of a request refused before its body was accepted (401, 413, 415, 429): what an
 * unauthenticated or refused client sent is never kept.
 */
export const NOT_KEPT = '[not kept]';

/** Statuses whose request body the journal never keeps. */
const REFUSED_STATUSES: ReadonlySet<number> = new Set([401, 413, 415, 429]);

/** The journal's body of a request whose body was larger than the journal keeps. */
export function tooLargeToKeep(bytes: number): string {
  return `[too large to keep: about ${bytes} bytes]`;
}

/** The bounds of a journal. */
export interface JournalBounds {
  /** How many requests it keeps (none when ≤ 0). Default 500. */
  limit?: number;
  /** How many bytes its entries take at most, oldest dropped first. Default 16 MiB. */
  maxBytes?: number;
  /** The largest request body it keeps; a larger one is written as `[too large to keep: ...]`. Default 64 KiB. */
  maxBodyBytes?: number;
}

/** One journal entry: a request the mock answered, credentials redacted. */
export interface JournalEntry {
  /** The request id (`x-request-id` of the answer). */
  id: string;
  /** When the request arrived (ISO 8601). */
  time: string;
  /** HTTP method. */
  method: string;
  /** Path. */
  path: string;
  /** Query parameters. */
  query: Record<string, string | string[]>;
  /** Request headers; `authorization`, `cookie` and other secret headers read `[redacted]`. */
  headers: Record<string, string>;
  /**
   * The request body, credential members reading `[redacted]`; `[not read]` when no stage read it (a
   * request refused before the body stage, e.g. 401 or 429), `[not kept]` for a request answered
   * 401, 413, 415 or 429, `[not JSON]` when it was not JSON, `[too large to keep: about N bytes]`
   * over the journal's body limit.
   */
  body: unknown;
  /** The answer's status (0 when a fault dropped the connection). */
  status: number;
  /** How long the answer took, milliseconds. */
  durationMs: number;
  /** True when a fault dropped the connection. */
  dropped?: boolean;
}

/**
 * The journal of answered requests, bounded by count and by bytes (oldest dropped first), and the
 * counter of request ids.
 */
export class Journal {
  /** Entries from `#head` on are kept; the slots before it are dropped ones, compacted now and then. */
  #entries: JournalEntry[] = [];
  #sizes: number[] = [];
  #head = 0;
  #bytes = 0;
  readonly #limit: number;
  readonly #maxBytes: number;
  readonly #maxBodyBytes: number;
  #requests = 0;

  /**
   * Creates a journal keeping the last `limit` requests (none when `limit` ≤ 0), at most `maxBytes`
   * of them, and bodies up to `maxBodyBytes` (a number is the `limit` alone).
   */
  constructor(bounds: number | JournalBounds = {}) {
    const given = typeof bounds === 'number' ? { limit: bounds } : bounds;
    this.#limit = given.limit ?? DEFAULT_JOURNAL_LIMIT;
    this.#maxBytes = given.maxBytes ?? DEFAULT_JOURNAL_MAX_BYTES;
    this.#maxBodyBytes = given.maxBodyBytes ?? DEFAULT_JOURNAL_BODY_BYTES;
  }

  /** How many entries it keeps now. */
  get size(): number {
    return this.#entries.length - this.#head;
  }

  /** About how many bytes its entries take now (their approximate JSON size). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The id of the next request (`req_0000000001`, counting from the start or the last reset). */
  nextRequestId(): string {
    return `req_${String(++this.#requests).padStart(10, '0')}`;
  }

  /** Whether the journal keeps anything (`journalLimit` > 0). */
  get enabled(): boolean {
    return this.#limit > 0;
  }

  /** Adds an entry, dropping the oldest beyond the count or the bytes. */
  add(entry: JournalEntry, bytes: number = approximateJsonBytes(entry, Number.POSITIVE_INFINITY)): void {
    if (this.#limit <= 0 || bytes > this.#maxBytes) return;
    this.#entries.push(entry);
    this.#sizes.push(bytes);
    this.#bytes += bytes;
    while (this.size > this.#limit || this.#bytes > this.#maxBytes) {
      this.#bytes -= this.#sizes[this.#head] as number;
      this.#head += 1;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#sizes = this.#sizes.slice(this.#head);
      this.#head = 0;
    }
  }

  /**
   * Writes down an answered request, headers and body redacted. `body` gives the body the body stage
   * read (`[not JSON]` when it was not JSON); it is `undefined` when no stage read the body, which
   * is then recorded as `[not read]` and never parsed here.
   */
  record(
    request: MockRequest,
    response: MockResponse,
    requestId: string,
    started: number,
    now: number,
    body: (() => unknown) | undefined,
  ): void {
    if (!this.enabled) return;
    const headers: Record<string, string> = {};
    const source =
      request.headers instanceof Headers ? Object.fromEntries(request.headers) : (request.headers ?? {});
    for (const [name, value] of Object.entries(source)) {
      if (value === undefined) continue;
      const key = name.toLowerCase();
      headers[key] = isSecretHeader(key) ? REDACTED : typeof value === 'string' ? value : value.join(', ');
    }
    let recorded: unknown = NOT_READ;
    /** The kept body's size, measured once (a marker string is measured with the rest of the entry). */
    let bodyBytes = 0;
    if (body && REFUSED_STATUSES.has(response.status)) recorded = NOT_KEPT;
    else if (body) {
      try {
        const value = body();
        const size = approximateJsonBytes(value, this.#maxBodyBytes);
        if (size > this.#maxBodyBytes) recorded = tooLargeToKeep(size);
        else {
          recorded = redactUrlMember(redactBody(value));
          bodyBytes = size;
        }
      } catch {
        recorded = '[not JSON]';
      }
    }
    const entry: JournalEntry = {
      id: requestId,
      time: new Date(started).toISOString(),
      method: request.method.toUpperCase(),
      path: request.path,
      query: redactQuery(parseQuery(request.query)),
      headers,
      body: recorded,
      status: response.drop ? 0 : response.status,
      durationMs: Math.max(0, now - started),
      ...(response.drop ? { dropped: true } : {}),
    };
    // The body was measured above: the rest of the entry is measured without walking it again.
    const rest = bodyBytes > 0 ? { ...entry, body: null } : entry;
    this.add(entry, approximateJsonBytes(rest, Number.POSITIVE_INFINITY) + bodyBytes);
  }

  /** The last `limit` entries (all when absent), oldest first. */
  list(limit?: number): JournalEntry[] {
    const from = limit === undefined ? this.#head : Math.max(this.#head, this.#entries.length - limit);
    return this.#entries.slice(from);
  }

  /** Empties the journal (request ids keep counting). */
  clear(): void {
    this.#entries = [];
    this.#sizes = [];
    this.#head = 0;
    this.#bytes = 0;
  }

  /** Empties the journal and counts request ids from 1 again. */
  reset(): void {
    this.clear();
    this.#requests = 0;
  }
}

/**
 * About how many bytes `value` takes as JSON (strings by their length, numbers 8, each member its key
 * and 4 more), counting only until `cap` is passed: the walk is iterative and stops there, so a huge or
 * deeply nested body costs no more than `cap` to measure.
 */
export function approximateJsonBytes(value: unknown, cap: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= cap) {
    const item = stack.pop();
    if (typeof item === 'string') total += item.length + 2;
    else if (item === null || typeof item !== 'object') total += 8;
    else if (Array.isArray(item)) {
      total += 2 + item.length;
      for (let i = 0; i < item.length && total <= cap; i++) stack.push(item[i]);
    } else {
      total += 2;
      for (const key in item) {
        if (!Object.hasOwn(item, key)) continue;
        total += key.length + 4;
        stack.push((item as Record<string, unknown>)[key]);
        if (total > cap) break;
      }
    }
  }
  return total;
}

/**
 * A body whose top-level `url` member (a webhook integration's) is shown with its user name, password
 * and secret-looking query parameters redacted; any other body as it is.
 */
function redactUrlMember(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const url = (body as { url?: unknown }).url;
  if (typeof url !== 'string') return body;
  const shown = redactUrl(url);
  return shown === url ? body : { ...body, url: shown };
}
