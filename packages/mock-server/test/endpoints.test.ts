import type { Event, GuardrailRule, WorkspaceRun, WorkspaceSummary } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { expectError, setup } from './helpers.js';

type Ctx = Awaited<ReturnType<typeof setup>>;

async function allWorkspaces(
  ctx: Ctx,
  body: Record<string, unknown> = {},
  pageSize = 7,
): Promise<WorkspaceSummary[]> {
  const out: WorkspaceSummary[] = [];
  for (let page = 0; ; page++) {
    const res = await ctx.call('POST', '/v2/workspaces/search', {
      query: { page: String(page), pageSize: String(pageSize) },
      body,
    });
    expect(res.status).toBe(200);
    const items = res.body as WorkspaceSummary[];
    out.push(...items);
    if (items.length < pageSize) return out;
  }
}

function primaryStore(ctx: Ctx) {
  const store = [...ctx.core.store.accounts.values()][0];
  if (!store) throw new Error('no primary account');
  return store;
}

describe('workspace search: the query engine', () => {
  it('pages through every workspace without overlap or gap, in every sort', async () => {
    const ctx = await setup();
    const total = primaryStore(ctx).workspaces.size;
    expect(total).toBeGreaterThanOrEqual(100);
    for (const sort of [
      undefined,
      [{ workspaceName: { order: 1 } }],
      { ciTool: { order: -1 }, workspaceName: { order: 1 } },
      [{ lastRunStatus: { order: 1 } }, { lastRunTime: { order: -1 } }],
      [{ terraformVersion: { order: -1 } }],
      { repository: { order: 1 } },
    ]) {
      const items = await allWorkspaces(ctx, sort ? { sort } : {}, 9);
      expect(items).toHaveLength(total);
      expect(new Set(items.map((w) => w.id)).size).toBe(total);
    }
  });

  it('sorts by several keys in order, ties by id, in both the array and the object form', async () => {
    const ctx = await setup();
    const arrayForm = await allWorkspaces(
      ctx,
      { sort: [{ ciTool: { order: 1 } }, { workspaceName: { order: -1 } }] },
      50,
    );
    const objectForm = await allWorkspaces(
      ctx,
      { sort: { ciTool: { order: 1 }, workspaceName: { order: -1 } } },
      50,
    );
    expect(objectForm.map((w) => w.id)).toEqual(arrayForm.map((w) => w.id));
    for (let i = 1; i < arrayForm.length; i++) {
      const a = arrayForm[i - 1] as WorkspaceSummary;
      const b = arrayForm[i] as WorkspaceSummary;
      expect(a.runnerType <= b.runnerType).toBe(true);
      if (a.runnerType === b.runnerType) expect(a.workspaceName >= b.workspaceName).toBe(true);
    }
  });

  it('sorts by lastRunTime descending by default, workspaces that never ran last', async () => {
    const ctx = await setup();
    const items = await allWorkspaces(ctx, {}, 100);
    const times = items.map((w) => w.lastRunTime ?? null);
    const firstMissing = times.indexOf(null);
    const present = (firstMissing === -1 ? times : times.slice(0, firstMissing)) as string[];
    expect([...present].sort().reverse()).toEqual(present);
    if (firstMissing !== -1) expect(times.slice(firstMissing).every((t) => t === null)).toBe(true);
  });

  it('filters: any-of within a member, AND across members, $or across its members', async () => {
    const ctx = await setup();
    const all = await allWorkspaces(ctx, {}, 200);
    const tools = [...new Set(all.map((w) => w.runnerType))].slice(0, 2);
    const label = all.flatMap((w) => w.labels)[0] as string;
    const byTool = await allWorkspaces(ctx, { filters: { ciTool: tools } }, 200);
    expect(byTool.map((w) => w.id).sort()).toEqual(
      all
        .filter((w) => tools.includes(w.runnerType))
        .map((w) => w.id)
        .sort(),
    );
    const both = await allWorkspaces(ctx, { filters: { ciTool: tools, labels: [label] } }, 200);
    expect(both.map((w) => w.id).sort()).toEqual(
      all
        .filter((w) => tools.includes(w.runnerType) && w.labels.includes(label))
        .map((w) => w.id)
        .sort(),
    );
    const either = await allWorkspaces(ctx, { filters: { $or: { ciTool: tools, labels: [label] } } }, 200);
    expect(either.map((w) => w.id).sort()).toEqual(
      all
        .filter((w) => tools.includes(w.runnerType) || w.labels.includes(label))
        .map((w) => w.id)
        .sort(),
    );
    const managed = await allWorkspaces(ctx, { filters: { isManagedWorkflow: true } }, 200);
    expect(managed.length).toBe(all.filter((w) => w.isWorkflowManaged).length);
  });

  it('searches text case-insensitively and projects to the named members plus id', async () => {
    const ctx = await setup();
    const all = await allWorkspaces(ctx, {}, 200);
    const needle = (all[0] as WorkspaceSummary).workspaceName.slice(0, 4).toUpperCase();
    const found = await allWorkspaces(ctx, { searchValue: needle }, 200);
    expect(found.length).toBeGreaterThan(0);
    for (const w of found) {
      const text = [w.workspaceName, w.repo, ...w.labels].join(' ').toLowerCase();
      expect(text).toContain(needle.toLowerCase());
    }
    const projected = await ctx.call('POST', '/v2/workspaces/search', {
      body: { projection: ['workspaceName'] },
    });
    for (const item of projected.body as object[])
      expect(Object.keys(item).sort()).toEqual(['id', 'workspaceName']);
  });

  it('refuses a pageSize above the documented maximum of 500', async () => {
    const ctx = await setup();
    expect(
      (await ctx.call('POST', '/v2/workspaces/search', { query: { pageSize: '500' }, body: {} })).status,
    ).toBe(200);
    const error = expectError(
      await ctx.call('POST', '/v2/workspaces/search', { query: { pageSize: '501' }, body: {} }),
      400,
      'validation_failed',
    );
    expect(error.issues?.[0]).toMatchObject({ location: 'query', path: 'pageSize' });
  });
});

