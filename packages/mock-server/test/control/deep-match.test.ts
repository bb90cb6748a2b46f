/**
 * `match` as a recursive partial match (issue 35, deliverable 4), the one matcher of endpoint faults,
 * one-off answers and waits: objects by the members named at any depth, arrays as
 * `expect.arrayContaining` (or exactly, with `arrays: 'exact'`), path parameters; a member the
 * endpoint lacks at any depth is a 400 with a "did you mean"; a wait's timeout names the nearest
 * miss and the first member that differed. Before, `match.body.query` had to repeat the whole
 * `query` (its `startTime` included), and there was no `match.params`.
 */
import { describe, expect, it } from 'vitest';
import { explainMiss, MATCH_LIMITS, valueMatches } from '../../src/pipeline/request-match.js';
import { expectError, refusal, rejection, setup } from '../helpers.js';

type Setup = Awaited<ReturnType<typeof setup>>;

const eventQuery = (t: Setup, query: Record<string, unknown>) =>
  t.call('POST', '/v2/event-center', { body: { query, size: 5 } });

const aFilterQuery = {
  startTime: '2026-01-01T00:00:00.000Z',
  searchText: 'drift',
  filters: [
    { key: 'eventType', values: ['iac_status_change', 'guardrails_violation'] },
    { key: 'assetType', values: ['iacm_run'] },
  ],
};

describe('valueMatches: the comparison', () => {
  it('matches objects by the members named, at every depth', () => {
    const actual = { a: 1, b: { c: 2, d: [1, 2, 3] }, e: null };
    expect(valueMatches({}, actual)).toBe(true);
    expect(valueMatches({ b: { c: 2 } }, actual)).toBe(true);
    expect(valueMatches({ b: { c: 3 } }, actual)).toBe(false);
    expect(valueMatches({ e: null }, actual)).toBe(true);
    expect(valueMatches({ f: null }, actual)).toBe(false); // a member the request lacks
    expect(valueMatches({ a: '1' }, actual)).toBe(false); // by ===, no conversion
    expect(valueMatches({ b: [] }, actual)).toBe(false); // an array is not an object
    expect(valueMatches({ constructor: {} }, {})).toBe(false); // own members only
  });

  it('matches arrays as arrayContaining by default: any order, other items allowed, items partial', () => {
    const actual = [{ key: 'type', values: ['a', 'b'] }, { key: 'asset_type' }];
    expect(valueMatches([], actual)).toBe(true);
    expect(valueMatches([{ key: 'asset_type' }, { key: 'type' }], actual)).toBe(true);
    expect(valueMatches([{ values: ['b'] }], actual)).toBe(true);
    expect(valueMatches([{ key: 'status' }], actual)).toBe(false);
    expect(valueMatches(['a'], 'a')).toBe(false);
  });

  it("matches arrays exactly with arrays: 'exact': as many items, in order, items still partial", () => {
    const actual = [{ key: 'type', values: ['a', 'b'] }, { key: 'asset_type' }];
    expect(valueMatches([{ key: 'type' }, { key: 'asset_type' }], actual, 'exact')).toBe(true);
    expect(valueMatches([{ key: 'asset_type' }, { key: 'type' }], actual, 'exact')).toBe(false);
    expect(valueMatches([{ key: 'type' }], actual, 'exact')).toBe(false);
    expect(valueMatches([{ values: ['b', 'a'] }, {}], actual, 'exact')).toBe(false);
  });

  it('explains a miss: what matched, and the first member that differed, by its path', () => {
    const input = { params: {}, query: {}, body: { query: aFilterQuery } };
    const miss = explainMiss(
      { body: { query: { searchText: 'drift', filters: [{ key: 'eventType', values: ['ghost'] }] } } },
      'acc',
      input,
    );
    expect(miss).toMatchObject({
      path: 'body.query.filters[0].values',
      expected: '"ghost" (no item matches)',
      received: '["iac_status_change","guardrails_violation"]',
    });
    // searchText and the filter's key matched: 2 of the values named.
    expect(miss?.matched).toBe(2);
    expect(explainMiss({ accountId: 'other' }, 'acc', input)).toMatchObject({
      path: 'accountId',
      expected: '"other"',
      received: '"acc"',
    });
    expect(explainMiss({ body: { query: { searchText: 'drift' } } }, 'acc', input)).toBeUndefined();
  });
});

