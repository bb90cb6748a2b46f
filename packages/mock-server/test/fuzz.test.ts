import { ErrorBody, endpointList } from '@iacm/sdk/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../../tests/support/fuzz.js';
import { setup } from './helpers.js';

const json = fc.jsonValue({ maxDepth: 3 });
const id = fc.oneof(
  fc.stringMatching(/^[0-9a-f]{24}$/),
  fc.uuid(),
  fc.string({ maxLength: 30 }),
  fc.constant('../health'),
);
const member = fc.constantFrom(
  'filters',
  'sort',
  'projection',
  'searchValue',
  'size',
  'query',
  'facets',
  'continuationToken',
  'labels',
  'name',
  'type',
  'criteria',
  'scope',
  'severity',
  'page',
  'pageSize',
  'screenFilters',
  'sorting',
  'field',
  'accessKey',
  'secretKey',
);
const body = fc.oneof(
  json,
  fc.dictionary(member, json, { maxKeys: 5 }),
  fc.record({ filters: fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 3 }) }),
  fc.record({
    sort: fc.oneof(json, fc.array(fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 2 }))),
  }),
  fc.constant(undefined),
);
const query = fc.dictionary(
  fc.constantFrom('page', 'pageSize', 'limit', 'x'),
  fc.oneof(fc.string({ maxLength: 6 }), fc.nat().map(String)),
  { maxKeys: 3 },
);
const methods = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');

describe('fuzz', () => {
  it('never answers 5xx to random requests on every endpoint, and every 4xx has the error shape', async () => {
    const ctx = await setup({ sizes: { workspaces: 30, events: 200 } });
    const sample = [...([...ctx.core.store.accounts.values()][0]?.workspaces.values() ?? [])]
      .slice(0, 3)
      .map((w) => w.id);
    const request = fc.record({
      endpoint: fc.constantFrom(...endpointList),
      method: fc.option(methods, { nil: undefined }),
      id: fc.oneof(id, fc.constantFrom(...sample)),
      query,
      body,
      raw: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
      auth: fc.constantFrom('good', 'none', 'junk'),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const path = r.endpoint.path.replace(/\{\w+\}/g, encodeURIComponent(r.id));
        const res = await ctx.call(r.method ?? r.endpoint.method, path, {
          query: r.query,
          token: r.auth === 'good' ? undefined : r.auth === 'none' ? null : 'x.y.z',
          ...(r.raw !== undefined ? { rawBody: r.raw } : r.body !== undefined ? { body: r.body } : {}),
        });
        if (res.status >= 500) throw new Error(`5xx for ${JSON.stringify(r)}: ${JSON.stringify(res.body)}`);
        if (res.status >= 400) {
          const parsed = ErrorBody.safeParse(res.body);
          if (!parsed.success) throw new Error(`bad error shape for ${JSON.stringify(r)}`);
          expect(parsed.data.status).toBe(res.status);
        }
        expect(res.headers['x-request-id']).toBeTruthy();
      }),
      { numRuns: fuzzRuns(17_000), seed: fuzzSeed(20261121) },
    );
  }, 600_000);

  it('never answers 5xx to valid-shaped searches with random combinations', async () => {
    const ctx = await setup({ sizes: { workspaces: 40, events: 300 } });
    const sortField = fc.constantFrom(
      'lastRunTime',
      'workspaceName',
      'repository',
      'terraformVersion',
      'lastRunStatus',
      'ciTool',
    );
    const searchBody = fc.record(
      {
        searchValue: fc.string({ maxLength: 5 }),
        filters: fc.record(
          {
            ciTool: fc.constant(['github-actions']),
            labels: fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 2 }),
            isManagedWorkflow: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
        sort: fc
          .uniqueArray(sortField, { minLength: 1, maxLength: 3 })
          .map((fields) => fields.map((f, i) => ({ [f]: { order: i % 2 ? 1 : -1 } }))),
        projection: fc.constant(['workspaceName', 'labels']),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(searchBody, fc.nat(5), fc.integer({ min: 1, max: 500 }), async (b, page, pageSize) => {
        const res = await ctx.call('POST', '/v2/workspaces/search', {
          query: { page: String(page), pageSize: String(pageSize) },
          body: b,
        });
        expect(res.status).toBe(200);
      }),
      { numRuns: fuzzRuns(500), seed: fuzzSeed(7) },
    );
  }, 600_000);
});
