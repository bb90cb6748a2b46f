/**
 * Guardrail search against the reference model (`../model.ts`): random rules, random filters (`$or`
 * and empty lists included), search text, sort (every sortable field, both orders, both published
 * forms), projection and page numbers; invalid queries; renames and deletes between pages.
 */
import { GUARDRAIL_FIELDS, GUARDRAIL_SORT_FIELDS } from '@iacm/sdk/contract';
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../../../../tests/support/fuzz.js';
import {
  compact,
  NAMES,
  needleDesc,
  needleText,
  POOLS,
  projectionDesc,
  rulesState,
  rulesWorld,
  sortDesc,
  sparseRecord,
  valueList,
} from '../arbitraries.js';
import { HANG, Harness, NOW, ok, refused, same, sameItems } from '../harness.js';
import { DEFAULT_PAGE_SIZE, guardrailSearch, pageOf, project, type SearchBody } from '../model.js';

const { USERS, RULE_TYPES, SCOPE_VALUES } = POOLS;

const members = sparseRecord(
  {
    createdBy: valueList(USERS),
    type: fc.array(fc.constantFrom(...RULE_TYPES), { maxLength: 2 }),
    labels: valueList(SCOPE_VALUES),
    repositories: valueList(SCOPE_VALUES),
    workspaces: valueList(SCOPE_VALUES),
    branches: valueList(SCOPE_VALUES),
  },
  4,
);

const filters = fc.option(
  fc.tuple(members, fc.option(members, { nil: undefined })).map(([all, or]) => compact({ ...all, $or: or })),
  { nil: undefined },
);

function bodyArbitrary(projection: boolean) {
  return fc.record(
    {
      filters,
      searchValue: needleDesc,
      sort: sortDesc(GUARDRAIL_SORT_FIELDS),
      projection: projectionDesc(projection ? GUARDRAIL_FIELDS : []),
    },
    { requiredKeys: [] },
  );
}

function resolveBody(b: Record<string, unknown>, records: readonly unknown[]): SearchBody {
  return compact({
    ...b,
    searchValue: b.searchValue === undefined ? undefined : needleText(b.searchValue as never, records),
  }) as SearchBody;
}

const ids = (item: { id: string }) => item.id;

