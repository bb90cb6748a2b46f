/**
 * The typed journal (issue 22, point 3): each entry names its endpoint and account and carries the
 * inputs as the route stage validated them (credentials redacted, counted in the byte bound);
 * `control.calls(name)` lists one endpoint's calls; `GET /__mock/journal?endpoint=` the same over HTTP.
 */
import { REDACTED } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { entryBytes, Journal } from '../../src/pipeline/journal.js';
import { expectError, record, refusal, setup } from '../helpers.js';

describe('journal entries name their endpoint and account and carry the validated inputs', () => {
  it('an accepted search: endpoint, account, the query as numbers, the body as parsed', async () => {
    const ctx = await setup();
    ctx.core.control.clearJournal();
    const res = await ctx.call('POST', '/v2/workspaces/search', {
      query: { page: '1', pageSize: '5' },
      body: { searchValue: 'web' },
    });
    expect(res.status).toBe(200);
    const [entry] = ctx.core.control.journal();
    expect(entry).toMatchObject({
      endpoint: 'workspaces.search',
      accountId: ctx.primary.id,
      query: { page: '1', pageSize: '5' },
      body: { searchValue: 'web' },
      input: { validated: true, params: {}, query: { page: 1, pageSize: 5 }, body: { searchValue: 'web' } },
    });
    const [call] = ctx.core.control.calls('workspaces.search');
    expect(call).toEqual({
      endpoint: 'workspaces.search',
      requestId: entry?.id,
      time: entry?.time,
      method: 'POST',
      path: '/v2/workspaces/search',
      status: 200,
      durationMs: 0,
      accountId: ctx.primary.id,
      validated: true,
      params: {},
      query: { page: 1, pageSize: 5 },
      body: { searchValue: 'web' },
    });
  });

  it("a login's parsed body has its secret redacted, and a failed login keeps no body", async () => {
    const ctx = await setup();
    ctx.core.control.clearJournal();
    await ctx.core.handle({
      method: 'POST',
      path: '/v2/login',
      headers: { 'content-type': 'application/json' },
      body: { accessKey: ctx.primary.accessKey, secretKey: ctx.primary.secretKey },
    });
    await ctx.core.handle({
      method: 'POST',
      path: '/v2/login',
      headers: { 'content-type': 'application/json' },
      body: { accessKey: ctx.primary.accessKey, secretKey: 'iacm_sk_wrong-secret' },
    });
    const calls = ctx.core.control.calls('auth.login');
    expect(calls.map((c) => [c.status, c.validated, c.body])).toEqual([
      [200, true, { accessKey: REDACTED, secretKey: REDACTED }],
      [401, true, '[not kept]'],
    ]);
    const text = JSON.stringify(ctx.core.control.journal());
    expect(text).not.toContain(ctx.primary.secretKey);
    expect(text).not.toContain('wrong-secret');
    expect(calls[0]?.accountId).toBeUndefined();
  });

  it('a refused request carries what is known: 400 (as sent), a fault and a 404 (no endpoint)', async () => {
    const ctx = await setup();
    ctx.core.control.clearJournal();
    expectError(
      await ctx.call('POST', '/v2/workspaces/search', { query: { page: 'x' }, body: { searchValue: 'a' } }),
      400,
      'validation_failed',
    );
    ctx.core.control.addFault({ method: 'POST', path: '/v2/workspaces/search', status: 503, times: 1 });
    expect((await ctx.call('POST', '/v2/workspaces/search', { body: {} })).status).toBe(503);
    expectError(await ctx.call('GET', '/v2/nowhere'), 404, 'route_not_found');
    expectError(await ctx.call('DELETE', '/v2/workspaces/nothex', { token: null }), 401, 'unauthorized');
    const entries = ctx.core.control.journal();
    expect(entries.map((e) => [e.status, e.endpoint, e.accountId, e.input?.validated])).toEqual([
      [400, 'workspaces.search', ctx.primary.id, false],
      [503, 'workspaces.search', undefined, false],
      [404, undefined, undefined, undefined],
      [401, 'workspaces.delete', undefined, false],
    ]);
    expect(entries[0]?.input).toEqual({
      validated: false,
      params: {},
      query: { page: 'x' },
      body: { searchValue: 'a' },
    });
    expect(entries[3]?.input).toEqual({
      validated: false,
      params: { workspaceId: 'nothex' },
      query: {},
      body: '[not read]',
    });
    expect(ctx.core.control.calls('workspaces.search').map((c) => [c.status, c.validated])).toEqual([
      [400, false],
      [503, false],
    ]);
  });

  it("names a control request's endpoint 'control' and gives it no inputs", async () => {
    const ctx = await setup();
    ctx.core.control.clearJournal();
    await ctx.call('GET', '/__mock/clock');
    const [entry] = ctx.core.control.journal();
    expect(entry?.endpoint).toBe('control');
    expect(entry && 'input' in entry).toBe(false);
  });

  it('counts the inputs in its byte bound', () => {
    const journal = new Journal();
    const request = { method: 'POST', path: '/v2/workspaces/search' };
    const ok = { status: 200, headers: {}, body: undefined };
    record(journal, request, ok, 'req_1', 0, 0, { value: { searchValue: 'x'.repeat(1000) } });
    const withoutInput = journal.bytes;
    const typed = new Journal();
    typed.record(
      { method: 'POST', path: '/v2/workspaces/search', query: {}, headers: {} },
      ok,
      'req_1',
      0,
      0,
      { value: { searchValue: 'x'.repeat(1000) } },
      {
        endpoint: 'workspaces.search',
        accountId: 'a'.repeat(24),
        input: { params: {}, query: {}, body: { searchValue: 'x'.repeat(1000) } },
      },
    );
    // The validated body is kept as its own text: about 1,000 more characters, two bytes each.
    expect(typed.bytes - withoutInput).toBeGreaterThan(2 * 1000);
    expect(entryBytes('h', 'b', 'i') - entryBytes('h', 'b')).toBe(32 + 2);
    // A validated body over the body limit is kept as a size, as the body is.
    const small = new Journal({ maxBodyBytes: 100 });
    small.record(
      { method: 'POST', path: '/v2/workspaces/search', query: {}, headers: {} },
      ok,
      'req_1',
      0,
      0,
      { value: { searchValue: 'x'.repeat(1000) } },
      {
        endpoint: 'workspaces.search',
        input: { params: {}, query: {}, body: { searchValue: 'x'.repeat(1000) } },
      },
    );
    expect(small.list()[0]?.input?.body).toMatch(/^\[too large to keep: about \d+ bytes\]$/);
  });
});

