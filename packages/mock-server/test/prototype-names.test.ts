/**
 * Parameters and members named like `Object.prototype`'s properties (`__proto__`, `constructor`,
 * `toString`) are only names: every endpoint answers in the documented shape, never 500, and a
 * parameter given twice is a 400 naming it (issue 13, L1).
 */
import { endpointList } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { expectError, setup } from './helpers.js';

/** An endpoint's path with every parameter filled in. */
const pathOf = (template: string) => template.replace(/\{\w+\}/g, '0123456789abcdef01234567');

const hostileQueries: Array<[string, URLSearchParams]> = [
  ['constructor', new URLSearchParams('constructor=a')],
  ['__proto__', new URLSearchParams('__proto__=a')],
  ['toString twice', new URLSearchParams('toString=a&toString=b')],
  ['hasOwnProperty and valueOf', new URLSearchParams('hasOwnProperty=a&valueOf=b&valueOf=c')],
];

describe('prototype-named query parameters', () => {
  it.each(hostileQueries)(
    '%s: every endpoint and control route answers in the error shape, never 500',
    async (_, query) => {
      const ctx = await setup();
      for (const endpoint of endpointList) {
        for (const token of [ctx.token, null]) {
          const res = await ctx.call(endpoint.method, pathOf(endpoint.path), {
            token,
            query: Object.fromEntries(query) as Record<string, string>,
          });
          const raw = await ctx.core.handle({
            method: endpoint.method,
            path: pathOf(endpoint.path),
            query,
            headers: token ? { authorization: `Bearer ${token}` } : {},
          });
          for (const answer of [res, raw]) {
            expect(answer.status, `${endpoint.method} ${endpoint.path}`).not.toBe(500);
            expect(answer.status).toBeGreaterThanOrEqual(400);
            expectError(answer, answer.status, (answer.body as { code: string }).code);
          }
        }
      }
      for (const path of ['/__mock/journal', '/__mock/accounts', '/__mock/faults']) {
        const res = await ctx.core.handle({ method: 'GET', path, query });
        expect(res.status, path).not.toBe(500);
      }
      expect(({} as Record<string, unknown>).a).toBeUndefined();
    },
  );

  it('names an unknown prototype-named parameter in the 400', async () => {
    const ctx = await setup();
    const res = await ctx.core.handle({
      method: 'GET',
      path: '/v2/health',
      query: new URLSearchParams('constructor=a'),
    });
    const body = expectError(res, 400, 'validation_failed');
    expect(body.issues?.map((issue) => [issue.location, issue.path])).toEqual([['query', 'constructor']]);
    expect(body.message).toContain('constructor');
  });

  it('answers 400 naming a parameter given twice', async () => {
    const ctx = await setup();
    const res = await ctx.core.handle({
      method: 'POST',
      path: '/v2/workspaces/search',
      query: new URLSearchParams('pageSize=5&pageSize=50'),
      headers: { authorization: `Bearer ${ctx.token}` },
      body: {},
    });
    const body = expectError(res, 400, 'validation_failed');
    expect(body.message).toBe(
      'query.pageSize: expected one value, received 2 values (the parameter was repeated)',
    );
    expect(body.issues?.[0]).toMatchObject({ location: 'query', path: 'pageSize' });
    const once = await ctx.call('POST', '/v2/workspaces/search', { query: { pageSize: '5' }, body: {} });
    expect(once.status).toBe(200);
  });

  it('refuses prototype-named body members as unknown and pollutes nothing', async () => {
    const ctx = await setup();
    const rawBody =
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},' +
      '"filters":{"__proto__":{"polluted":true},"constructor":"x"}}';
    for (const endpoint of endpointList.filter((e) => e.body !== undefined)) {
      const res = await ctx.core.handle({
        method: endpoint.method,
        path: pathOf(endpoint.path),
        headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json' },
        rawBody,
      });
      expect(res.status, `${endpoint.method} ${endpoint.path}`).not.toBe(500);
      // A schema that keeps unknown members drops `__proto__`: such an endpoint may answer 2xx.
      if (res.status >= 400) expectError(res, res.status, (res.body as { code: string }).code);
    }
    const search = await ctx.core.handle({
      method: 'POST',
      path: '/v2/workspaces/search',
      headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json' },
      rawBody,
    });
    const body = expectError(search, 400, 'validation_failed');
    expect(body.issues?.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['__proto__', 'constructor']),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
