/**
 * Issue 24, point 4: the workspace endpoints answer at their paths without `/v2` too, as the live
 * service does for clients written against it (Firefly's Terraform provider calls
 * `POST /workspaces/search`). An alias is the same endpoint: same answer, authentication, validation,
 * journal name and endpoint faults. The requests here are written to the provider's shape, not
 * copied from it.
 */
import { endpointList } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { routeTemplates, UNVERSIONED_PREFIXES } from '../../src/pipeline/route.js';
import { expectError, setup } from '../helpers.js';

/** A workspace of the primary account, by name order (the first of a search). */
async function firstWorkspace(ctx: Awaited<ReturnType<typeof setup>>) {
  const res = await ctx.call('POST', '/v2/workspaces/search', {
    query: { page: '1', pageSize: '1' },
    body: { sort: [{ workspaceName: { order: 1 } }] },
  });
  expect(res.status).toBe(200);
  return (res.body as Array<{ id: string; workspaceName: string }>)[0] as {
    id: string;
    workspaceName: string;
  };
}

describe('the workspace endpoints without /v2', () => {
  it('every endpoint under /v2/workspaces has its alias, and no other endpoint has one', () => {
    const aliased = endpointList
      .filter((definition) => routeTemplates(definition).length > 1)
      .map((definition) => [definition.name, routeTemplates(definition)[1]]);
    expect(aliased).toEqual([
      ['workspaces.search', '/workspaces/search'],
      ['workspaces.delete', '/workspaces/{workspaceId}'],
      ['workspaces.setLabels', '/workspaces/{workspaceId}/labels'],
      ['workspaces.runs.search', '/workspaces/{workspaceId}/runs/search'],
    ]);
    expect(UNVERSIONED_PREFIXES).toEqual(['/v2/workspaces']);
    // Each endpoint under /v2/workspaces (today's four, and one added later) gets its alias.
    for (const definition of endpointList) {
      expect(routeTemplates(definition).length > 1).toBe(definition.path.startsWith('/v2/workspaces/'));
    }
  });

  it('POST /workspaces/search answers as POST /v2/workspaces/search (paging, filters, sort)', async () => {
    const ctx = await setup();
    const init = {
      query: { page: '1', pageSize: '7' },
      body: { searchValue: 'a', sort: [{ workspaceName: { order: -1 } }] },
    };
    const versioned = await ctx.call('POST', '/v2/workspaces/search', init);
    const bare = await ctx.call('POST', '/workspaces/search', init);
    expect(versioned.status).toBe(200);
    expect(bare.status).toBe(200);
    expect(bare.body).toEqual(versioned.body);
    expect((bare.body as unknown[]).length).toBeGreaterThan(0);
  });

  it('POST /workspaces/{id}/runs/search answers as the /v2 path', async () => {
    const ctx = await setup();
    const { id } = await firstWorkspace(ctx);
    const init = { query: { page: '1', pageSize: '3' }, body: {} };
    const versioned = await ctx.call('POST', `/v2/workspaces/${id}/runs/search`, init);
    const bare = await ctx.call('POST', `/workspaces/${id}/runs/search`, init);
    expect(versioned.status).toBe(200);
    expect(bare.body).toEqual(versioned.body);
  });

  it('PUT /workspaces/{id}/labels and DELETE /workspaces/{id} change the same workspace', async () => {
    const ctx = await setup();
    const { id, workspaceName } = await firstWorkspace(ctx);
    const put = await ctx.call('PUT', `/workspaces/${id}/labels`, {
      body: { labels: ['tf-managed', 'prod'] },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id, workspaceName, labels: ['tf-managed', 'prod'] });
    const seen = await ctx.call('POST', '/v2/workspaces/search', {
      body: { filters: { labels: ['tf-managed'] } },
    });
    expect((seen.body as Array<{ id: string }>).map((w) => w.id)).toEqual([id]);

    const deleted = await ctx.call('DELETE', `/workspaces/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ status: 200 });
    // Gone at both paths: the /v2 delete and the alias answer the same 404.
    expectError(await ctx.call('DELETE', `/v2/workspaces/${id}`), 404, 'not_found');
    expectError(await ctx.call('DELETE', `/workspaces/${id}`), 404, 'not_found');
  });

  it('the same authentication, validation and method checks', async () => {
    const ctx = await setup();
    expectError(await ctx.call('POST', '/workspaces/search', { body: {}, token: null }), 401, 'unauthorized');
    const bad = expectError(
      await ctx.call('POST', '/workspaces/search', { query: { pageSize: '0' }, body: { sortt: [] } }),
      400,
      'validation_failed',
    );
    const badV2 = expectError(
      await ctx.call('POST', '/v2/workspaces/search', { query: { pageSize: '0' }, body: { sortt: [] } }),
      400,
      'validation_failed',
    );
    expect({ ...bad, requestId: '' }).toEqual({ ...badV2, requestId: '' });
    expect(bad.issues?.map((issue) => `${issue.location}.${issue.path}`)).toEqual([
      'query.pageSize',
      'body.sortt',
    ]);
    expectError(
      await ctx.call('PUT', '/workspaces/nothex/labels', { body: { labels: [] } }),
      400,
      'validation_failed',
    );
    const wrongMethod = await ctx.call('GET', '/workspaces/search');
    expectError(wrongMethod, 405, 'method_not_allowed');
    expect(wrongMethod.headers.allow).toBe('POST');
    // Only the workspace endpoints: the guardrails and the explorer keep their one path.
    expectError(await ctx.call('POST', '/guardrails/search', { body: {} }), 404, 'route_not_found');
    expectError(await ctx.call('POST', '/v2/api/iacStacks', { body: {} }), 404, 'route_not_found');
  });

  it('the journal names the endpoint and keeps the path as sent; calls(name) lists both paths', async () => {
    const ctx = await setup();
    ctx.core.control.clearJournal();
    await ctx.call('POST', '/v2/workspaces/search', { body: {} });
    await ctx.call('POST', '/workspaces/search', { body: {} });
    expect(ctx.core.control.calls('workspaces.search').map((c) => [c.path, c.status, c.validated])).toEqual([
      ['/v2/workspaces/search', 200, true],
      ['/workspaces/search', 200, true],
    ]);
  });

  it('a one-off answer for the endpoint is given at the alias path', async () => {
    const ctx = await setup();
    ctx.core.control.respond('workspaces.runs.search', { status: 200, body: [] });
    const { id } = await firstWorkspace(ctx);
    const bare = await ctx.call('POST', `/workspaces/${id}/runs/search`, { body: {} });
    expect(bare.status).toBe(200);
    expect(bare.body).toEqual([]);
    expect(
      ((await ctx.call('POST', `/workspaces/${id}/runs/search`, { body: {} })).body as unknown[]).length,
    ).toBeGreaterThan(0);
  });

  it('a fault set on the endpoint name hits the alias path; a path fault matches the path as sent', async () => {
    const ctx = await setup();
    ctx.core.control.addFault({ endpoint: 'workspaces.search', status: 503, times: 1 });
    expectError(await ctx.call('POST', '/workspaces/search', { body: {} }), 503, 'service_unavailable');
    expect((await ctx.call('POST', '/v2/workspaces/search', { body: {} })).status).toBe(200);

    ctx.core.control.addFault({ endpoint: 'workspaces.search', status: 503, times: 1 });
    expect((await ctx.call('POST', '/v2/workspaces/search', { body: {} })).status).toBe(503);
    expect((await ctx.call('POST', '/workspaces/search', { body: {} })).status).toBe(200);

    ctx.core.control.addFault({ method: 'POST', path: '/v2/workspaces/*', status: 502, times: 1 });
    expect((await ctx.call('POST', '/workspaces/search', { body: {} })).status).toBe(200);
    expect((await ctx.call('POST', '/v2/workspaces/search', { body: {} })).status).toBe(502);
    ctx.core.control.addFault({ method: 'POST', path: '/workspaces/*', status: 502, times: 1 });
    const faulted = await ctx.call('POST', '/workspaces/search', { body: {} });
    expect(faulted.status).toBe(502);
    // Answered before routing, and still journalled with its endpoint's name.
    expect(ctx.core.control.calls('workspaces.search').at(-1)).toMatchObject({
      path: '/workspaces/search',
      status: 502,
    });
  });
});
