import type { Event, WorkspaceSummary } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { setup } from '../helpers.js';

describe('scale', () => {
  it('serves 100,000 workspaces and 1,000,000 events: sorted deep pages, filters, continuation and facets', async () => {
    const ctx = await setup({ sizes: { workspaces: 100_000, events: 1_000_000 } });
    const search = async (page: number, body: object) => {
      const res = await ctx.call('POST', '/v2/workspaces/search', {
        query: { page: String(page), pageSize: '500' },
        body,
      });
      expect(res.status).toBe(200);
      return res.body as WorkspaceSummary[];
    };
    const sort = { sort: [{ workspaceName: { order: 1 } }] };
    const [first, again, deep] = [await search(0, sort), await search(0, sort), await search(150, sort)];
    expect(first).toHaveLength(500);
    expect(again.map((w) => w.id)).toEqual(first.map((w) => w.id));
    expect(deep).toHaveLength(500);
    expect(
      (first[499] as WorkspaceSummary).workspaceName <= (deep[0] as WorkspaceSummary).workspaceName,
    ).toBe(true);
    // An update keeps the index in step without a rebuild: the renamed labels are found at once.
    const target = deep[0] as WorkspaceSummary;
    await ctx.call('PUT', `/v2/workspaces/${target.id}/labels`, { body: { labels: ['scale-check'] } });
    const found = await search(0, { filters: { labels: ['scale-check'] }, ...sort });
    expect(found.map((w) => w.id)).toEqual([target.id]);

    const events = await ctx.call('POST', '/v2/event-center', {
      body: { size: 150, facets: [{ field: 'eventType' }] },
    });
    const page = events.body as {
      events: Event[];
      continuationToken: string;
      facets: Array<{ values: Array<{ count: number }> }>;
    };
    expect(page.events).toHaveLength(150);
    // The million seeded events plus the labels change's mutation event.
    expect(page.facets[0]?.values.reduce((n, v) => n + v.count, 0)).toBe(1_000_001);
    const next = await ctx.call('POST', '/v2/event-center', {
      body: { size: 150, continuationToken: page.continuationToken },
    });
    const nextEvents = (next.body as { events: Event[] }).events;
    expect((nextEvents[0] as Event).event_timestamp <= (page.events[149] as Event).event_timestamp).toBe(
      true,
    );
    expect(nextEvents.some((e) => page.events.some((p) => p.id === e.id))).toBe(false);
  }, 180_000);
});