describe('workspace delete and labels', () => {
  it('deletes a workspace and its runs from every view', async () => {
    const ctx = await setup();
    const workspace = [...primaryStore(ctx).workspaces.values()].find(
      (w) => w.runsCount > 0,
    ) as WorkspaceSummary;
    const res = await ctx.call('DELETE', `/v2/workspaces/${workspace.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 200,
      data: { message: expect.stringContaining(workspace.workspaceName) },
    });
    const left = await allWorkspaces(ctx, {}, 200);
    expect(left.map((w) => w.id)).not.toContain(workspace.id);
    expectError(
      await ctx.call('POST', `/v2/workspaces/${workspace.id}/runs/search`, { body: {} }),
      404,
      'not_found',
    );
    expectError(await ctx.call('DELETE', `/v2/workspaces/${workspace.id}`), 404, 'not_found');
    expect(JSON.stringify(await ctx.core.control.getState())).not.toContain(
      `"workspaceId":"${workspace.id}"`,
    );
  });

  it('replaces the labels and bumps updatedAt, and search sees it at once', async () => {
    const ctx = await setup();
    const workspace = [...primaryStore(ctx).workspaces.values()][0] as WorkspaceSummary;
    ctx.advance(5000);
    const res = await ctx.call('PUT', `/v2/workspaces/${workspace.id}/labels`, {
      body: { labels: ['blue', 'green'] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: workspace.id,
      workspaceName: workspace.workspaceName,
      labels: ['blue', 'green'],
      updatedAt: new Date(ctx.now()).toISOString(),
    });
    const found = await allWorkspaces(ctx, { filters: { labels: ['green'] } }, 200);
    expect(found.map((w) => w.id)).toEqual([workspace.id]);
    const cleared = await ctx.call('PUT', `/v2/workspaces/${workspace.id}/labels`, { body: { labels: [] } });
    expect((cleared.body as { labels: string[] }).labels).toEqual([]);
  });

  it('keeps the sorted indexes right after updates and deletes', async () => {
    const ctx = await setup();
    const sort = { sort: [{ workspaceName: { order: 1 } }] };
    const before = await allWorkspaces(ctx, sort, 50);
    const victim = before[10] as WorkspaceSummary;
    await ctx.call('DELETE', `/v2/workspaces/${victim.id}`);
    await ctx.call('PUT', `/v2/workspaces/${(before[20] as WorkspaceSummary).id}/labels`, {
      body: { labels: ['x'] },
    });
    const after = await allWorkspaces(ctx, sort, 50);
    expect(after.map((w) => w.id)).toEqual(before.filter((w) => w.id !== victim.id).map((w) => w.id));
  });
});

describe('run search', () => {
  it('is scoped to its workspace and honours filters, the createdAt instant and sorting', async () => {
    const ctx = await setup();
    const store = primaryStore(ctx);
    const [workspaceId, runs] = [...store.runs.entries()].sort((a, b) => b[1].length - a[1].length)[0] as [
      string,
      WorkspaceRun[],
    ];
    const res = await ctx.call('POST', `/v2/workspaces/${workspaceId}/runs/search`, { body: {} });
    const all = res.body as WorkspaceRun[];
    expect(all).toHaveLength(runs.length);
    expect(all.every((r) => r.workspaceId === workspaceId)).toBe(true);
    const updated = all.map((r) => r.updatedAt);
    expect([...updated].sort().reverse()).toEqual(updated);
    const pivot = [...all.map((r) => r.createdAt)].sort()[Math.floor(all.length / 2)] as string;
    const recent = await ctx.call('POST', `/v2/workspaces/${workspaceId}/runs/search`, {
      body: { filters: { createdAt: pivot } },
    });
    expect((recent.body as WorkspaceRun[]).map((r) => r.id).sort()).toEqual(
      all
        .filter((r) => r.createdAt >= pivot)
        .map((r) => r.id)
        .sort(),
    );
    const status = (all[0] as WorkspaceRun).status;
    const byStatus = await ctx.call('POST', `/v2/workspaces/${workspaceId}/runs/search`, {
      body: { filters: { status: [status] } },
    });
    expect((byStatus.body as WorkspaceRun[]).length).toBe(all.filter((r) => r.status === status).length);
    const byTitle = await ctx.call('POST', `/v2/workspaces/${workspaceId}/runs/search`, {
      body: { sort: { title: { order: 1 } } },
    });
    const titles = (byTitle.body as WorkspaceRun[]).map((r) => r.title);
    expect([...titles].sort()).toEqual(titles);
  });

  it('answers 404 for an unknown workspace', async () => {
    const ctx = await setup();
    expectError(
      await ctx.call('POST', '/v2/workspaces/ffffffffffffffffffffffff/runs/search', { body: {} }),
      404,
      'not_found',
    );
  });
});

const costRule = (createdBy: string) => ({
  createdBy,
  name: 'Cost guard',
  type: 'cost',
  scope: {
    workspaces: { include: ['*'], exclude: [] },
    repositories: { include: ['acme/*'], exclude: [] },
    branches: { include: ['main'], exclude: [] },
    labels: { include: ['prod'], exclude: [] },
  },
  criteria: { cost: { thresholdAmount: 100 } },
  severity: 2,
});

describe('guardrails', () => {
  it('creates, finds, updates and deletes a rule with its notification configuration', async () => {
    const ctx = await setup();
    const user = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    const created = await ctx.call('POST', '/v2/guardrails', { body: costRule(user) });
    expect(created.status).toBe(200);
    const { ruleId, notificationId } = created.body as { ruleId: string; notificationId: string };
    expect(ruleId).toMatch(/^[0-9a-f]{24}$/);
    expect(primaryStore(ctx).notifications.get(notificationId)?.ruleId).toBe(ruleId);

    const found = await ctx.call('POST', '/v2/guardrails/search', {
      body: { filters: { createdBy: [user] } },
    });
    expect(found.body).toEqual([
      expect.objectContaining({
        id: ruleId,
        name: 'Cost guard',
        isEnabled: true,
        severity: 2,
        notificationId,
        accountId: ctx.primary.id,
      }),
    ]);
    const byScope = await ctx.call('POST', '/v2/guardrails/search', {
      body: { filters: { labels: ['prod'], branches: ['main'] } },
    });
    expect((byScope.body as GuardrailRule[]).map((r) => r.id)).toContain(ruleId);

    ctx.advance(1000);
    const updated = await ctx.call('PATCH', `/v2/guardrails/${ruleId}`, {
      body: { name: 'Cost guard v2', isEnabled: false },
    });
    expect(updated.body).toEqual({
      id: ruleId,
      name: 'Cost guard v2',
      enabled: false,
      updatedAt: new Date(ctx.now()).toISOString(),
    });

    const badMerge = await ctx.call('PATCH', `/v2/guardrails/${ruleId}`, { body: { type: 'tag' } });
    expect(expectError(badMerge, 400, 'validation_failed').issues?.map((i) => i.path)).toEqual(
      expect.arrayContaining(['criteria.tag', 'criteria.cost']),
    );

    const deleted = await ctx.call('DELETE', `/v2/guardrails/${ruleId}`);
    expect(deleted.body).toMatchObject({ status: 200, message: expect.any(String) });
    expect(primaryStore(ctx).notifications.has(notificationId)).toBe(false);
    expectError(await ctx.call('DELETE', `/v2/guardrails/${ruleId}`), 404, 'not_found');
    const gone = await ctx.call('POST', '/v2/guardrails/search', {
      body: { filters: { createdBy: [user] } },
    });
    expect(gone.body).toEqual([]);
  });

  it('refuses a rule for another account with 403 and an invalid one with 400 naming the fields', async () => {
    const ctx = await setup();
    const body = { ...costRule('aaaaaaaaaaaaaaaaaaaaaaaa'), accountId: ctx.other.id };
    expectError(await ctx.call('POST', '/v2/guardrails', { body }), 403, 'forbidden');
    const { scope: _s, ...noScope } = costRule('aaaaaaaaaaaaaaaaaaaaaaaa');
    const error = expectError(
      await ctx.call('POST', '/v2/guardrails', { body: { ...noScope, criteria: { tag: {} } } }),
      400,
      'validation_failed',
    );
    expect(error.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['scope']));
  });

  it('sorts and pages rules', async () => {
    const ctx = await setup();
    const res = await ctx.call('POST', '/v2/guardrails/search', {
      query: { pageSize: '500' },
      body: { sort: [{ severity: { order: -1 } }, { name: { order: 1 } }] },
    });
    const rules = res.body as GuardrailRule[];
    expect(rules.length).toBe(primaryStore(ctx).rules.size);
    for (let i = 1; i < rules.length; i++)
      expect((rules[i - 1] as GuardrailRule).severity >= (rules[i] as GuardrailRule).severity).toBe(true);
    expect(new Set(rules.map((r) => r.type))).toEqual(new Set(['policy', 'cost', 'resource', 'tag']));
  });
});

describe('IaC explorer', () => {
  it('pages stacks with a total, filters and sorts them', async () => {
    const ctx = await setup();
    const stacks = primaryStore(ctx).explorer.stacks;
    const first = await ctx.call('POST', '/api/iacStacks', {
      body: { page: 0, pageSize: 10, sorting: { field: 'assetCount', order: 'desc' } },
    });
    const { hits, total } = first.body as { hits: Array<{ assetCount: number; id: string }>; total: number };
    expect(total).toBe(stacks.length);
    expect(hits).toHaveLength(Math.min(10, stacks.length));
    const counts = hits.map((h) => h.assetCount);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    const second = await ctx.call('POST', '/api/iacStacks', {
      body: { pageNumber: 1, tablePageSize: 10, sorting: { field: 'assetCount', order: 'desc' } },
    });
    const secondIds = (second.body as { hits: Array<{ id: string }> }).hits.map((h) => h.id);
    expect(secondIds.some((id) => hits.some((h) => h.id === id))).toBe(false);
    const providerType = stacks[0]?.stackProviders[0]?.providerType as string;
    const filtered = await ctx.call('POST', '/api/iacStacks', {
      body: { pageSize: 500, screenFilters: { providerType: [providerType] } },
    });
    expect((filtered.body as { total: number }).total).toBe(
      stacks.filter((s) => s.stackProviders.some((p) => p.providerType === providerType)).length,
    );
  });

  it('aggregates backends over all matches, and providers from the stacks', async () => {
    const ctx = await setup();
    const res = await ctx.call('POST', '/api/iacStacks/backends', { body: { pageSize: 1 } });
    const { hits, aggs, total } = res.body as {
      hits: unknown[];
      aggs: Array<{ doc_count: number }>;
      total: number;
    };
    expect(hits).toHaveLength(Math.min(1, total));
    expect(aggs.reduce((n, b) => n + b.doc_count, 0)).toBe(total);
    const providers = await ctx.call('POST', '/api/iacStacks/providers', { body: {} });
    const { types } = providers.body as { types: Record<string, Record<string, { count: number }>> };
    const counted = Object.values(types)
      .flatMap((byAccount) => Object.values(byAccount))
      .reduce((n, leaf) => n + leaf.count, 0);
    expect(counted).toBe(primaryStore(ctx).explorer.stacks.reduce((n, s) => n + s.stackProviders.length, 0));
  });

  it('lists repositories and modules whose counts agree', async () => {
    const ctx = await setup();
    const repos = (await ctx.call('POST', '/api/iacStacks/repositories', { body: {} })).body as Array<{
      repoFullName: string;
      topHit: { modulesCount: number };
    }>;
    const modules = await ctx.call('POST', '/api/iacStacks/modules', { body: { pageSize: 500 } });
    const list = (modules.body as { modules: Array<{ repoFullName: string }>; total: number }).modules;
    for (const repo of repos)
      expect(list.filter((m) => m.repoFullName === repo.repoFullName).length).toBe(repo.topHit.modulesCount);
    const sorted = await ctx.call('POST', '/api/iacStacks/modules', {
      body: { sortArr: [{ field: 'usageCount', sort: 'desc' }] },
    });
    const usage = (sorted.body as { modules: Array<{ usageCount: number }> }).modules.map(
      (m) => m.usageCount,
    );
    expect([...usage].sort((a, b) => b - a)).toEqual(usage);
  });
});

describe('event center', () => {
  async function allEvents(ctx: Ctx, body: Record<string, unknown>, size: number) {
    const events: Event[] = [];
    let token: string | null | undefined;
    for (;;) {
      const res = await ctx.call('POST', '/v2/event-center', {
        body: { ...body, size, ...(token ? { continuationToken: token } : {}) },
      });
      expect(res.status).toBe(200);
      const page = res.body as { events: Event[]; continuationToken: string | null };
      events.push(...page.events);
      token = page.continuationToken;
      if (!token) return events;
      expect(page.events).toHaveLength(size);
    }
  }

  it('answers 50 events by default, newest first, and pages every event by continuation token', async () => {
    const ctx = await setup();
    const first = await ctx.call('POST', '/v2/event-center', { body: {} });
    expect((first.body as { events: Event[] }).events).toHaveLength(50);
    const events = await allEvents(ctx, {}, 150);
    expect(events).toHaveLength(primaryStore(ctx).events.size);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const stamps = events.map((e) => e.event_timestamp);
    expect([...stamps].sort().reverse()).toEqual(stamps);
  });

  it('gives the same token for the same page, and refuses a tampered or reused token', async () => {
    const ctx = await setup();
    const a = (await ctx.call('POST', '/v2/event-center', { body: { size: 5 } })).body as {
      continuationToken: string;
    };
    const b = (await ctx.call('POST', '/v2/event-center', { body: { size: 5 } })).body as {
      continuationToken: string;
    };
    expect(a.continuationToken).toBe(b.continuationToken);
    const tampered = `${a.continuationToken.slice(0, -3)}${a.continuationToken.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    expectError(
      await ctx.call('POST', '/v2/event-center', { body: { continuationToken: tampered } }),
      400,
      'validation_failed',
    );
    const other = await ctx.call('POST', '/v2/event-center', {
      body: { continuationToken: a.continuationToken, query: { searchText: 'x' } },
    });
    expect(expectError(other, 400, 'validation_failed').message).toMatch(/different query/);
    expectError(
      await ctx.call('POST', '/v2/event-center', { body: { size: 151 } }),
      400,
      'validation_failed',
    );
  });

  it('filters by window, key and text, and counts facets over every match', async () => {
    const ctx = await setup();
    const all = [...primaryStore(ctx).events.values()];
    const integration = (all[0] as Event).integration_id;
    const events = await allEvents(
      ctx,
      { query: { filters: [{ key: 'integrationId', values: [integration] }] } },
      150,
    );
    expect(events.length).toBe(all.filter((e) => e.integration_id === integration).length);
    const stamps = all.map((e) => e.event_timestamp).sort();
    const [start, end] = [stamps[100] as string, stamps[400] as string];
    const windowed = await allEvents(ctx, { query: { startTime: start, endTime: end } }, 150);
    expect(windowed.length).toBe(
      all.filter((e) => e.event_timestamp >= start && e.event_timestamp <= end).length,
    );
    const res = await ctx.call('POST', '/v2/event-center', {
      body: { size: 1, facets: [{ field: 'integrationId', size: 2 }, { field: 'eventType' }] },
    });
    const [byIntegration, byType] = (
      res.body as {
        facets: Array<{ field: string; size: number; values: Array<{ value: string; count: number }> }>;
      }
    ).facets;
    const distinct = new Set(all.map((e) => e.integration_id));
    expect(byIntegration?.size).toBe(distinct.size);
    expect(byIntegration?.values).toHaveLength(Math.min(2, distinct.size));
    const top = byIntegration?.values[0];
    expect(top?.count).toBe(all.filter((e) => e.integration_id === top?.value).length);
    expect(byType?.values.reduce((n, v) => n + v.count, 0)).toBe(all.length);
  });

  it('answers the facets endpoint for one field with fieldSearchText and size', async () => {
    const ctx = await setup();
    const res = await ctx.call('POST', '/v2/event-center/facets', {
      body: { field: 'eventType', size: 100 },
    });
    const [result] = res.body as Array<{ field: string; size: number; values: Array<{ value: string }> }>;
    expect(result?.field).toBe('eventType');
    expect(result?.values.map((v) => v.value)).toContain('guardrails_violation');
    const searched = await ctx.call('POST', '/v2/event-center/facets', {
      body: { field: 'eventType', fieldSearchText: 'GUARD' },
    });
    expect(
      (searched.body as Array<{ values: Array<{ value: string }> }>)[0]?.values.map((v) => v.value),
    ).toEqual(['guardrails_violation']);
    expectError(
      await ctx.call('POST', '/v2/event-center/facets', { body: { field: 'eventType', size: 101 } }),
      400,
      'validation_failed',
    );
  });
});
