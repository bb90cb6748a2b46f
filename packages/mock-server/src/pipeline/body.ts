/**
 * The body stage: the request body, read, size-checked and parsed only when a stage asks for it
 * (after the rate limit, the faults and, on authenticated routes, authentication), at most once.
 *
 * - Size: a declared `Content-Length` over the limit is a 413 before anything is read; a body read
 *   on demand (`MockRequest.readBody`, which the adapters give) stops as soon as it passes the limit
 *   (413); a `rawBody` string over the limit is a 413 too. The limit is the mock's `maxBodyBytes`
 *   for the API (1 MiB by default), each control route's own for the control plane.
 * - Media type: raw text must be JSON: `Content-Type: application/json` or `application/<name>+json`
 *   (parameters such as `charset` allowed), or no content type; 415 for any other media type,
 *   `application/json-seq` and `application/json5` included (not JSON texts). A route open without
 *   authentication (`POST /v2/login`) needs the JSON content type: without one it is a 415 too, so
 *   that no web page can send it a body cross-origin without a CORS preflight (a "no-cors" `fetch`
 *   can send a body without a `Content-Type`, never with a JSON one).
 * - A JSON `null` is a value like any other: the route stage refuses it where a body must be an
 *   object, it is never read as an absent body.
 * - JSON: 400 `invalid_json` for text that is not JSON.
 * - Shape bounds: before any schema sees it, a cheap iterative walk (the contract's
 *   `checkJsonBounds`) refuses a body nested more than 64 levels, with an array or object of more than
 *   10,000 entries, or more than 1,000,000 values: 400 `validation_failed` naming the path and the
 *   limit. So validation never works on absurd input, and nothing the mock stores is too deep to
 *   serialise.
 *
 * A body the adapter parsed itself (`MockRequest.body`) is taken as it is.
 *
 * @module
 */
import { checkJsonBounds, type JsonBounds } from '@iacm/sdk/contract';
import type { BodyReadProblem, RawBody } from '@iacm/webhook-receiver';
import { HttpError } from '../errors.js';
import { type MockRequest, readHeader } from '../http/message.js';
import { type JournalBody, NOT_KEPT } from './journal.js';

/** The largest API request body by default, bytes (1 MiB, as the service). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const decoder = new TextDecoder();

/** Options of {@link RequestBody.value}. */
export interface BodyReadOptions {
  /**
   * Whether a body without a `Content-Type` is refused (415), as on a route open without
   * authentication. Default false: no content type reads as JSON.
   */
  requireContentType?: boolean;
  /**
   * The shape bounds of the parsed JSON (the contract's `checkJsonBounds`); default its defaults
   * (depth 64, 10,000 entries per list, 1,000,000 values). A control route may name its own
   * (`PUT /__mock/state`, whose snapshots hold long lists).
   */
  jsonBounds?: JsonBounds | undefined;
}

/** A request's body, read and parsed on first use. */
export class RequestBody {
  readonly #request: MockRequest;
  #parsed: Promise<unknown> | undefined;
  #settled: { value: unknown } | { error: unknown } | undefined;
  #trusted = false;

  /** Wraps a request's body; nothing is read yet. */
  constructor(request: MockRequest) {
    this.#request = request;
  }

  /** Whether a stage asked for the body (it may have failed to read or parse). */
  get read(): boolean {
    return this.#parsed !== undefined;
  }

