/**
 * Workspace search and run search against the reference model (`../model.ts`): random workspaces and
 * runs, random filters (`$or` and empty lists included), search text, sort (every sortable field,
 * both orders, both published forms), projection and page numbers; invalid queries; mutations
 * between pages.
 */
import {
  objectIdToUuid,
  RUN_FIELDS,
  RUN_SORT_FIELDS,
  WORKSPACE_FIELDS,
  WORKSPACE_SORT_FIELDS,
} from '@iacm/sdk/contract';
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../../../../tests/support/fuzz.js';
import {
  compact,
  LABELS,
  NAMES,
  needleDesc,
  needleText,
  POOLS,
  projectionDesc,
  REPOS,
  sortDesc,
  sparseRecord,
  TIMES,
  valueList,
  workspacesState,
  workspacesWorld,
} from '../arbitraries.js';
import { HANG, Harness, NOW, ok, refused, same, sameItems } from '../harness.js';
import { DEFAULT_PAGE_SIZE, pageOf, project, runSearch, type SearchBody, workspaceSearch } from '../model.js';

const { CI, VCS, RUN_STATUS, BRANCHES, COMMITS, TITLES, RUN_IDS, BUILD_NAMES, PR_URLS } = POOLS;

const workspaceMembers = sparseRecord(
  {
    workspaceName: valueList(NAMES),
    repositories: valueList(REPOS),
    ciTool: fc.array(fc.constantFrom(...CI), { maxLength: 2 }),
    labels: valueList(LABELS),
    status: fc.array(fc.constantFrom(...RUN_STATUS), { maxLength: 2 }),
    isManagedWorkflow: fc.boolean(),
    vcsType: fc.array(fc.constantFrom(...VCS), { maxLength: 2 }),
  },
  4,
);

const runMembers = sparseRecord(
  {
    runId: valueList(RUN_IDS),
    runName: valueList(TITLES),
    status: fc.array(fc.constantFrom(...RUN_STATUS), { maxLength: 2 }),
    pullRequestUrl: valueList(PR_URLS),
    branch: valueList(BRANCHES),
    commitId: valueList(COMMITS),
    ciTool: fc.array(fc.constantFrom(...CI), { maxLength: 2 }),
    buildId: valueList(RUN_IDS),
    buildName: valueList(BUILD_NAMES),
    buildUrl: valueList([`https://vcs.example/acme%2Fapi/build/100`]),
    vcsType: fc.array(fc.constantFrom(...VCS), { maxLength: 2 }),
    repository: valueList(REPOS),
    repositoryUrl: valueList(['https://vcs.example/acme%2Fapi']),
    title: valueList(TITLES),
    createdAt: fc.constantFrom(...TIMES),
    updatedAt: fc.constantFrom(...TIMES),
  },
  4,
);

/** `filters`: members, and sometimes an `$or` (possibly empty) of the same members. */
function filtersOf<T>(members: fc.Arbitrary<T>) {
  return fc.option(
    fc
      .tuple(members, fc.option(members, { nil: undefined }))
      .map(([all, or]) => compact({ ...(all as Record<string, unknown>), $or: or })),
    { nil: undefined },
  );
}

const paging = fc.record({ page: fc.nat(3), pageSize: fc.integer({ min: 1, max: 6 }) }, { requiredKeys: [] });

function queryOf(p: { page?: number; pageSize?: number }): Record<string, string> {
  return compact({ page: p.page?.toString(), pageSize: p.pageSize?.toString() }) as Record<string, string>;
}

function bodyArbitrary(
  members: fc.Arbitrary<unknown>,
  sortFields: readonly string[],
  fields: readonly string[],
) {
  return fc.record(
    {
      filters: filtersOf(members),
      searchValue: needleDesc,
      sort: sortDesc(sortFields),
      projection: projectionDesc(fields),
    },
    { requiredKeys: [] },
  );
}

