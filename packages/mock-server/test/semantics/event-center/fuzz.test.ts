/**
 * The event center against the reference model (`../model.ts`): random events (many sharing a
 * timestamp), random time windows, filters (empty `values` included), search text and facets;
 * continuation tokens (each match exactly once, also while new events arrive); the facets endpoint;
 * invalid bodies and tokens.
 */
import { EVENT_FIELD_NAMES } from '@iacm/sdk/contract';
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../../../../tests/support/fuzz.js';
import { EventLog } from '../../../src/store/event-log.js';
import { tagRuleBody } from '../../helpers.js';
import {
  compact,
  eventsState,
  eventsWorld,
  needleDesc,
  needleText,
  POOLS,
  TIMES,
  valueList,
} from '../arbitraries.js';
import { HANG, Harness, ok, refused, same, sameItems } from '../harness.js';
import { compareText, DEFAULT_FACET_SIZE, type EventQuery, eventQuery, facetOf } from '../model.js';

const { EVENT_TYPES, EVENT_PROVIDERS, EVENT_INTEGRATIONS, ASSET_TYPES, ASSET_IDS, MUTATION_TYPES } = POOLS;

/** The values a filter of each key draws from. */
const VALUES: Record<string, readonly string[]> = {
  integrationId: EVENT_INTEGRATIONS,
  eventType: EVENT_TYPES,
  providerType: EVENT_PROVIDERS,
  assetType: ASSET_TYPES,
  assetId: ASSET_IDS,
  mutationType: MUTATION_TYPES,
};

const filter = fc
  .constantFrom(...EVENT_FIELD_NAMES)
  .chain((key) => valueList(VALUES[key] as readonly string[]).map((values) => ({ key, values })));

/** A time window with `startTime` not after `endTime`, either end optional. */
const window = fc
  .tuple(
    fc.option(fc.constantFrom(...TIMES), { nil: undefined }),
    fc.option(fc.constantFrom(...TIMES), { nil: undefined }),
  )
  .map(([a, b]) =>
    a !== undefined && b !== undefined && a > b
      ? { startTime: b, endTime: a }
      : compact({ startTime: a, endTime: b }),
  );

