/**
 * End to end: a real HTTP server on 127.0.0.1 (port 0) per adapter, and `fetch` sending what the
 * service sends.
 */
import type { IncomingMessage } from 'node:http';
import {
  createTestDelivery,
  createWebhookReceiver,
  encodeAuthorization,
  generateNotification,
  type WebhookCredentials,
  type WebhookNotification,
} from '@iacm/webhook-receiver';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExpressMiddleware } from '../src/node.js';
import { basic, header } from './helpers.js';
import { adapters, closing, listening, type Running } from './servers.js';

const MiB = 1024 * 1024;

const drift = generateNotification('Drift');

for (const [name, start] of Object.entries(adapters)) {
  describe(`${name} adapter`, () => {
    for (const [method, credentials] of [
      ['basic', basic],
      ['header', header],
      ['none', 'none'],
    ] as Array<[string, WebhookCredentials | 'none']>) {
      it(`delivers a typed payload with ${method} credentials`, async () => {
        const receiver = createWebhookReceiver({ credentials });
        const drifts: unknown[] = [];
        const kinds: string[] = [];
        receiver.on('Drift', (payload) => {
          drifts.push(payload.samples.map((sample) => sample.drifts.map((d) => d.keyName)));
        });
        receiver.onAny((notification) => {
          kinds.push(notification.kind);
        });
        const running = await start(receiver);
        try {
          const response = await fetch(running.url, createTestDelivery({ notification: drift, credentials }));
          expect(response.status).toBe(200);
          expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
          expect(await response.json()).toEqual({ ok: true, kind: 'Drift' });
          expect(drifts).toEqual([
            [
              ['versioning.status', 'tags.team'],
              ['versioning.status', 'tags.team'],
            ],
          ]);

          const test = await fetch(
            running.url,
            createTestDelivery({ notification: { text: 'ping' }, credentials }),
          );
          expect(test.status).toBe(200);
          expect(await test.json()).toEqual({ ok: true, kind: 'test' });
          expect(kinds).toEqual(['Drift', 'test']);
        } finally {
          await running.close();
        }
      });
    }

    describe('exact HTTP answers', () => {
      let running: Running;
      const seen: WebhookNotification[] = [];
      const requests: IncomingMessage[] = [];
      const good = createTestDelivery({ notification: drift, credentials: basic });
      const authorization = good.headers.authorization ?? '';

      beforeAll(async () => {
        const receiver = createWebhookReceiver({ credentials: basic });
        receiver.onAny((notification) => {
          seen.push(notification);
          if (notification.kind === 'Drift' && notification.payload.accountName === 'explode') {
            throw new Error('handler bug with internals /srv/secret/path');
          }
        });
        running = await start(receiver);
        running.server.on('request', (req: IncomingMessage) => requests.push(req));
      });
      afterAll(() => running.close());

      async function expectAnswer(response: Response, status: number, code: string) {
        expect(response.status).toBe(status);
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const body = (await response.json()) as { status: number; code: string; message: string };
        expect(body).toMatchObject({ status, code });
        return { body, headers: response.headers };
      }

      async function socketBytesRead(req: IncomingMessage | undefined): Promise<number> {
        if (!req) throw new Error('the server saw no request');
        if (!req.socket.destroyed) await new Promise((resolve) => req.socket.once('close', resolve));
        return req.socket.bytesRead;
      }

      it('200 to a valid delivery', async () => {
        const response = await fetch(running.url, good);
        expect(response.status).toBe(200);
        expect(seen.at(-1)?.payload).toEqual(drift);
      });

      it('answers with a Content-Length (one write, not a chunked answer)', async () => {
        for (const delivery of [
          good,
          { ...good, headers: { ...good.headers, authorization: 'Basic eDp5' } },
        ]) {
          const response = await fetch(running.url, delivery);
          const bytes = new Uint8Array(await response.arrayBuffer());
          expect(response.headers.get('transfer-encoding')).toBeNull();
          expect(response.headers.get('content-length')).toBe(String(bytes.byteLength));
        }
      });

      it('405 with Allow: POST to GET and PUT', async () => {
        const got = await expectAnswer(await fetch(running.url), 405, 'method_not_allowed');
        expect(got.headers.get('allow')).toBe('POST');
        // A refusal of a request without a body keeps the connection.
        expect(got.headers.get('connection')).not.toBe('close');
        await expectAnswer(await fetch(running.url, { ...good, method: 'PUT' }), 405, 'method_not_allowed');
      });

      it('401 with a Basic challenge when credentials are missing', async () => {
        const got = await expectAnswer(
          await fetch(running.url, { ...good, headers: { 'content-type': 'application/json' } }),
          401,
          'missing_credentials',
        );
        expect(got.headers.get('www-authenticate')).toBe('Basic realm="iacm-webhooks", charset="UTF-8"');
        expect(got.body.message).toContain('credentials: "none"');
      });

      it('401 to wrong credentials', async () => {
        const wrong = encodeAuthorization({ ...basic, password: 'guess' } as WebhookCredentials);
        const got = await expectAnswer(
          await fetch(running.url, { ...good, headers: { ...good.headers, authorization: wrong } }),
          401,
          'invalid_credentials',
        );
        expect(got.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      });

      it('400 to a malformed Basic header', async () => {
        await expectAnswer(
          await fetch(running.url, {
            ...good,
            headers: { ...good.headers, authorization: 'Basic not*base64' },
          }),
          400,
          'malformed_authorization',
        );
      });

      it('415 to a non-JSON content type', async () => {
        await expectAnswer(
          await fetch(running.url, { ...good, headers: { authorization, 'content-type': 'text/plain' } }),
          415,
          'unsupported_media_type',
        );
      });

      it('400 to malformed JSON and to an empty body', async () => {
        await expectAnswer(
          await fetch(running.url, { ...good, body: '{"notificationType":' }),
          400,
          'invalid_json',
        );
        await expectAnswer(await fetch(running.url, { ...good, body: '' }), 400, 'invalid_json');
      });

      it('422 naming the bad fields', async () => {
        const got = await expectAnswer(
          await fetch(running.url, {
            ...good,
            body: JSON.stringify({ ...drift, region: 5, samples: 'none' }),
          }),
          422,
          'invalid_payload',
        );
        const issues = (got.body as unknown as { issues: Array<{ path: string }> }).issues;
        expect(issues.map((issue) => issue.path)).toEqual(['region', 'samples']);
      });

      it('500 without internals when a handler throws', async () => {
        const response = await fetch(running.url, {
          ...good,
          body: JSON.stringify({ ...drift, accountName: 'explode' }),
        });
        const got = await expectAnswer(response, 500, 'handler_failed');
        expect(JSON.stringify(got.body)).not.toContain('/srv/secret');
      });

      it('413 to a 2 MiB body with a Content-Length, without reading it', async () => {
        const body = new Uint8Array(2 * MiB).fill(0x20);
        const before = requests.length;
        const got = await expectAnswer(await fetch(running.url, { ...good, body }), 413, 'payload_too_large');
        // Node adapters close the connection rather than read a body they refused. (@hono/node-server
        // decides for itself what to do with an unread body.)
        if (!name.startsWith('Hono')) {
          expect(got.headers.get('connection')).toBe('close');
          expect(await socketBytesRead(requests[before])).toBeLessThan(MiB);
        }
      });

      it('413 to a streamed 2 MiB body, read only a little past the limit', async () => {
        const chunk = new Uint8Array(64 * 1024).fill(0x20);
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent >= 2 * MiB) return controller.close();
            sent += chunk.byteLength;
            controller.enqueue(chunk);
          },
        });
        const before = requests.length;
        const response = await fetch(running.url, { ...good, body, duplex: 'half' } as RequestInit);
        await expectAnswer(response, 413, 'payload_too_large');
        const bytesRead = await socketBytesRead(requests[before]);
        // The socket read the headers, a little more than the limit, and never the whole body.
        expect(bytesRead).toBeGreaterThan(MiB);
        expect(bytesRead).toBeLessThan(1.5 * MiB);
      });

      it('still answers after the refusals (the server is healthy)', async () => {
        expect((await fetch(running.url, good)).status).toBe(200);
      });
    });
  });
}

