/**
 * The stages of an API request, in order: rate limit -> faults -> route -> authenticate -> body ->
 * operation. Each test shows one stage answering before the next runs.
 */
import { describe, expect, it } from 'vitest';
import { expectError, setup } from '../helpers.js';

describe('the request pipeline', () => {
  it('reads the body only after authentication: malformed JSON without a token answers 401, not 400', async () => {
    const ctx = await setup();
    const res = await ctx.call('POST', '/v2/workspaces/search', {
      token: null,
      rawBody: '{"not json',
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 401, 'unauthorized');
    // With a token, the same body is read, and refused as what it is.
    const authed = await ctx.call('POST', '/v2/workspaces/search', {
      rawBody: '{"not json',
      headers: { 'content-type': 'application/json' },
    });
    expectError(authed, 400, 'invalid_json');
  });

  it('does not read the body of a rate-limited request: 429, not 400 or 415', async () => {
    const ctx = await setup();
    ctx.core.control.setRateLimit({ limit: 1, windowSeconds: 60 });
    expect((await ctx.call('GET', '/v2/health')).status).toBe(204);
    const res = await ctx.call('POST', '/v2/workspaces/search', {
      rawBody: '<xml/>',
      headers: { 'content-type': 'application/xml' },
    });
    expectError(res, 429, 'rate_limited');
  });

  it('counts a request against the rate limit before faults: a limited request leaves the fault waiting', async () => {
    const ctx = await setup();
    ctx.core.control.setRateLimit({ limit: 1, windowSeconds: 60 });
    expect((await ctx.call('GET', '/v2/health')).status).toBe(204);
    ctx.core.control.addFault({ path: '/v2/health', status: 503 });
    expectError(await ctx.call('GET', '/v2/health'), 429, 'rate_limited');
    expect(ctx.core.control.faults()).toHaveLength(1);
    ctx.advance(60_001);
    expectError(await ctx.call('GET', '/v2/health'), 503, 'service_unavailable');
    expect(ctx.core.control.faults()).toHaveLength(0);
  });

  it('injects faults before routing and authentication: a faulted request needs no token or known path', async () => {
    const ctx = await setup();
    ctx.core.control.addFault({ path: '/v2/nowhere*', status: 502, times: 1 });
    const res = await ctx.call('GET', '/v2/nowhere/at/all', { token: null });
    expectError(res, 502, 'internal_error');
    expectError(await ctx.call('GET', '/v2/nowhere/at/all', { token: null }), 404, 'route_not_found');
  });

  it('routes before authenticating: an unknown path is 404 and a wrong method 405, with or without a token', async () => {
    const ctx = await setup();
    expectError(await ctx.call('GET', '/v2/nothing', { token: null }), 404, 'route_not_found');
    const res = await ctx.call('GET', '/v2/workspaces/search', { token: null });
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('POST');
  });

  it('validates every input after authentication, naming each bad field in one answer', async () => {
    const ctx = await setup();
    const res = await ctx.call('POST', '/v2/workspaces/search', {
      query: { pageSize: 'lots' },
      body: { nope: 1 },
    });
    const body = expectError(res, 400, 'validation_failed');
    const locations = (body.issues ?? []).map((i) => i.location).sort();
    expect(locations).toEqual(['body', 'query']);
  });

  it('journals every request, the ones stages refused included, with the body only when it was read', async () => {
    const ctx = await setup();
    ctx.core.control.clearJournal();
    await ctx.call('POST', '/v2/workspaces/search', { token: null, rawBody: '{"x": 1}' });
    await ctx.call('POST', '/v2/workspaces/search', { token: null, rawBody: '{broken' });
    await ctx.call('POST', '/v2/workspaces/search', { rawBody: '{"x": 2}' });
    await ctx.call('POST', '/v2/workspaces/search', { rawBody: '{broken' });
    const journal = ctx.core.control.journal();
    expect(journal.map((e) => [e.status, e.body])).toEqual([
      [401, '[not read]'],
      [401, '[not read]'],
      [400, { x: 2 }],
      [400, '[not JSON]'],
    ]);
    expect(journal[0]?.headers.authorization).toBeUndefined();
  });

  it('keeps no body, and no secret from it, for a request refused with 401 or 429', async () => {
    const ctx = await setup();
    const secret = 'sk-body-secret-5f1c9a';
    const rawBody = JSON.stringify({ filters: {}, note: secret, secretKey: secret });
    ctx.core.control.clearJournal();
    expectError(
      await ctx.call('POST', '/v2/workspaces/search', { token: null, rawBody }),
      401,
      'unauthorized',
    );
    ctx.core.control.setRateLimit({ limit: 1, windowSeconds: 60 });
    expect((await ctx.call('GET', '/v2/health')).status).toBe(204);
    expectError(await ctx.call('POST', '/v2/workspaces/search', { rawBody }), 429, 'rate_limited');
    const refused = ctx.core.control.journal().filter((e) => e.status === 401 || e.status === 429);
    expect(refused.map((e) => [e.status, e.body])).toEqual([
      [401, '[not read]'],
      [429, '[not read]'],
    ]);
    expect(JSON.stringify(ctx.core.control.journal())).not.toContain(secret);
  });

  it('answers the control plane without rate limit, faults or authentication', async () => {
    const ctx = await setup();
    ctx.core.control.setRateLimit({ limit: 1, windowSeconds: 60 });
    ctx.core.control.addFault({ path: '/__mock/*', status: 500, times: 5 });
    for (let i = 0; i < 3; i++) {
      expect((await ctx.call('GET', '/__mock/clock', { token: null })).status).toBe(200);
    }
    expect(ctx.core.control.faults()[0]?.remaining).toBe(5);
  });
});
