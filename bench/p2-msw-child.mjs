/**
 * P2's measuring process: the in-process mock through MSW (`setupServer(...mock.handlers)`, the
 * global `fetch`) against a static MSW handler answering the same bytes, per request. The static
 * handler reads the request's body, as P1's and P5's raw baselines do and as any handler of a search
 * must (MSW tees every request's body for its log, so reading it is a cost of its own: about 25 us
 * per request here); the same handler without reading the body is measured beside it and shown.
 */
import { DIST, dependencyUrl, url } from './lib/paths.mjs';
import { childMain } from './lib/processes.mjs';
import { alternateCalls } from './lib/timing.mjs';

const BASE = 'http://localhost:4010';
const PATH = '/v2/workspaces/search';

await childMain(async ({ requests, warmup, rounds }) => {
  const { setupServer } = await import(dependencyUrl('mock', 'msw/node'));
  const { http, HttpResponse } = await import(dependencyUrl('mock', 'msw'));
  const { createMockServer } = await import(url(DIST.mock));
  const mock = createMockServer({ baseUrl: BASE });
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const [account] = mock.control.accounts();
    const login = await fetch(`${BASE}/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessKey: account.accessKey, secretKey: account.secretKey }),
    });
    const { accessToken } = await login.json();
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: '{}',
    };
    const first = await fetch(`${BASE}${PATH}`, init);
    const bytes = new Uint8Array(await first.arrayBuffer());
    if (first.status !== 200) throw new Error(`the workspace search answered ${first.status}`);
    const headers = { 'content-type': first.headers.get('content-type') ?? 'application/json' };
    const staticHandler = http.post(`${BASE}${PATH}`, async ({ request }) => {
      await request.arrayBuffer();
      return new HttpResponse(bytes, { status: 200, headers });
    });
    const unreadHandler = http.post(
      `${BASE}${PATH}`,
      () => new HttpResponse(bytes, { status: 200, headers }),
    );
    const call = async () => {
      const res = await fetch(`${BASE}${PATH}`, init);
      const items = await res.json();
      if (res.status !== 200 || items.length !== 25) throw new Error(`answered ${res.status}`);
    };
    const {
      mock: subject,
      static: baseline,
      unread,
    } = await alternateCalls(
      rounds,
      { requests, warmup },
      {
        mock: { before: () => server.resetHandlers(...mock.handlers), call },
        static: { before: () => server.resetHandlers(staticHandler), call },
        unread: { before: () => server.resetHandlers(unreadHandler), call },
      },
    );
    return { subject, baseline, unread, bytes: bytes.length };
  } finally {
    server.close();
  }
});