describe('Express: a body express.json() already parsed', () => {
  it('answers 500 body_already_parsed saying to mount the receiver first or use express.raw()', async () => {
    const receiver = createWebhookReceiver({ credentials: basic });
    const errors: string[] = [];
    receiver.onError((error) => errors.push(error.code));
    const app = express();
    app.use(express.json());
    app.use('/webhooks', createExpressMiddleware(receiver));
    const server = app.listen(0, '127.0.0.1');
    const url = `${await listening(server)}/webhooks`;
    try {
      const response = await fetch(url, createTestDelivery({ notification: drift, credentials: basic }));
      expect(response.status).toBe(500);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe('body_already_parsed');
      expect(body.message).toContain('express.json() ran first');
      expect(body.message).toContain('express.raw');
      expect(errors).toEqual(['body_already_parsed']);
    } finally {
      await closing(server)();
    }
  });

  it('accepts the bytes of express.raw({ type: "application/json" })', async () => {
    const receiver = createWebhookReceiver({ credentials: header });
    const app = express();
    app.use('/webhooks', express.raw({ type: 'application/json' }), createExpressMiddleware(receiver));
    const server = app.listen(0, '127.0.0.1');
    const url = `${await listening(server)}/webhooks`;
    try {
      const response = await fetch(url, createTestDelivery({ notification: drift, credentials: header }));
      expect(response.status).toBe(200);
    } finally {
      await closing(server)();
    }
  });

  it('other routes keep express.json()', async () => {
    const running = await adapters.Express?.(createWebhookReceiver({ credentials: 'none' }));
    if (!running) throw new Error('no Express adapter');
    try {
      const response = await fetch(running.url.replace('/webhooks', '/other'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      expect(await response.json()).toEqual({ parsed: { a: 1 } });
    } finally {
      await running.close();
    }
  });
});

describe('Fastify: the raw-body parser stays inside the plugin', () => {
  it('other routes keep Fastify’s JSON parser', async () => {
    const running = await adapters.Fastify?.(createWebhookReceiver({ credentials: 'none' }));
    if (!running) throw new Error('no Fastify adapter');
    try {
      const response = await fetch(running.url.replace('/webhooks', '/other'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      expect(await response.json()).toEqual({ parsed: { a: 1 } });
    } finally {
      await running.close();
    }
  });
});
