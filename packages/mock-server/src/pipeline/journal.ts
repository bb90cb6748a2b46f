/**
 * The journal stage: every answered request is written down here (bounded, credentials redacted),
 * and request ids are counted here.
 *
 * What the journal keeps is text: each entry is two JSON texts (the request line, headers and answer;
 * the redacted body), read back only when the journal is listed, a body only when it is read. So what
 * an entry costs in memory is what it is counted as (see {@link entryBytes}), whatever the shape of
 * the body: a body of many small objects takes as much of the byte bound as of the heap. An entry
 * dropped for a bound is released at once.
 *
 * Each kept entry is charged to the mock's memory budget (its `journal` ledger, by {@link entryBytes})
 * and released when it goes. Past the budget the journal drops its own oldest entries until the new
 * one fits; one that would not fit even alone is not kept (its bounds `limit` and `maxBytes` are
 * checked first, as they always were).
 *
 * @module
 */

import { checkJsonBounds, type EndpointName } from '@iacm/sdk/contract';
import { redactUrls } from '../domain/webhook-url.js';
import type { NumberRange } from '../errors/ranges.js';
import type { MockRequest, MockResponse } from '../http/message.js';
import { lazyMember } from '../http/objects.js';
import { redactBody, redactQuery } from '../http/redact.js';
import { iso } from '../query/dates.js';
import { type Ledger, unboundedLedger } from '../store/budget.js';
import { isEmptyRecord, redactedHeaders, redactedText, redactUrlMember } from './journal-text.js';

/** How many requests the journal keeps by default. */
export const DEFAULT_JOURNAL_LIMIT = 500;

/**
 * How many bytes of memory the journal's entries take at most by default (each entry counted by
 * {@link entryBytes}): 16 MiB.
 */
export const DEFAULT_JOURNAL_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The largest request body the journal keeps by default, in characters of the body's JSON text once
 * redacted (bytes, for ASCII text): 64 KiB.
 */
export const DEFAULT_JOURNAL_BODY_BYTES = 64 * 1024;

/**
 * The documented range of each journal bound (the options `journalLimit`, `journalMaxBytes`,
 * `journalBodyBytes`, and the CLI's `--journal-limit` and `--journal-max-bytes`): up to 1,000,000
 * requests, 1 GiB, and a body of 16 MiB; 0 keeps nothing.
 */
export const JOURNAL_RANGES = Object.freeze({
  limit: { min: 0, max: 1_000_000, unit: 'requests' },
  maxBytes: { min: 0, max: 1024 * 1024 * 1024, unit: 'bytes' },
  maxBodyBytes: { min: 0, max: 16 * 1024 * 1024, unit: 'characters' },
} as const satisfies Record<string, NumberRange>);

/**
 * What one character of a kept text is counted as, bytes: two, the most a JavaScript engine stores
 * per character (V8 stores text of Latin-1 characters in one byte each, any other in two).
 */
export const JOURNAL_BYTES_PER_CHAR = 2;

/** What one kept text is counted as beyond its characters, bytes: the string's header and alignment. */
export const JOURNAL_STRING_OVERHEAD_BYTES = 32;

/** What one entry is counted as beyond its texts, bytes: the entry's record and its slot in the journal. */
export const JOURNAL_ENTRY_OVERHEAD_BYTES = 128;

/** The journal's body of a request whose body no stage read. */
export const NOT_READ = '[not read]';

/**
 * The journal's body of a request refused before its body was accepted (401, 413, 415, 429), or read
 * for a caller who never proved who it is (a failed login): what an unauthenticated or refused client
 * sent is never kept.
 */
export const NOT_KEPT = '[not kept]';

/** The journal's body of a request whose body was not JSON (or broke the body's shape bounds). */
export const NOT_JSON = '[not JSON]';

/** Statuses whose request body the journal never keeps. */
const REFUSED_STATUSES: ReadonlySet<number> = new Set([401, 413, 415, 429]);

/** The markers as the JSON texts the journal keeps (one string each, shared by every entry). */
const NOT_READ_TEXT = JSON.stringify(NOT_READ);
const NOT_KEPT_TEXT = JSON.stringify(NOT_KEPT);
const NOT_JSON_TEXT = JSON.stringify(NOT_JSON);