  /**
   * The parsed body (`undefined` for none), read with at most `limit` bytes; rejects with 413, 415
   * or 400. Later calls answer the first call's result, whatever their limit.
   */
  value(limit: number, options: BodyReadOptions = {}): Promise<unknown> {
    this.#parsed ??= readAndParse(
      this.#request,
      limit,
      options.requireContentType === true,
      options.jsonBounds,
    ).then(
      (value) => {
        this.#settled = { value };
        return value;
      },
      (error: unknown) => {
        this.#settled = { error };
        throw error;
      },
    );
    return this.#parsed;
  }

  /**
   * The body as read, for the journal: the parsed value, or throws what reading threw; `undefined`
   * while it is not read (or not yet settled).
   */
  settled(): unknown {
    if (!this.#settled) return undefined;
    if ('error' in this.#settled) throw this.#settled.error;
    return this.#settled.value;
  }

  /**
   * Marks the request's sender as known: it authenticated (a bearer token, control access), or its
   * open route succeeded (a login with the right keys). Only then may the journal keep its body.
   */
  trust(): void {
    this.#trusted = true;
  }

  /**
   * The body as the journal is given it: `undefined` when no stage read it, `[not kept]` when it was
   * read but its sender never authenticated (a failed login: whatever the refusal, 400 or 401), else
   * the body as read ({@link settled}).
   */
  forJournal(): JournalBody {
    if (!this.read) return undefined;
    return this.#trusted ? () => this.settled() : NOT_KEPT;
  }
}

/** A 413 naming the limit. */
export function payloadTooLarge(limit: number): HttpError {
  return new HttpError(
    413,
    'payload_too_large',
    `the body is larger than ${limit} bytes, the limit of this route`,
  );
}

async function readAndParse(
  request: MockRequest,
  limit: number,
  requireContentType: boolean,
  jsonBounds?: JsonBounds,
): Promise<unknown> {
  if (request.body !== undefined && request.rawBody === undefined) return request.body;
  const text = await readText(request, limit);
  return text === undefined
    ? request.body
    : parseJsonText(text, readHeader(request.headers, 'content-type'), requireContentType, jsonBounds);
}

/** The body's text, size-checked; `undefined` when the request carries none. */
async function readText(request: MockRequest, limit: number): Promise<string | undefined> {
  if (request.rawBody !== undefined) {
    // A string has at least as many UTF-8 bytes as UTF-16 code units: refuse it before encoding.
    if (request.rawBody.length > limit) throw payloadTooLarge(limit);
    if (new TextEncoder().encode(request.rawBody).byteLength > limit) throw payloadTooLarge(limit);
    return request.rawBody;
  }
  if (!request.readBody) return undefined;
  const declared = readHeader(request.headers, 'content-length');
  if (declared !== undefined && isDecimal(declared) && Number(declared) > limit) throw payloadTooLarge(limit);
  const read = await request.readBody(limit);
  if (isProblem(read)) {
    if (read.problem === 'too_large') throw payloadTooLarge(limit);
    throw new HttpError(
      400,
      'invalid_json',
      read.hint ?? 'the request body was already read by something else',
    );
  }
  return toText(read);
}

function isProblem(read: RawBody | BodyReadProblem): read is BodyReadProblem {
  return typeof read === 'object' && 'problem' in read;
}

function toText(body: RawBody): string {
  return typeof body === 'string' ? body : decoder.decode(body);
}

/** Whether a header value is a plain decimal number (linear; no regular expression). */
function isDecimal(value: string): boolean {
  const text = value.trim();
  if (text.length === 0 || text.length > 20) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Parses raw body text as JSON, checking the media type first: a `Content-Type` must name JSON, and
 * with `requireContentType` there must be one (415 otherwise). Empty text is no body.
 */
export function parseJsonText(
  text: string,
  contentType: string | undefined,
  requireContentType = false,
  jsonBounds?: JsonBounds,
): unknown {
  if (text.trim() === '') return undefined;
  if (contentType === undefined ? requireContentType : !isJsonMediaType(contentType)) {
    const received = contentType === undefined ? 'no Content-Type' : `Content-Type: ${truncate(contentType)}`;
    throw new HttpError(
      415,
      'unsupported_media_type',
      `expected a JSON body with Content-Type: application/json (or application/<name>+json), received ${received}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(
      400,
      'invalid_json',
      `the body is not valid JSON: ${truncate((error as Error).message)}`,
    );
  }
  const problem = checkJsonBounds(value, jsonBounds);
  if (problem) {
    const { location, path, message, expected, received } = problem;
    throw new HttpError(400, 'validation_failed', message, {
      issues: [{ location, path, message, expected, received }],
    });
  }
  return value;
}

/**
 * Whether a `Content-Type` value names JSON: its media type (before any `;` parameters, any case) is
 * `application/json` or `application/<name>+json` (RFC 6839), `<name>` being a media type name
 * (letters, digits and `!#$&-^_.+`). `application/json-seq`, `application/jsonl` or `text/json`
 * are not. Linear, without a regular expression over the header.
 */
function isJsonMediaType(contentType: string): boolean {
  const semicolon = contentType.indexOf(';');
  const essence = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  if (essence === 'application/json') return true;
  const prefix = 'application/';
  const suffix = '+json';
  if (!essence.startsWith(prefix) || !essence.endsWith(suffix)) return false;
  const name = essence.slice(prefix.length, essence.length - suffix.length);
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const ok = (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || '!#$&-^_.+'.includes(name[i] as string);
    if (!ok) return false;
  }
  return true;
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
