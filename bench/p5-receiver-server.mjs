/**
 * P5's subject: the built receiver mounted on node:http with `createNodeMiddleware`, checking HTTP
 * Basic credentials and handling `Drift` notifications (the handler does nothing). It reports its
 * URL over IPC.
 */
import { createServer } from 'node:http';
import { DIST, url } from './lib/paths.mjs';

const { createWebhookReceiver } = await import(url(DIST.receiver));
const { createNodeMiddleware } = await import(url(DIST.receiverNode));

const receiver = createWebhookReceiver({
  credentials: { type: 'basic', username: 'bench', password: process.env.IACM_BENCH_PASSWORD ?? '' },
});
receiver.on('Drift', () => {});
const server = createServer(createNodeMiddleware(receiver));
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({
    bench: 'ready',
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
  });
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
