/**
 * The event center group: event queries (paged by continuation tokens from the core's event
 * cursor) and facets.
 *
 * @module
 */
import {
  DEFAULT_EVENT_PAGE_SIZE,
  DEFAULT_FACET_SIZE,
  EVENT_FIELDS,
  type Event,
  type EventField,
  type EventQueryBody,
  type FacetQueryBody,
  type FacetResult,
} from '@iacm/sdk/contract';
import { atOrAfter, atOrBefore } from '../query/dates.js';
import { addsNoConstraint, allOf } from '../query/search.js';
import { containsNeedle, SEARCH_FIELDS, searchNeedle, textPredicate } from '../query/text.js';
import { accountOf, type Operations } from './operation.js';

function eventValue(event: Event, field: EventField): string {
  return field === 'mutationType' ? event.event.mutation_type : (event[EVENT_FIELDS[field]] as string);
}

function eventPredicate(query: NonNullable<EventQueryBody['query']> | undefined) {
  if (!query) return undefined;
  const { startTime, endTime } = query;
  // A filter with an empty `values` list adds no constraint, like an empty list everywhere.
  const filters = (query.filters ?? []).filter((f) => !addsNoConstraint(f.values));
  return allOf<Event>(
    startTime === undefined ? undefined : (e) => atOrAfter(e.event_timestamp, startTime),
    endTime === undefined ? undefined : (e) => atOrBefore(e.event_timestamp, endTime),
    filters.length === 0 ? undefined : (e) => filters.every((f) => f.values.includes(eventValue(e, f.key))),
    'searchText' in query ? textPredicate(query.searchText, SEARCH_FIELDS.events) : undefined,
  );
}

function facet(events: Iterable<Event>, field: EventField, size: number, valueSearch?: string): FacetResult {
  const counts = new Map<string, number>();
  const needle = searchNeedle(valueSearch);
  for (const e of events) {
    const value = eventValue(e, field);
    if (needle !== undefined && !containsNeedle(value, needle)) continue;
    counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  const values = [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, size);
  return { field, size: counts.size, values };
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
    const size = body.size ?? DEFAULT_EVENT_PAGE_SIZE;
    const filter = eventPredicate(body.query);
    const hash = await queryHash(body);
    const after = body.continuationToken
      ? await ctx.services.decodeCursor(body.continuationToken, hash)
      : undefined;
    const events: Event[] = [];
    let more = false;
    for (const e of account.events.scan(
      'event_timestamp',
      -1,
      after && ({ id: after.id, event_timestamp: after.timestamp } as Event),
    )) {
      if (filter && !filter(e)) continue;
      if (events.length === size) {
        more = true;
        break;
      }
      events.push(e);
    }
    const last = events[events.length - 1];
    const requested = body.facets ?? [];
    const matching =
      requested.length === 0 ? [] : [...account.events.values()].filter((e) => !filter || filter(e));
    const facets = requested.map((f) => facet(matching, f.field, f.size ?? DEFAULT_FACET_SIZE));
    return {
      events,
      facets,
      continuationToken: more && last ? await ctx.services.encodeCursor(hash, last) : null,
    };
  },

  'eventCenter.facets': (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as FacetQueryBody;
    const filter = eventPredicate(body.query);
    const matching = filter ? [...account.events.values()].filter(filter) : account.events.values();
    return [facet(matching, body.field, body.size ?? DEFAULT_FACET_SIZE, body.fieldSearchText)];
  },
} satisfies Operations<'eventCenter'>;