/** The journal's body of a request whose body was larger than the journal keeps: its JSON text's length. */
export function tooLargeToKeep(bytes: number): string {
  return `[too large to keep: about ${bytes} bytes]`;
}

/**
 * The journal's body of a request whose body has more values than the journal's body limit has
 * characters, or whose http(s) URL strings are more characters than the limit: too large, found
 * without writing it (or parsing its URLs).
 */
export function tooLargeToKeepOver(limit: number): string {
  return `[too large to keep: over ${limit} bytes]`;
}

/**
 * The body of a request as the journal is given it: `undefined` when no stage read it, {@link NOT_KEPT}
 * when it was read but must not be kept (its sender never authenticated), else what reading it gave:
 * the parsed value (`undefined` for none), or the error it threw.
 */
export type JournalBody = { value: unknown } | { error: unknown } | typeof NOT_KEPT | undefined;

/**
 * The request as the journal writes it down: the request line as the request stage read it (method,
 * query), the path as sent, and the headers (redacted here).
 */
export interface JournalRequest {
  /** The method, upper-case. */
  method: string;
  /** The path as sent. */
  path: string;
  /** The query, as the request stage parsed it. */
  query: Readonly<Record<string, string | string[]>>;
  /** The headers as sent. */
  headers: MockRequest['headers'];
}

/**
 * What the stages learnt of a request, as the journal is given it: the endpoint the route stage
 * matched (`'control'` for the control plane), the authenticated account, the path parameters as
 * matched, and the inputs as the route stage validated them (`validateInput`'s output), each only
 * when that stage got that far.
 */
export interface JournalRoute {
  /** The contract's endpoint name, or `'control'`; `undefined` when the path is no endpoint's. */
  endpoint?: EndpointName | 'control' | undefined;
  /** The id of the account the request authenticated as. */
  accountId?: string | undefined;
  /** The path parameters as matched (text, before validation). */
  params?: Readonly<Record<string, string>> | undefined;
  /** The path parameters, query and body as the route stage validated them. */
  input?: { params: unknown; query: unknown; body: unknown } | undefined;
  /** Why the request's `Prefer: code=` was ignored (over HTTP without control access). */
  preferIgnored?: string | undefined;
}

/**
 * An API request's inputs as the journal lists them (`JournalEntry.input`). With `validated`, they
 * are what the route stage validated and the operation got: the schemas' output (numbers for
 * `page`, defaults filled in, `{}` for an absent optional body). Without it (a request answered
 * before or at validation: a fault, 401, 429, 400...), they are what is known of what was sent: the
 * path parameters as matched (text), the query as sent, the body as the journal keeps it (`body`).
 * Credentials are redacted in both, and a body the journal does not keep reads as its marker
 * (`[not kept]`, `[not read]`...), as `body` does.
 */
export interface JournalInput {
  /** Whether the route stage validated these inputs (the operation ran with them). */
  validated: boolean;
  /** The path parameters. */
  params: Record<string, unknown>;
  /** The query. */
  query: Record<string, unknown>;
  /** The body (`undefined` for none). */
  body: unknown;
}

