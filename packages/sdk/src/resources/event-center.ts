import type { Event, EventQueryResponse, FacetQueryBody, FacetResult } from '../contract/event-center.js';
import type { RequestOptions } from '../core/options.js';
import type { APIPromise, PagePromise } from '../core/pagination.js';
import { APIResource } from './resource.js';
import type { EventQueryParams } from './types.js';

/** The event center: `client.eventCenter`. Reach it through an `IacmClient`.
 * @hideconstructor
 */
export class EventCenter extends APIResource {
  /**
   * Queries events, newest first, and facet counts (`POST /v2/event-center`). Await for one page
   * (`{ events, facets, continuationToken }`), or `for await` over every event: iteration follows
   * the continuation token with the same query.
   */
  query(params?: EventQueryParams, options?: RequestOptions): PagePromise<EventQueryResponse, Event> {
    return this.paged(
      'eventCenter.query',
      params,
      undefined,
      (page: EventQueryResponse) => page.events,
      options,
    );
  }

  /** The values of one event field with their counts (`POST /v2/event-center/facets`). */
  facets(params: FacetQueryBody, options?: RequestOptions): APIPromise<FacetResult[]> {
    return this.request('eventCenter.facets', { body: params }, options);
  }
}
