/**
 * `Prefer: code=<status>` (Prism's convention): a request asks for one of its endpoint's documented
 * errors. Honoured in process always; over HTTP on an open control plane, or with the control token in
 * `X-Iacm-Mock-Control-Token`; otherwise ignored, and the answer says so (`x-iacm-mock-prefer`).
 */

import { listen } from '@iacm/mock-server/node';
import { endpointErrorStatuses, endpointList } from '@iacm/sdk/contract';
import { buildOpenApiDocument } from '@iacm/sdk/openapi';
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { expectError, loginToken, searchOverHttp, setup } from '../helpers.js';

const TOKEN = 'control-token-for-prefer-tests-0123456789';

describe('Prefer: code=<status>', () => {
  it('answers the documented error asked for, with the standard error body, once', async () => {
    const t = await setup();
    const res = await t.call('POST', '/v2/workspaces/search', {
      body: {},
      headers: { prefer: 'code=429' },
    });
    const body = expectError(res, 429, 'rate_limited');
    expect(body.message).toContain('Prefer: code=429');
    expect(res.headers['retry-after']).toBe('1');
    expectError(
      await t.call('POST', '/v2/workspaces/search', {
        body: {},
        headers: { Prefer: 'respond-async, code=500' },
      }),
      500,
      'internal_error',
    );
    expect((await t.call('POST', '/v2/workspaces/search', { body: {} })).status).toBe(200);
  });

  it('takes the success status as the real answer', async () => {
    const t = await setup();
    const res = await t.call('POST', '/v2/workspaces/search', { body: {}, headers: { prefer: 'code=200' } });
    expect(res.status).toBe(200);
  });

  it('answers 400 listing the allowed codes for a code the endpoint does not document', async () => {
    const t = await setup();
    for (const code of ['418', '503', 'abc', '']) {
      const res = await t.call('POST', '/v2/workspaces/search', {
        body: {},
        headers: { prefer: `code=${code}` },
      });
      const body = expectError(res, 400, 'validation_failed');
      expect(body.message).toContain('header.prefer');
      expect(body.message).toContain('400, 401, 403, 404, 405, 413, 415, 429, 500');
    }
  });

  it('applies after authentication and validation', async () => {
    const t = await setup();
    const headers = { prefer: 'code=404' };
    expectError(
      await t.call('POST', '/v2/workspaces/search', { body: {}, headers, token: null }),
      401,
      'unauthorized',
    );
    expectError(
      await t.call('POST', '/v2/workspaces/search', { body: { nope: 1 }, headers }),
      400,
      'validation_failed',
    );
  });

  it('takes precedence over a one-off answer, which stays waiting', async () => {
    const t = await setup();
    t.core.control.respond('workspaces.search', { status: 403 });
    expectError(
      await t.call('POST', '/v2/workspaces/search', { body: {}, headers: { prefer: 'code=404' } }),
      404,
      'not_found',
    );
    expect(t.core.control.responses()).toHaveLength(1);
  });

  it("is over HTTP ('control'): ignored without the control token when one is set, honoured with it", async () => {
    const core = new MockCore({ sizes: { workspaces: 3, events: 10 }, controlToken: TOKEN });
    const token = await loginToken(core);
    const ask = await searchOverHttp(core);
    const ignored = await ask({ prefer: 'code=429' });
    expect(ignored.status).toBe(200);
    expect(ignored.headers['x-iacm-mock-prefer']).toContain('ignored');
    // Not even a bad code is read when the header is ignored.
    expect((await ask({ prefer: 'code=418' })).status).toBe(200);
    const wrong = await ask({ prefer: 'code=429', 'x-iacm-mock-control-token': 'wrong' });
    expect(wrong.status).toBe(200);
    const honoured = await ask({ prefer: 'code=429', 'x-iacm-mock-control-token': TOKEN });
    expectError(honoured, 429, 'rate_limited');
    expect(JSON.stringify(honoured)).not.toContain(TOKEN);
    // The journal never shows the control token.
    expect(JSON.stringify(core.control.journal())).not.toContain(TOKEN);
    // In process (no `preferHeader`), the header is honoured whatever the control plane's access.
    const inProcess = await core.handle({
      method: 'POST',
      path: '/v2/workspaces/search',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, prefer: 'code=404' },
      body: {},
    });
    expectError(inProcess, 404, 'not_found');
  });

  it('is honoured by the standalone server on an open (loopback) control plane, ignored with the plane off', async () => {
    for (const [options, expected] of [
      [{}, 404],
      [{ control: false }, 200],
    ] as const) {
      const running = await listen({ port: 0, sizes: { workspaces: 3, events: 10 }, ...options });
      try {
        const [primary] = running.core.accounts();
        const login = await fetch(`${running.url}/v2/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ accessKey: primary?.accessKey, secretKey: primary?.secretKey }),
        });
        const { accessToken } = (await login.json()) as { accessToken: string };
        const res = await fetch(`${running.url}/v2/workspaces/search`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${accessToken}`,
            prefer: 'code=404',
          },
          body: '{}',
        });
        await res.arrayBuffer();
        expect(res.status).toBe(expected);
        if (expected === 200) expect(res.headers.get('x-iacm-mock-prefer')).toContain('ignored');
      } finally {
        await running.close();
      }
    }
  });
});

describe("the contract's endpointErrorStatuses", () => {
  it("is the OpenAPI document's error responses of each endpoint", () => {
    const document = buildOpenApiDocument();
    for (const endpoint of endpointList) {
      const operation = (document.paths as Record<string, Record<string, { responses: object }>>)[
        endpoint.path
      ]?.[endpoint.method.toLowerCase()];
      const documented = Object.keys(operation?.responses ?? {})
        .filter((status) => /^[45]\d\d$/.test(status))
        .map(Number);
      expect([...endpointErrorStatuses(endpoint)], endpoint.name).toEqual(documented);
    }
  });
});
