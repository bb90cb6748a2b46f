import { endpointList, objectIdToUuid, responseSchemaFor } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { expectError, setup } from './helpers.js';

const ID_OF_NOTHING = 'ffffffffffffffffffffffff';

describe('routing and the error shape', () => {
  it('answers an unknown route with 404 route_not_found and a request id', async () => {
    const { call } = await setup();
    const res = await call('GET', '/v2/nothing-here');
    expectError(res, 404, 'route_not_found');
    expect(res.headers['x-request-id']).toMatch(/^req_\d{10}$/);
  });

  it('answers a wrong method with 405 and an Allow header', async () => {
    const { call } = await setup();
    const res = await call('GET', '/v2/workspaces/search');
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('POST');
    expectError(await call('DELETE', '/v2/guardrails/search'), 405, 'method_not_allowed');
  });

  it('gives every answer its own x-request-id', async () => {
    const { call } = await setup();
    const a = await call('POST', '/v2/workspaces/search', { body: {} });
    const b = await call('GET', '/v2/health');
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('names every bad field of a request in a 400', async () => {
    const { call } = await setup();
    const res = await call('POST', '/v2/workspaces/search', {
      query: { pageSize: '9999', page: 'x' },
      body: { filters: { ciTool: ['circleci'] }, sort: { nope: { order: 1 } }, extra: 1 },
    });
    const body = expectError(res, 400, 'validation_failed');
    const named = body.issues?.map((i) => `${i.location}:${i.path}`) ?? [];
    expect(named).toEqual(
      expect.arrayContaining(['query:pageSize', 'query:page', 'body:filters.ciTool[0]', 'body:extra']),
    );
    expect(named.some((n) => n.startsWith('body:sort'))).toBe(true);
  });

  it('refuses bad JSON with 400 invalid_json and a non-JSON content type with 415', async () => {
    const { call } = await setup();
    expectError(await call('POST', '/v2/workspaces/search', { rawBody: '{"filters":' }), 400, 'invalid_json');
    const res = await call('POST', '/v2/workspaces/search', {
      rawBody: 'a=b',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(res, 415, 'unsupported_media_type');
  });

  it('reads an absent body as {} where every member is optional, and demands one where it is required', async () => {
    const { call } = await setup();
    expect((await call('POST', '/v2/workspaces/search')).status).toBe(200);
    expectError(await call('POST', '/v2/guardrails'), 400, 'validation_failed');
  });

  it('refuses a body on an endpoint that takes none', async () => {
    const { call, core } = await setup();
    const [workspace] = [...core.store.accounts.values()][0]?.workspaces.values() ?? [];
    const res = await call('DELETE', `/v2/workspaces/${workspace?.id}`, { body: { force: true } });
    expectError(res, 400, 'validation_failed');
  });
});

describe('auth', () => {
  it('logs in with the key pair and answers expiresAt in epoch seconds', async () => {
    const { core, primary, now } = await setup({ tokenTtlSeconds: 600 });
    const res = await core.handle({
      method: 'POST',
      path: '/v2/login',
      body: { accessKey: primary.accessKey, secretKey: primary.secretKey },
    });
    expect(res.status).toBe(200);
    const body = res.body as { accessToken: string; expiresAt: number; tokenType: string };
    expect(body.tokenType).toBe('Bearer');
    expect(body.expiresAt).toBe(Math.floor(now() / 1000) + 600);
    expect(body.accessToken.split('.')).toHaveLength(3);
  });

  it('refuses wrong keys with 401, saying neither which key was wrong nor echoing it', async () => {
    const { core, primary, other } = await setup();
    for (const body of [
      { accessKey: primary.accessKey, secretKey: 'wrong-secret-value' },
      { accessKey: 'unknown', secretKey: primary.secretKey },
      { accessKey: primary.accessKey, secretKey: other.secretKey },
    ]) {
      const res = await core.handle({ method: 'POST', path: '/v2/login', body });
      const error = expectError(res, 401, 'invalid_credentials');
      expect(JSON.stringify(error)).not.toContain(body.secretKey);
    }
  });

  it('answers health with 204 and no body, without auth', async () => {
    const { call } = await setup();
    const res = await call('GET', '/v2/health', { token: null });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
  });

  const protectedEndpoints = endpointList.filter((e) => e.auth);

  it.each(protectedEndpoints.map((e) => [e.name, e] as const))(
    '%s refuses missing, malformed, forged and expired tokens',
    async (_, endpoint) => {
      const { call, token, advance } = await setup({ tokenTtlSeconds: 60 });
      const path = endpoint.path.replace(/\{\w+\}/g, ID_OF_NOTHING);
      const body = endpoint.body ? {} : undefined;
      const init = (t: string | null, headers?: Record<string, string>) => ({
        token: t,
        ...(body ? { body } : {}),
        ...(headers ? { headers } : {}),
      });
      expectError(await call(endpoint.method, path, init(null)), 401, 'unauthorized');
      expectError(
        await call(endpoint.method, path, init(null, { authorization: `Basic ${btoa('a:b')}` })),
        401,
        'unauthorized',
      );
      expectError(await call(endpoint.method, path, init('not-a-jwt')), 401, 'unauthorized');
      const [h, p, s] = token.split('.') as [string, string, string];
      const forged = `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`;
      expectError(await call(endpoint.method, path, init(forged)), 401, 'unauthorized');
      advance(61_000);
      const expired = expectError(await call(endpoint.method, path, init(token)), 401, 'token_expired');
      expect(expired.message).not.toContain(token);
    },
  );

  it("keeps accounts apart: another account's ids answer 404 and its records never show", async () => {
    const { call, core, otherToken } = await setup();
    const primaryStore = [...core.store.accounts.values()][0];
    const workspace = [...(primaryStore?.workspaces.values() ?? [])][0];
    const rule = [...(primaryStore?.rules.values() ?? [])][0];
    expect(workspace && rule).toBeTruthy();
    const o = { token: otherToken };
    expectError(await call('DELETE', `/v2/workspaces/${workspace?.id}`, o), 404, 'not_found');
    expectError(
      await call('PUT', `/v2/workspaces/${workspace?.id}/labels`, { ...o, body: { labels: [] } }),
      404,
      'not_found',
    );
    expectError(
      await call('POST', `/v2/workspaces/${workspace?.id}/runs/search`, { ...o, body: {} }),
      404,
      'not_found',
    );
    expectError(
      await call('PATCH', `/v2/guardrails/${rule?.id}`, { ...o, body: { name: 'x' } }),
      404,
      'not_found',
    );
    expectError(await call('DELETE', `/v2/guardrails/${rule?.id}`, o), 404, 'not_found');
    const seen = await call('POST', '/v2/workspaces/search', { ...o, query: { pageSize: '500' }, body: {} });
    const ids = (seen.body as Array<{ id: string; accountId: string }>).map((w) => w.id);
    expect(ids).not.toContain(workspace?.id);
    const otherAccountId = (seen.body as Array<{ accountId: string }>)[0]?.accountId;
    expect(otherAccountId).not.toBe(primaryStore?.account.id);
    const events = await call('POST', '/v2/event-center', { ...o, body: { size: 150 } });
    for (const e of (events.body as { events: Array<{ account_id: string }> }).events)
      expect(e.account_id).toBe(otherAccountId);
    // The primary account still has both.
    expect((await call('POST', `/v2/workspaces/${workspace?.id}/runs/search`, { body: {} })).status).toBe(
      200,
    );
  });
});

describe('answers match the contract', () => {
  it.each(
    endpointList
      .filter((e) => e.auth && e.method === 'POST' && !e.path.includes('{') && e.name !== 'guardrails.create')
      .map((e) => [e.name, e] as const),
  )('%s answers what its response schema reads', async (_, endpoint) => {
    const { call } = await setup();
    const body = endpoint.name === 'eventCenter.facets' ? { field: 'integrationId' } : {};
    const res = await call('POST', endpoint.path, { body });
    expect(res.status).toBe(200);
    const parsed = responseSchemaFor(endpoint, body).safeParse(res.body);
    expect(parsed.error?.issues).toBeUndefined();
  });
});

describe('path ids', () => {
  it('accept the 24-hex id, the same id in upper case, and its UUID form; other UUIDs are 404', async () => {
    const { call, core } = await setup();
    const ids = [...([...core.store.accounts.values()][0]?.workspaces.values() ?? [])]
      .slice(0, 3)
      .map((w) => w.id);
    const [a, b, c] = ids as [string, string, string];
    expect((await call('POST', `/v2/workspaces/${a}/runs/search`, { body: {} })).status).toBe(200);
    expect((await call('POST', `/v2/workspaces/${b.toUpperCase()}/runs/search`, { body: {} })).status).toBe(
      200,
    );
    expect((await call('POST', `/v2/workspaces/${objectIdToUuid(c)}/runs/search`, { body: {} })).status).toBe(
      200,
    );
    expectError(
      await call('POST', '/v2/workspaces/3f0b9a4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b/runs/search', { body: {} }),
      404,
      'not_found',
    );
    const bad = expectError(
      await call('POST', '/v2/workspaces/ws-1/runs/search', { body: {} }),
      400,
      'validation_failed',
    );
    expect(bad.issues?.[0]).toMatchObject({ location: 'path', path: 'workspaceId' });
  });
});
