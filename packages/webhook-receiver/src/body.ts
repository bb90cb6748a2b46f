/**
 * The raw request body: the forms the receiver accepts, and a reader for web streams that stops
 * reading past the size limit.
 *
 * @module
 */

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
 * resolves to `{ problem: 'too_large' }`). Adapters to a framework provide one; the receiver calls it
 * only after the method, the credentials and the content type were accepted.
 */
export type BodyReader = (limit: number) => Promise<RawBody | BodyReadProblem>;

const encoder = new TextEncoder();

/** Whether a body reader's result is a {@link BodyReadProblem}. */
export function isBodyReadProblem(value: RawBody | BodyReadProblem): value is BodyReadProblem {
  return (
    typeof value === 'object' &&
    !(value instanceof Uint8Array) &&
    !(value instanceof ArrayBuffer) &&
    typeof (value as { problem?: unknown }).problem === 'string'
  );
}

/** The bytes of a raw body (text is encoded as UTF-8). */
export function toBytes(body: RawBody): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(body);
}

/** Joins chunks into one byte array. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Reads a web `ReadableStream` body, keeping at most `limit` bytes: as soon as more arrive, reading
 * stops and the result is `{ problem: 'too_large' }`. A `null` body is an empty body.
 */
export async function readWebStream(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array | BodyReadProblem> {
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return concatBytes(chunks, size);
      size += value.byteLength;
      if (size > limit) {
        // Stop reading: the rest is never pulled, and the runtime may drop the connection.
        reader.cancel().catch(() => {});
        return { problem: 'too_large' };
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
}
