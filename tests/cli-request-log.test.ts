/**
 * The request log of `iacm-mock`: what each line shows, that secrets in query strings never reach
 * it, and that a stalled reader makes it drop lines (and say how many) instead of blocking the
 * server or buffering without bound.
 */
import { describe, expect, it } from 'vitest';
import {
  DroppingLineWriter,
  formatRequestLine,
  type LogStream,
  maskSecrets,
  RequestLog,
} from '../packages/mock-server/src/adapters/request-log.js';

/** A stream that accepts writes until told it is full, then waits for a `drain` the test emits. */
class FakeStream implements LogStream {
  readonly chunks: string[] = [];
  full = false;
  #drain: Array<() => void> = [];

  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return !this.full;
  }

  once(_event: 'drain', listener: () => void): unknown {
    this.#drain.push(listener);
    return this;
  }

  /** How many listeners wait for `drain`. */
  get waiting(): number {
    return this.#drain.length;
  }

  drain(): void {
    this.full = false;
    const listeners = this.#drain.splice(0);
    for (const listener of listeners) listener();
  }
}

const at = new Date('2026-03-04T05:06:07.089Z');

describe('maskSecrets', () => {
  it.each([
    ['/v2/x?pageSize=5&access_token=abc', '/v2/x?pageSize=5&access_token=***'],
    ['/v2/x?apiKey=1&KEY=2&secret=3&password=4', '/v2/x?apiKey=***&KEY=***&secret=***&password=***'],
    [
      '/x?X-Amz-Signature=s&Authorization=a&credentials=c',
      '/x?X-Amz-Signature=***&Authorization=***&credentials=***',
    ],
    ['/x?continuationToken=eyJ', '/x?continuationToken=***'],
    ['/x?my%5Ftoken=v&a=b', '/x?my%5Ftoken=***&a=b'],
    ['/x?token', '/x?token=***'],
    ['/x?pageSize=5&sort=name%20asc&q=a+b', '/x?pageSize=5&sort=name%20asc&q=a+b'],
    ['/v2/workspaces/search', '/v2/workspaces/search'],
  ])('%s → %s', (url, masked) => {
    expect(maskSecrets(url)).toBe(masked);
  });

  it('never lets the value of a secret-looking parameter through, whatever its encoding', () => {
    const url = '/x?%74oken=SECRET1&Api-Key=SECRET2&a=1&authCode=SECRET3&%E0%A4%A=SECRET4';
    const masked = maskSecrets(url);
    expect(masked).not.toMatch(/SECRET[123]/);
    expect(masked).toContain('a=1');
  });
});

describe('formatRequestLine', () => {
  it('text: time, method, masked path, status, milliseconds', () => {
    const line = formatRequestLine(
      { method: 'POST', url: '/v2/workspaces/search?pageSize=5&token=t0k', status: 200, durationMs: 3.12 },
      'text',
      at,
    );
    expect(line).toBe('05:06:07.089 POST /v2/workspaces/search?pageSize=5&token=*** 200 3.1 ms');
  });

  it('text: a connection closed without an answer says so', () => {
    const line = formatRequestLine(
      { method: 'GET', url: '/v2/health', status: undefined, durationMs: 2 },
      'text',
      at,
    );
    expect(line).toBe('05:06:07.089 GET /v2/health no-answer 2 ms');
  });

  it('json: one object with time, method, path, status and ms', () => {
    const line = formatRequestLine(
      { method: 'GET', url: '/v2/health?secret=x', status: 204, durationMs: 0.26 },
      'json',
      at,
    );
    expect(JSON.parse(line)).toEqual({
      time: '2026-03-04T05:06:07.089Z',
      method: 'GET',
      path: '/v2/health?secret=***',
      status: 204,
      ms: 0.3,
    });
    expect(line).not.toContain('\n');
  });
});

