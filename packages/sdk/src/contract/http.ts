/**
 * The HTTP rules the mock server and the webhook receiver share, written once: reading a header from
 * any header form, which `Content-Type` names a JSON body, and reading a raw body without ever
 * holding more than a size limit (a declared `Content-Length` over the limit refused before reading,
 * a stream counted as it arrives, a string measured in UTF-8 bytes).
 *
 * Web-standard and transport-free (no `node:` import): it runs in Node, browsers and edge runtimes.
 * The stream readers themselves stay with their transports (the receiver's `readWebStream` and
 * `readNodeBody`); they count with {@link BodyCollector}.
 *
 * @module
 */

/**
 * The headers of a request: a web `Headers`, anything with a `get(name)` method, or a plain record
 * such as Node's `req.headers` (names are matched case-insensitively; list values are joined with `, `).
 */
export type HeaderSource =
  | {
      /** Returns the value of a header, `null` or `undefined` when it is absent. */
      get(name: string): string | null | undefined;
    }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Reads one header from any {@link HeaderSource}, case-insensitively. A record's member named
 * exactly `name` wins; otherwise the first member whose name matches in any case and has a value.
 * A list value (a repeated header, as Node gives `set-cookie`) is joined with `", "`. Only the
 * record's own members count (never `constructor` or another inherited name).
 * @param headers the headers, or `undefined` for none.
 * @param name the header name (any case; lower case is fastest for Node's records).
 * @returns the value, or `undefined` when the header is absent.
 * @example readHeader({ 'Content-Type': 'application/json' }, 'content-type') // 'application/json'
 */
export function readHeader(headers: HeaderSource | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  const getter = (headers as { get?: unknown }).get;
  if (typeof getter === 'function') {
    const value: unknown = getter.call(headers, name);
    return typeof value === 'string' ? value : undefined;
  }
  // The member named exactly `name` wins over other spellings: look it up first (Node's headers are
  // lower-case, as the callers' names are), and walk the members only when it is not there.
  const record = headers as Readonly<Record<string, unknown>>;
  if (Object.hasOwn(record, name)) {
    const exact = headerValue(record[name]);
    if (exact !== undefined) return exact;
  }
  const lower = name.toLowerCase();
  let found: string | undefined;
  for (const [key, member] of Object.entries(headers)) {
    if (key.toLowerCase() !== lower) continue;
    const value = headerValue(member);
    if (value !== undefined && key === name) return value;
    found ??= value;
  }
  return found;
}

/** A header member's value as one string: a list joined with `, `; anything else is no value. */
function headerValue(member: unknown): string | undefined {
  return typeof member === 'string' ? member : Array.isArray(member) ? member.join(', ') : undefined;
}

/**
 * Why a `Content-Type` does not name a JSON body in UTF-8 (see {@link checkJsonMediaType}):
 * `missing` (no header), `not_json` (another media type), `charset` (a JSON media type whose
 * `charset` parameter names something other than UTF-8).
 */
export type JsonMediaTypeProblem = 'missing' | 'not_json' | 'charset';

/**
 * Checks that a `Content-Type` names a JSON body, the one rule of the mock server and the webhook
 * receiver. Its media type (before any `;` parameters, spaces around it ignored, any case) must be
 * `application/json` or `application/<name>+json` (RFC 6839), `<name>` being a media type name
 * (letters, digits and `!#$&-^_.+`): `application/json-seq`, `application/jsonl`,
 * `application/json5`, `application/x-json`, `text/json` and `application/+json` are not JSON.
 * Parameters are allowed, but a `charset` parameter must name UTF-8 (`utf-8`, `utf8`, or its subset
 * `us-ascii`; any case, quoted or not), since JSON exchanged between systems is UTF-8 (RFC 8259 §8.1)
 * and both read it so; a `charset` without a value is refused. Linear in the header's length.
 * @param contentType the header's value, `undefined` when there is none.
 * @returns `undefined` when it names JSON in UTF-8, else why not.
 * @example checkJsonMediaType('application/json; charset=latin1') // 'charset'
 */
export function checkJsonMediaType(contentType: string | undefined): JsonMediaTypeProblem | undefined {
  if (contentType === undefined) return 'missing';
  const [type, ...parameters] = contentType.split(';') as [string, ...string[]];
  if (!JSON_ESSENCE.test(type.trim().toLowerCase())) return 'not_json';
  for (const parameter of parameters) {
    // A parameter without `=` is a name without a value.
    const equals = parameter.includes('=') ? parameter.indexOf('=') : parameter.length;
    if (parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    // One opening and one closing double quote are taken off.
    const charset = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"|"$/g, '');
    if (!UTF8_CHARSETS.has(charset.toLowerCase())) return 'charset';
  }
  return undefined;
}

/**
 * Whether a `Content-Type` names a JSON body in UTF-8: {@link checkJsonMediaType} finds no problem.
 * `undefined` (no header) is not JSON; a caller that reads a body without a `Content-Type` as JSON
 * (the mock, on authenticated routes) checks for `undefined` first.
 * @param contentType the header's value, `undefined` when there is none.
 * @example isJsonMediaType('application/vnd.api+json') // true
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return checkJsonMediaType(contentType) === undefined;
}

/** The `charset` values that mean UTF-8 (US-ASCII is its subset). */
const UTF8_CHARSETS: ReadonlySet<string> = new Set(['utf-8', 'utf8', 'us-ascii']);

/**
 * `application/json` or `application/<name>+json`, `<name>` of lower-case letters, digits and
 * `!#$&-^_.+` (RFC 6838 §4.2). Anchored, one quantifier over one character class: linear.
 */
const JSON_ESSENCE = /^application\/([\da-z!#$&^_.+-]+\+)?json$/;

/** A raw request body exactly as it arrived: text, bytes, or an `ArrayBuffer`. */
export type RawBody = string | Uint8Array | ArrayBuffer;

/**
 * Why a body reader gave no body: `too_large` when it stopped past the limit (it must never buffer
 * more than `limit` bytes), `already_parsed` when a framework parsed or consumed the body before the
 * receiver saw it.
 */
export interface BodyReadProblem {
  /** What went wrong. */
  readonly problem: 'too_large' | 'already_parsed';
  /** A sentence saying what to fix, for `already_parsed` (it names the framework's parser). */
  readonly hint?: string;
}

/**
 * Reads the raw body of a request, stopping as soon as more than `limit` bytes have come (then it
 * resolves to `{ problem: 'too_large' }`). Adapters to a framework provide one; the receiver and the
 * mock call it only once a request got as far as its body (method, credentials, content type).
 */
export type BodyReader = (limit: number) => Promise<RawBody | BodyReadProblem>;

/**
 * Whether a body reader's result is a {@link BodyReadProblem} (an object with a string `problem`)
 * rather than a body.
 * @param value what the reader resolved to.
 */
export function isBodyReadProblem(value: unknown): value is BodyReadProblem {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { problem?: unknown }).problem === 'string'
  );
}

/**
 * Collects the chunks of a body as they arrive, keeping at most `limit` bytes: the one count of the
 * stream readers (web streams, Node streams). Once a chunk takes the total past the limit, every
 * chunk is dropped and {@link BodyCollector.add} answers `false`: the reader stops reading and
 * reports `{ problem: 'too_large' }`.
 * @example
 * const body = new BodyCollector(limit);
 * for await (const chunk of stream) if (!body.add(chunk)) return { problem: 'too_large' };
 * return body.bytes();
 */
export class BodyCollector {
  /** The most bytes kept. */
  readonly limit: number;
  #chunks: Uint8Array[] = [];
  #size = 0;

  /**
   * An empty collector.
   * @param limit the most bytes kept, a whole number, 0 or more.
   */
  constructor(limit: number) {
    this.limit = limit;
  }

  /**
   * Adds a chunk.
   * @param chunk the bytes that came.
   * @returns `true` while the total is within the limit; `false` once it is past it (nothing is kept
   *   from then on).
   */
  add(chunk: Uint8Array): boolean {
    this.#size += chunk.byteLength;
    if (this.#size > this.limit) {
      this.#chunks = [];
      return false;
    }
    this.#chunks.push(chunk);
    return true;
  }

  /** The chunks kept, joined (a single chunk is returned as it is); none once past the limit. */
  bytes(): Uint8Array {
    const chunks = this.#chunks;
    if (chunks.length === 1 && chunks[0]) return chunks[0];
    const out = new Uint8Array(this.#size > this.limit ? 0 : this.#size);
    let offset = 0;
    for (const chunk of chunks) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return out;
  }
}

/**
 * Reads a request body within a size limit, the one rule of the mock server and the webhook receiver:
 *
 * 1. a declared `Content-Length` that is a plain decimal number (spaces around it allowed) over
 *    `limit` is `too_large` before anything is read: neither the reader is called nor the body
 *    looked at (any other `Content-Length` is ignored: the body is counted instead);
 * 2. a {@link BodyReader} is called with `limit` (what it throws is thrown: the connection broke);
 *    its {@link BodyReadProblem} is answered as it is;
 * 3. the body (given, or read) is counted: a string in UTF-8 bytes (one with more characters than
 *    `limit` is refused before it is encoded), bytes by their length. Over `limit` is `too_large`,
 *    also when a reader did not keep to the limit.
 *
 * `null` or `undefined` (given, or from a reader) is an empty body; any other value that is not a
 * {@link RawBody} (a body a framework parsed, given or from a reader) is
 * `{ problem: 'already_parsed' }`, without a hint: only a reader's answer is taken as a
 * {@link BodyReadProblem}, never a given body.
 * @param body the raw body, or a reader of it.
 * @param contentLength the request's `Content-Length` header, `undefined` when there is none.
 * @param limit the largest body accepted, bytes (a whole number, 0 or more).
 * @returns the raw body, unchanged, or why there is none.
 */
export async function readBoundedBody(
  body: RawBody | BodyReader | null | undefined,
  contentLength: string | undefined,
  limit: number,
): Promise<RawBody | BodyReadProblem> {
  if (declaredLengthExceeds(contentLength, limit)) {
    return { problem: 'too_large' };
  }
  const fromReader = typeof body === 'function';
  return boundBody(fromReader ? await body(limit) : body, fromReader, limit);
}

/**
 * Rule 3 of {@link readBoundedBody} alone, for a reader that calls back rather than returning a
 * promise (the webhook receiver's Node adapter): what was read (or given) checked and counted.
 * @param read the body given, or what a reader answered.
 * @param fromReader whether a reader answered it (only a reader's answer is taken as a
 *   {@link BodyReadProblem}).
 * @param limit the largest body accepted, bytes.
 */
export function boundBody(read: unknown, fromReader: boolean, limit: number): RawBody | BodyReadProblem {
  if (read === undefined || read === null) return '';
  if (fromReader && isBodyReadProblem(read)) return read;
  if (typeof read !== 'string' && !(read instanceof Uint8Array) && !(read instanceof ArrayBuffer)) {
    return { problem: 'already_parsed' };
  }
  return rawBodyExceeds(read, limit) ? { problem: 'too_large' } : read;
}

/**
 * Rule 1 of {@link readBoundedBody} alone: whether a `Content-Length` is a plain decimal number
 * (spaces around it allowed) over `limit`, so that the body is `too_large` before it is read; none
 * (`undefined`, which reads "undefined") is not a number.
 * @param contentLength the request's `Content-Length` header, `undefined` when there is none.
 * @param limit the largest body accepted, bytes.
 */
export function declaredLengthExceeds(contentLength: string | undefined, limit: number): boolean {
  // Disjoint classes, anchored: linear.
  return /^\s*\d+\s*$/.test(String(contentLength)) && Number(contentLength) > limit;
}

/**
 * Whether a raw body has more than `limit` bytes; a string counts the bytes UTF-8 gives it
 * (`TextEncoder`'s count), and one of more characters than `limit` is refused before it is encoded.
 */
function rawBodyExceeds(body: RawBody, limit: number): boolean {
  if (typeof body !== 'string') return body.byteLength > limit;
  // A string has at least as many UTF-8 bytes as UTF-16 code units.
  return body.length > limit || new TextEncoder().encode(body).byteLength > limit;
}
