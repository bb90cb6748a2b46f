/**
 * The body stage: the request body, read, size-checked and parsed only when a stage asks for it
 * (after the rate limit, the faults and, on authenticated routes, authentication), at most once.
 *
 * - Size (the contract's `readBoundedBody`, the webhook receiver's rule too): a declared
 *   `Content-Length` over the limit is a 413 before anything is read; a body read on demand
 *   (`MockRequest.readBody`, which the adapters give) stops as soon as it passes the limit (413); a
 *   `rawBody` string, or what a reader gave, over the limit is a 413 too. The limit is the mock's
 *   `maxBodyBytes` for the API (1 MiB by default), each control route's own for the control plane.
 * - Media type (the contract's `checkJsonMediaType`, the webhook receiver's rule too): raw text must
 *   be JSON: `Content-Type: application/json` or `application/<name>+json` (parameters allowed; a
 *   `charset` must name UTF-8), or no content type; 415 for any other media type or charset,
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
 * - Memory: a body's text is charged to the memory budget's `requests` store by what it takes once
 *   parsed and checked (`jsonTextHeapBytes`), before it is parsed, and given back when the request
 *   is answered: many large bodies at once (parallel in-process fetches of megabytes of `{}`) get a
 *   409 `budget_exceeded` instead of running the heap out. The only body in flight is always read,
 *   whatever its size (a large snapshot: the heap is sized for it, as for start data).
 *
 * A body the adapter parsed itself (`MockRequest.body`) is taken as it is (the caller holds it).
 *
 * @module
 */
import {
  checkJsonBounds,
  checkJsonMediaType,
  isBodyReadProblem,
  type JsonBounds,
  type RawBody,
  readBoundedBody,
  readHeader,
} from '@iacm/sdk/contract';
import { HttpError } from '../errors.js';
import type { MockRequest } from '../http/message.js';
import { clip } from '../http/objects.js';
import { jsonTextHeapBytes, type Ledger } from '../store/budget.js';
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
  readonly #ledger: Ledger | undefined;
  /** What the body's text is charged to the `requests` ledger until {@link release}. */
  #charged = 0;
  #parsed: Promise<unknown> | undefined;
  #settled: { value: unknown } | { error: unknown } | undefined;
  #trusted = false;

  /**
   * Wraps a request's body; nothing is read yet.
   * @param ledger the memory budget's `requests` ledger, charged what the body's text takes once
   *   parsed until {@link release} (none: not charged).
   */
  constructor(request: MockRequest, ledger?: Ledger) {
    this.#request = request;
    this.#ledger = ledger;
  }

  /** Gives back what the body is charged (it is checked, or the request is answered). */
  release(): void {
    this.#ledger?.release(this.#charged);
    this.#charged = 0;
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
      (text) => {
        // Before it is parsed: a 409 budget_exceeded parses nothing. The only body in flight in the
        // whole mock (its sessions' included) is always read (charged whatever the budget says: a
        // snapshot of 256 MiB is the heap's to hold, as start data is); past the budget, the bodies
        // that come while others are held, in this session or any other, are refused.
        if (!this.#ledger || text.length === 0) return;
        const bytes = jsonTextHeapBytes(text);
        this.#ledger.charge(bytes, this.#ledger.heldInMock === 0);
        this.#charged += bytes;
      },
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
   * Marks the request's sender as known: it authenticated (a bearer token, control access), or its
   * open route succeeded (a login with the right keys). Only then may the journal keep its body.
   */
  trust(): void {
    this.#trusted = true;
  }

  /**
   * The body as the journal is given it: `undefined` when no stage read it, `[not kept]` when it was
   * read but its sender never authenticated (a failed login: whatever the refusal, 400 or 401), else
   * what reading it gave (the value, `undefined` while it is still being read, or the error).
   */
  forJournal(): JournalBody {
    if (!this.read) return undefined;
    return this.#trusted ? (this.#settled ?? { value: undefined }) : NOT_KEPT;
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
  jsonBounds: JsonBounds | undefined,
  charge: (text: string) => void,
): Promise<unknown> {
  if (request.body !== undefined && request.rawBody === undefined) return request.body;
  const text = await readText(request, limit);
  if (text === undefined) return request.body;
  charge(text);
  return parseJsonText(text, readHeader(request.headers, 'content-type'), requireContentType, jsonBounds);
}

/**
 * The body's text, size-checked by the contract's rule (`readBoundedBody`, the receiver's too): a
 * declared `Content-Length` over the limit before reading, the reader stopped past it, a raw text
 * counted in UTF-8 bytes. `undefined` when the request carries none.
 */
async function readText(request: MockRequest, limit: number): Promise<string | undefined> {
  const body = request.rawBody ?? request.readBody;
  if (body === undefined) return undefined;
  const read = await readBoundedBody(body, readHeader(request.headers, 'content-length'), limit);
  if (isBodyReadProblem(read)) {
    if (read.problem === 'too_large') throw payloadTooLarge(limit);
    throw new HttpError(
      400,
      'invalid_json',
      read.hint ?? 'the request body was already read by something else',
    );
  }
  return toText(read);
}

function toText(body: RawBody): string {
  return typeof body === 'string' ? body : decoder.decode(body);
}

/**
 * Parses raw body text as JSON, checking the media type first: a `Content-Type` must name JSON in
 * UTF-8 (the contract's `checkJsonMediaType`, the receiver's rule too), and with
 * `requireContentType` there must be one (415 otherwise). Empty text is no body.
 */
export function parseJsonText(
  text: string,
  contentType: string | undefined,
  requireContentType = false,
  jsonBounds?: JsonBounds,
): unknown {
  if (text.trim() === '') return undefined;
  // The usual header needs no parsing: JSON, in UTF-8 (the default).
  const mediaProblem = contentType === 'application/json' ? undefined : checkJsonMediaType(contentType);
  if (mediaProblem === 'missing' ? requireContentType : mediaProblem !== undefined) {
    const received =
      contentType === undefined ? 'no Content-Type' : `Content-Type: ${clip(contentType, 120)}`;
    throw new HttpError(
      415,
      'unsupported_media_type',
      mediaProblem === 'charset'
        ? `expected a JSON body in UTF-8: the Content-Type names another charset (received ${received})`
        : `expected a JSON body with Content-Type: application/json (or application/<name>+json), received ${received}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(
      400,
      'invalid_json',
      `the body is not valid JSON: ${clip((error as Error).message, 120)}`,
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