describe('control.calls(name) and GET /__mock/journal?endpoint=', () => {
  it('lists one endpoint, oldest first; over HTTP with its limit', async () => {
    const ctx = await setup();
    ctx.core.control.clearJournal();
    await ctx.call('POST', '/v2/workspaces/search', { body: { searchValue: 'one' } });
    await ctx.call('POST', '/v2/guardrails/search', { body: {} });
    await ctx.call('POST', '/v2/workspaces/search', { body: { searchValue: 'two' } });
    expect(ctx.core.control.calls('workspaces.search').map((c) => c.body)).toEqual([
      { searchValue: 'one' },
      { searchValue: 'two' },
    ]);
    const res = await ctx.call('GET', '/__mock/journal', { query: { endpoint: 'workspaces.search' } });
    expect(res.status).toBe(200);
    expect((res.body as Array<{ body: unknown }>).map((e) => e.body)).toEqual([
      { searchValue: 'one' },
      { searchValue: 'two' },
    ]);
    const last = await ctx.call('GET', '/__mock/journal', {
      query: { endpoint: 'workspaces.search', limit: '1' },
    });
    expect((last.body as Array<{ body: unknown }>).map((e) => e.body)).toEqual([{ searchValue: 'two' }]);
  });

  it('refuses an unknown endpoint name with a 400 naming the closest names, in process and over HTTP', async () => {
    const ctx = await setup();
    const error = refusal(() => ctx.core.control.calls('workspace.search' as 'workspaces.search'));
    expect(error.status).toBe(400);
    expect(error.message).toContain(
      'endpoint: expected an endpoint name of the contract (as workspaces.search), received "workspace.search"; the closest: workspaces.search',
    );
    const res = await ctx.call('GET', '/__mock/journal', { query: { endpoint: 'guardrail.create' } });
    const body = expectError(res, 400, 'validation_failed');
    expect(body.issues?.[0]).toMatchObject({ location: 'query', path: 'endpoint' });
    expect(body.message).toContain('the closest: guardrails.create');
    // Bounded: a long name is shown (and compared) in its first 64 characters.
    const long = refusal(() => ctx.core.control.calls('x'.repeat(100_000) as 'health'));
    expect(long.message.length).toBeLessThan(400);
    expect(long.message).toContain(`"${'x'.repeat(64)}"…`);
    const repeated = await ctx.call('GET', '/__mock/journal', { query: { endpoint: ['health', 'health'] } });
    expect(expectError(repeated, 400, 'validation_failed').issues?.[0]).toMatchObject({
      location: 'query',
      path: 'endpoint',
    });
  });
});
