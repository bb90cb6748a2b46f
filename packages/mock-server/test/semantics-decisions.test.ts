/**
 * The query semantics decided in issue 14, one block per decision, through the HTTP surface of the
 * mock on the default seed. Each test states what `docs/api-semantics.md` promises.
 */
import {
  type Backend,
  type Event,
  GuardrailCreateBody,
  type GuardrailRule,
  GuardrailUpdateBody,
  type IacStack,
  type Module,
  type Repository,
  type WorkspaceRun,
  type WorkspaceSummary,
} from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { expectError, setup } from './helpers.js';

type Ctx = Awaited<ReturnType<typeof setup>>;

async function post<T>(ctx: Ctx, path: string, body: unknown, query?: Record<string, string>): Promise<T> {
  const res = await ctx.call('POST', path, { body, ...(query ? { query } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
}

const workspaces = (ctx: Ctx, body: unknown = {}) =>
  post<WorkspaceSummary[]>(ctx, '/v2/workspaces/search', body, { pageSize: '500' });
const stacks = (ctx: Ctx, body: Record<string, unknown> = {}) =>
  post<{ hits: IacStack[]; total: number }>(ctx, '/api/iacStacks', { pageSize: 500, ...body });
const backends = (ctx: Ctx, body: Record<string, unknown> = {}) =>
  post<{ hits: Backend[]; total: number }>(ctx, '/api/iacStacks/backends', { pageSize: 500, ...body });
const repositories = (ctx: Ctx, body: Record<string, unknown> = {}) =>
  post<Repository[]>(ctx, '/api/iacStacks/repositories', body);
const modules = (ctx: Ctx, body: Record<string, unknown> = {}) =>
  post<{ modules: Module[]; total: number }>(ctx, '/api/iacStacks/modules', { pageSize: 500, ...body });
const events = (ctx: Ctx, body: Record<string, unknown> = {}) =>
  post<{ events: Event[]; continuationToken: string | null }>(ctx, '/v2/event-center', {
    size: 150,
    ...body,
  });

/** The primary account's store (for the relations the answers do not carry). */
function store(ctx: Ctx) {
  const account = [...ctx.core.store.accounts.values()][0];
  if (!account) throw new Error('no primary account');
  return account;
}

/** Each stack's backend location, from the workspaces bound to it (what the docs define). */
function locationOf(ctx: Ctx): Map<string, string> {
  const out = new Map<string, string>();
  for (const w of store(ctx).workspaces.values()) {
    const b = w.backendSummary;
    if (!b?.iacStackId) continue;
    const c = b.backendConfig as Record<string, string>;
    const location =
      b.backendType === 's3'
        ? `s3://${c.bucket}`
        : b.backendType === 'gcs'
          ? `gs://${c.bucket}`
          : b.backendType === 'azurerm'
            ? `https://${c.storage_account_name}.blob.core.windows.net/${c.container_name}`
            : b.backendType === 'remote'
              ? `${c.hostname}/${c.organization}`
              : undefined;
    if (location) out.set(b.iacStackId, location);
  }
  return out;
}

const ids = (items: ReadonlyArray<{ id: string }>) => items.map((i) => i.id).sort();

describe('1. search text: trimmed, blank is no filter, toLowerCase() substring, on every endpoint', () => {
  it('reads "  NETWORK \\t" as "network" and a blank text as no filter', async () => {
    const ctx = await setup();
    const all = await workspaces(ctx);
    const lower = await workspaces(ctx, { searchValue: 'network' });
    expect(lower.length).toBeGreaterThan(0);
    expect(lower.length).toBeLessThan(all.length);
    expect(ids(await workspaces(ctx, { searchValue: '  NETWORK \t' }))).toEqual(ids(lower));
    expect(ids(await workspaces(ctx, { searchValue: ' \n\t ' }))).toEqual(ids(all));
    const allStacks = await stacks(ctx);
    expect((await stacks(ctx, { freeTextSearch: '   ' })).total).toBe(allStacks.total);
    const allEvents = await events(ctx, { size: 20 });
    expect(ids((await events(ctx, { size: 20, query: { searchText: ' ' } })).events)).toEqual(
      ids(allEvents.events),
    );
  });
});

describe('2. version fields sort as versions', () => {
  it('sorts workspaces by terraformVersion with 1.9.x before 1.10.x, pages included', async () => {
    const ctx = await setup();
    const versions: string[] = [];
    for (let page = 0; ; page++) {
      const items = await post<WorkspaceSummary[]>(
        ctx,
        '/v2/workspaces/search',
        { sort: [{ terraformVersion: { order: 1 } }], projection: ['iacTypeVersion'] },
        { page: String(page), pageSize: '13' },
      );
      versions.push(...items.map((w) => w.iacTypeVersion as string));
      if (items.length < 13) break;
    }
    expect(versions).toContain('1.9.8');
    expect(versions).toContain('1.10.5');
    expect(versions.lastIndexOf('1.9.8')).toBeLessThan(versions.indexOf('1.10.5'));
    expect(versions.lastIndexOf('1.11.4')).toBeLessThan(versions.indexOf('2010-09-09'));
    const descending = await workspaces(ctx, {
      sort: { terraformVersion: { order: -1 } },
      projection: ['iacTypeVersion'],
    });
    expect(descending.map((w) => w.iacTypeVersion)).toEqual([...versions].reverse());
  });

  it('sorts stacks and modules by version as versions', async () => {
    const ctx = await setup();
    const stackVersions = (await stacks(ctx, { sorting: { field: 'version', order: 'asc' } })).hits.map(
      (s) => s.version,
    );
    expect(stackVersions.lastIndexOf('1.9.8')).toBeLessThan(stackVersions.indexOf('1.10.5'));
    const moduleVersions = (await modules(ctx, { sort: [{ field: 'version', order: 'desc' }] })).modules.map(
      (m) => m.version,
    );
    expect(moduleVersions.indexOf('20.0.0')).toBeLessThan(moduleVersions.indexOf('9.9.0'));
    expect(moduleVersions.indexOf('2.10.3')).toBeLessThan(moduleVersions.indexOf('2.6.8'));
  });
});

describe('3. screenFilters.iacState is the stack status', () => {
  it('selects the stacks of that status, and on other endpoints the records of those stacks', async () => {
    const ctx = await setup();
    const byStatus = await stacks(ctx, { screenFilters: { status: ['contains_drifts'] } });
    expect(byStatus.total).toBeGreaterThan(0);
    expect(ids((await stacks(ctx, { screenFilters: { iacState: ['contains_drifts'] } })).hits)).toEqual(
      ids(byStatus.hits),
    );
    const locations = locationOf(ctx);
    const expected = new Set(byStatus.hits.map((s) => locations.get(s.id)));
    const found = await backends(ctx, { screenFilters: { iacState: ['contains_drifts'] } });
    expect(new Set(found.hits.map((b) => b.mainLocation))).toEqual(expected);
  });
});

describe('4. free text reads human-readable fields, never internal ids', () => {
  it('does not find a stack by its UUID, nor a backend by its id, nor events by a record id', async () => {
    const ctx = await setup();
    const [stack] = (await stacks(ctx, { pageSize: 1 })).hits;
    expect((await stacks(ctx, { freeTextSearch: stack?.id })).total).toBe(0);
    expect((await stacks(ctx, { freeTextSearch: stack?.name })).total).toBeGreaterThan(0);
    const [backend] = (await backends(ctx)).hits;
    expect((await backends(ctx, { freeTextSearch: backend?.id })).total).toBe(0);
    const violation = (
      await events(ctx, { query: { filters: [{ key: 'eventType', values: ['guardrails_violation'] }] } })
    ).events[0];
    const ruleId = violation?.event.attributes.find((a) => a.key === 'ruleId')?.value as string;
    const ruleName = violation?.event.attributes.find((a) => a.key === 'ruleName')?.value as string;
    expect(ruleId).toMatch(/^[0-9a-f]{24}$/);
    expect((await events(ctx, { query: { searchText: ruleId } })).events).toEqual([]);
    expect((await events(ctx, { query: { searchText: ruleName } })).events.length).toBeGreaterThan(0);
  });

  it('finds workspaces by their repository URL', async () => {
    const ctx = await setup();
    const [first] = await workspaces(ctx);
    const url = first?.repoUrl as string;
    const found = await workspaces(ctx, { searchValue: url.toUpperCase() });
    expect(found.map((w) => w.id)).toContain(first?.id);
    expect(found.every((w) => w.repoUrl === url)).toBe(true);
  });
});

describe('5. an empty list or an empty $or adds no constraint, on every endpoint', () => {
  it('workspace, run and guardrail filters', async () => {
    const ctx = await setup();
    const all = await workspaces(ctx);
    expect(ids(await workspaces(ctx, { filters: { labels: [], status: [] } }))).toEqual(ids(all));
    expect(ids(await workspaces(ctx, { filters: { $or: { labels: [], ciTool: [] } } }))).toEqual(ids(all));
    expect(ids(await workspaces(ctx, { filters: { $or: {} } }))).toEqual(ids(all));
    const github = await workspaces(ctx, { filters: { vcsType: ['github'] } });
    expect(ids(await workspaces(ctx, { filters: { $or: { vcsType: ['github'], labels: [] } } }))).toEqual(
      ids(github),
    );
    const workspace = all.find((w) => w.runsCount > 1) as WorkspaceSummary;
    const runsPath = `/v2/workspaces/${workspace.id}/runs/search`;
    const runs = await post<WorkspaceRun[]>(ctx, runsPath, {});
    expect(ids(await post<WorkspaceRun[]>(ctx, runsPath, { filters: { status: [], branch: [] } }))).toEqual(
      ids(runs),
    );
    const rules = await post<GuardrailRule[]>(ctx, '/v2/guardrails/search', {}, { pageSize: '500' });
    expect(
      ids(
        await post<GuardrailRule[]>(
          ctx,
          '/v2/guardrails/search',
          { filters: { type: [] } },
          { pageSize: '500' },
        ),
      ),
    ).toEqual(ids(rules));
  });

  it('event filters and explorer screenFilters', async () => {
    const ctx = await setup();
    const all = await events(ctx);
    expect(
      ids((await events(ctx, { query: { filters: [{ key: 'eventType', values: [] }] } })).events),
    ).toEqual(ids(all.events));
    const everyMember = {
      stateType: [],
      providerIntegrationId: [],
      providerType: [],
      providerAccountId: [],
      stackAssetTypes: [],
      status: [],
      iacState: [],
      vcsRepo: [],
      backendLocation: [],
    };
    const allStacks = await stacks(ctx);
    expect((await stacks(ctx, { screenFilters: everyMember })).total).toBe(allStacks.total);
    expect((await backends(ctx, { screenFilters: everyMember })).total).toBe((await backends(ctx)).total);
    expect(await repositories(ctx, { screenFilters: everyMember })).toEqual(await repositories(ctx));
    const allModules = await modules(ctx);
    const moduleFilters = { ...everyMember, repoFullName: [], moduleOriginType: [], misconfigurations: [] };
    expect((await modules(ctx, { screenFilters: moduleFilters })).total).toBe(allModules.total);
    expect(await post(ctx, '/api/iacStacks/providers', { screenFilters: everyMember })).toEqual(
      await post(ctx, '/api/iacStacks/providers', {}),
    );
  });
});

describe('6. the shared explorer filters mean the same field on every endpoint', () => {
  it('backendLocation selects the stacks whose state lives at a location /backends lists', async () => {
    const ctx = await setup();
    const locations = locationOf(ctx);
    const [backend] = (await backends(ctx)).hits;
    const location = backend?.mainLocation as string;
    const found = await stacks(ctx, { screenFilters: { backendLocation: [location] } });
    expect(found.total).toBeGreaterThan(0);
    const all = await stacks(ctx);
    expect(ids(found.hits)).toEqual(ids(all.hits.filter((s) => locations.get(s.id) === location)));
  });

  it('stateType and provider members select the backends, repositories and modules of matching stacks', async () => {
    const ctx = await setup();
    const locations = locationOf(ctx);
    const terraform = await stacks(ctx, { screenFilters: { stateType: ['terraform'] } });
    const found = await backends(ctx, { screenFilters: { stateType: ['terraform'] } });
    expect(found.total).toBeGreaterThan(0);
    expect(new Set(found.hits.map((b) => b.mainLocation))).toEqual(
      new Set(terraform.hits.map((s) => locations.get(s.id))),
    );

    const gcp = await stacks(ctx, { screenFilters: { providerType: ['gcp'] } });
    const repos = new Set(gcp.hits.map((s) => s.metadata.vcsRepo));
    const foundRepos = await repositories(ctx, { screenFilters: { providerType: ['gcp'] } });
    expect(new Set(foundRepos.map((r) => r.repoFullName))).toEqual(repos);
    const foundModules = await modules(ctx, { screenFilters: { providerType: ['gcp'] } });
    expect(foundModules.total).toBeGreaterThan(0);
    expect(foundModules.modules.every((m) => repos.has(m.repoFullName))).toBe(true);
    const allModules = await modules(ctx);
    expect(foundModules.total).toBe(allModules.modules.filter((m) => repos.has(m.repoFullName)).length);
  });

  it('refuses a shared member of the wrong type on the module query, naming it', async () => {
    const ctx = await setup();
    const res = await ctx.call('POST', '/api/iacStacks/modules', {
      body: { screenFilters: { status: 'active' } },
    });
    const body = expectError(res, 400, 'validation_failed');
    expect(body.issues?.map((i) => i.path)).toContain('screenFilters.status');
  });
});

describe('7. hasIntegratedProviders / hasNotIntegratedProviders: true and false partition the stacks', () => {
  it.each(['hasIntegratedProviders', 'hasNotIntegratedProviders'] as const)('%s', async (member) => {
    const ctx = await setup();
    const all = await stacks(ctx);
    const yes = await stacks(ctx, { screenFilters: { [member]: true } });
    const no = await stacks(ctx, { screenFilters: { [member]: false } });
    const integrated = member === 'hasIntegratedProviders';
    expect(yes.total).toBeGreaterThan(0);
    expect(no.total).toBeGreaterThan(0);
    expect(yes.total + no.total).toBe(all.total);
    expect(ids([...yes.hits, ...no.hits])).toEqual(ids(all.hits));
    expect(no.hits.every((s) => !s.stackProviders.some((p) => p.isIntegrated === integrated))).toBe(true);
  });
});

describe('8. guardrail criteria: exactly the member named by type, cost with one threshold or both', () => {
  it('accepts a cost rule with a single threshold, and refuses one with none', async () => {
    const ctx = await setup();
    const rules = await post<GuardrailRule[]>(ctx, '/v2/guardrails/search', { filters: { type: ['cost'] } });
    const cost = rules[0] as GuardrailRule;
    expect(Object.keys(cost.criteria.cost ?? {})).toHaveLength(1);
    const res = await ctx.call('PATCH', `/v2/guardrails/${cost.id}`, { body: { criteria: { cost: {} } } });
    expect(expectError(res, 400, 'validation_failed').issues?.map((i) => i.path)).toEqual(['criteria.cost']);
    const ok = await ctx.call('PATCH', `/v2/guardrails/${cost.id}`, {
      body: { criteria: { cost: { thresholdPercentage: 5 } } },
    });
    expect(ok.status).toBe(200);
  });

  it('refuses an update whose criteria hold no member or several, naming criteria', async () => {
    const ctx = await setup();
    const [cost] = await post<GuardrailRule[]>(ctx, '/v2/guardrails/search', { filters: { type: ['cost'] } });
    for (const criteria of [
      {},
      { cost: { thresholdAmount: 1 }, policy: { severity: 'high', policies: { include: [], exclude: [] } } },
    ]) {
      const res = await ctx.call('PATCH', `/v2/guardrails/${cost?.id}`, { body: { criteria } });
      const body = expectError(res, 400, 'validation_failed');
      expect(body.issues?.map((i) => i.path)).toContain('criteria');
      expect(body.message).toMatch(/exactly one member/);
      expect(GuardrailUpdateBody.safeParse({ criteria }).success).toBe(false);
    }
  });

  it('says so in the JSON Schema of the create and update bodies', () => {
    for (const schema of [GuardrailCreateBody, GuardrailUpdateBody]) {
      const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as unknown as {
        properties: {
          criteria: {
            minProperties?: number;
            maxProperties?: number;
            properties: { cost: { minProperties?: number } };
          };
        };
      };
      expect(json.properties.criteria.minProperties).toBe(1);
      expect(json.properties.criteria.maxProperties).toBe(1);
      expect(json.properties.criteria.properties.cost.minProperties).toBe(1);
    }
  });
});

describe('9. paging while the data changes', () => {
  it('page numbers can skip a record when an earlier one goes away; continuation tokens cannot', async () => {
    const ctx = await setup();
    const sort = [{ workspaceName: { order: 1 } }];
    const page = (n: number) =>
      post<WorkspaceSummary[]>(ctx, '/v2/workspaces/search', { sort }, { page: String(n), pageSize: '5' });
    const before = [...(await page(0)), ...(await page(1))];
    const first = await page(0);
    expect((await ctx.call('DELETE', `/v2/workspaces/${first[0]?.id}`)).status).toBe(200);
    const second = await page(1);
    // The record that was sixth is now fifth, on page 0 that was already read: it is skipped.
    expect(second[0]?.id).toBe(before[6]?.id);
    expect([...first, ...second].map((w) => w.id)).not.toContain(before[5]?.id);

    const walked: string[] = [];
    let token: string | null | undefined;
    do {
      const res = await events(ctx, { size: 100, ...(token ? { continuationToken: token } : {}) });
      walked.push(...res.events.map((e) => e.id));
      token = res.continuationToken;
      // Mutations during the walk record new events (newer, so before the walk's position).
      const [w] = await post<WorkspaceSummary[]>(ctx, '/v2/workspaces/search', {}, { pageSize: '1' });
      if (w) await ctx.call('DELETE', `/v2/workspaces/${w.id}`);
    } while (token);
    expect(new Set(walked).size).toBe(walked.length);
  });
});