/** The bounds of a journal. */
export interface JournalBounds {
  /** How many requests it keeps (none when ≤ 0). Default 500. */
  limit?: number;
  /** How many bytes of memory its entries take at most (see {@link entryBytes}), oldest dropped first. Default 16 MiB. */
  maxBytes?: number;
  /**
   * The largest request body it keeps, in characters of its redacted JSON text; a larger one is
   * written as `[too large to keep: ...]`. Default 64 KiB.
   */
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
   * 401, 413, 415 or 429 or whose sender never authenticated (a failed login), `[not JSON]` when it
   * was not JSON, `[too large to keep: about N bytes]` (its JSON text's length) over the journal's
   * body limit, `[too large to keep: over N bytes]` for a body of more values than the limit. Parsed from the
   * journal's text each time it is read: read it once into a variable to use it several times.
   */
  body: unknown;
  /** The answer's status (0 when a fault dropped the connection). */
  status: number;
  /** How long the answer took, milliseconds. */
  durationMs: number;
  /** True when a fault dropped the connection. */
  dropped?: boolean;
  /**
   * The contract's endpoint name (`workspaces.search`), `'control'` for the control plane (`method`
   * and `path` say which route); absent when the path is no endpoint's (404, 405).
   */
  endpoint?: EndpointName | 'control';
  /** The id of the account the request authenticated as; absent when it did not (login, health, 401). */
  accountId?: string;
  /**
   * An API request's path parameters, query and body as the route stage validated them, or what is
   * known of them when it did not get that far ({@link JournalInput}); absent for the control plane
   * and a path that is no endpoint's. Parsed from the journal's text each time it is read, as `body`.
   */
  input?: JournalInput;
  /**
   * Present when the request's `Prefer: code=` was ignored (over HTTP, without an open control plane
   * or the control token): why, as the answer's `x-iacm-mock-prefer` header says.
   */
  preferIgnored?: string;
}

/**
 * Told of each entry the journal writes: its endpoint (`'control'` for the control plane, `undefined`
 * for no endpoint's path) and a function that reads the entry back (parsing its texts).
 */
export type JournalListener = (endpoint: string | undefined, read: () => JournalEntry) => void;

/**
 * One kept entry as {@link Journal.recordedSince} gives it: its endpoint (`'control'` for the
 * control plane, `undefined` for no endpoint's path), and a function reading it back (parsing its
 * texts), as a {@link JournalListener} is told of an entry.
 */
export interface JournalRecord {
  /** The entry's endpoint, read without parsing anything. */
  readonly endpoint: string | undefined;
  /** Reads the entry back from its texts (a fresh parse at each call). */
  readonly read: () => JournalEntry;
}

/** An entry as the journal keeps it: JSON texts, and what they are counted as. */
interface Kept {
  /** `[id, time, method, path, query, headers, status, durationMs, dropped]` as JSON. */
  readonly head: string;
  /** The body's JSON text (redacted, or a marker); `undefined` for a request without a body. */
  readonly body: string | undefined;
  /**
   * The inputs' JSON text (`{"validated":...,"params":...,"query":...,"body":...}`, redacted; an
   * unvalidated request's query and body are read from `head` and `body`); `undefined` without an endpoint.
   */
  readonly input: string | undefined;
  /** The endpoint's name (the endpoint table's own string), for filtering without parsing. */
  readonly endpoint: string | undefined;
  /** What the entry is counted as, bytes ({@link entryBytes}). */
  readonly bytes: number;
}

/** The most entries one {@link Journal.poll} looks at (a filtered poll skips the others' entries). */
const POLL_LOOKS = 5_000;

/** The parts of {@link Kept.head}, in order. */
type Head = [
  id: string,
  time: string,
  method: string,
  path: string,
  query: Record<string, string | string[]>,
  headers: Record<string, string>,
  status: number,
  durationMs: number,
  dropped: boolean,
  endpoint: string | null,
  accountId: string | null,
  preferIgnored?: string,
];

/** What one kept text is counted as, bytes. */
function textBytes(text: string): number {
  return JOURNAL_STRING_OVERHEAD_BYTES + JOURNAL_BYTES_PER_CHAR * text.length;
}

/** {@link Journal}'s input text of a validated request whose parameters, query and body are all `{}`. */
const EMPTY_INPUT_TEXT = '{"validated":true,"params":{},"query":{},"body":{}}';

/**
 * What an entry kept as the JSON texts `head`, `body` and `input` is counted as, bytes: two per
 * character of each text, 32 per text and 128 per entry; at least what it takes in the heap.
 */
export function entryBytes(head: string, body: string | undefined, input?: string): number {
  return (
    JOURNAL_ENTRY_OVERHEAD_BYTES +
    textBytes(head) +
    (body === undefined ? 0 : textBytes(body)) +
    (input === undefined ? 0 : textBytes(input))
  );
}

/**
 * The journal of answered requests, bounded by count and by bytes (oldest dropped first), and the
 * counter of request ids.
 */
export class Journal {
  /**
   * Entries from `#head` on are kept, oldest first; the slots before it are emptied as entries are
   * dropped, and cut off once they outnumber the kept ones (so the array has at most twice as many
   * slots as kept entries).
   */
  #entries: Array<Kept | undefined> = [];
  #head = 0;
  #bytes = 0;
  readonly #limit: number;
  readonly #maxBytes: number;
  readonly #maxBodyBytes: number;
  #requests = 0;
  #listener: JournalListener | undefined;
  /** The budget's `journal` ledger: each kept entry's {@link entryBytes}. */
  readonly #ledger: Ledger;
  /** How many entries were not kept since the start or the last reset (see {@link Journal.unkept}). */
  #unkept = 0;

