import * as z from 'zod/mini';
import {
  EVENT_FIELD_NAMES,
  EVENT_TYPES,
  type EventField,
  type EventType,
  MUTATION_TYPES,
  type MutationType,
} from './enums.js';
import { count } from './formats.js';
import { MAX_REQUEST_LIST_ITEMS, MAX_REQUEST_LIST_VALUES } from './limits.js';
import { openEnum, Timestamp, Uuid } from './primitives.js';
import { looseObject, strictObject } from './zod.js';

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
  return strictObject({ startTime: z.optional(Timestamp), endTime: z.optional(Timestamp), ...extra }).check(
    z.refine((q) => windowIsOrdered(q as { startTime?: string; endTime?: string }), {
      error: 'startTime must not be after endTime',
      path: ['endTime'],
    }),
  );
}

/**
 * An event center filter: events whose `key` field holds one of `values`. An empty `values` adds no
 * constraint, as if the filter were absent.
 */
export const EventFilter = strictObject({
  key: EventFieldName,
  values: z.array(z.string()).check(z.maxLength(MAX_REQUEST_LIST_VALUES)),
});
/**
 * An event center filter: events whose `key` field holds one of `values`. An empty `values` adds no
 * constraint.
 */
export interface EventFilter {
  /** The field. */
  key: EventField;
  /** Accepted values; an empty list adds no constraint. */
  values: string[];
}

/** A facet request: the top `size` values of `field` (1 to 100, default 10). */
export const FacetRequest = strictObject({
  field: EventFieldName,
  size: z.optional(z.number().check(z.int()).check(z.gte(1)).check(z.lte(MAX_FACET_SIZE))),
});
/** A facet request: the top `size` values of `field`. */
export interface FacetRequest {
  /** The field. */
  field: EventField;
  /** How many values, 1 to 100. Default 10. */
  size?: number | undefined;
}

/** A time window; `startTime` must not be after `endTime`. Both ends are inclusive. */
export interface TimeWindow {
  /** The earliest event time. */
  startTime?: string | undefined;
  /** The latest event time. */
  endTime?: string | undefined;
}

/** The `query` of the event query: a time window, free text and filters. */
export interface EventQuery extends TimeWindow {
  /** Free text to search for (at most 256 characters). */
  searchText?: string | undefined;
  /** Filters; all must match. */
  filters?: EventFilter[] | undefined;
}

/**
 * The body of `POST /v2/event-center`. `size` is 1 to 150 (default 50). `continuationToken` is the
 * token of the previous page, to be sent with the same query.
 */
export const EventQueryBody = strictObject({
  query: z.optional(
    timeWindow({
      searchText: z.optional(z.string().check(z.maxLength(256))),
      filters: z.optional(z.array(EventFilter).check(z.maxLength(MAX_REQUEST_LIST_ITEMS))),
    }),
  ),
  facets: z.optional(z.array(FacetRequest).check(z.maxLength(EVENT_FIELD_NAMES.length))),
  size: z.optional(z.number().check(z.int()).check(z.gte(1)).check(z.lte(MAX_EVENT_PAGE_SIZE))),
  continuationToken: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(2048))),
});
/**
 * The body of `POST /v2/event-center`. `size` is 1 to 150 (default 50). `continuationToken` is the
 * token of the previous page, to be sent with the same query.
 */
export interface EventQueryBody {
  /** Which events. */
  query?: EventQuery | undefined;
  /** Facet counts to compute. */
  facets?: FacetRequest[] | undefined;
  /** Events per page, 1 to 150. Default 50. */
  size?: number | undefined;
  /** The previous page's token. */
  continuationToken?: string | undefined;
}

/** An event attribute. */
export const EventAttribute = looseObject({ key: z.string(), value: z.string() });
/** An event attribute: a key and its value. */
export interface EventAttribute {
  /** The attribute's name. */
  key: string;
  /** The attribute's value. */
  value: string;
}

/** An event center event (spec §2.10). */
export const Event = looseObject({
  id: Uuid,
  account_id: z.string(),
  integration_id: z.string(),
  event_timestamp: Timestamp,
  event_type: openEnum(EVENT_TYPES),
  provider_type: z.string(),
  asset_id: z.string(),
  asset_type: z.string(),
  event: looseObject({
    mutation_id: z.string(),
    mutation_type: openEnum(MUTATION_TYPES),
    attributes: z.array(EventAttribute),
  }),
});
/** What happened, in an event center event. */
export interface EventDetail {
  /** The change's id. */
  mutation_id: string;
  /** The change's kind. */
  mutation_type: MutationType;
  /** The change's attributes. */
  attributes: EventAttribute[];
}

/**
 * An event center event. Enumerated members are typed with their documented values (answers are
 * read tolerantly: other values can arrive at run time, see `docs/validation.md`).
 */
export interface Event {
  /** The event's id (a UUID). */
  id: string;
  /** The account's id. */
  account_id: string;
  /** The integration that reported the event. */
  integration_id: string;
  /** When the event happened. */
  event_timestamp: string;
  /** The event's source. */
  event_type: EventType;
  /** The cloud provider kind. */
  provider_type: string;
  /** The asset's id. */
  asset_id: string;
  /** The asset's type. */
  asset_type: string;
  /** What happened. */
  event: EventDetail;
}

/** A facet result: `size` is the number of distinct values; `values` the top ones by count. */
export const FacetResult = looseObject({
  field: z.string(),
  size: count(),
  values: z.array(looseObject({ value: z.string(), count: count() })),
});
/** A value of a facet and how many events hold it. */
export interface FacetValue {
  /** The value. */
  value: string;
  /** How many events hold it. */
  count: number;
}

/** A facet result: `size` is the number of distinct values; `values` the top ones by count. */
export interface FacetResult {
  /** The field. */
  field: string;
  /** How many distinct values the field has. */
  size: number;
  /** The top values. */
  values: FacetValue[];
}

/**
 * The answer of `POST /v2/event-center`: events newest first, facet results, and (an addition to
 * the spec) `continuationToken`, the token of the next page, or null after the last page.
 */
export const EventQueryResponse = looseObject({
  events: z.array(Event),
  facets: z.array(FacetResult),
  continuationToken: z.nullish(z.string()),
});
/** The answer of the event query: events newest first, facet results, and the next page's token. */
export interface EventQueryResponse {
  /** The page's events, newest first. */
  events: Event[];
  /** The facet counts asked for. */
  facets: FacetResult[];
  /** The next page's token; null (or absent) after the last page. */
  continuationToken?: string | null | undefined;
}

/** The body of `POST /v2/event-center/facets`: the values of one `field` (size 1 to 100, default 10). */
export const FacetQueryBody = strictObject({
  query: z.optional(timeWindow({})),
  fieldSearchText: z.optional(z.string().check(z.maxLength(256))),
  field: EventFieldName,
  size: z.optional(z.number().check(z.int()).check(z.gte(1)).check(z.lte(MAX_FACET_SIZE))),
});
/** The body of `POST /v2/event-center/facets`: the values of one `field`. */
export interface FacetQueryBody {
  /** Which events. */
  query?: TimeWindow | undefined;
  /** Only values containing this text (at most 256 characters). */
  fieldSearchText?: string | undefined;
  /** The field. */
  field: EventField;
  /** How many values, 1 to 100. Default 10. */
  size?: number | undefined;
}

/** The answer of the facet query: an array of facet results. */
export const FacetQueryResponse = z.array(FacetResult);
/** The answer of the facet query: an array of facet results. */
export type FacetQueryResponse = FacetResult[];
