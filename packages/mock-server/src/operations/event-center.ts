/**
 * The event center group: event queries (paged by continuation tokens from the core's event
 * cursor) and facets.
 *
 * @module
 */
import {
  DEFAULT_EVENT_PAGE_SIZE,
  DEFAULT_FACET_SIZE,
  type EventQueryBody,
  type FacetQueryBody,
  type FacetRequest,
  type FacetResult,
} from '@iacm/sdk/contract';
import { addsNoConstraint } from '../query/search.js';
import { searchNeedle } from '../query/text.js';
import type { EventSelection } from '../store/event-log.js';
import { accountOf, type Operations } from './operation.js';

/**
 * The selection of an event query: the window in epoch milliseconds (timestamps are canonical, so
 * this orders exactly as the strings do: `query/dates.ts`), the filters that constrain (an empty
 * `values` adds no constraint, like an empty list everywhere) and the search text.
 */
function selectionOf(query: NonNullable<EventQueryBody['query']> | undefined): EventSelection {
  if (!query) return {};
  return {
    start: query.startTime === undefined ? undefined : Date.parse(query.startTime),
    end: query.endTime === undefined ? undefined : Date.parse(query.endTime),
    filters: (query.filters ?? [])
      .filter((f) => !addsNoConstraint(f.values))
      .map((f) => ({ field: f.key, values: f.values })),
    needle: searchNeedle(query.searchText),
  };
}

/** A stable digest of the parts of an event query that a continuation token is bound to. */
async function queryHash(body: EventQueryBody): Promise<string> {
  const canonical = JSON.stringify(body.query ?? {}, (_, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : value,
  );
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical));
  return [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The operations of the eventCenter group, one per endpoint. */
export const eventCenterOperations = {
  'eventCenter.query': async (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as EventQueryBody;
    const hash = await queryHash(body);
    const after = body.continuationToken
      ? await ctx.services.decodeCursor(body.continuationToken, hash)
      : undefined;
    const requested = body.facets ?? [];
    const result = await account.events.search(
      selectionOf(body.query),
      { size: body.size ?? DEFAULT_EVENT_PAGE_SIZE, after },
      requested.map((f) => ({ field: f.field, size: f.size ?? DEFAULT_FACET_SIZE })),
      ctx.signal,
    );
    const last = result.page[result.page.length - 1];
    return {
      events: result.page,
      facets: result.facets.map((f, i) => ({ field: (requested[i] as FacetRequest).field, ...f })),
      continuationToken: result.more && last ? await ctx.services.encodeCursor(hash, last) : null,
    };
  },

  'eventCenter.facets': async (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as FacetQueryBody;
    const result = await account.events.search(
      selectionOf(body.query),
      { size: 0 },
      [
        {
          field: body.field,
          size: body.size ?? DEFAULT_FACET_SIZE,
          valueNeedle: searchNeedle(body.fieldSearchText),
        },
      ],
      ctx.signal,
    );
    return result.facets.map((f) => ({ field: body.field, ...f })) satisfies FacetResult[];
  },
} satisfies Operations<'eventCenter'>;
