/**
 * The IaC explorer queries against the reference model (`../model.ts`): random stacks, backends,
 * repositories and modules; random `screenFilters` (every shared member, empty lists, extra members),
 * free text, sorting (every field, both orders, ties), paging with the aliases, `total`, `aggs` and
 * the provider aggregation; invalid bodies; findings between pages.
 */
import { MODULE_SORT_FIELDS, STACK_SORT_FIELDS } from '@iacm/sdk/contract';
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../../../../tests/support/fuzz.js';
import {
  compact,
  type ExplorerWorld,
  explorerState,
  explorerWorld,
  LOCATIONS,
  needleDesc,
  needleText,
  POOLS,
  REPOS,
  sparseRecord,
  valueList,
} from '../arbitraries.js';
import { HANG, Harness, ok, refused, same, sameItems } from '../harness.js';
import {
  backendQuery,
  buckets,
  explorerWindow,
  moduleQuery,
  pageOf,
  providerQuery,
  repositoryQuery,
  stackQuery,
} from '../model.js';

const { IAC, STACK_STATUS, PROVIDER_TYPES, PROVIDER_ACCOUNTS, INTEGRATIONS, MODULE_ORIGIN_TYPES } = POOLS;

/** The shared `screenFilters`: every member, lists often empty (as the console sends them), extras. */
const screenFilters = sparseRecord(
  {
    stateType: valueList(IAC),
    status: valueList(STACK_STATUS),
    iacState: valueList(STACK_STATUS),
    vcsRepo: valueList(REPOS),
    backendLocation: valueList(LOCATIONS),
    providerType: valueList(PROVIDER_TYPES),
    providerAccountId: valueList(PROVIDER_ACCOUNTS),
    providerIntegrationId: valueList(INTEGRATIONS),
    stackAssetTypes: valueList(['aws_s3_bucket']),
    hasIntegratedProviders: fc.boolean(),
    hasNotIntegratedProviders: fc.boolean(),
    consoleOnly: fc.constantFrom<unknown>('x', 1, null, { nested: [] }),
  },
  4,
);

/** The modules' own `screenFilters` members, with the shared ones. */
const moduleFilters = fc
  .tuple(
    screenFilters,
    sparseRecord({
      repoFullName: valueList(REPOS),
      moduleOriginType: valueList(MODULE_ORIGIN_TYPES),
      misconfigurations: valueList(['open-bucket']),
    }),
  )
  .map(([shared, own]) => ({ ...shared, ...own }));

/** Paging members: `page`/`pageSize`, their aliases, or both of a pair with the same value. */
function pagingOf(sizeAlias: boolean) {
  return fc
    .record(
      {
        page: fc.nat(3),
        pageSize: fc.integer({ min: 1, max: 6 }),
        pageName: fc.constantFrom('page', 'pageNumber', 'both'),
        sizeName: fc.constantFrom(
          ...(sizeAlias
            ? ['pageSize', 'tablePageSize', 'size', 'both']
            : ['pageSize', 'tablePageSize', 'both']),
        ),
      },
      { requiredKeys: ['pageName', 'sizeName'] },
    )
    .map((p) => {
      const out: Record<string, number> = {};
      if (p.page !== undefined) {
        if (p.pageName !== 'pageNumber') out.page = p.page;
        if (p.pageName !== 'page') out.pageNumber = p.page;
      }
      if (p.pageSize !== undefined) {
        if (p.sizeName === 'both') {
          out.pageSize = p.pageSize;
          out.tablePageSize = p.pageSize;
        } else out[p.sizeName] = p.pageSize;
      }
      return out;
    });
}

const stackSorting = fc.option(
  fc.record({ field: fc.constantFrom(...STACK_SORT_FIELDS), order: fc.constantFrom('asc', 'desc') }),
  { nil: undefined },
);

const moduleSort = fc.option(
  fc
    .tuple(
      fc.uniqueArray(fc.constantFrom(...MODULE_SORT_FIELDS), { minLength: 1, maxLength: 3 }),
      fc.array(fc.constantFrom('asc', 'desc'), { minLength: 3, maxLength: 3 }),
      fc.boolean(),
    )
    .map(([fields, orders, arr]) =>
      arr
        ? { sortArr: fields.map((field, i) => ({ field, sort: orders[i] })) }
        : { sort: fields.map((field, i) => ({ field, order: orders[i] })) },
    ),
  { nil: undefined },
);

type Account = ReturnType<typeof explorerState>['accounts'][number];

async function loaded(h: Harness, world: ExplorerWorld): Promise<Account> {
  const state = explorerState(world);
  await h.load(state);
  return state.accounts[0] as Account;
}