/** Resolves the generated body against the records (search text pieces). */
function resolveBody(b: Record<string, unknown>, records: readonly unknown[]): SearchBody {
  return compact({
    ...b,
    searchValue: b.searchValue === undefined ? undefined : needleText(b.searchValue as never, records),
  }) as SearchBody;
}

const ids = (item: { id: string }) => item.id;

describe('workspace and run search match the reference model', () => {
  const h = new Harness();
  beforeAll(async () => {
    await h.load(workspacesState({ salt: 0, workspaces: [] }));
  });

  it(
    'workspace search: filters, $or, search text, sort, projection, one page',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          workspacesWorld,
          bodyArbitrary(workspaceMembers, WORKSPACE_SORT_FIELDS, WORKSPACE_FIELDS),
          paging,
          async (world, b, p) => {
            const state = workspacesState(world);
            await h.load(state);
            const account = state.accounts[0] as (typeof state.accounts)[number];
            const body = resolveBody(b, account.workspaces);
            const query = queryOf(p);
            const request = { body, query };
            const got = ok(await h.call('POST', '/v2/workspaces/search', request), request);
            const all = workspaceSearch(account, body);
            const expected = pageOf(all, p.page ?? 0, p.pageSize ?? DEFAULT_PAGE_SIZE).map((w) =>
              project(w, body.projection),
            );
            sameItems(got, expected, ids, request);
          },
        ),
        { numRuns: fuzzRuns(300), seed: fuzzSeed(1401) },
      );
    },
    HANG,
  );

  it(
    'workspace search: following the pages visits every match once, in order, and ends on a short page',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          workspacesWorld,
          bodyArbitrary(workspaceMembers, WORKSPACE_SORT_FIELDS, []),
          fc.integer({ min: 1, max: 4 }),
          async (world, b, pageSize) => {
            const state = workspacesState(world);
            await h.load(state);
            const account = state.accounts[0] as (typeof state.accounts)[number];
            const body = resolveBody(b, account.workspaces);
            const seen: string[] = [];
            for (let page = 0; ; page++) {
              const query = { page: String(page), pageSize: String(pageSize) };
              const got = ok(await h.call('POST', '/v2/workspaces/search', { body, query }), { body, query });
              const items = got as Array<{ id: string }>;
              seen.push(...items.map(ids));
              if (items.length < pageSize) break;
              if (page > 50) throw new Error('no short page after 50 pages');
            }
            same(seen, workspaceSearch(account, body).map(ids), `pages of ${JSON.stringify(body)}`);
          },
        ),
        { numRuns: fuzzRuns(150), seed: fuzzSeed(1402) },
      );
    },
    HANG,
  );

  it(
    'run search: one workspace, filters, $or, search text, sort, projection; 404 for another account',
    async () => {
      const target = fc.oneof(
        {
          arbitrary: fc.record({ kind: fc.constant('own' as const), index: fc.nat(), uuid: fc.boolean() }),
          weight: 8,
        },
        fc.record({ kind: fc.constant('other' as const), index: fc.nat() }),
        fc.record({ kind: fc.constant('unknown' as const) }),
      );
      await fc.assert(
        fc.asyncProperty(
          workspacesWorld,
          target,
          bodyArbitrary(runMembers, RUN_SORT_FIELDS, RUN_FIELDS),
          paging,
          async (world, t, b, p) => {
            const state = workspacesState(world);
            await h.load(state);
            const [account, other] = state.accounts as [
              (typeof state.accounts)[0],
              (typeof state.accounts)[0],
            ];
            const body = resolveBody(b, account.runs);
            const query = queryOf(p);
            const pick = <T>(list: readonly T[], index: number) =>
              list.length === 0 ? undefined : list[index % list.length];
            const workspace =
              t.kind === 'own'
                ? pick(account.workspaces, t.index)
                : t.kind === 'other'
                  ? pick(other.workspaces, t.index)
                  : undefined;
            const id = workspace?.id ?? 'ffffffffffffffffffffffff';
            const pathId = t.kind === 'own' && t.uuid ? objectIdToUuid(id) : id;
            const request = { workspace: pathId, body, query };
            const answer = await h.call('POST', `/v2/workspaces/${pathId}/runs/search`, { body, query });
            if (t.kind !== 'own' || !workspace) {
              if (answer.status !== 404)
                throw new Error(`expected 404 for ${JSON.stringify(request)}, got ${answer.status}`);
              return;
            }
            const got = ok(answer, request);
            const expected = pageOf(
              runSearch(account, id, body),
              p.page ?? 0,
              p.pageSize ?? DEFAULT_PAGE_SIZE,
            ).map((r) => project(r, body.projection));
            sameItems(got, expected, ids, request);
          },
        ),
        { numRuns: fuzzRuns(300), seed: fuzzSeed(1403) },
      );
    },
    HANG,
  );

  it(
    'every sortable field in both orders: the whole order is the model order (ties by id, missing last)',
    async () => {
      await fc.assert(
        fc.asyncProperty(workspacesWorld, async (world) => {
          const state = workspacesState(world);
          await h.load(state);
          const account = state.accounts[0] as (typeof state.accounts)[number];
          const query = { pageSize: '500' };
          for (const order of [1, -1] as const) {
            for (const field of WORKSPACE_SORT_FIELDS) {
              const body = { sort: [{ [field]: { order } }] };
              const got = ok(await h.call('POST', '/v2/workspaces/search', { body, query }), body);
              sameItems(got, workspaceSearch(account, body), ids, body);
            }
            for (const ws of account.workspaces.slice(0, 3)) {
              for (const field of RUN_SORT_FIELDS) {
                const body = { sort: { [field]: { order } } };
                const path = `/v2/workspaces/${ws.id}/runs/search`;
                const got = ok(await h.call('POST', path, { body, query }), { path, body });
                sameItems(got, runSearch(account, ws.id, body), ids, { path, body });
              }
            }
          }
        }),
        { numRuns: fuzzRuns(60), seed: fuzzSeed(1406) },
      );
    },
    HANG,
  );

  it(
    'invalid workspace and run queries are refused with a 400 naming the member',
    async () => {
      type Break = { where: 'body' | 'query'; path: string; body?: unknown; query?: Record<string, string> };
      const common: Break[] = [
        { where: 'body', path: 'filters.owner', body: { filters: { owner: ['x'] } } },
        { where: 'body', path: 'filters.$or.$or', body: { filters: { $or: { $or: {} } } } },
        { where: 'body', path: 'projection', body: { projection: ['password'] } },
        { where: 'body', path: 'sort', body: { sort: [{ createdAt: { order: 1 } }] } },
        { where: 'body', path: 'sort', body: { sort: { repository: { order: 0 } } } },
        {
          where: 'body',
          path: 'sort',
          body: { sort: [{ repository: { order: 1 } }, { repository: { order: -1 } }] },
        },
        { where: 'body', path: 'searchValue', body: { searchValue: 'x'.repeat(257) } },
        { where: 'query', path: 'pageSize', query: { pageSize: '0' } },
        { where: 'query', path: 'pageSize', query: { pageSize: '501' } },
        { where: 'query', path: 'page', query: { page: '01' } },
        { where: 'query', path: 'page', query: { page: '-1' } },
        { where: 'query', path: 'pageSize', query: { pageSize: '2.5' } },
        { where: 'query', path: 'limit', query: { limit: '10' } },
      ];
      const workspaceOnly: Break[] = [
        { where: 'body', path: 'filters.ciTool', body: { filters: { ciTool: ['circleci'] } } },
        { where: 'body', path: 'filters.status', body: { filters: { status: ['done'] } } },
        { where: 'body', path: 'filters.$or.vcsType', body: { filters: { $or: { vcsType: ['svn'] } } } },
        { where: 'body', path: 'filters.isManagedWorkflow', body: { filters: { isManagedWorkflow: 'yes' } } },
        { where: 'body', path: 'filters.labels', body: { filters: { labels: 'prod' } } },
      ];
      const runOnly: Break[] = [
        { where: 'body', path: 'filters.createdAt', body: { filters: { createdAt: '2025-12-01' } } },
        { where: 'body', path: 'filters.$or.ciTool', body: { filters: { $or: { ciTool: ['circleci'] } } } },
        { where: 'body', path: 'filters.status', body: { filters: { status: ['done'] } } },
        { where: 'body', path: 'filters.branch', body: { filters: { branch: 'main' } } },
        { where: 'body', path: 'sort', body: { sort: [{ lastRunTime: { order: 1 } }] } },
        { where: 'body', path: 'projection', body: { projection: ['labels'] } },
      ];
      await fc.assert(
        fc.asyncProperty(workspacesWorld, fc.boolean(), fc.nat(), async (world, runs, which) => {
          const state = workspacesState(world);
          await h.load(state);
          const account = state.accounts[0] as (typeof state.accounts)[number];
          const workspace = account.workspaces[which % Math.max(1, account.workspaces.length)];
          const onRuns = runs && workspace !== undefined;
          const list = [...common, ...(onRuns ? runOnly : workspaceOnly)];
          const broken = list[which % list.length] as Break;
          const path = onRuns ? `/v2/workspaces/${workspace.id}/runs/search` : '/v2/workspaces/search';
          const request = { path, body: broken.body ?? {}, query: broken.query ?? {} };
          refused(await h.call('POST', path, request), broken.where, broken.path, request);
        }),
        { numRuns: fuzzRuns(100), seed: fuzzSeed(1404) },
      );
    },
    HANG,
  );

  it(
    'page numbers while data changes: each page is the model page of the data at that moment',
    async () => {
      const change = fc.oneof(
        fc.record({ kind: fc.constant('delete' as const), index: fc.nat() }),
        fc.record({
          kind: fc.constant('labels' as const),
          index: fc.nat(),
          labels: fc.uniqueArray(fc.constantFrom(...LABELS), { maxLength: 2 }),
        }),
        fc.constant({ kind: 'none' as const }),
      );
      await fc.assert(
        fc.asyncProperty(
          workspacesWorld,
          bodyArbitrary(workspaceMembers, WORKSPACE_SORT_FIELDS, []),
          fc.integer({ min: 1, max: 3 }),
          fc.array(change, { minLength: 1, maxLength: 5 }),
          async (world, b, pageSize, changes) => {
            const state = workspacesState(world);
            await h.load(state);
            const account = structuredClone(state.accounts[0] as (typeof state.accounts)[number]);
            const body = resolveBody(b, account.workspaces);
            for (let page = 0; page <= changes.length; page++) {
              const query = { page: String(page), pageSize: String(pageSize) };
              const request = { body, query, after: changes.slice(0, page) };
              const got = ok(await h.call('POST', '/v2/workspaces/search', { body, query }), request);
              sameItems(got, pageOf(workspaceSearch(account, body), page, pageSize), ids, request);
              const c = changes[page];
              if (!c || c.kind === 'none' || account.workspaces.length === 0) continue;
              const ws = account.workspaces[
                c.index % account.workspaces.length
              ] as (typeof account.workspaces)[number];
              if (c.kind === 'delete') {
                ok(await h.call('DELETE', `/v2/workspaces/${ws.id}`), c);
                account.workspaces = account.workspaces.filter((w) => w.id !== ws.id);
                account.runs = account.runs.filter((r) => r.workspaceId !== ws.id);
              } else {
                ok(await h.call('PUT', `/v2/workspaces/${ws.id}/labels`, { body: { labels: c.labels } }), c);
                Object.assign(ws, { labels: [...c.labels], updatedAt: new Date(NOW).toISOString() });
              }
            }
          },
        ),
        { numRuns: fuzzRuns(150), seed: fuzzSeed(1405) },
      );
    },
    HANG,
  );
});