const queryDesc = fc.record(
  {
    window,
    searchText: needleDesc,
    filters: fc.array(filter, { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

const facets = fc.option(
  fc.array(
    fc.record(
      { field: fc.constantFrom(...EVENT_FIELD_NAMES), size: fc.integer({ min: 1, max: 4 }) },
      { requiredKeys: ['field'] },
    ),
    { maxLength: 6 },
  ),
  { nil: undefined },
);

type Account = ReturnType<typeof eventsState>['accounts'][number];

type QueryDesc = typeof queryDesc extends fc.Arbitrary<infer T> ? T : never;

function resolveQuery(q: QueryDesc, account: Account): EventQuery {
  return compact({
    ...q.window,
    searchText: q.searchText === undefined ? undefined : needleText(q.searchText, account.events),
    filters: q.filters,
  }) as EventQuery;
}

function facetsOf(events: Account['events'], requested: Array<{ field: string; size?: number }> | undefined) {
  return (requested ?? []).map((f) => facetOf(events, f.field, f.size ?? DEFAULT_FACET_SIZE));
}

const ids = (item: { id: string }) => item.id;

type Page = {
  events: Array<{ id: string; event_timestamp: string }>;
  facets: unknown;
  continuationToken?: string | null;
};

describe('the event center matches the reference model', () => {
  const h = new Harness();
  beforeAll(async () => {
    // Every walk of the event log pauses every 3 positions (and restarts when a page's mutation lands
    // during a pause): the chunked path gives the model's answers too.
    EventLog.defaultChunk = 3;
    await h.load(eventsState({ salt: 0, events: [] }));
  });

  it(
    'event query: window, filters, search text, size, facets over every match',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          eventsWorld,
          fc.option(queryDesc, { nil: undefined }),
          facets,
          fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
          async (world, q, f, size) => {
            const state = eventsState(world);
            await h.load(state);
            const account = state.accounts[0] as Account;
            const query = q === undefined ? undefined : resolveQuery(q, account);
            const body = compact({ query, facets: f, size });
            const got = ok(await h.call('POST', '/v2/event-center', { body }), body) as Page;
            const all = eventQuery(account, query);
            sameItems(got.events, all.slice(0, size ?? 50), ids, body);
            same(got.facets, facetsOf(all, f), `facets of ${JSON.stringify(body)}`);
            const more = all.length > (size ?? 50);
            if (more !== (typeof got.continuationToken === 'string')) {
              throw new Error(
                `continuation token ${got.continuationToken} for ${JSON.stringify(body)}: ${all.length} matches`,
              );
            }
          },
        ),
        { numRuns: fuzzRuns(300), seed: fuzzSeed(1431) },
      );
    },
    HANG,
  );

  it(
    'continuation tokens: following them visits every match exactly once, newest first; facets on every page',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          eventsWorld,
          fc.option(queryDesc, { nil: undefined }),
          facets,
          fc.integer({ min: 1, max: 4 }),
          async (world, q, f, size) => {
            const state = eventsState(world);
            await h.load(state);
            const account = state.accounts[0] as Account;
            const query = q === undefined ? undefined : resolveQuery(q, account);
            const all = eventQuery(account, query);
            const seen: string[] = [];
            let token: string | undefined;
            for (let page = 0; ; page++) {
              const body = compact({ query, facets: f, size, continuationToken: token });
              const got = ok(await h.call('POST', '/v2/event-center', { body }), body) as Page;
              seen.push(...got.events.map(ids));
              same(got.facets, facetsOf(all, f), `facets of page ${page} of ${JSON.stringify(body)}`);
              if (got.continuationToken === null || got.continuationToken === undefined) break;
              if (got.events.length !== size)
                throw new Error(`a page of ${got.events.length} events before the last`);
              token = got.continuationToken;
              if (page > 30) throw new Error('tokens did not end after 30 pages');
            }
            same(seen, all.map(ids), `events following the tokens of ${JSON.stringify(query)}`);
          },
        ),
        { numRuns: fuzzRuns(200), seed: fuzzSeed(1432) },
      );
    },
    HANG,
  );

  it(
    'continuation tokens while events arrive: every event there all along is seen once, none twice, in order',
    async () => {
      const arrivals = fc.array(fc.nat(2), { minLength: 1, maxLength: 4 });
      await fc.assert(
        fc.asyncProperty(
          eventsWorld,
          fc.option(queryDesc, { nil: undefined }),
          fc.integer({ min: 1, max: 3 }),
          fc.constantFrom(...TIMES, '2025-12-10T00:00:00.000Z'),
          arrivals,
          async (world, q, size, at, news) => {
            const state = eventsState(world);
            // New events are recorded at the mock's clock: among the existing timestamps, ties included.
            await h.load(state, Date.parse(at));
            const account = state.accounts[0] as Account;
            const query = q === undefined ? undefined : resolveQuery(q, account);
            const before = eventQuery(account, query).map(ids);
            const seen: Page['events'] = [];
            let token: string | undefined;
            for (let page = 0; ; page++) {
              const body = compact({ query, size, continuationToken: token });
              const got = ok(await h.call('POST', '/v2/event-center', { body }), body) as Page;
              seen.push(...got.events);
              if (got.continuationToken === null || got.continuationToken === undefined) break;
              token = got.continuationToken;
              // Between pages, API mutations record new events (a rule created, then deleted).
              for (let i = 0; i < (news[page] ?? 0); i++) {
                const created = ok(
                  await h.call('POST', '/v2/guardrails', { body: tagRuleBody(`rule ${page}.${i}`) }),
                  'create',
                ) as { ruleId: string };
                ok(await h.call('DELETE', `/v2/guardrails/${created.ruleId}`), 'delete');
              }
              if (page > 30) throw new Error('tokens did not end after 30 pages');
            }
            const seenIds = seen.map(ids);
            const request = { query, size, at, news };
            if (new Set(seenIds).size !== seenIds.length)
              throw new Error(`an event seen twice: ${JSON.stringify(request)}`);
            const missing = before.filter((id) => !seenIds.includes(id));
            if (missing.length > 0)
              throw new Error(`events never seen ${JSON.stringify(missing)}: ${JSON.stringify(request)}`);
            for (let i = 1; i < seen.length; i++) {
              const [a, b] = [seen[i - 1], seen[i]] as [Page['events'][0], Page['events'][0]];
              const inOrder =
                a.event_timestamp > b.event_timestamp ||
                (a.event_timestamp === b.event_timestamp && compareText(a.id, b.id) < 0);
              if (!inOrder)
                throw new Error(`out of order at ${i}: ${JSON.stringify(seen)}: ${JSON.stringify(request)}`);
            }
            // Whatever else was seen arrived during the walk and matches the query.
            const now = eventQuery(await h.primaryState(), query).map(ids);
            const extra = seenIds.filter((id) => !before.includes(id));
            if (!extra.every((id) => now.includes(id)))
              throw new Error(`unexpected events: ${JSON.stringify(request)}`);
          },
        ),
        { numRuns: fuzzRuns(150), seed: fuzzSeed(1433) },
      );
    },
    HANG,
  );

  it(
    'facets endpoint: one field over a window, value search text, size',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          eventsWorld,
          fc.constantFrom(...EVENT_FIELD_NAMES),
          fc.option(window, { nil: undefined }),
          fc.option(needleDesc, { nil: undefined }),
          fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
          async (world, field, w, text, size) => {
            const state = eventsState(world);
            await h.load(state);
            const account = state.accounts[0] as Account;
            const fieldSearchText = text === undefined ? undefined : needleText(text, account.events);
            const body = compact({ field, query: w, fieldSearchText, size });
            const got = ok(await h.call('POST', '/v2/event-center/facets', { body }), body);
            const events = eventQuery(account, w);
            same(
              got,
              [facetOf(events, field, size ?? DEFAULT_FACET_SIZE, fieldSearchText)],
              `facets ${JSON.stringify(body)}`,
            );
          },
        ),
        { numRuns: fuzzRuns(300), seed: fuzzSeed(1434) },
      );
    },
    HANG,
  );

  it(
    'invalid event queries and tokens are refused with a 400 naming the member',
    async () => {
      const breaks: Array<{ endpoint: string; path: string; body: unknown }> = [
        { endpoint: '/v2/event-center', path: 'size', body: { size: 151 } },
        { endpoint: '/v2/event-center', path: 'size', body: { size: 0 } },
        { endpoint: '/v2/event-center', path: 'facets', body: { facets: [{ field: 'assetId', size: 101 }] } },
        { endpoint: '/v2/event-center', path: 'facets', body: { facets: [{ field: 'owner' }] } },
        {
          endpoint: '/v2/event-center',
          path: 'query.filters',
          body: { query: { filters: [{ key: 'owner', values: ['x'] }] } },
        },
        {
          endpoint: '/v2/event-center',
          path: 'query.endTime',
          body: { query: { startTime: TIMES[2], endTime: TIMES[1] } },
        },
        {
          endpoint: '/v2/event-center',
          path: 'query.startTime',
          body: { query: { startTime: '2025-12-01' } },
        },
        {
          endpoint: '/v2/event-center',
          path: 'query.searchText',
          body: { query: { searchText: 'q'.repeat(257) } },
        },
        {
          endpoint: '/v2/event-center',
          path: 'continuationToken',
          body: { continuationToken: 'not-a-token' },
        },
        { endpoint: '/v2/event-center/facets', path: 'field', body: { size: 3 } },
        { endpoint: '/v2/event-center/facets', path: 'size', body: { field: 'assetId', size: 101 } },
        {
          endpoint: '/v2/event-center/facets',
          path: 'fieldSearchText',
          body: { field: 'assetId', fieldSearchText: 'q'.repeat(257) },
        },
        {
          endpoint: '/v2/event-center/facets',
          path: 'query',
          body: { field: 'assetId', query: { searchText: 'x' } },
        },
      ];
      await fc.assert(
        fc.asyncProperty(eventsWorld, fc.nat(breaks.length - 1), async (world, which) => {
          await h.load(eventsState(world));
          const broken = breaks[which] as (typeof breaks)[number];
          refused(await h.call('POST', broken.endpoint, { body: broken.body }), 'body', broken.path, broken);
        }),
        { numRuns: fuzzRuns(50), seed: fuzzSeed(1435) },
      );
    },
    HANG,
  );

  it(
    'a token is refused when altered or sent with another query',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          eventsWorld,
          fc.option(queryDesc, { nil: undefined }),
          queryDesc,
          fc.nat(),
          async (world, q, other, at) => {
            const state = eventsState(world);
            await h.load(state);
            const account = state.accounts[0] as Account;
            const query = q === undefined ? undefined : resolveQuery(q, account);
            const first = ok(
              await h.call('POST', '/v2/event-center', { body: compact({ query, size: 1 }) }),
              query,
            ) as Page;
            fc.pre(typeof first.continuationToken === 'string');
            const token = first.continuationToken as string;
            // One character of the token's middle part changed (not the last of a part, whose low bits
            // may be padding that decoding ignores).
            const dot = token.indexOf('.');
            const end = token.indexOf('.', dot + 1);
            const i = dot < 0 || end < dot + 3 ? at % token.length : dot + 1 + (at % (end - dot - 2));
            const altered = `${token.slice(0, i)}${token[i] === 'A' ? 'B' : 'A'}${token.slice(i + 1)}`;
            const request = compact({ query, size: 1, continuationToken: altered });
            refused(
              await h.call('POST', '/v2/event-center', { body: request }),
              'body',
              'continuationToken',
              request,
            );
            const otherQuery = resolveQuery(other, account);
            fc.pre(JSON.stringify(otherQuery) !== JSON.stringify(query ?? {}));
            const moved = compact({ query: otherQuery, size: 1, continuationToken: token });
            const answer = await h.call('POST', '/v2/event-center', { body: moved });
            // The same query written with its members in another order is the same query.
            const same = JSON.stringify(sorted(otherQuery)) === JSON.stringify(sorted(query ?? {}));
            if (same) ok(answer, moved);
            else refused(answer, 'body', 'continuationToken', moved);
          },
        ),
        { numRuns: fuzzRuns(150), seed: fuzzSeed(1436) },
      );
    },
    HANG,
  );
});

/** A JSON value with object members in name order (to compare queries). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => compareText(a, b))
        .map(([k, v]) => [k, sorted(v)]),
    );
  }
  return value;
}