describe('DroppingLineWriter', () => {
  it('writes every line while the stream keeps up', () => {
    const stream = new FakeStream();
    const writer = new DroppingLineWriter(stream);
    writer.line('a');
    writer.line('b');
    expect(stream.chunks).toEqual(['a\n', 'b\n']);
    expect(writer.dropped).toBe(0);
  });

  it('drops lines while write() says the stream is full, then reports how many after drain', () => {
    const stream = new FakeStream();
    const writer = new DroppingLineWriter(stream);
    writer.line('first');
    stream.full = true;
    writer.line('accepted but full'); // write() returns false: this one is buffered by the stream
    for (let i = 0; i < 1000; i++) writer.line(`dropped ${i}`);
    // Nothing more reached the stream: one write, and one drain listener, however many lines came.
    expect(stream.chunks).toEqual(['first\n', 'accepted but full\n']);
    expect(stream.waiting).toBe(1);
    expect(writer.dropped).toBe(1000);

    stream.drain();
    expect(stream.chunks.at(-1)).toBe('(1000 log lines dropped)\n');
    writer.line('after');
    expect(stream.chunks.at(-1)).toBe('after\n');
    expect(writer.dropped).toBe(1000);
  });

  it('says nothing after drain when nothing was dropped, and reports one line in the singular', () => {
    const stream = new FakeStream();
    const writer = new DroppingLineWriter(stream);
    stream.full = true;
    writer.line('x');
    stream.drain();
    expect(stream.chunks).toEqual(['x\n']);
    stream.full = true;
    writer.line('y');
    writer.line('lost');
    stream.drain();
    expect(stream.chunks).toEqual(['x\n', 'y\n', '(1 log line dropped)\n']);
  });

  it('when the drop report itself fills the stream, keeps counting for the next drain', () => {
    const stream = new FakeStream();
    const writer = new DroppingLineWriter(stream);
    stream.full = true;
    writer.line('x');
    writer.line('lost 1');
    writer.line('lost 2');
    // The drain listener writes the report; the stream is full again at once.
    const write = stream.write.bind(stream);
    stream.write = (chunk: string) => {
      write(chunk);
      return false;
    };
    stream.drain();
    writer.line('lost 3');
    expect(stream.chunks).toEqual(['x\n', '(2 log lines dropped)\n']);
    stream.write = write;
    stream.drain();
    expect(stream.chunks).toEqual(['x\n', '(2 log lines dropped)\n', '(1 log line dropped)\n']);
    expect(writer.dropped).toBe(3);
  });

  it('stops writing after the stream failed (the reader went away)', () => {
    const stream = new FakeStream();
    stream.write = () => {
      throw new Error('write EPIPE');
    };
    const writer = new DroppingLineWriter(stream);
    expect(() => writer.line('a')).not.toThrow();
    writer.line('b');
    expect(writer.dropped).toBe(1);
  });
});

describe('RequestLog', () => {
  it('reports at stop() the lines dropped since the last drain, which would otherwise never be told', () => {
    const stream = new FakeStream();
    const log = new RequestLog(stream, 'text', () => at);
    const entry = { method: 'GET', url: '/v2/health', status: 204, durationMs: 1 };
    stream.full = true;
    log.log(entry); // accepted into the stream's buffer, which is now full
    log.log(entry);
    log.log(entry);
    stream.drain(); // reports the two
    stream.full = true;
    log.log(entry); // accepted; the stream is full again
    for (let i = 0; i < 5; i++) log.log(entry); // no drain comes before the server stops
    expect(log.stop()).toBe(5);
    expect(stream.chunks.slice(-3)).toEqual([
      '(2 log lines dropped)\n',
      '05:06:07.089 GET /v2/health 204 1 ms\n',
      '(5 log lines dropped)\n',
    ]);
    // Nothing is reported twice: not by a later drain, nor by a second stop().
    stream.drain();
    expect(log.stop()).toBe(0);
    expect(stream.chunks.at(-1)).toBe('(5 log lines dropped)\n');
    expect(log.dropped).toBe(7);
  });

  it('stop() says nothing when nothing is pending, or when the stream failed', () => {
    const stream = new FakeStream();
    const log = new RequestLog(stream, 'json', () => at);
    log.log({ method: 'GET', url: '/', status: 200, durationMs: 1 });
    expect(log.stop()).toBe(0);
    expect(stream.chunks).toHaveLength(1);
    stream.full = true;
    log.log({ method: 'GET', url: '/', status: 200, durationMs: 1 });
    log.log({ method: 'GET', url: '/', status: 200, durationMs: 1 });
    log.markBroken();
    expect(log.stop()).toBe(0);
    expect(stream.chunks).toHaveLength(2);
  });

  it('in json, the report at stop() is one JSON object', () => {
    const stream = new FakeStream();
    const log = new RequestLog(stream, 'json', () => at);
    stream.full = true;
    log.log({ method: 'GET', url: '/', status: 200, durationMs: 1 });
    log.log({ method: 'GET', url: '/', status: 200, durationMs: 1 });
    log.stop();
    expect(JSON.parse(stream.chunks.at(-1) as string)).toEqual({
      dropped: 1,
      message: '(1 log line dropped)',
    });
  });

  it('in json, every line (the drop report too) is one JSON object', () => {
    const stream = new FakeStream();
    const log = new RequestLog(stream, 'json', () => at);
    stream.full = true;
    log.log({ method: 'GET', url: '/', status: 200, durationMs: 1 });
    log.log({ method: 'GET', url: '/', status: 200, durationMs: 1 });
    stream.drain();
    const lines = stream.chunks.join('').trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { time: at.toISOString(), method: 'GET', path: '/', status: 200, ms: 1 },
      { dropped: 1, message: '(1 log line dropped)' },
    ]);
    expect(log.dropped).toBe(1);
  });
});
