/**
 * Reading the raw request body from a web stream, never past the size limit. The body forms, the
 * reader's type and the limit rule itself (count, `Content-Length`, `too_large`) are the contract's
 * (`@iacm/sdk/contract`, `http.ts`), shared with the mock server; the Node stream reader is in
 * `node.ts`.
 *
 * @module
 */
import { BodyCollector, type BodyReadProblem, type RawBody } from '@iacm/sdk/contract';

const encoder = new TextEncoder();

/** The bytes of a raw body (text is encoded as UTF-8). */
export function toBytes(body: RawBody): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(body);
}

/**
 * Reads a web `ReadableStream` body, keeping at most `limit` bytes: as soon as more arrive, reading
 * stops (the stream is cancelled and its lock released) and the result is `{ problem: 'too_large' }`.
 * A `null` body is an empty body. A stream read to its end stays locked (it is closed: there is
 * nothing more to read); one that fails is released.
 */
export async function readWebStream(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array | BodyReadProblem> {
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const body = new BodyCollector(limit);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // Read to its end, the stream is closed and keeps the reader's lock: releasing it would make
      // an error object (with its stack) for the reader's `closed` promise, about 2 µs a body.
      if (done) return body.bytes();
      if (!body.add(value)) {
        // Stop reading: the rest is never pulled, and the runtime may drop the connection.
        reader.cancel().catch(() => {});
        reader.releaseLock();
        return { problem: 'too_large' };
      }
    }
  } catch (error) {
    reader.releaseLock();
    throw error;
  }
}
