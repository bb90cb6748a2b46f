/**
 * The journal stage: every answered request is written down here (bounded, credentials redacted),
 * and request ids are counted here.
 *
 * @module
 */
import { type MockRequest, type MockResponse, readQuery } from '../core/http.js';
import { isSecretHeader, REDACTED, redactBody, redactQuery } from '../core/redact.js';

/** How many requests the journal keeps by default. */
export const DEFAULT_JOURNAL_LIMIT = 500;

/** The journal's body of a request whose body no stage read. */
export const NOT_READ = '[not read]';

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
   * request refused before the body stage, e.g. 401 or 429), `[not JSON]` when it was not JSON.
   */
  body: unknown;
  /** The answer's status (0 when a fault dropped the connection). */
  status: number;
  /** How long the answer took, milliseconds. */
  durationMs: number;
  /** True when a fault dropped the connection. */
  dropped?: boolean;
}

/** The journal of answered requests, bounded, and the counter of request ids. */
export class Journal {
  readonly #entries: JournalEntry[] = [];
  readonly #limit: number;
  #requests = 0;

  /** Creates a journal keeping the last `limit` requests (none when `limit` ≤ 0). */
  constructor(limit: number = DEFAULT_JOURNAL_LIMIT) {
    this.#limit = limit;
  }

  /** The id of the next request (`req_0000000001`, counting from the start or the last reset). */
  nextRequestId(): string {
    return `req_${String(++this.#requests).padStart(10, '0')}`;
  }

  /** Whether the journal keeps anything (`journalLimit` > 0). */
  get enabled(): boolean {
    return this.#limit > 0;
  }

  /** Adds an entry, dropping the oldest beyond the limit. */
  add(entry: JournalEntry): void {
    if (this.#limit <= 0) return;
    this.#entries.push(entry);
    if (this.#entries.length > this.#limit) this.#entries.splice(0, this.#entries.length - this.#limit);
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
    if (body) {
      try {
        recorded = redactBody(body());
      } catch {
        recorded = '[not JSON]';
      }
    }
    this.add({
      id: requestId,
      time: new Date(started).toISOString(),
      method: request.method.toUpperCase(),
      path: request.path,
      query: redactQuery(readQuery(request.query)),
      headers,
      body: recorded,
      status: response.drop ? 0 : response.status,
      durationMs: Math.max(0, now - started),
      ...(response.drop ? { dropped: true } : {}),
    });
  }

  /** The last `limit` entries (all when absent), oldest first. */
  list(limit?: number): JournalEntry[] {
    return this.#entries.slice(limit === undefined ? 0 : Math.max(0, this.#entries.length - limit));
  }

  /** Empties the journal (request ids keep counting). */
  clear(): void {
    this.#entries.length = 0;
  }

  /** Empties the journal and counts request ids from 1 again. */
  reset(): void {
    this.clear();
    this.#requests = 0;
  }
}
