import { LoginBody } from './auth.js';
import type { EndpointDeclaration } from './endpoint-groups/declaration.js';
import { type EndpointGroups, endpointGroups } from './endpoint-groups/groups.js';
import { API_ERRORS } from './error-table.js';
import type { Route, RouteName, Routes } from './routes.js';

export { responseSchemaFor } from './primitives.js';
export {
  buildPath,
  type CompiledPath,
  compilePath,
  type HttpMethod,
  matchPath,
  type PaginationKind,
} from './routes.js';

/**
 * One entry of the endpoint table: everything a client, a server and the docs need to know. Its
 * members but the name are the endpoint's declaration in its group's module (`EndpointDeclaration`).
 */
export interface EndpointDefinition extends EndpointDeclaration {
  /** Stable name, `group.action`, used by the SDK, the mock and the docs. */
  readonly name: string;
}

/** The groups, in the endpoint table's order. */
type GroupName = keyof EndpointGroups;
/**
 * The name of a declared endpoint (every group's).
 * @inline
 */
type DeclaredName = { [G in GroupName]: keyof EndpointGroups[G] }[GroupName];
/** The group that declares endpoint `N`. */
type GroupOf<N extends DeclaredName> = {
  [G in GroupName]: N extends keyof EndpointGroups[G] ? G : never;
}[GroupName];
/**
 * Endpoint `N`'s declaration (`endpoint-groups/<group>.ts`): its entry of the table.
 * @inline
 */
type Declaration<N extends DeclaredName> = {
  [G in GroupName]: N extends keyof EndpointGroups[G] ? EndpointGroups[G][N] : never;
}[GroupName];
/**
 * The endpoint table's type, by endpoint name.
 * @inline
 */
type Table = { readonly [N in DeclaredName]: Declaration<N> };

/** Every group's declarations in one table, the groups in their order (`endpoint-groups/groups.ts`). */
/*@__NO_SIDE_EFFECTS__*/
function table(groups: EndpointGroups): Table {
  return Object.assign({}, ...Object.values(groups)) as Table;
}

/**
 * The endpoint table: one entry per endpoint of the spec (§4), plus `POST /v2/login` and
 * `GET /v2/health` from the public record. Keys are the endpoint names, in the order of the routes.
 * Each entry is its endpoint's declaration, in its group's module (`endpoint-groups/<group>.ts`:
 * route facts, summary and schemas together), which the SDK's client loads one group at a time;
 * the routes (`routes.ts`: method, path, statuses, paging, without the schemas) are generated from
 * the same declarations.
 */
export const endpoints = table(endpointGroups);

/** The endpoint table's type. */
export type Endpoints = typeof endpoints;
/** The name of an endpoint (`'workspaces.search'`, ...). */
export type EndpointName = keyof Endpoints;

// Compile-time checks that the generated routes (`routes.generated.ts`) are the declarations'
// (else run `pnpm contract:routes`): the routes and the declarations name the same endpoints, and
// each route's facts are exactly its declaration's (`hasBody`: whether it declares a body schema;
// `group`: the module that declares it). An entry is its declaration and its name (`EndpointDefinition`).
/** Two types are the same (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Endpoint `N`'s route facts as its declaration gives them. */
type DeclaredRoute<N extends DeclaredName> = {
  readonly method: Declaration<N>['method'];
  readonly path: Declaration<N>['path'];
  readonly hasBody: Declaration<N>['body'] extends undefined ? false : true;
  readonly bodyRequired: Declaration<N>['bodyRequired'];
  readonly successStatus: Declaration<N>['successStatus'];
  readonly retrySafe: Declaration<N>['retrySafe'];
  readonly auth: Declaration<N>['auth'];
  readonly pagination: Declaration<N>['pagination'];
  readonly projection: Declaration<N>['projection'];
  readonly group: GroupOf<N>;
};
type Missing = Exclude<RouteName, DeclaredName> | Exclude<DeclaredName, RouteName>;
type StaleRoute = {
  [N in RouteName]: N extends DeclaredName
    ? Routes[N] extends Route
      ? Same<keyof Routes[N], keyof Route> extends true
        ? { [K in keyof Route]: Same<Routes[N][K], DeclaredRoute<N>[K]> }[keyof Route] extends true
          ? never
          : N
        : N
      : N
    : never;
}[RouteName];
const consistent: [Missing | StaleRoute] extends [never] ? true : Missing | StaleRoute = true;
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