  /**
   * Creates a journal keeping the last `limit` requests (none when `limit` ≤ 0), at most `maxBytes`
   * of them, and bodies up to `maxBodyBytes` (a number is the `limit` alone). Each kept entry is
   * charged to `ledger` (the memory budget's `journal` ledger; default one without a limit, for a
   * journal made alone), its oldest entries dropped when the budget has no room for a new one.
   */
  constructor(bounds: number | JournalBounds = {}, ledger: Ledger = unboundedLedger('journal')) {
    const given = typeof bounds === 'number' ? { limit: bounds } : bounds;
    this.#limit = given.limit ?? DEFAULT_JOURNAL_LIMIT;
    this.#maxBytes = given.maxBytes ?? DEFAULT_JOURNAL_MAX_BYTES;
    this.#maxBodyBytes = given.maxBodyBytes ?? DEFAULT_JOURNAL_BODY_BYTES;
    this.#ledger = ledger;
    // A refusing store's write that needs the room makes the oldest entries go first.
    ledger.evictWith((need) => {
      let freed = 0;
      while (this.size > 0 && freed < need) {
        freed += (this.#entries[this.#head] as Kept).bytes;
        this.#dropOldest();
      }
      this.#compact();
    });
  }

  /**
   * How many written entries were not kept since the start or the last reset: each larger than its
   * `maxBytes` alone, or than the memory budget has room for with the journal empty.
   */
  get unkept(): number {
    return this.#unkept;
  }

  /** How many entries it keeps now. */
  get size(): number {
    return this.#entries.length - this.#head;
  }

  /** How many bytes its entries are counted as now ({@link entryBytes}); never more than its `maxBytes`. */
  get bytes(): number {
    return this.#bytes;
  }

  /** How many slots its array has now, kept entries and emptied slots (at most twice {@link size}). */
  get slots(): number {
    return this.#entries.length;
  }

  /**
   * How many entries its array still references: {@link size}, since a dropped entry is released at
   * once (counted slot by slot, for tests of that bound).
   */
  get held(): number {
    let held = 0;
    for (const entry of this.#entries) if (entry !== undefined) held += 1;
    return held;
  }

  /** The id of the next request (`req_0000000001`, counting from the start or the last reset). */
  nextRequestId(): string {
    return `req_${String(++this.#requests).padStart(10, '0')}`;
  }

  /**
   * Tells `listener` of each entry written from now on (one listener: the mock's waiters,
   * `pipeline/waiters.ts`), with its endpoint and a function reading it back, so that nothing is read
   * unless a waiter wants it.
   */
  listen(listener: JournalListener | undefined): void {
    this.#listener = listener;
  }

  /** Whether the journal keeps anything (`journalLimit` > 0). */
  get enabled(): boolean {
    return this.#limit > 0;
  }

  /**
   * Adds an entry, dropping (and releasing) the oldest beyond the count or the bytes, then the oldest
   * until the memory budget has room for it (charged to the ledger). An entry larger than `maxBytes`,
   * or than the budget has room for with the journal empty, is not kept (and nothing is dropped for it).
   */
  #add(entry: Kept): void {
    // With every entry it holds released, would the budget have room? If not, keep what it holds.
    if (entry.bytes > this.#maxBytes || !this.#ledger.fits(entry.bytes - this.#ledger.held)) {
      this.#unkept += 1;
      return;
    }
    // Its own bounds first, as if the entry were kept: the count, then the bytes.
    while (this.size > 0 && (this.size >= this.#limit || this.#bytes + entry.bytes > this.#maxBytes)) {
      this.#dropOldest();
    }
    // Then the budget (which other stores share): the oldest go until the entry fits.
    while (!this.#ledger.tryCharge(entry.bytes)) {
      if (this.size === 0) {
        // Only if the budget's room changed since the check above: the entry is not kept.
        this.#unkept += 1;
        this.#compact();
        return;
      }
      this.#dropOldest();
    }
    this.#entries.push(entry);
    this.#bytes += entry.bytes;
    this.#compact();
  }

  /** Drops (and releases, in the budget too) the oldest kept entry. */
  #dropOldest(): void {
    const oldest = this.#entries[this.#head] as Kept;
    this.#bytes -= oldest.bytes;
    this.#ledger.release(oldest.bytes);
    this.#entries[this.#head] = undefined;
    this.#head += 1;
  }

  /** Cuts off the emptied slots once they outnumber the kept entries. */
  #compact(): void {
    if (this.#head * 2 > this.#entries.length) {
      this.#entries.splice(0, this.#head);
      this.#head = 0;
    }
  }

