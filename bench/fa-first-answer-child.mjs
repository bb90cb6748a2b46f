/**
 * FA's measuring process, run fresh each time (as a test file starts): `createMockServer()` with
 * default sizes, `setupServer(...handlers).listen()`, and the first `fetch` answered (a login), or the
 * same with one static MSW handler answering a login-shaped JSON.
 */
import { DIST, dependencyUrl, url } from './lib/paths.mjs';
import { childMain } from './lib/processes.mjs';

const BASE = 'http://localhost:4010';
const KEYS = JSON.stringify({ accessKey: 'iacm_ak_demo', secretKey: 'iacm_sk_demo' });
const LOGIN_ANSWER = JSON.stringify({
  accessToken: `${'x'.repeat(36)}.${'y'.repeat(150)}.${'z'.repeat(43)}`,
  expiresAt: 1767229200,
});

await childMain(async ({ subject }) => {
  const t0 = performance.now();
  const { setupServer } = await import(dependencyUrl('mock', 'msw/node'));
  const { http, HttpResponse } = await import(dependencyUrl('mock', 'msw'));
  const mod = subject === 'mock' ? await import(url(DIST.mock)) : undefined;
  const imported = performance.now();
  let server;
  let mock;
  let keys = KEYS;
  if (mod) {
    mock = mod.createMockServer({ baseUrl: BASE });
    server = setupServer(...mock.handlers);
    const [primary] = mock.control.accounts();
    keys = JSON.stringify({ accessKey: primary.accessKey, secretKey: primary.secretKey });
  } else {
    const answer = () =>
      new HttpResponse(LOGIN_ANSWER, { status: 200, headers: { 'content-type': 'application/json' } });
    server = setupServer(http.post(`${BASE}/v2/login`, answer));
  }
  server.listen({ onUnhandledRequest: 'error' });
  const res = await fetch(`${BASE}/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: keys,
  });
  const { accessToken } = await res.json();
  const answered = performance.now();
  if (res.status !== 200) throw new Error(`the login answered ${res.status}`);
  let searched;
  if (mock) {
    const search = await fetch(`${BASE}/v2/workspaces/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: '{}',
    });
    await search.json();
    searched = performance.now();
  }
  server.close();
  return {
    importMs: imported - t0,
    firstAnswerMs: answered - imported,
    firstSearchMs: searched === undefined ? undefined : searched - imported,
  };
});
