/**
 * `GET /__mock/live/feed` (`control.live`), what the live page polls: journal entries and delivery
 * attempts after the caller's cursors, the sessions and the clock. Its bounds, its 400s naming the
 * field, the control token, the journal's redaction in what it answers, a session's own view, that
 * its own polls are not journalled (refusals are), and that it keeps nothing per viewer. And the
 * standalone server's page (`/__mock/live`, `.js`, `.css`): its Content-Security-Policy, no data in
 * it, no `innerHTML` in its script, a 404 with the control plane off.
 */
import { listen, type RunningMockServer } from '@iacm/mock-server/node';
import { afterEach, describe, expect, it } from 'vitest';
import { LIVE_PAGE_CSP, LIVE_PATHS } from '../../src/adapters/live-page.js';
import { MockCore } from '../../src/app/mock.js';
import { DEFAULT_LIVE_FEED_LIMIT, LIVE_FEED_LIMIT, type LiveFeed } from '../../src/control/live.js';

const TOKEN = 'live-feed-control-token-0123456789';
const KEYS = { accessKey: 'ak_live_feed', secretKey: 'sk_live_feed_secret' };
const HOOK = 'https://hooks.example.test/in';

const servers: RunningMockServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(options: Parameters<typeof listen>[0] = {}): Promise<RunningMockServer> {
  const server = await listen({
    port: 0,
    controlToken: TOKEN,
    primaryKeys: KEYS,
    sizes: { workspaces: 5, rules: 1 },
    webhookFetch: async () => new Response(null, { status: 200 }),
    ...options,
  });
  servers.push(server);
  return server;
}