  /**
   * Writes down an answered request, headers and body redacted. `body` is what the body stage read
   * ({@link JournalBody}): `undefined` is recorded as `[not read]`, {@link NOT_KEPT} as itself, and
   * what was read only when the answer's status lets the body be kept. `route` is what the stages
   * learnt of the request ({@link JournalRoute}): its validated body is kept by the same rule as the
   * body (redacted, bounded, `[not kept]` when the body is not kept).
   */
  record(
    request: JournalRequest,
    response: MockResponse,
    requestId: string,
    started: number,
    now: number,
    body: JournalBody,
    route: JournalRoute = {},
  ): void {
    if (!this.enabled) return;
    const headers = redactedHeaders(request.headers);
    const dropped = response.drop === true;
    const head: Head = [
      requestId,
      iso(started),
      request.method,
      request.path,
      redactQuery(request.query),
      headers,
      dropped ? 0 : response.status,
      Math.max(0, now - started),
      dropped,
      route.endpoint ?? null,
      route.accountId ?? null,
    ];
    // Only on the entries it concerns (the others' bytes stay as they were).
    if (route.preferIgnored !== undefined) head.push(route.preferIgnored);
    const headText = JSON.stringify(head);
    let bodyText: string | undefined;
    const kept = body !== undefined && body !== NOT_KEPT && !REFUSED_STATUSES.has(response.status);
    if (body === undefined) bodyText = NOT_READ_TEXT;
    else if (!kept) bodyText = NOT_KEPT_TEXT;
    else bodyText = this.#bodyText(body);
    const inputText = this.#inputText(route, kept ? undefined : bodyText);
    const entry: Kept = {
      head: headText,
      body: bodyText,
      input: inputText,
      endpoint: route.endpoint,
      bytes: entryBytes(headText, bodyText, inputText),
    };
    this.#add(entry);
    this.#listener?.(route.endpoint, () => readEntry(entry));
  }

  /**
   * The JSON text the journal keeps of an API request's inputs (see {@link Kept.input}): the
   * validated ones, redacted, the body bounded as a body is (or `marker` when the body is not kept);
   * else the path parameters as matched; `undefined` for the control plane or no endpoint.
   */
  #inputText(route: JournalRoute, marker: string | undefined): string | undefined {
    if (route.endpoint === undefined || route.endpoint === 'control') return undefined;
    const { input } = route;
    if (!input) return `{"validated":false,"params":${redactedText(route.params ?? {})}}`;
    const bodyText = marker ?? this.#bodyText({ value: input.body });
    const params = redactedText(input.params ?? {});
    const query = redactedText(input.query ?? {});
    // The usual inputs of a search without filters: one text, not a new one per request.
    if (params === '{}' && query === '{}' && bodyText === '{}') return EMPTY_INPUT_TEXT;
    return `{"validated":true,"params":${params},"query":${query}${bodyText === undefined ? '' : `,"body":${bodyText}`}}`;
  }

