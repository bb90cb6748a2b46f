/**
 * The baseline server: raw `node:http` that reads each request's body (and, for routes marked
 * `parse`, decodes and `JSON.parse`s it), then answers recorded bytes: the same status, headers and
 * body as the subject answered. Usage: node raw-server.mjs <routes.json>, where each route is
 * `{ method, path, status, headers, body (base64), parse }`. It reports its URL over IPC.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const routes = new Map();
for (const route of JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8'))) {
  routes.set(`${route.method} ${route.path}`, { ...route, body: Buffer.from(route.body, 'base64') });
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const query = req.url?.indexOf('?') ?? -1;
    const route = routes.get(`${req.method} ${query === -1 ? req.url : req.url?.slice(0, query)}`);
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"no such route in the baseline"}');
      return;
    }
    if (route.parse) JSON.parse(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(route.status, { ...route.headers, 'content-length': route.body.length });
    res.end(route.body);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  process.send?.({ bench: 'ready', url: base });
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
