import { connect } from 'node:net';
import { DEFAULT_SERVER_TIMEOUTS, type ListenOptions, listen } from '@iacm/mock-server/node';
import { describe, expect, it } from 'vitest';
import {
  connectionsCheckInterval,
  MAX_CONNECTIONS_CHECK_MS,
  MIN_CONNECTIONS_CHECK_MS,
} from '../../src/adapters/node.js';

/**
 * What a slow client saw: the bytes the server sent, and whether the server closed the connection
 * within `withinMs`. `withinMs` is an upper bound only (the timeout plus a generous 3 s), never a
 * measure: before the connection checks ran every second, Node checked the headers and whole-request
 * timeouts every 30 s, so these connections stayed open for up to 30 s past their timeout.
 */
interface SlowClient {
  /** Closed by the server before `withinMs`. */
  closed: boolean;
  /** What the server sent (a `408` answer for a headers or whole-request timeout). */
  received: string;
}

/**
 * Opens a raw connection, writes `first`, then writes one byte of `trickle` every 100 ms (so the
 * connection is never silent: only the timeout under test can close it), and reports whether the
 * server closed it within `withinMs`.
 */
function slowClient(
  port: number,
  { first = '', trickle, withinMs }: { first?: string; trickle?: string; withinMs: number },
): Promise<SlowClient> {
  return new Promise((resolve) => {
    let received = '';
    let closed = false;
    const socket = connect(port, '127.0.0.1', () => {
      if (first) socket.write(first);
    });
    const trickler = trickle
      ? setInterval(() => {
          if (socket.writable) socket.write(trickle);
        }, 100)
      : undefined;
    const done = () => {
      clearInterval(trickler);
      clearTimeout(bound);
      socket.destroy();
      resolve({ closed, received });
    };
    const bound = setTimeout(done, withinMs);
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1');
    });
    socket.on('error', () => {
      // A write after the server's close: the close event follows.
    });
    socket.on('close', () => {
      closed = true;
      done();
    });
  });
}

/** The generous upper bound past a timeout: far below the 30 s of Node's default checking interval. */
const SLACK_MS = 3_000;
/** A timeout the test is not about: longer than the test runs. */
const LONG = 60_000;

async function withServer<T>(timeouts: Partial<ListenOptions>, body: (port: number) => Promise<T>) {
  const running = await listen({ port: 0, sizes: { workspaces: 3, events: 10 }, ...timeouts });
  try {
    return await body(running.port);
  } finally {
    await running.close();
  }
}

describe('connection timeouts of the standalone server (L8)', () => {
  it('sets the documented defaults on the node server', async () => {
    const running = await listen({ port: 0, sizes: { workspaces: 3, events: 10 } });
    try {
      expect(running.server.headersTimeout).toBe(DEFAULT_SERVER_TIMEOUTS.headersTimeoutMs);
      expect(running.server.requestTimeout).toBe(DEFAULT_SERVER_TIMEOUTS.requestTimeoutMs);
      expect(running.server.keepAliveTimeout).toBe(DEFAULT_SERVER_TIMEOUTS.keepAliveTimeoutMs);
      expect(running.server.timeout).toBe(DEFAULT_SERVER_TIMEOUTS.idleTimeoutMs);
    } finally {
      await running.close();
    }
  });

  it('checks the headers and whole-request timeouts at least every second (finding 6 of issue 20)', () => {
    expect(connectionsCheckInterval(20_000, 120_000)).toBe(MAX_CONNECTIONS_CHECK_MS);
    expect(MAX_CONNECTIONS_CHECK_MS).toBeLessThanOrEqual(1_000);
    expect(connectionsCheckInterval(300, 120_000)).toBe(300);
    expect(connectionsCheckInterval(5_000, 700)).toBe(700);
    expect(connectionsCheckInterval(1, 1)).toBe(MIN_CONNECTIONS_CHECK_MS);
    expect(connectionsCheckInterval(0, 0)).toBe(MAX_CONNECTIONS_CHECK_MS);
    expect(Number.isInteger(connectionsCheckInterval(300.5, 1_000))).toBe(true);
  });

  it('closes a client that trickles its headers past the headers timeout with 408, within a second', async () => {
    const headersTimeoutMs = 500;
    const seen = await withServer(
      { headersTimeoutMs, requestTimeoutMs: LONG, idleTimeoutMs: LONG, keepAliveTimeoutMs: LONG },
      (port) =>
        slowClient(port, {
          first: 'GET /v2/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ',
          trickle: 'a',
          withinMs: headersTimeoutMs + SLACK_MS,
        }),
    );
    expect(seen.closed).toBe(true);
    expect(seen.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a client that trickles its body past the whole-request timeout with 408, within a second', async () => {
    const requestTimeoutMs = 1_000;
    const seen = await withServer(
      { headersTimeoutMs: 500, requestTimeoutMs, idleTimeoutMs: LONG, keepAliveTimeoutMs: LONG },
      (port) =>
        slowClient(port, {
          // Login reads its body before authenticating: the body is awaited byte by byte.
          first:
            'POST /v2/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"accessKey":"',
          trickle: 'a',
          withinMs: requestTimeoutMs + SLACK_MS,
        }),
    );
    expect(seen.closed).toBe(true);
    expect(seen.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that never sends a byte after the idle timeout', async () => {
    const idleTimeoutMs = 500;
    const seen = await withServer(
      { headersTimeoutMs: LONG, requestTimeoutMs: LONG, idleTimeoutMs, keepAliveTimeoutMs: LONG },
      (port) => slowClient(port, { withinMs: idleTimeoutMs + SLACK_MS }),
    );
    expect(seen).toEqual({ closed: true, received: '' });
  });

  it('closes an idle keep-alive connection after the keep-alive timeout (Node adds 1 s)', async () => {
    const keepAliveTimeoutMs = 500;
    const seen = await withServer(
      { headersTimeoutMs: LONG, requestTimeoutMs: LONG, idleTimeoutMs: LONG, keepAliveTimeoutMs },
      (port) =>
        slowClient(port, {
          first: 'GET /v2/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
          withinMs: keepAliveTimeoutMs + 1_000 + SLACK_MS,
        }),
    );
    expect(seen.closed).toBe(true);
    expect(seen.received).toMatch(/^HTTP\/1\.1 204 /);
    expect(seen.received).toMatch(/^keep-alive: timeout=0\r$/im);
  });
});
