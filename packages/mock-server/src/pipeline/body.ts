/**
 * The body stage: the request body, read and parsed only when a stage asks for it (after the rate
 * limit, the faults and, on authenticated routes, authentication), at most once. A body the adapter
 * parsed is taken as it is; raw text must be JSON (`Content-Type: application/json` or `+json`, or no
 * content type): 415 for another media type, 400 `invalid_json` for text that is not JSON. The
 * adapters bound its size while reading it (`maxBodyBytes` of the standalone server, 413 beyond).
 *
 * @module
 */
import { type MockRequest, readHeader } from '../core/http.js';
import { HttpError } from '../errors.js';

/** A request's body, parsed on first use. */
export class RequestBody {
  readonly #request: MockRequest;
  #parsed: { value: unknown } | { error: unknown } | undefined;

  /** Wraps a request's body; nothing is read yet. */
  constructor(request: MockRequest) {
    this.#request = request;
  }

  /** Whether the body has been parsed (or failed to parse) yet. */
  get read(): boolean {
    return this.#parsed !== undefined;
  }

  /** The parsed body (`undefined` for none); throws 415 or 400 when it is not JSON. */
  value(): unknown {
    if (!this.#parsed) {
      try {
        this.#parsed = { value: parseBody(this.#request) };
      } catch (error) {
        this.#parsed = { error };
      }
    }
    if ('error' in this.#parsed) throw this.#parsed.error;
    return this.#parsed.value;
  }
}

/** Parses a request's body: the adapter's parsed body, or its raw text as JSON. */
export function parseBody(request: MockRequest): unknown {
  if (request.rawBody === undefined) return request.body;
  if (request.rawBody.trim() === '') return undefined;
  const contentType = readHeader(request.headers, 'content-type');
  if (contentType && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim())) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      `expected a JSON body with Content-Type: application/json, received Content-Type: ${truncate(contentType)}`,
    );
  }
  try {
    return JSON.parse(request.rawBody);
  } catch (error) {
    throw new HttpError(400, 'invalid_json', `the body is not valid JSON: ${(error as Error).message}`);
  }
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
