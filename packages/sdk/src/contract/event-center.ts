import { z } from 'zod';
import { EVENT_FIELD_NAMES, EVENT_TYPES, MUTATION_TYPES } from './enums.js';
import { openEnum, Timestamp, Uuid } from './primitives.js';

/** Maximum `size` of `POST /v2/event-center` (spec §8). */
export const MAX_EVENT_PAGE_SIZE = 150;
/** Default `size` of `POST /v2/event-center` (spec §8). */
export const DEFAULT_EVENT_PAGE_SIZE = 50;
/** Maximum `size` of a facet (spec §8). */
export const MAX_FACET_SIZE = 100;
/** Default `size` of a facet (spec §8). */
export const DEFAULT_FACET_SIZE = 10;

/** Schema of an event center filter key or facet field. */
export const EventFieldName = z.enum(EVENT_FIELD_NAMES);

function windowIsOrdered(q: { startTime?: string; endTime?: string }): boolean {
  return q.startTime === undefined || q.endTime === undefined || q.startTime <= q.endTime;
}

/** A time window; `startTime` must not be after `endTime`. Both ends are inclusive. */
function timeWindow<S extends z.core.$ZodLooseShape>(extra: S) {
  return z
    .strictObject({ startTime: Timestamp.optional(), endTime: Timestamp.optional(), ...extra })
    .refine((q) => windowIsOrdered(q as { startTime?: string; endTime?: string }), {
      error: 'startTime must not be after endTime',
      path: ['endTime'],
    });
}

/** An event center filter: events whose `key` field holds one of `values`. */
export const EventFilter = z.strictObject({
  key: EventFieldName,
  values: z.array(z.string()).min(1, { error: 'expected at least one value' }),
});
/** An event center filter. */
export type EventFilter = z.infer<typeof EventFilter>;

/** A facet request: the top `size` values of `field` (1 to 100, default 10). */
export const FacetRequest = z.strictObject({
  field: EventFieldName,
  size: z.number().int().min(1).max(MAX_FACET_SIZE).optional(),
});
/** A facet request. */
export type FacetRequest = z.infer<typeof FacetRequest>;

/**
 * The body of `POST /v2/event-center`. `size` is 1 to 150 (default 50). `continuationToken` is the
 * token of the previous page, to be sent with the same query.
 */
export const EventQueryBody = z.strictObject({
  query: timeWindow({
    searchText: z.string().max(256).optional(),
    filters: z.array(EventFilter).optional(),
  }).optional(),
  facets: z.array(FacetRequest).max(EVENT_FIELD_NAMES.length).optional(),
  size: z.number().int().min(1).max(MAX_EVENT_PAGE_SIZE).optional(),
  continuationToken: z.string().min(1).max(2048).optional(),
});
/** The body of the event query. */
export type EventQueryBody = z.input<typeof EventQueryBody>;

/** An event attribute. */
export const EventAttribute = z.looseObject({ key: z.string(), value: z.string() });
/** An event attribute. */
export type EventAttribute = z.infer<typeof EventAttribute>;

/** An event center event (spec §2.10). */
export const Event = z.looseObject({
  id: Uuid,
  account_id: z.string(),
  integration_id: z.string(),
  event_timestamp: Timestamp,
  event_type: openEnum(EVENT_TYPES),
  provider_type: z.string(),
  asset_id: z.string(),
  asset_type: z.string(),
  event: z.looseObject({
    mutation_id: z.string(),
    mutation_type: openEnum(MUTATION_TYPES),
    attributes: z.array(EventAttribute),
  }),
});
/** An event center event. */
export type Event = z.infer<typeof Event>;

/** A facet result: `size` is the number of distinct values; `values` the top ones by count. */
export const FacetResult = z.looseObject({
  field: z.string(),
  size: z.number().int().min(0),
  values: z.array(z.looseObject({ value: z.string(), count: z.number().int().min(0) })),
});
/** A facet result. */
export type FacetResult = z.infer<typeof FacetResult>;

/**
 * The answer of `POST /v2/event-center`: events newest first, facet results, and (an addition to
 * the spec) `continuationToken`, the token of the next page, or null after the last page.
 */
export const EventQueryResponse = z.looseObject({
  events: z.array(Event),
  facets: z.array(FacetResult),
  continuationToken: z.string().nullish(),
});
/** The answer of the event query. */
export type EventQueryResponse = z.infer<typeof EventQueryResponse>;

/** The body of `POST /v2/event-center/facets`: the values of one `field` (size 1 to 100, default 10). */
export const FacetQueryBody = z.strictObject({
  query: timeWindow({}).optional(),
  fieldSearchText: z.string().max(256).optional(),
  field: EventFieldName,
  size: z.number().int().min(1).max(MAX_FACET_SIZE).optional(),
});
/** The body of the facet query. */
export type FacetQueryBody = z.input<typeof FacetQueryBody>;

/** The answer of the facet query: an array of facet results. */
export const FacetQueryResponse = z.array(FacetResult);
/** The answer of the facet query. */
export type FacetQueryResponse = z.infer<typeof FacetQueryResponse>;
