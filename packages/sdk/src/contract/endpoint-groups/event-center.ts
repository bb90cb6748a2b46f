/**
 * The declarations of the `eventCenter` group's endpoints: for each, its route facts (method, path,
 * statuses, paging, retry safety, authentication), its summary and its params, query, body and
 * response schemas, in one place. `../endpoints.ts` makes the endpoint table of every group's
 * declarations; `pnpm contract:routes` writes their route facts (schema-free) into
 * `../routes.generated.ts`, the routes a client sends with, and their schemas into
 * `./event-center.schemas.generated.ts`, which a client that validates loads on the group's first call
 * (`load.ts`).
 *
 * @module
 */
import { EventQueryBody, EventQueryResponse, FacetQueryBody, FacetQueryResponse } from '../event-center.js';
import { NoQuery } from '../primitives.js';
import type { EndpointDeclarations } from './declaration.js';

/** The `eventCenter` group's endpoints, by name, in the endpoint table's order. */
export const eventCenterEndpoints = {
  'eventCenter.query': {
    method: 'POST',
    path: '/v2/event-center',
    summary: 'Query events (newest first) and facet counts.',
    params: undefined,
    query: NoQuery,
    body: EventQueryBody,
    bodyRequired: false,
    response: EventQueryResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'continuation',
    projection: false,
  },
  'eventCenter.facets': {
    method: 'POST',
    path: '/v2/event-center/facets',
    summary: 'Query the values of one event field with their counts.',
    params: undefined,
    query: NoQuery,
    body: FacetQueryBody,
    bodyRequired: true,
    response: FacetQueryResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'none',
    projection: false,
  },
} as const satisfies EndpointDeclarations;
