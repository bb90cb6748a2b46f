import type * as z from 'zod/mini';
import { LoginBody } from './auth.js';
import { authSchemas } from './endpoint-schemas/auth.js';
import { eventCenterSchemas } from './endpoint-schemas/event-center.js';
import { guardrailsSchemas } from './endpoint-schemas/guardrails.js';
import { iacExplorerSchemas } from './endpoint-schemas/iac-explorer.js';
import { workspacesSchemas } from './endpoint-schemas/workspaces.js';
import { API_ERRORS } from './error-table.js';
import {
  type HttpMethod,
  type PaginationKind,
  type Route,
  type RouteName,
  type Routes,
  routes,
} from './routes.js';

export { responseSchemaFor } from './primitives.js';
export {
  buildPath,
  type CompiledPath,
  compilePath,
  type HttpMethod,
  matchPath,
  type PaginationKind,
} from './routes.js';

/** One entry of the endpoint table: everything a client, a server and the docs need to know. */
export interface EndpointDefinition {
  /** Stable name, `group.action`, used by the SDK, the mock and the docs. */
  readonly name: string;
  /** HTTP method. */
  readonly method: HttpMethod;
  /** Path template relative to the base URL, with `{param}` placeholders, exactly as in the spec. */
  readonly path: string;
  /** One-line summary. */
  readonly summary: string;
  /** Schema of the path parameters (strict), or undefined when the path has none. */
  readonly params: z.ZodMiniType | undefined;
  /** Schema of the query parameters (strict). */
  readonly query: z.ZodMiniType;
  /** Schema of the request body (strict where the spec allows no other members), or undefined when the endpoint takes none. */
  readonly body: z.ZodMiniType | undefined;
  /** Whether a body must be sent (an endpoint whose members are all optional takes an absent body as `{}`). */
  readonly bodyRequired: boolean;
  /** Schema of the success answer (tolerant). */
  readonly response: z.ZodMiniType;
  /** Status of the success answer. */
  readonly successStatus: 200 | 204;
  /** Whether repeating the request cannot change the outcome, so a client may retry it on its own. */
  readonly retrySafe: boolean;
  /** Whether the request needs `Authorization: Bearer <token>`. */
  readonly auth: boolean;
  /** How the endpoint's results are paged. */
  readonly pagination: PaginationKind;
  /** Whether the body's `projection` may trim the answer's items to some members (plus `id`). */
  readonly projection: boolean;
}

/** Every group's summaries and schemas, by endpoint name (`endpoint-schemas/<group>.ts`). */
const schemas = {
  ...authSchemas,
  ...workspacesSchemas,
  ...guardrailsSchemas,
  ...iacExplorerSchemas,
  ...eventCenterSchemas,
};
type Schemas = typeof schemas;

/**
 * An entry of the table: its route's fields (but `group` and `hasBody`) and its schemas.
 * @inline
 */
type Entry<N extends RouteName> = {
  readonly [K in Exclude<keyof Routes[N], 'group' | 'hasBody'> | keyof Schemas[N]]: K extends keyof Schemas[N]
    ? Schemas[N][K]
    : K extends keyof Routes[N]
      ? Routes[N][K]
      : never;
};

/** Joins an endpoint's route and schemas into its entry of the table (the fields in the spec's order). */
/*@__NO_SIDE_EFFECTS__*/
function entry<const N extends RouteName>(name: N): Entry<N> {
  const route: Route = routes[name];
  const schema: Schemas[RouteName] = schemas[name];
  const definition: Omit<EndpointDefinition, 'name'> = {
    method: route.method,
    path: route.path,
    summary: schema.summary,
    params: schema.params,
    query: schema.query,
    body: schema.body,
    bodyRequired: route.bodyRequired,
    response: schema.response,
    successStatus: route.successStatus,
    retrySafe: route.retrySafe,
    auth: route.auth,
    pagination: route.pagination,
    projection: route.projection,
  };
  return definition as Entry<N>;
}

/**
 * The endpoint table: one entry per endpoint of the spec (§4), plus `POST /v2/login` and
 * `GET /v2/health` from the public record. Keys are the endpoint names, in the order of the routes.
 * Joined from the routes (`routes.ts`: method, path, statuses, paging) and each group's summaries
 * and schemas (`endpoint-schemas/<group>.ts`), which the SDK's client loads one group at a time.
 */
export const endpoints = {
  'auth.login': entry('auth.login'),
  health: entry('health'),
  'workspaces.search': entry('workspaces.search'),
  'workspaces.delete': entry('workspaces.delete'),
  'workspaces.setLabels': entry('workspaces.setLabels'),
  'workspaces.runs.search': entry('workspaces.runs.search'),
  'guardrails.search': entry('guardrails.search'),
  'guardrails.create': entry('guardrails.create'),
  'guardrails.update': entry('guardrails.update'),
  'guardrails.delete': entry('guardrails.delete'),
  'iacExplorer.stacks': entry('iacExplorer.stacks'),
  'iacExplorer.backends': entry('iacExplorer.backends'),
  'iacExplorer.repositories': entry('iacExplorer.repositories'),
  'iacExplorer.modules': entry('iacExplorer.modules'),
  'iacExplorer.providers': entry('iacExplorer.providers'),
  'eventCenter.query': entry('eventCenter.query'),
  'eventCenter.facets': entry('eventCenter.facets'),
} as const;

/** The endpoint table's type. */
export type Endpoints = typeof endpoints;
/** The name of an endpoint (`'workspaces.search'`, ...). */
export type EndpointName = keyof Endpoints;

// Compile-time checks: the table and the schema modules name exactly the routes, and a route says
// it takes a body exactly when its schemas have one.
type Missing =
  | Exclude<RouteName, keyof Schemas>
  | Exclude<keyof Schemas, RouteName>
  | Exclude<RouteName, EndpointName>;
type BodyMismatch = {
  [N in RouteName]: Routes[N]['hasBody'] extends (Schemas[N]['body'] extends undefined ? false : true)
    ? never
    : N;
}[RouteName];
const consistent: [Missing | BodyMismatch] extends [never] ? true : Missing | BodyMismatch = true;
void consistent;

/** The endpoint table as a list of definitions with their names, in table order. */
export const endpointList: ReadonlyArray<EndpointDefinition> = Object.entries(endpoints).map(
  ([name, definition]) => ({
    name,
    ...definition,
  }),
);

/**
 * The error statuses an endpoint documents, ascending: 400; 401 for an endpoint with a bearer token
 * and for login (wrong keys); 403 with a bearer token; then 404, 405, 413, 415, 429 and 500. The
 * OpenAPI document lists these as the endpoint's error responses, and the mock answers
 * `Prefer: code=` with one of them only.
 * @example endpointErrorStatuses(endpoints['health']) // [400, 404, 405, 413, 415, 429, 500]
 */
export function endpointErrorStatuses(endpoint: EndpointDefinition): number[] {
  const statuses: number[] = [API_ERRORS.validation_failed.status];
  if (endpoint.auth || endpoint.body === LoginBody) statuses.push(API_ERRORS.unauthorized.status);
  if (endpoint.auth) statuses.push(API_ERRORS.forbidden.status);
  for (const code of [
    'not_found',
    'method_not_allowed',
    'payload_too_large',
    'unsupported_media_type',
    'rate_limited',
    'internal_error',
  ] as const) {
    statuses.push(API_ERRORS[code].status);
  }
  return statuses;
}