function withText(
  body: Record<string, unknown>,
  text: Parameters<typeof needleText>[0] | undefined,
  records: readonly unknown[],
): Record<string, unknown> {
  return compact({ ...body, freeTextSearch: text === undefined ? undefined : needleText(text, records) });
}

const ids = (item: { id: string }) => item.id;

describe('IaC explorer queries match the reference model', () => {
  const h = new Harness();
  beforeAll(async () => {
    await h.load(
      explorerState({ salt: 0, stacks: [], backends: [], repositories: [], modules: [], bindings: [] }),
    );
  });

  it(
    'stacks: screenFilters, free text, sorting, paging aliases, total',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          explorerWorld,
          fc.option(screenFilters, { nil: undefined }),
          fc.option(needleDesc, { nil: undefined }),
          stackSorting,
          pagingOf(false),
          async (world, filters, text, sorting, paging) => {
            const account = await loaded(h, world);
            const body = withText({ screenFilters: filters, sorting, ...paging }, text, account.stacks);
            const got = ok(await h.call('POST', '/api/iacStacks', { body }), body) as {
              hits: unknown[];
              total: number;
            };
            const all = stackQuery(account, body);
            const { page, pageSize } = explorerWindow(body);
            sameItems(got.hits, pageOf(all, page, pageSize), ids, body);
            same(got.total, all.length, `total of ${JSON.stringify(body)}`);
          },
        ),
        { numRuns: fuzzRuns(300), seed: fuzzSeed(1421) },
      );
    },
    HANG,
  );

  it(
    'backends: screenFilters (through their stacks where a backend lacks the field), free text, paging, total, aggs',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          explorerWorld,
          fc.option(screenFilters, { nil: undefined }),
          fc.option(needleDesc, { nil: undefined }),
          pagingOf(false),
          async (world, filters, text, paging) => {
            const account = await loaded(h, world);
            const body = withText({ screenFilters: filters, ...paging }, text, account.backends);
            const got = ok(await h.call('POST', '/api/iacStacks/backends', { body }), body) as {
              hits: unknown[];
              total: number;
              aggs: unknown;
            };
            const all = backendQuery(account, body);
            const { page, pageSize } = explorerWindow(body);
            sameItems(got.hits, pageOf(all, page, pageSize), ids, body);
            same(got.total, all.length, `total of ${JSON.stringify(body)}`);
            same(got.aggs, buckets(all.map((b) => b.type)), `aggs of ${JSON.stringify(body)}`);
          },
        ),
        { numRuns: fuzzRuns(300), seed: fuzzSeed(1422) },
      );
    },
    HANG,
  );

  it(
    'repositories: screenFilters (through their stacks where a repository lacks the field), free text, order',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          explorerWorld,
          fc.option(screenFilters, { nil: undefined }),
          fc.option(needleDesc, { nil: undefined }),
          async (world, filters, text) => {
            const account = await loaded(h, world);
            const body = withText({ screenFilters: filters }, text, account.repositories);
            const got = ok(await h.call('POST', '/api/iacStacks/repositories', { body }), body);
            sameItems(
              got,
              repositoryQuery(account, body),
              (r: { repoFullName: string }) => r.repoFullName,
              body,
            );
          },
        ),
        { numRuns: fuzzRuns(300), seed: fuzzSeed(1423) },
      );
    },
    HANG,
  );

  it(
    'modules: own and shared screenFilters, free text, sort and sortArr (every field, ties), paging with size, total',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          explorerWorld,
          fc.option(moduleFilters, { nil: undefined }),
          fc.option(needleDesc, { nil: undefined }),
          moduleSort,
          pagingOf(true),
          async (world, filters, text, sort, paging) => {
            const account = await loaded(h, world);
            const body = withText({ screenFilters: filters, ...sort, ...paging }, text, account.modules);
            const got = ok(await h.call('POST', '/api/iacStacks/modules', { body }), body) as {
              modules: unknown[];
              total: number;
            };
            const all = moduleQuery(account, body);
            const { page, pageSize } = explorerWindow(body);
            sameItems(got.modules, pageOf(all, page, pageSize), ids, body);
            same(got.total, all.length, `total of ${JSON.stringify(body)}`);
          },
        ),
        { numRuns: fuzzRuns(300), seed: fuzzSeed(1424) },
      );
    },
    HANG,
  );

  it(
    'providers: the aggregation over the stacks that match the screenFilters',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          explorerWorld,
          fc.option(screenFilters, { nil: undefined }),
          async (world, filters) => {
            const account = await loaded(h, world);
            const body = compact({ screenFilters: filters });
            const got = ok(await h.call('POST', '/api/iacStacks/providers', { body }), body) as {
              types: unknown;
              urls: { buckets: Array<{ doc_count: number }> };
            };
            const expected = providerQuery(account, body);
            same(got.types, expected.types, `types of ${JSON.stringify(body)}`);
            same(
              got.urls.buckets.reduce((n, b) => n + b.doc_count, 0),
              expected.providers,
              `providers counted in urls.buckets of ${JSON.stringify(body)}`,
            );
          },
        ),
        { numRuns: fuzzRuns(200), seed: fuzzSeed(1425) },
      );
    },
    HANG,
  );

  it(
    'stacks, backends and modules: following the pages visits every match once, in order; total holds',
    async () => {
      const endpoint = fc.constantFrom('stacks', 'backends', 'modules');
      await fc.assert(
        fc.asyncProperty(
          explorerWorld,
          endpoint,
          fc.option(screenFilters, { nil: undefined }),
          stackSorting,
          moduleSort,
          fc.integer({ min: 1, max: 3 }),
          async (world, kind, filters, sorting, sort, pageSize) => {
            const account = await loaded(h, world);
            const base: Record<string, unknown> =
              kind === 'stacks'
                ? compact({ screenFilters: filters, sorting })
                : kind === 'modules'
                  ? compact({ screenFilters: filters, ...sort })
                  : compact({ screenFilters: filters });
            const path = kind === 'stacks' ? '/api/iacStacks' : `/api/iacStacks/${kind}`;
            const model = kind === 'stacks' ? stackQuery : kind === 'modules' ? moduleQuery : backendQuery;
            const all = model(account, base).map(ids);
            const seen: string[] = [];
            for (let page = 0; page * pageSize <= all.length; page++) {
              const body = { ...base, page, pageSize };
              const got = ok(await h.call('POST', path, { body }), body) as Record<string, unknown> & {
                total: number;
              };
              seen.push(...(got[kind === 'modules' ? 'modules' : 'hits'] as Array<{ id: string }>).map(ids));
              same(got.total, all.length, `total of ${JSON.stringify(body)}`);
            }
            same(seen, all, `pages of ${path} ${JSON.stringify(base)}`);
          },
        ),
        { numRuns: fuzzRuns(150), seed: fuzzSeed(1426) },
      );
    },
    HANG,
  );

  it(
    'stacks and modules: every sortable field in both orders is the model order (ties by id, missing last)',
    async () => {
      await fc.assert(
        fc.asyncProperty(explorerWorld, async (world) => {
          const account = await loaded(h, world);
          for (const order of ['asc', 'desc'] as const) {
            for (const field of STACK_SORT_FIELDS) {
              const body = { sorting: { field, order }, pageSize: 500 };
              const got = ok(await h.call('POST', '/api/iacStacks', { body }), body) as { hits: unknown[] };
              sameItems(got.hits, stackQuery(account, body), ids, body);
            }
            for (const field of MODULE_SORT_FIELDS) {
              for (const body of [
                { sort: [{ field, order }], pageSize: 500 },
                { sortArr: [{ field, sort: order }], size: 500 },
              ]) {
                const got = ok(await h.call('POST', '/api/iacStacks/modules', { body }), body) as {
                  modules: unknown[];
                };
                sameItems(got.modules, moduleQuery(account, body), ids, body);
              }
            }
          }
        }),
        { numRuns: fuzzRuns(60), seed: fuzzSeed(1429) },
      );
    },
    HANG,
  );

  it(
    'invalid explorer bodies are refused with a 400 naming the member; extra members are accepted',
    async () => {
      const breaks: Array<{ path: string; endpoint: string; body: unknown }> = [
        {
          endpoint: '/api/iacStacks',
          path: 'sorting.field',
          body: { sorting: { field: 'id', order: 'asc' } },
        },
        {
          endpoint: '/api/iacStacks',
          path: 'sorting.order',
          body: { sorting: { field: 'name', order: 'up' } },
        },
        { endpoint: '/api/iacStacks', path: 'pageSize', body: { pageSize: 501 } },
        { endpoint: '/api/iacStacks', path: 'pageNumber', body: { page: 1, pageNumber: 2 } },
        { endpoint: '/api/iacStacks', path: 'tablePageSize', body: { pageSize: 5, tablePageSize: 6 } },
        {
          endpoint: '/api/iacStacks',
          path: 'screenFilters.status',
          body: { screenFilters: { status: 'active' } },
        },
        { endpoint: '/api/iacStacks', path: 'freeTextSearch', body: { freeTextSearch: 'z'.repeat(257) } },
        { endpoint: '/api/iacStacks/backends', path: 'page', body: { page: -1 } },
        {
          endpoint: '/api/iacStacks/backends',
          path: 'screenFilters.hasIntegratedProviders',
          body: { screenFilters: { hasIntegratedProviders: 'yes' } },
        },
        {
          endpoint: '/api/iacStacks/repositories',
          path: 'screenFilters.vcsRepo',
          body: { screenFilters: { vcsRepo: [1] } },
        },
        { endpoint: '/api/iacStacks/modules', path: 'sortArr', body: { sort: [], sortArr: [] } },
        { endpoint: '/api/iacStacks/modules', path: 'size', body: { size: 3, pageSize: 4 } },
        { endpoint: '/api/iacStacks/modules', path: 'sort', body: { sort: [{ field: 'id', order: 'asc' }] } },
        {
          endpoint: '/api/iacStacks/providers',
          path: 'screenFilters.providerType',
          body: { screenFilters: { providerType: 'aws' } },
        },
      ];
      await fc.assert(
        fc.asyncProperty(explorerWorld, fc.nat(breaks.length - 1), async (world, which) => {
          await loaded(h, world);
          const broken = breaks[which] as (typeof breaks)[number];
          const request = { endpoint: broken.endpoint, body: broken.body };
          refused(await h.call('POST', broken.endpoint, { body: broken.body }), 'body', broken.path, request);
          const extra = { consoleState: { anything: [1, 'two'] }, screenFilters: { consoleOnly: true } };
          ok(await h.call('POST', broken.endpoint, { body: extra }), {
            endpoint: broken.endpoint,
            body: extra,
          });
        }),
        { numRuns: fuzzRuns(50), seed: fuzzSeed(1427) },
      );
    },
    HANG,
  );

  it(
    'stack and backend pages while findings change statuses and workspaces go: each page is the model page of that moment',
    async () => {
      const change = fc.option(
        fc.oneof(
          fc.record({
            kind: fc.constant('finding' as const),
            index: fc.nat(),
            finding: fc.constantFrom('Drift', 'GhostResource', 'InsightDetected'),
          }),
          fc.record({ kind: fc.constant('delete' as const), index: fc.nat() }),
        ),
        { nil: undefined },
      );
      await fc.assert(
        fc.asyncProperty(
          explorerWorld,
          fc.constantFrom('stacks', 'backends'),
          fc.option(screenFilters, { nil: undefined }),
          stackSorting,
          fc.integer({ min: 1, max: 3 }),
          fc.array(change, { minLength: 1, maxLength: 4 }),
          async (world, kind, filters, sorting, pageSize, changes) => {
            let account = await loaded(h, world);
            const base =
              kind === 'stacks'
                ? compact({ screenFilters: filters, sorting })
                : compact({ screenFilters: filters });
            const path = kind === 'stacks' ? '/api/iacStacks' : '/api/iacStacks/backends';
            const model = (a: Account, b: Record<string, unknown>): Array<{ id: string }> =>
              kind === 'stacks' ? stackQuery(a, b) : backendQuery(a, b);
            for (let page = 0; page <= changes.length; page++) {
              const body = { ...base, page, pageSize };
              const request = { path, body, after: changes.slice(0, page) };
              const got = ok(await h.call('POST', path, { body }), request) as {
                hits: unknown[];
                total: number;
              };
              const all = model(account, body);
              sameItems(got.hits, pageOf(all, page, pageSize), ids, request);
              same(got.total, all.length, `total of ${JSON.stringify(request)}`);
              const c = changes[page];
              if (c?.kind === 'finding' && account.stacks.length > 0) {
                const stack = account.stacks[c.index % account.stacks.length] as Account['stacks'][number];
                const res = await h.core.handle({
                  method: 'POST',
                  path: `/__mock/stacks/${stack.id}/findings`,
                  headers: { 'content-type': 'application/json' },
                  body: { kind: c.finding },
                });
                if (res.status !== 201) throw new Error(`finding refused: ${JSON.stringify(res.body)}`);
              } else if (c?.kind === 'delete' && account.workspaces.length > 0) {
                // A stack's backend location comes from its workspaces: deleting one can remove it.
                const ws = account.workspaces[
                  c.index % account.workspaces.length
                ] as Account['workspaces'][number];
                ok(await h.call('DELETE', `/v2/workspaces/${ws.id}`), c);
              }
              // The data at this moment: the mock's own snapshot (what a finding does to a stack is not
              // the subject here; that every answer reflects it at once is).
              account = await h.primaryState();
            }
          },
        ),
        { numRuns: fuzzRuns(100), seed: fuzzSeed(1428) },
      );
    },
    HANG,
  );
});