/** A request to the running mock: the token unless `token: null`, a session when given. */
async function call(
  server: RunningMockServer,
  method: string,
  path: string,
  { token = TOKEN, session, body }: { token?: string | null; session?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (session !== undefined) headers['x-iacm-mock-session'] = session;
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

const feed = async (server: RunningMockServer, query = '', session?: string) => {
  const res = await call(server, 'GET', `/__mock/live/feed${query}`, session ? { session } : {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as LiveFeed;
};

/** Logs in (in a session when given) and searches workspaces with `searchValue`. */
async function loginAndSearch(
  server: RunningMockServer,
  searchValue: string,
  keys = KEYS,
  session?: string,
): Promise<void> {
  const login = await call(server, 'POST', '/v2/login', {
    token: null,
    body: keys,
    ...(session ? { session } : {}),
  });
  expect(login.status).toBe(200);
  const { accessToken } = login.body as { accessToken: string };
  const search = await call(server, 'POST', '/v2/workspaces/search', {
    token: accessToken,
    body: { searchValue },
    ...(session ? { session } : {}),
  });
  expect(search.status).toBe(200);
}

describe('GET /__mock/live/feed', () => {
  it('needs the control token when the mock has one: 403 without it or with another, nothing answered', async () => {
    const server = await start();
    await loginAndSearch(server, 'secret-looking-search');
    for (const token of [null, 'wrong-token']) {
      const res = await call(server, 'GET', '/__mock/live/feed', { token });
      expect(res.status).toBe(403);
      expect((res.body as { code: string }).code).toBe('forbidden');
      expect(JSON.stringify(res.body)).not.toContain('secret-looking-search');
    }
  });

  it('answers the entries after the cursor, credentials redacted as the journal keeps them', async () => {
    const server = await start();
    await loginAndSearch(server, '<script>alert(1)</script>');
    const first = await feed(server);
    expect(first.journal.restarted).toBe(false);
    expect(first.journal.entries.map((e) => [e.endpoint, e.status])).toEqual([
      ['auth.login', 200],
      ['workspaces.search', 200],
    ]);
    const [login, search] = first.journal.entries;
    // The journal's one redaction: the key pair and the bearer token never come back.
    const text = JSON.stringify(first);
    expect(text).not.toContain(KEYS.secretKey);
    expect(text).not.toContain(KEYS.accessKey);
    expect(text).not.toContain(TOKEN);
    expect(login?.body).toEqual({ accessKey: '[redacted]', secretKey: '[redacted]' });
    expect(search?.headers.authorization).toBe('[redacted]');
    expect(search?.input?.body).toEqual({ searchValue: '<script>alert(1)</script>' });
    expect(search?.accountId).toBe(server.core.accounts()[0]?.id);
    // Exactly what GET /__mock/journal lists of the same requests.
    const journal = JSON.parse(JSON.stringify(server.control.journal())) as unknown[];
    expect(first.journal.entries).toEqual(journal);
    expect(first.journal.cursor).toBe(search?.id);
    expect(Math.abs(Date.parse(first.now) - server.core.clock.now())).toBeLessThan(5_000);
    expect(first.sessions).toEqual([]);

    // Nothing new: no entries, the same cursor.
    const again = await feed(server, `?since=${first.journal.cursor}`);
    expect(again.journal.entries).toEqual([]);
    expect(again.journal.cursor).toBe(first.journal.cursor);
    expect(again.journal.more).toBe(false);
  });

  it('is not journalled itself (its polls would push out what it reads); its refusals are', async () => {
    const server = await start({ journalLimit: 3 });
    await loginAndSearch(server, 'kept');
    for (let i = 0; i < 10; i++) await feed(server);
    await call(server, 'GET', '/__mock/live/feed?limit=0');
    await call(server, 'GET', '/__mock/live/feed', { token: null });
    const paths = server.control.journal().map((e) => `${e.path} ${e.status}`);
    expect(paths).toEqual(['/v2/workspaces/search 200', '/__mock/live/feed 400', '/__mock/live/feed 403']);
  });

  it('bounds limit (1 to 200, default 50) and says when more are waiting', async () => {
    const server = await start();
    for (let i = 0; i < DEFAULT_LIVE_FEED_LIMIT + 5; i++)
      await call(server, 'GET', '/v2/health', { token: null });
    const page = await feed(server);
    expect(page.journal.entries).toHaveLength(DEFAULT_LIVE_FEED_LIMIT);
    expect(page.journal.more).toBe(true);
    const rest = await feed(server, `?since=${page.journal.cursor}&limit=${LIVE_FEED_LIMIT.max}`);
    expect(rest.journal.entries).toHaveLength(5);
    expect(rest.journal.more).toBe(false);
    const two = await feed(server, '?limit=2');
    expect(two.journal.entries.map((e) => e.id)).toEqual(page.journal.entries.slice(0, 2).map((e) => e.id));
    // In process, the same bounds.
    expect(server.control.live({ limit: 1 }).journal.entries).toHaveLength(1);
    expect(() => server.control.live({ limit: LIVE_FEED_LIMIT.max + 1 })).toThrow(/query\.limit/);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=201', 'limit'],
    ['?limit=ten', 'limit'],
    ['?limit=1.5', 'limit'],
    ['?since=yesterday', 'since'],
    ['?since=req_12', 'since'],
    ['?since=start&since=start', 'since'],
    ['?deliveriesSince=dlv_x', 'deliveriesSince'],
    ['?deliveriesSince=req_0000000001', 'deliveriesSince'],
    ['?endpoint=workspaces.serch', 'endpoint'],
    ['?endpoint=.*', 'endpoint'],
    ['?cursor=1', 'cursor'],
  ])('answers %s with a 400 naming query.%s', async (query, field) => {
    const server = await start();
    const res = await call(server, 'GET', `/__mock/live/feed${query}`);
    expect(res.status).toBe(400);
    const body = res.body as { code: string; issues: { location: string; path: string }[]; message: string };
    expect(body.code).toBe('validation_failed');
    expect(body.issues.map((i) => `${i.location}.${i.path}`)).toEqual([`query.${field}`]);
    expect(body.message).toContain(`query.${field}`);
  });

  it('filters by endpoint (and control), moving the cursor past what it skipped', async () => {
    const server = await start();
    await loginAndSearch(server, 'one');
    await call(server, 'GET', '/__mock/clock');
    await call(server, 'GET', '/v2/health', { token: null });
    const searches = await feed(server, '?endpoint=workspaces.search');
    expect(searches.journal.entries.map((e) => e.endpoint)).toEqual(['workspaces.search']);
    // The cursor is the last entry looked at: the next poll starts after the health check.
    const last = server.control.journal().at(-1);
    expect(searches.journal.cursor).toBe(last?.id);
    const control = await feed(server, '?endpoint=control');
    expect(control.journal.entries.map((e) => e.path)).toEqual(['/__mock/clock']);
  });

  it('starts again from the oldest kept when its cursor is gone (a reset, or dropped for a bound)', async () => {
    const server = await start({ journalLimit: 2 });
    await loginAndSearch(server, 'first');
    const first = await feed(server);
    await call(server, 'GET', '/v2/health', { token: null });
    await call(server, 'GET', '/v2/health', { token: null });
    await call(server, 'GET', '/v2/health', { token: null });
    const after = await feed(server, `?since=${first.journal.cursor}`);
    expect(after.journal.restarted).toBe(true);
    expect(after.journal.entries).toHaveLength(2);
    await call(server, 'POST', '/__mock/reset');
    const reset = await feed(server, `?since=${after.journal.cursor}`);
    expect(reset.journal.restarted).toBe(true);
    expect(reset.journal.entries).toEqual([]);
    expect(reset.journal.cursor).toBe('start');
  });

  it('answers the delivery attempts after their cursor, headers redacted', async () => {
    const server = await start();
    const created = await call(server, 'POST', '/__mock/integrations/webhook', {
      body: { nickname: 'live', url: HOOK, credentials: { authorization: 'Bearer hook-secret-value' } },
    });
    expect(created.status).toBe(201);
    // The test delivery made before the integration is stored is not kept; the next ones are.
    const id = (created.body as { id: string }).id;
    await call(server, 'POST', `/__mock/integrations/webhook/${id}/test`);
    const first = await feed(server);
    expect(first.deliveries.attempts.map((a) => [a.kind, a.status, a.outcome])).toEqual([
      ['test', 200, 'delivered'],
    ]);
    expect(first.deliveries.attempts[0]?.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(first)).not.toContain('hook-secret-value');
    await call(server, 'POST', `/__mock/integrations/webhook/${id}/test`);
    const next = await feed(server, `?deliveriesSince=${first.deliveries.cursor}`);
    expect(next.deliveries.attempts).toHaveLength(1);
    expect(next.deliveries.attempts[0]?.id).not.toBe(first.deliveries.cursor);
    const none = await feed(server, `?deliveriesSince=${next.deliveries.cursor}`);
    expect(none.deliveries.attempts).toEqual([]);
    expect(none.deliveries.cursor).toBe(next.deliveries.cursor);
    // A cursor past the last attempt made (the log was reset): from the oldest kept again.
    const past = await feed(server, '?deliveriesSince=dlv_000099');
    expect(past.deliveries.restarted).toBe(true);
    expect(past.deliveries.attempts).toHaveLength(2);
  });

  it("works in a session: the session's journal and clock, no sessions listed; the default session lists it", async () => {
    const server = await start();
    const created = await call(server, 'POST', '/__mock/sessions', { body: {} });
    expect(created.status).toBe(201);
    const session = created.body as { id: string; accounts: { accessKey: string; secretKey: string }[] };
    const primary = session.accounts[0] as { accessKey: string; secretKey: string };
    const keys = { accessKey: primary.accessKey, secretKey: primary.secretKey };
    await loginAndSearch(server, 'in the session', keys, session.id);
    await call(server, 'POST', '/__mock/clock', { session: session.id, body: { advanceMs: 86_400_000 } });

    const inSession = await feed(server, '', session.id);
    expect(inSession.sessions).toBeNull();
    expect(inSession.journal.entries.map((e) => e.endpoint)).toEqual([
      'auth.login',
      'workspaces.search',
      'control',
    ]);
    expect(JSON.stringify(inSession)).not.toContain(keys.secretKey);
    expect(Date.parse(inSession.now) - Date.now()).toBeGreaterThan(80_000_000);

    const outside = await feed(server);
    expect(outside.sessions?.map((s) => s.id)).toEqual([session.id]);
    expect(outside.journal.entries.some((e) => e.endpoint === 'workspaces.search')).toBe(false);

    // An ended session: 404, as for every request with its header.
    await call(server, 'DELETE', `/__mock/sessions/${session.id}`);
    const ended = await call(server, 'GET', '/__mock/live/feed', { session: session.id });
    expect(ended.status).toBe(404);
  });

  it('keeps nothing per viewer: the budget is the same after many polls', async () => {
    const core = new MockCore({ sizes: { workspaces: 5 } });
    core.control.live();
    const before = JSON.stringify(core.control.budget().stores);
    for (let i = 0; i < 50; i++) core.control.live({ since: 'start', limit: 200 });
    expect(JSON.stringify(core.control.budget().stores)).toBe(before);
  });

  it('a filtered poll looks at a bounded number of entries and goes on from its cursor', async () => {
    const core = new MockCore({ sizes: { workspaces: 3, events: 10 }, journalLimit: 12_000 });
    // 11,000 health checks, then one login: the filter for auth.login must step over the checks.
    for (let i = 0; i < 11_000; i++) await core.handle({ method: 'GET', path: '/v2/health', headers: {} });
    const [primary] = core.control.accounts();
    await core.handle({
      method: 'POST',
      path: '/v2/login',
      headers: { 'content-type': 'application/json' },
      rawBody: JSON.stringify({ accessKey: primary?.accessKey, secretKey: primary?.secretKey }),
    });
    let since = 'start';
    let polls = 0;
    let found: LiveFeed['journal']['entries'] = [];
    while (found.length === 0 && polls < 10) {
      const { journal } = core.control.live({ since, endpoint: 'auth.login' });
      polls += 1;
      found = journal.entries;
      if (found.length === 0) expect(journal.more).toBe(true);
      since = journal.cursor;
    }
    // 5,000 entries a poll at most: the login is found by the third.
    expect(polls).toBe(3);
    expect(found.map((e) => e.endpoint)).toEqual(['auth.login']);
  });
});

describe('the live page (/__mock/live)', () => {
  it('serves the page, its script and its style with a CSP allowing only its own script, and no data', async () => {
    const server = await start();
    await loginAndSearch(server, 'not-on-the-page');
    for (const [path, type] of [
      [LIVE_PATHS.page, 'text/html'],
      [LIVE_PATHS.script, 'text/javascript'],
      [LIVE_PATHS.style, 'text/css'],
    ] as const) {
      // No token: the page is static text; its data comes from the feed, which needs the token.
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
      expect(res.headers.get('content-security-policy')).toBe(LIVE_PAGE_CSP);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const text = await res.text();
      expect(text).not.toContain('not-on-the-page');
      expect(text).not.toContain(TOKEN);
      for (const account of server.core.accounts()) expect(text).not.toContain(account.secretKey);
    }
    expect(LIVE_PAGE_CSP).toContain("script-src 'self'");
    expect(LIVE_PAGE_CSP).not.toContain('unsafe-inline');
    const html = await (await fetch(`${server.url}${LIVE_PATHS.page}`)).text();
    // No inline script: only the served one.
    expect(html).toMatch(/<script src="\/__mock\/live\.js" defer><\/script>/);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('type="password"');
    const script = await (await fetch(`${server.url}${LIVE_PATHS.script}`)).text();
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|EventSource/);
    expect(script).not.toMatch(/localStorage|sessionStorage/);
    expect(script).toContain("headers.authorization = 'Bearer ' + token");
  });

  it('is a 404 with the control plane off, and links from the landing page', async () => {
    const off = await listen({ port: 0, control: false });
    servers.push(off);
    expect((await fetch(`${off.url}${LIVE_PATHS.page}`)).status).toBe(404);
    const on = await start();
    const landing = await (await fetch(`${on.url}/`, { headers: { accept: 'text/html' } })).text();
    expect(landing).toContain('href="/__mock/live"');
  });
});
