/**
 * The event center group: event queries (paged by continuation tokens, each bound to its query:
 * `event-cursor.ts`) and facets.
 *
 * @module
 */
import { DEFAULT_EVENT_PAGE_SIZE, DEFAULT_FACET_SIZE, type FacetResult } from '@iacm/sdk/contract';
import { addsNoConstraint } from '../query/search.js';
import { searchNeedle } from '../query/text.js';
import type { EventSelection } from '../store/event-log.js';
import type { EventQuery } from './event-cursor.js';
import { accountOf, type Operations } from './operation.js';

/**
 * The selection of an event query: the window in epoch milliseconds (timestamps are canonical, so
 * this orders exactly as the strings do: `query/dates.ts`), the filters that constrain (an empty
 * `values` adds no constraint, like an empty list everywhere) and the search text.
 */
function selectionOf(query: EventQuery): EventSelection {
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

/** The operations of the eventCenter group, one per endpoint. */
export const eventCenterOperations = {
  'eventCenter.query': async (ctx) => {
    const account = accountOf(ctx);
    const { body } = ctx;
    const after = body.continuationToken
      ? await ctx.services.decodeCursor(body.continuationToken, body.query)
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
      // One count per facet asked, in the order asked.
      facets: result.facets.flatMap((f, i) => {
        const asked = requested[i];
        return asked ? [{ field: asked.field, ...f }] : [];
      }),
      continuationToken: result.more && last ? await ctx.services.encodeCursor(body.query, last) : null,
    };
  },

  'eventCenter.facets': async (ctx) => {
    const account = accountOf(ctx);
    const { body } = ctx;
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
