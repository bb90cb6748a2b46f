import { Readable } from 'node:stream';
import {
  createFetchHandler,
  createTestDelivery,
  createWebhookReceiver,
  generateNotification,
  readWebStream,
} from '@iacm/webhook-receiver';
import { describe, expect, it } from 'vitest';
import { readNodeBody } from '../src/node.js';
import { basic } from './helpers.js';

const MiB = 1024 * 1024;
const CHUNK = 16 * 1024;

/** A Node stream that produces `total` bytes lazily and counts how many were pulled from it. */
function countingNodeStream(total: number) {
  const counter = { pulled: 0 };
  const stream = Readable.from(
    (function* () {
      while (counter.pulled < total) {
        counter.pulled += CHUNK;
        yield new Uint8Array(CHUNK).fill(0x20);
      }
    })(),
    { objectMode: false },
  );
  return { stream, counter };
}

/** A web stream that produces `total` bytes on demand and counts how many were pulled from it. */
function countingWebStream(total: number) {
  const counter = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counter.pulled >= total) return controller.close();
        counter.pulled += CHUNK;
        controller.enqueue(new Uint8Array(CHUNK).fill(0x20));
      },
      cancel() {
        counter.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

describe('readNodeBody: counted while reading, never buffered past the limit', () => {
  it('stops pulling a 2 MiB stream soon after 1 MiB', async () => {
    const { stream, counter } = countingNodeStream(2 * MiB);
    const result = await readNodeBody(stream as never, MiB);
    expect(result).toEqual({ problem: 'too_large' });
    // Wait: a stream that kept flowing would pull the rest now.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(counter.pulled).toBeGreaterThan(MiB);
    expect(counter.pulled).toBeLessThan(MiB + 8 * CHUNK);
    expect(stream.isPaused()).toBe(true);
  });

  it('reads a body within the limit whole', async () => {
    const { stream } = countingNodeStream(4 * CHUNK);
    const result = await readNodeBody(stream as never, MiB);
    expect(result).toBeInstanceOf(Uint8Array);
    expect((result as Uint8Array).byteLength).toBe(4 * CHUNK);
  });

  it('uses the bytes or text a parser left in req.body (express.raw / express.text)', async () => {
    const bytes = new TextEncoder().encode('{"text":"hi"}');
    expect(
      await readNodeBody(Object.assign(Readable.from([]), { body: bytes, _body: true }) as never, MiB),
    ).toBe(bytes);
    expect(
      await readNodeBody(Object.assign(Readable.from([]), { body: 'raw', _body: true }) as never, MiB),
    ).toBe('raw');
  });

  it('reports a body express.json() parsed (req.body is an object, req._body is true)', async () => {
    const parsed = Object.assign(Readable.from([]), { body: { text: 'hi' }, _body: true });
    const result = await readNodeBody(parsed as never, MiB);
    expect(result).toMatchObject({ problem: 'already_parsed' });
    expect((result as { hint: string }).hint).toContain('express.json()');
    const emptyParsed = Object.assign(Readable.from([]), { _body: true });
    expect(await readNodeBody(emptyParsed as never, MiB)).toMatchObject({ problem: 'already_parsed' });
  });

  it('reports a stream another middleware already read, instead of hanging', async () => {
    const stream = Readable.from([new Uint8Array([1])]);
    for await (const _ of stream) {
      // consume
    }
    expect(stream.readableEnded).toBe(true);
    expect(await readNodeBody(stream as never, MiB)).toMatchObject({ problem: 'already_parsed' });
  });

  it('rejects when the stream errors or closes before its end', async () => {
    const broken = new Readable({
      read() {
        this.destroy(new Error('ECONNRESET'));
      },
    });
    await expect(readNodeBody(broken as never, MiB)).rejects.toThrow('ECONNRESET');
    const closed = new Readable({
      read() {
        this.push(new Uint8Array([1]));
        this.destroy();
      },
    });
    await expect(readNodeBody(closed as never, MiB)).rejects.toThrow(/closed/);
  });
});

describe('readWebStream', () => {
  it('stops pulling a 2 MiB stream right after 1 MiB and cancels it', async () => {
    const { stream, counter } = countingWebStream(2 * MiB);
    expect(await readWebStream(stream, MiB)).toEqual({ problem: 'too_large' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(counter.pulled).toBe(MiB + CHUNK);
    expect(counter.cancelled).toBe(true);
    // Released, as documented: the caller may read what is left or cancel it again.
    expect(stream.locked).toBe(false);
  });

  it('reads a stream within the limit whole, and null as empty', async () => {
    const { stream } = countingWebStream(3 * CHUNK);
    expect(((await readWebStream(stream, MiB)) as Uint8Array).byteLength).toBe(3 * CHUNK);
    // Read to its end: closed, and still locked (releasing would cost an error object per body).
    expect(stream.locked).toBe(true);
    expect(await readWebStream(null, MiB)).toEqual(new Uint8Array(0));
  });

  it('releases a stream that fails, and passes its error on', async () => {
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });
    await expect(readWebStream(failing, MiB)).rejects.toThrow('connection reset');
    expect(failing.locked).toBe(false);
  });
});

describe('createFetchHandler (web Request and Response, no server)', () => {
  const receiver = createWebhookReceiver({ credentials: basic });
  const handler = createFetchHandler(receiver);
  const delivery = createTestDelivery({
    notification: generateNotification('InsightDetected'),
    credentials: basic,
  });

  it('answers 200 to a delivery', async () => {
    const response = await handler(new Request('https://example.test/webhooks', delivery));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, kind: 'InsightDetected' });
  });

  it('answers 413 to a streamed 2 MiB body after pulling little more than the limit', async () => {
    const { stream, counter } = countingWebStream(2 * MiB);
    const request = new Request('https://example.test/webhooks', {
      method: 'POST',
      headers: delivery.headers,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const response = await handler(request);
    expect(response.status).toBe(413);
    expect(counter.pulled).toBeLessThan(MiB + 4 * CHUNK);
  });

  it('answers 500 body_already_parsed when the body was read before', async () => {
    const request = new Request('https://example.test/webhooks', delivery);
    await request.text();
    const response = await handler(request);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe('body_already_parsed');
    expect(body.message).toContain('request.json()');
  });

  it('answers 405 with Allow to GET', async () => {
    const response = await handler(new Request('https://example.test/webhooks'));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
