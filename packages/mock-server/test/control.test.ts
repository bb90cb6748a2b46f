import { MockCore } from '@iacm/mock-server';
import { describe, expect, it } from 'vitest';
import { expectError, setup } from './helpers.js';

describe('control plane', () => {
  it('generates the same state from the same seed and sizes, byte for byte, and another from another seed', async () => {
    const a = JSON.stringify(await new MockCore({ seed: 42 }).control.getState());
    const b = JSON.stringify(await new MockCore({ seed: 42 }).control.getState());
    const c = JSON.stringify(await new MockCore({ seed: 43 }).control.getState());
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('resets to the seeded state after changes', async () => {
    const ctx = await setup();
    const before = JSON.stringify(await ctx.core.control.getState());
    const workspace = [...([...ctx.core.store.accounts.values()][0]?.workspaces.values() ?? [])][0];
    await ctx.call('DELETE', `/v2/workspaces/${workspace?.id}`);
    expect(JSON.stringify(await ctx.core.control.getState())).not.toBe(before);
    const res = await ctx.call('POST', '/__mock/reset', { token: null });
    expect(res.status).toBe(200);
    expect(JSON.stringify(await ctx.core.control.getState())).toBe(before);
  });

  it('reseeds with new sizes over HTTP, and validates the body', async () => {
    const ctx = await setup();
    const res = await ctx.call('POST', '/__mock/seed', {
      token: null,
      body: { seed: 'demo', sizes: { workspaces: 5, events: 10 } },
    });
    expect(res.status).toBe(200);
    const state = await ctx.core.control.getState();
    expect(state.seed).toBe('demo');
    expect(state.accounts[0]?.workspaces).toHaveLength(5);
    expect(state.accounts[0]?.events).toHaveLength(10);
    const bad = await ctx.call('POST', '/__mock/seed', {
      token: null,
      body: { seed: 1, sizes: { workspaces: -1 } },
    });
    expect(expectError(bad, 400, 'validation_failed').issues?.[0]?.path).toBe('sizes.workspaces');
  });

  it('round-trips a snapshot through GET and PUT /__mock/state, and refuses a broken one naming the record', async () => {
    const ctx = await setup();
    const snapshot = (await ctx.call('GET', '/__mock/state', { token: null })).body;
    const fresh = await setup({ seed: 99 });
    expect((await fresh.call('PUT', '/__mock/state', { token: null, body: snapshot })).status).toBe(200);
    expect(JSON.stringify(await fresh.core.control.getState())).toBe(JSON.stringify(snapshot));
    const broken = structuredClone(snapshot) as {
      accounts: Array<{ workspaces: Array<{ createdAt: string }> }>;
    };
    (broken.accounts[0]?.workspaces[3] as { createdAt: string }).createdAt = 'yesterday';
    const error = expectError(
      await fresh.call('PUT', '/__mock/state', { token: null, body: broken }),
      400,
      'validation_failed',
    );
    expect(error.issues?.[0]?.path).toBe('accounts[0].workspaces[3].createdAt');
  });

  it('lists the seeded accounts with their key pairs, which log in', async () => {
    const ctx = await setup();
    const res = await ctx.call('GET', '/__mock/accounts', { token: null });
    const accounts = res.body as Array<{ id: string; name: string; accessKey: string; secretKey: string }>;
    expect(accounts.length).toBeGreaterThanOrEqual(2);
    expect(accounts[0]?.id).toBe(ctx.primary.id);
    for (const account of accounts) await ctx.login(account);
  });

  it('journals requests, boundedly, with credentials redacted', async () => {
    const ctx = await setup({ journalLimit: 5 });
    for (let i = 0; i < 8; i++) await ctx.call('POST', '/v2/workspaces/search', { body: {} });
    const journal = ctx.core.control.journal();
    expect(journal).toHaveLength(5);
    const text = JSON.stringify(journal);
    expect(text).not.toContain(ctx.token);
    expect(journal[0]?.headers.authorization).toBe('[redacted]');
    await ctx.call('POST', '/v2/login', {
      token: null,
      body: { accessKey: ctx.primary.accessKey, secretKey: ctx.primary.secretKey },
    });
    const last = ctx.core.control.journal(1)[0];
    expect(last?.body).toEqual({ accessKey: '[redacted]', secretKey: '[redacted]' });
    expect(JSON.stringify(ctx.core.control.journal())).not.toContain(ctx.primary.secretKey);
    await ctx.call('POST', '/v2/workspaces/search', {
      body: {},
      query: { pageSize: '5', access_token: 'tok-in-query', apiKey: 'key-in-query' },
    });
    expect(ctx.core.control.journal(1)[0]?.query).toEqual({
      pageSize: '5',
      access_token: '[redacted]',
      apiKey: '[redacted]',
    });
    const http = await ctx.call('GET', '/__mock/journal', { token: null, query: { limit: '2' } });
    expect(http.body).toHaveLength(2);
  });

  it('injects a fault for the next `times` matching requests, then answers for real', async () => {
    const ctx = await setup();
    const added = await ctx.call('POST', '/__mock/faults', {
      token: null,
      body: {
        method: 'POST',
        path: '/v2/workspaces/*',
        times: 2,
        status: 429,
        headers: { 'Retry-After': '1' },
      },
    });
    expect(added.status).toBe(201);
    for (let i = 0; i < 2; i++) {
      const res = await ctx.call('POST', '/v2/workspaces/search', { body: {} });
      expectError(res, 429, 'rate_limited');
      expect(res.headers['retry-after']).toBe('1');
    }
    expect((await ctx.call('POST', '/v2/workspaces/search', { body: {} })).status).toBe(200);
  });

  it('injects a custom body, a delay before the real answer, and a dropped connection', async () => {
    const ctx = await setup();
    ctx.core.control.addFault({ path: '/v2/health', status: 503, body: { down: true } });
    const custom = await ctx.call('GET', '/v2/health');
    expect(custom.status).toBe(503);
    expect(custom.body).toEqual({ down: true });
    // A delay holds its answer back (its timer) while an answer without one goes out: an order, not a stopwatch.
    ctx.core.control.addFault({ path: '/v2/health', delayMs: 30 });
    const order: string[] = [];
    const delayed = ctx.call('GET', '/v2/health').then((res) => {
      order.push('delayed');
      return res;
    });
    const plain = ctx.call('POST', '/v2/workspaces/search', { body: {} }).then((res) => {
      order.push('plain');
      return res;
    });
    expect((await delayed).status).toBe(204);
    expect((await plain).status).toBe(200);
    expect(order).toEqual(['plain', 'delayed']);
    ctx.core.control.addFault({ path: '/v2/health', drop: true });
    expect((await ctx.call('GET', '/v2/health')).drop).toBe(true);
    ctx.core.control.addFault({ path: '/v2/*', times: 100, status: 500 });
    expect(ctx.core.control.faults()).toHaveLength(1);
    expect((await ctx.call('DELETE', '/__mock/faults', { token: null })).status).toBe(204);
    expect((await ctx.call('GET', '/v2/health')).status).toBe(204);
  });

  it('matches a fault path pattern with many stars without backtracking (no regular expression)', async () => {
    const ctx = await setup();
    ctx.core.control.addFault({ path: `/v2/${'*a'.repeat(14)}*b`, status: 503 });
    // A regular expression built from this pattern took minutes on a path like this one.
    const res = await ctx.call('GET', `/v2/${'a'.repeat(300)}`);
    expect(res.status).toBe(404);
    ctx.core.control.addFault({ path: '/v2/*ea*th', status: 503 });
    expect((await ctx.call('GET', '/v2/health')).status).toBe(503);
  });

  it('refuses a malformed fault naming the field', async () => {
    const ctx = await setup();
    const res = await ctx.call('POST', '/__mock/faults', {
      token: null,
      body: { path: 'v2/health', status: 99 },
    });
    const paths = expectError(res, 400, 'validation_failed').issues?.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['path', 'status']));
  });

  it('enforces an optional rate limit with 429 and Retry-After', async () => {
    const ctx = await setup();
    const on = await ctx.call('POST', '/__mock/rate-limit', {
      token: null,
      body: { enabled: true, limit: 3, windowSeconds: 60 },
    });
    expect(on.body).toEqual({ enabled: true, limit: 3, windowSeconds: 60 });
    for (let i = 0; i < 3; i++) expect((await ctx.call('GET', '/v2/health')).status).toBe(204);
    const limited = await ctx.call('GET', '/v2/health');
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    ctx.advance(60_001);
    expect((await ctx.call('GET', '/v2/health')).status).toBe(204);
    await ctx.call('POST', '/__mock/rate-limit', { token: null, body: { enabled: false } });
    for (let i = 0; i < 10; i++) expect((await ctx.call('GET', '/v2/health')).status).toBe(204);
  });

  it('answers unknown control routes with 404 and wrong methods with 405', async () => {
    const ctx = await setup();
    expectError(await ctx.call('GET', '/__mock/nothing', { token: null }), 404, 'route_not_found');
    expectError(await ctx.call('GET', '/__mock/reset', { token: null }), 405, 'method_not_allowed');
  });

  it('moves the clock over HTTP: stop at an instant, advance, resume', async () => {
    const ctx = await setup();
    const set = await ctx.call('POST', '/__mock/clock', {
      token: null,
      body: { now: '2027-01-01T00:00:00.000Z' },
    });
    expect(set.body).toEqual({ now: '2027-01-01T00:00:00.000Z' });
    const moved = await ctx.call('POST', '/__mock/clock', { token: null, body: { advanceMs: 1500 } });
    expect(moved.body).toEqual({ now: '2027-01-01T00:00:01.500Z' });
    expect((await ctx.call('GET', '/__mock/clock', { token: null })).body).toEqual({
      now: '2027-01-01T00:00:01.500Z',
    });
    // Tokens read the same clock: the token issued earlier has expired by now.
    expectError(await ctx.call('POST', '/v2/workspaces/search', { body: {} }), 401, 'token_expired');
    await ctx.call('POST', '/__mock/clock', { token: null, body: { resume: true } });
    expect((await ctx.call('GET', '/__mock/clock', { token: null })).body).toEqual({
      now: new Date(ctx.now()).toISOString(),
    });
    expectError(
      await ctx.call('POST', '/__mock/clock', { token: null, body: { now: 'soon' } }),
      400,
      'validation_failed',
    );
  });
});