describe('guardrail search matches the reference model', () => {
  const h = new Harness();
  beforeAll(async () => {
    await h.load(rulesState({ salt: 0, rules: [] }));
  });

  it(
    'filters, $or, search text, sort, projection, one page',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          rulesWorld,
          bodyArbitrary(true),
          fc.record({ page: fc.nat(3), pageSize: fc.integer({ min: 1, max: 6 }) }, { requiredKeys: [] }),
          async (world, b, p) => {
            const state = rulesState(world);
            await h.load(state);
            const account = state.accounts[0] as (typeof state.accounts)[number];
            const body = resolveBody(b, account.rules);
            const query = compact({ page: p.page?.toString(), pageSize: p.pageSize?.toString() }) as Record<
              string,
              string
            >;
            const request = { body, query };
            const got = ok(await h.call('POST', '/v2/guardrails/search', request), request);
            const expected = pageOf(
              guardrailSearch(account, body),
              p.page ?? 0,
              p.pageSize ?? DEFAULT_PAGE_SIZE,
            ).map((r) => project(r, body.projection));
            sameItems(got, expected, ids, request);
          },
        ),
        { numRuns: fuzzRuns(300), seed: fuzzSeed(1411) },
      );
    },
    HANG,
  );

  it(
    'following the pages visits every match once, in order, and ends on a short page',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          rulesWorld,
          bodyArbitrary(false),
          fc.integer({ min: 1, max: 4 }),
          async (world, b, size) => {
            const state = rulesState(world);
            await h.load(state);
            const account = state.accounts[0] as (typeof state.accounts)[number];
            const body = resolveBody(b, account.rules);
            const seen: string[] = [];
            for (let page = 0; ; page++) {
              const query = { page: String(page), pageSize: String(size) };
              const items = ok(await h.call('POST', '/v2/guardrails/search', { body, query }), {
                body,
                query,
              }) as Array<{
                id: string;
              }>;
              seen.push(...items.map(ids));
              if (items.length < size) break;
              if (page > 50) throw new Error('no short page after 50 pages');
            }
            same(seen, guardrailSearch(account, body).map(ids), `pages of ${JSON.stringify(body)}`);
          },
        ),
        { numRuns: fuzzRuns(150), seed: fuzzSeed(1412) },
      );
    },
    HANG,
  );

  it(
    'every sortable field in both orders: the whole order is the model order (ties by id)',
    async () => {
      await fc.assert(
        fc.asyncProperty(rulesWorld, async (world) => {
          const state = rulesState(world);
          await h.load(state);
          const account = state.accounts[0] as (typeof state.accounts)[number];
          for (const order of [1, -1] as const) {
            for (const field of GUARDRAIL_SORT_FIELDS) {
              const body = { sort: [{ [field]: { order } }] };
              const got = ok(
                await h.call('POST', '/v2/guardrails/search', { body, query: { pageSize: '500' } }),
                body,
              );
              sameItems(got, guardrailSearch(account, body), ids, body);
            }
          }
        }),
        { numRuns: fuzzRuns(60), seed: fuzzSeed(1415) },
      );
    },
    HANG,
  );

  it(
    'invalid guardrail queries are refused with a 400 naming the member',
    async () => {
      const breaks: Array<{
        where: 'body' | 'query';
        path: string;
        body?: unknown;
        query?: Record<string, string>;
      }> = [
        { where: 'body', path: 'filters.name', body: { filters: { name: ['x'] } } },
        { where: 'body', path: 'filters.type', body: { filters: { type: ['quota'] } } },
        { where: 'body', path: 'filters.$or.type', body: { filters: { $or: { type: ['quota'] } } } },
        { where: 'body', path: 'filters.labels', body: { filters: { labels: 'prod' } } },
        { where: 'body', path: 'filters.$or.$or', body: { filters: { $or: { $or: {} } } } },
        { where: 'body', path: 'projection', body: { projection: ['owner'] } },
        { where: 'body', path: 'sort', body: { sort: [{ updatedAt: { order: 1 } }] } },
        { where: 'body', path: 'sort', body: { sort: { severity: { order: 2 } } } },
        { where: 'body', path: 'sort', body: { sort: [{ name: { order: 1 } }, { name: { order: 1 } }] } },
        { where: 'body', path: 'searchValue', body: { searchValue: 'y'.repeat(257) } },
        { where: 'query', path: 'pageSize', query: { pageSize: '501' } },
        { where: 'query', path: 'page', query: { page: '1e1' } },
      ];
      await fc.assert(
        fc.asyncProperty(rulesWorld, fc.nat(breaks.length - 1), async (world, which) => {
          await h.load(rulesState(world));
          const broken = breaks[which] as (typeof breaks)[number];
          const request = { body: broken.body ?? {}, query: broken.query ?? {} };
          refused(await h.call('POST', '/v2/guardrails/search', request), broken.where, broken.path, request);
        }),
        { numRuns: fuzzRuns(50), seed: fuzzSeed(1413) },
      );
    },
    HANG,
  );

  it(
    'page numbers while rules are renamed and deleted: each page is the model page of the data at that moment',
    async () => {
      const change = fc.oneof(
        fc.record({ kind: fc.constant('delete' as const), index: fc.nat() }),
        fc.record({ kind: fc.constant('rename' as const), index: fc.nat(), name: fc.constantFrom(...NAMES) }),
        fc.constant({ kind: 'none' as const }),
      );
      await fc.assert(
        fc.asyncProperty(
          rulesWorld,
          bodyArbitrary(false),
          fc.integer({ min: 1, max: 3 }),
          fc.array(change, { minLength: 1, maxLength: 5 }),
          async (world, b, size, changes) => {
            const state = rulesState(world);
            await h.load(state);
            const account = structuredClone(state.accounts[0] as (typeof state.accounts)[number]);
            const body = resolveBody(b, account.rules);
            for (let page = 0; page <= changes.length; page++) {
              const query = { page: String(page), pageSize: String(size) };
              const request = { body, query, after: changes.slice(0, page) };
              const got = ok(await h.call('POST', '/v2/guardrails/search', { body, query }), request);
              sameItems(got, pageOf(guardrailSearch(account, body), page, size), ids, request);
              const c = changes[page];
              if (!c || c.kind === 'none' || account.rules.length === 0) continue;
              const rule = account.rules[c.index % account.rules.length] as (typeof account.rules)[number];
              if (c.kind === 'delete') {
                ok(await h.call('DELETE', `/v2/guardrails/${rule.id}`), c);
                account.rules = account.rules.filter((r) => r.id !== rule.id);
              } else {
                ok(await h.call('PATCH', `/v2/guardrails/${rule.id}`, { body: { name: c.name } }), c);
                Object.assign(rule, { name: c.name.trim(), updatedAt: new Date(NOW).toISOString() });
              }
            }
          },
        ),
        { numRuns: fuzzRuns(150), seed: fuzzSeed(1414) },
      );
    },
    HANG,
  );
});
