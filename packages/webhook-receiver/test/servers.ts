/**
 * Real HTTP servers on 127.0.0.1 (port 0), one per adapter, for end-to-end tests.
 */
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createFetchHandler, type WebhookReceiver } from '@iacm/webhook-receiver';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { createExpressMiddleware, createFastifyPlugin, createNodeMiddleware } from '../src/node.js';

export interface Running {
  /** The webhook URL. */
  url: string;
  /** The underlying Node server, to watch its requests. */
  server: Server;
  close(): Promise<void>;
}

export async function listening(server: Server): Promise<string> {
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function closing(server: Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

export const adapters: Record<string, (receiver: WebhookReceiver) => Promise<Running>> = {
  'node:http': async (receiver) => {
    const server = createServer(createNodeMiddleware(receiver)).listen(0, '127.0.0.1');
    return { url: `${await listening(server)}/webhooks`, server, close: closing(server) };
  },
  // The same middleware given only handle() (a receiver of another implementation): the path without
  // the receiver's steps, which answers after handle()'s promise.
  'node:http, handle() only': async (receiver) => {
    const only = { handle: (request: Parameters<WebhookReceiver['handle']>[0]) => receiver.handle(request) };
    const server = createServer(createNodeMiddleware(only)).listen(0, '127.0.0.1');
    return { url: `${await listening(server)}/webhooks`, server, close: closing(server) };
  },
  Express: async (receiver) => {
    const app = express();
    app.use('/webhooks', createExpressMiddleware(receiver));
    app.use(express.json());
    app.post('/other', (req, res) => {
      res.json({ parsed: req.body });
    });
    const server = app.listen(0, '127.0.0.1');
    return { url: `${await listening(server)}/webhooks`, server, close: closing(server) };
  },
  Fastify: async (receiver) => {
    const app = Fastify();
    await app.register(createFastifyPlugin(receiver), { prefix: '/webhooks' });
    app.post('/other', async (request) => ({ parsed: request.body }));
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `${address}/webhooks`, server: app.server, close: () => app.close() };
  },
  'Hono (@hono/node-server)': async (receiver) => {
    const app = new Hono();
    const handler = createFetchHandler(receiver);
    app.all('/webhooks', (c) => handler(c.req.raw));
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    return { url: `${await listening(server)}/webhooks`, server, close: closing(server) };
  },
};