  /**
   * The JSON text the journal keeps of a body: redacted (credential members by name, and every
   * string that is an http(s) URL, at any depth, as `redactUrl` shows a webhook URL), or `[not JSON]`
   * when reading it failed or it is nested more than 64 levels (a hand-built body of an in-process
   * call, a cyclic one), or `[too large to keep: ...]` past the body limit (`over N bytes` too when
   * its URLs alone are more characters than the limit: they are not parsed); `undefined` for no body.
   * The one redaction of a body: every reader of the journal reads what is written here.
   */
  #bodyText(read: { value: unknown } | { error: unknown }): string | undefined {
    if ('error' in read) return NOT_JSON_TEXT;
    let text: string | undefined;
    try {
      const { value } = read;
      if (isEmptyRecord(value)) return '{}';
      // Every value takes at least one character of JSON text: a body of more values than the limit
      // has characters is too large, found without writing it (a 256 MiB snapshot, or a hand-built
      // body sharing one object a million times, which JSON.stringify would write each time). Too
      // deep (or cyclic): not JSON the journal can write.
      const problem = checkJsonBounds(value, {
        maxArrayLength: Number.POSITIVE_INFINITY,
        maxMembers: Number.POSITIVE_INFINITY,
        maxNodes: this.#maxBodyBytes,
      });
      if (problem?.bound === 'maxNodes') return JSON.stringify(tooLargeToKeepOver(this.#maxBodyBytes));
      if (problem) return NOT_JSON_TEXT;
      // Every string that is an http(s) URL, at any depth, its secrets redacted as the webhook
      // route shows one; the parser is given no more characters than the journal keeps.
      const redacted = redactUrls(redactBody(value), this.#maxBodyBytes);
      if (redacted === undefined) return JSON.stringify(tooLargeToKeepOver(this.#maxBodyBytes));
      text = JSON.stringify(redactUrlMember(redacted.value));
    } catch {
      return NOT_JSON_TEXT;
    }
    if (text === undefined || text.length <= this.#maxBodyBytes) return text;
    return JSON.stringify(tooLargeToKeep(text.length));
  }

  /**
   * The last `limit` entries (all when absent), oldest first, read back from the texts kept; each
   * entry's `body` is parsed when it is read.
   */
  list(limit?: number, endpoint?: EndpointName): JournalEntry[] {
    if (endpoint !== undefined) {
      const found: JournalEntry[] = [];
      const most = limit ?? Number.POSITIVE_INFINITY;
      for (let i = this.#entries.length - 1; i >= this.#head && found.length < most; i--) {
        const kept = this.#entries[i] as Kept;
        if (kept.endpoint === endpoint) found.push(readEntry(kept));
      }
      return found.reverse();
    }
    const from = limit === undefined ? this.#head : Math.max(this.#head, this.#entries.length - limit);
    const out: JournalEntry[] = [];
    for (let i = from; i < this.#entries.length; i++) out.push(readEntry(this.#entries[i] as Kept));
    return out;
  }

  /**
   * The entries kept after `since`, oldest first, one at a time, each read back (parsed) only when
   * its `read` is called: `'start'`, every entry kept; a request id, those after that request's
   * entry (found by the id its text starts with, without parsing any); `undefined` when the journal
   * holds no entry of that id. Nothing is read ahead and no list of the entries is made: a reader
   * that keeps only what it needs holds one parsed entry at a time. Read it at once (before the
   * journal writes again), as a wait does when it begins.
   */
  recordedSince(since: string): Iterable<JournalRecord> | undefined {
    const from = this.#slotAfter(since);
    return from === undefined ? undefined : this.#records(from, this.#entries.length);
  }

  /**
   * The slot after the kept entry of request id `since` (the first kept slot for `'start'`), or
   * `undefined` when no kept entry has that id. Looked for from the newest: a caller's cursor is most
   * often one of the last entries. (Entries are kept in the order requests end, not by id, so there is
   * no search by order.)
   */
  #slotAfter(since: string): number | undefined {
    if (since === 'start') return this.#head;
    // A head's text is `["<id>",...`: JSON.stringify writes the id the same way each time.
    const prefix = `[${JSON.stringify(since)},`;
    for (let i = this.#entries.length - 1; i >= this.#head; i--) {
      if ((this.#entries[i] as Kept).head.startsWith(prefix)) return i + 1;
    }
    return undefined;
  }

  /**
   * What a poll of the journal reads (the live page's, `GET /__mock/live/feed`): the entries kept after
   * `since` (`'start'`, or a request id as {@link Journal.recordedSince} takes it), oldest first, at
   * most `limit` of them, of endpoint `endpoint` only when given (compared without parsing an entry).
   * `cursor` is the id to poll from next: the last entry answered, or the last one looked at (so a
   * filtered poll does not look at the same entries again), or `since` when there is none. `restarted`
   * when the journal holds no entry of `since` (it was dropped for a bound, or the journal was reset or
   * cleared): the entries are then those kept from the oldest. `more` when entries past the `limit`
   * were left for the next poll. Keeps nothing: the cursor is the caller's.
   */
  poll(
    since: string,
    limit: number,
    endpoint?: string,
  ): { entries: JournalEntry[]; cursor: string; restarted: boolean; more: boolean } {
    const found = this.#slotAfter(since);
    const restarted = found === undefined;
    const from = found ?? this.#head;
    const entries: JournalEntry[] = [];
    let last: Kept | undefined;
    let more = false;
    // A filtered poll looks at no more than POLL_LOOKS entries: the cursor goes on from the last.
    const end = Math.min(this.#entries.length, from + POLL_LOOKS);
    for (let i = from; i < end; i++) {
      const kept = this.#entries[i] as Kept;
      if (endpoint !== undefined && kept.endpoint !== endpoint) {
        last = kept;
        continue;
      }
      if (entries.length === limit) {
        more = true;
        break;
      }
      entries.push(readEntry(kept));
      last = kept;
    }
    if (end < this.#entries.length && entries.length < limit) more = true;
    const cursor = last === undefined ? (restarted ? 'start' : since) : (JSON.parse(last.head) as Head)[0];
    return { entries, cursor, restarted, more };
  }

  /** The kept entries from slot `from` to slot `to` (excluded) as {@link JournalRecord}s, one at a time. */
  *#records(from: number, to: number): Generator<JournalRecord> {
    const entries = this.#entries;
    for (let i = from; i < to && i < entries.length; i++) {
      const kept = entries[i];
      if (kept === undefined) continue;
      yield { endpoint: kept.endpoint, read: () => readEntry(kept) };
    }
  }

  /** Empties the journal (request ids keep counting), giving its bytes back to the budget. */
  clear(): void {
    this.#entries = [];
    this.#head = 0;
    this.#bytes = 0;
    this.#ledger.releaseAll();
  }

  /** Empties the journal and counts request ids (and {@link Journal.unkept}) from 0 again. */
  reset(): void {
    this.clear();
    this.#requests = 0;
    this.#unkept = 0;
  }
}

/**
 * An entry as the journal lists it, read back from the texts it keeps. Its `body` is parsed from the
 * kept text each time it is read (and can be set like any member): listing the journal, or writing
 * the list as JSON (`GET /__mock/journal`), holds one parsed body at a time, whatever the bodies' shape.
 */
function readEntry(kept: Kept): JournalEntry {
  const [id, time, method, path, query, headers, status, durationMs, dropped, endpoint, accountId, prefer] =
    JSON.parse(kept.head) as Head;
  const entry: JournalEntry = {
    id,
    time,
    method,
    path,
    // A record without a prototype, as it was written: a parameter named `__proto__` is just a name.
    query: Object.assign(Object.create(null) as Record<string, string | string[]>, query),
    headers,
    body: undefined,
    status,
    durationMs,
    ...(dropped ? { dropped: true } : {}),
    ...(endpoint === null ? {} : { endpoint: endpoint as EndpointName | 'control' }),
    ...(accountId === null ? {} : { accountId }),
    ...(typeof prefer === 'string' ? { preferIgnored: prefer } : {}),
  };
  const text = kept.body;
  if (text !== undefined) lazyMember(entry, 'body', () => JSON.parse(text));
  const input = kept.input;
  if (input !== undefined) lazyMember(entry, 'input', () => readInput(input, entry.query, text));
  return entry;
}

/** An entry's inputs read back from their text; an unvalidated request's query and body from the entry's. */
function readInput(text: string, query: JournalEntry['query'], bodyText: string | undefined): JournalInput {
  const kept = JSON.parse(text) as {
    validated: boolean;
    params: Record<string, unknown>;
  } & Partial<JournalInput>;
  if (kept.validated)
    return { validated: true, params: kept.params, query: kept.query ?? {}, body: kept.body };
  return {
    validated: false,
    params: kept.params,
    query: { ...query },
    body: bodyText === undefined ? undefined : JSON.parse(bodyText),
  };
}
