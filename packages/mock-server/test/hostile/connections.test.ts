import { connect } from 'node:net';
import { DEFAULT_SERVER_TIMEOUTS, listen } from '@iacm/mock-server/node';
import { describe, expect, it } from 'vitest';

/** Resolves when the server closes a raw connection; the test's hang bound (30 s) catches one it never closes. */
function closedByServer(port: number, send?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      if (send) socket.write(send);
    });
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
    socket.on('timeout', () => reject(new Error('client timeout')));
  });
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

  it('closes a connection that never sends a request, and one that never finishes its headers', async () => {
    const running = await listen({
      port: 0,
      sizes: { workspaces: 3, events: 10 },
      idleTimeoutMs: 300,
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
    });
    try {
      await closedByServer(running.port);
      await closedByServer(running.port, 'GET /v2/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    } finally {
      await running.close();
    }
  });
});
