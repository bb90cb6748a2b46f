/**
 * The buffers the standalone server writes answers into, reused: a page of 25 workspaces is about
 * 25 kB, and a fresh buffer of that size per request (zero-filled, tracked and freed by the garbage
 * collector) cost about four times the copy of the answer into it. A buffer goes back to the pool only
 * once its answer has been handed to the operating system (the response's `finish`); an answer that
 * never finishes (the connection closed first) keeps its buffer, which the garbage collector frees.
 *
 * Bounded: at most {@link ANSWER_BUFFER_POOL}`.maxBuffers` buffers wait in the pool, each at most
 * `maxBufferBytes` long (a larger answer gets a buffer of its own, never pooled).
 *
 * @module
 */

/** The pool's bounds: buffers waiting for reuse, and the largest buffer pooled, bytes. */
export const ANSWER_BUFFER_POOL = {
  /** Buffers waiting for reuse, at most (8). */
  maxBuffers: 8,
  /** The largest buffer pooled, bytes (1 MiB: 8 MiB at most in the pool). */
  maxBufferBytes: 1024 * 1024,
  /** The smallest buffer made for the pool, bytes (64 KiB: a page of 25 workspaces fits). */
  minBufferBytes: 64 * 1024,
} as const;

/** Answer buffers for reuse (see the module's comment). */
export class AnswerBuffers {
  readonly #free: Buffer[] = [];

  /** How many buffers wait for reuse. */
  get waiting(): number {
    return this.#free.length;
  }

  /**
   * A buffer at least `bytes` long: a waiting one, or a new one (not zero-filled: the caller writes
   * what it answers and sends only that). Give it back with {@link give} once nothing reads it.
   */
  take(bytes: number): Buffer {
    const free = this.#free;
    for (let i = free.length - 1; i >= 0; i--) {
      const buffer = free[i] as Buffer;
      if (buffer.length >= bytes) {
        free[i] = free[free.length - 1] as Buffer;
        free.pop();
        return buffer;
      }
    }
    if (bytes > ANSWER_BUFFER_POOL.maxBufferBytes) return Buffer.allocUnsafeSlow(bytes);
    let size = ANSWER_BUFFER_POOL.minBufferBytes;
    while (size < bytes) size *= 2;
    return Buffer.allocUnsafeSlow(size);
  }

  /** Takes a buffer back for reuse (one larger than the pool keeps, or past its count, is left to the GC). */
  give(buffer: Buffer): void {
    if (buffer.length > ANSWER_BUFFER_POOL.maxBufferBytes) return;
    // Given twice, a buffer would be written by two answers at once: it is kept once.
    if (this.#free.length >= ANSWER_BUFFER_POOL.maxBuffers || this.#free.includes(buffer)) return;
    this.#free.push(buffer);
  }
}