describe('match on faults, one-off answers and waits', () => {
  it('selects an event-center query by one filter, without repeating the rest of its query', async () => {
    const t = await setup({ sizes: { workspaces: 3 } });
    const match = {
      body: { query: { filters: [{ key: 'eventType' as const, values: ['guardrails_violation'] }] } },
    };
    t.core.control.addFault({ endpoint: 'eventCenter.query', status: 503, match, times: 1 });
    t.core.control.respond('eventCenter.query', { status: 404, match });
    // Other filters, or none: the real answer.
    expect((await eventQuery(t, { searchText: 'drift' })).status).toBe(200);
    expect((await eventQuery(t, { filters: [{ key: 'eventType', values: ['x'] }] })).status).toBe(200);
    // The fault first, then the one-off answer, then the real answer again.
    expectError(await eventQuery(t, aFilterQuery), 503, 'service_unavailable');
    expectError(await eventQuery(t, aFilterQuery), 404, 'not_found');
    expect((await eventQuery(t, aFilterQuery)).status).toBe(200);
  });

  it("takes arrays: 'exact' for a list that must be exactly these items, in order", async () => {
    const t = await setup({ sizes: { workspaces: 3 } });
    t.core.control.respond('eventCenter.query', {
      status: 404,
      match: { body: { query: { filters: [{ key: 'eventType' }] } }, arrays: 'exact' },
    });
    // Two filters: not exactly one.
    expect((await eventQuery(t, aFilterQuery)).status).toBe(200);
    expectError(await eventQuery(t, { filters: [{ key: 'eventType', values: [] }] }), 404, 'not_found');
  });

  it('selects by path parameter, in process and over HTTP', async () => {
    const t = await setup({ sizes: { workspaces: 3 } });
    const res = await t.call('POST', '/v2/workspaces/search', { body: {} });
    const [first, second] = res.body as { id: string }[];
    if (!first || !second) throw new Error('expected two workspaces');
    t.core.control.respond('workspaces.runs.search', {
      status: 404,
      match: { params: { workspaceId: second.id } },
    });
    const over = await t.call('POST', '/__mock/faults', {
      body: {
        endpoint: 'workspaces.runs.search',
        status: 503,
        match: { params: { workspaceId: first.id } },
      },
    });
    expect(over.status).toBe(201);
    const runs = (id: string) => t.call('POST', `/v2/workspaces/${id}/runs/search`, { body: {} });
    expectError(await runs(first.id), 503, 'service_unavailable');
    expect((await runs(first.id)).status).toBe(200);
    expectError(await runs(second.id), 404, 'not_found');
    // And a wait for the call of one workspace, with the other's call as its nearest miss.
    const waiting = t.core.control.waitFor('workspaces.runs.search', {
      match: { params: { workspaceId: second.id } },
      timeout: 20,
    });
    await runs(first.id);
    const error = await rejection(waiting);
    expect(error.status).toBe(408);
    expect(error.message).toContain(`nearest miss: req_`);
    expect(error.message).toContain(`at params.workspaceId: expected "${second.id}", received "${first.id}"`);
  });

  it('refuses a member the endpoint lacks at any depth, naming its path and the member it likely meant', async () => {
    const t = await setup();
    const error = refusal(() =>
      t.core.control.respond('eventCenter.query', {
        status: 404,
        match: { body: { query: { filters: [{ kye: 'type' }] } } } as never,
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain(
      'body.match.body.query.filters[0].kye: not a member of eventCenter.query',
    );
    expect(error.message).toContain('did you mean "key"?');
    const params = refusal(() =>
      t.core.control.addFault({
        endpoint: 'workspaces.runs.search',
        status: 503,
        match: { params: { workspaceID: 'x' } } as never,
      }),
    );
    expect(params.message).toContain('body.match.params.workspaceID');
    expect(params.message).toContain('did you mean "workspaceId"?');
    const none = refusal(() =>
      t.core.control.addFault({
        endpoint: 'workspaces.search',
        status: 503,
        match: { params: { id: 'x' } } as never,
      }),
    );
    expect(none.message).toContain('workspaces.search takes no path parameters');
    // Over HTTP, the same words.
    const res = await t.call('POST', '/__mock/journal/wait', {
      body: {
        endpoint: 'eventCenter.query',
        match: { body: { query: { filters: [{ kye: 'type' }] } } },
        timeout: 0,
      },
    });
    expect(expectError(res, 400, 'validation_failed').message).toContain('did you mean "key"?');
  });

  it(`bounds a match's arrays: ${MATCH_LIMITS.maxArrayItems} items in all, a 400 naming the array past it`, async () => {
    const t = await setup();
    const values = Array.from({ length: 60 }, (_, i) => `v${i}`);
    const error = refusal(() =>
      t.core.control.respond('eventCenter.query', {
        status: 404,
        match: {
          body: {
            query: {
              filters: [
                { key: 'eventType', values },
                { key: 'assetType', values },
              ],
            },
          },
        },
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain(`at most ${MATCH_LIMITS.maxArrayItems} items in all`);
    expect(error.message).toContain('body.match.body.query.filters');
    expect(t.core.control.responses()).toEqual([]);
  });

  it('counts the arrays that sit past the members checked against the schema', async () => {
    const t = await setup();
    // A record takes any member name: 10,000 members walked first (the last named is walked first),
    // then an array of 101 items one object further down: its items still count.
    const requiredValues = {
      zz: { x: Array.from({ length: MATCH_LIMITS.maxArrayItems + 1 }, (_, i) => `v${i}`) },
      a: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, []])),
    };
    const error = refusal(() =>
      t.core.control.respond('guardrails.create', {
        status: 500,
        match: { body: { criteria: { tag: { requiredValues } } } } as never,
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain(`at most ${MATCH_LIMITS.maxArrayItems} items in all`);
    expect(t.core.control.responses()).toEqual([]);
  });
});
