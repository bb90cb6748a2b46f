/**
 * The schemas (and summaries) of the `eventCenter` group's endpoints. Their routes are in
 * `../routes.ts`; `../endpoints.ts` joins both into the endpoint table.
 *
 * @module
 */
import { EventQueryBody, EventQueryResponse, FacetQueryBody, FacetQueryResponse } from '../event-center.js';
import { NoQuery } from '../primitives.js';

// With every group, so that the client has it once a group is loaded (`load.ts`).
export { responseSchemaFor } from '../primitives.js';

/** The `eventCenter` group's summaries and schemas, by endpoint name. */
export const eventCenterSchemas = {
  'eventCenter.query': {
    summary: 'Query events (newest first) and facet counts.',
    params: undefined,
    query: NoQuery,
    body: EventQueryBody,
    response: EventQueryResponse,
  },
  'eventCenter.facets': {
    summary: 'Query the values of one event field with their counts.',
    params: undefined,
    query: NoQuery,
    body: FacetQueryBody,
    response: FacetQueryResponse,
  },
} as const;
