import type * as z from 'zod';
import { HealthResponse, LoginBody, LoginResponse } from './auth.js';
import { EventQueryBody, EventQueryResponse, FacetQueryBody, FacetQueryResponse } from './event-center.js';
import {
  GuardrailCreateBody,
  GuardrailCreateResponse,
  GuardrailDeleteResponse,
  GuardrailPathParams,
  GuardrailSearchBody,
  GuardrailSearchResponse,
  GuardrailUpdateBody,
  GuardrailUpdateResponse,
} from './guardrails.js';
import {
  BackendQueryBody,
  BackendQueryResponse,
  ModuleQueryBody,
  ModuleQueryResponse,
  ProviderAggregation,
  ProviderQueryBody,
  RepositoryQueryBody,
  RepositoryQueryResponse,
  StackQueryBody,
  StackQueryResponse,
} from './iac-explorer.js';
import { NoQuery, PageQuery } from './primitives.js';
import {
  RunSearchBody,
  RunSearchResponse,
  WorkspaceDeleteResponse,
  WorkspaceLabelsBody,
  WorkspaceLabelsResponse,
  WorkspacePathParams,
  WorkspaceSearchBody,
  WorkspaceSearchResponse,
} from './workspaces.js';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How an endpoint's results are paged:
 * - `page`: `page`/`pageSize` query parameters, bare array answers, the end is a short page;
 * - `offset`: IaC explorer `page`/`pageSize` body members, the answer carries `total`;
 * - `continuation`: event center `continuationToken`;
 * - `none`: one answer.
 */
export type PaginationKind = 'page' | 'offset' | 'continuation' | 'none';

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
  readonly params: z.ZodType | undefined;
  /** Schema of the query parameters (strict). */
  readonly query: z.ZodType;
  /** Schema of the request body (strict where the spec allows no other members), or undefined when the endpoint takes none. */
  readonly body: z.ZodType | undefined;
  /** Whether a body must be sent (an endpoint whose members are all optional takes an absent body as `{}`). */
  readonly bodyRequired: boolean;
  /** Schema of the success answer (tolerant). */
  readonly response: z.ZodType;
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

function endpoint<const E extends Omit<EndpointDefinition, 'name'>>(definition: E): E {
  return definition;
}

/**
 * The endpoint table: one entry per endpoint of the spec (§4), plus `POST /v2/login` and
 * `GET /v2/health` from the public record. Keys are the endpoint names.
 */
export const endpoints = {
  'auth.login': endpoint({
    method: 'POST',
    path: '/v2/login',
    summary: 'Exchange an access key and secret key for a bearer token.',
    params: undefined,
    query: NoQuery,
    body: LoginBody,
    bodyRequired: true,
    response: LoginResponse,
    successStatus: 200,
    retrySafe: true,
    auth: false,
    pagination: 'none',
    projection: false,
  }),
  health: endpoint({
    method: 'GET',
    path: '/v2/health',
    summary: 'Check that the service is up (204, no body).',
    params: undefined,
    query: NoQuery,
    body: undefined,
    bodyRequired: false,
    response: HealthResponse,
    successStatus: 204,
    retrySafe: true,
    auth: false,
    pagination: 'none',
    projection: false,
  }),
  'workspaces.search': endpoint({
    method: 'POST',
    path: '/v2/workspaces/search',
    summary: 'List workspaces with filtering, free-text search, projection and sorting.',
    params: undefined,
    query: PageQuery,
    body: WorkspaceSearchBody,
    bodyRequired: false,
    response: WorkspaceSearchResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'page',
    projection: true,
  }),
  'workspaces.delete': endpoint({
    method: 'DELETE',
    path: '/v2/workspaces/{workspaceId}',
    summary: 'Delete a workspace and its runs.',
    params: WorkspacePathParams,
    query: NoQuery,
    body: undefined,
    bodyRequired: false,
    response: WorkspaceDeleteResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'none',
    projection: false,
  }),
  'workspaces.setLabels': endpoint({
    method: 'PUT',
    path: '/v2/workspaces/{workspaceId}/labels',
    summary: 'Replace the labels of a workspace.',
    params: WorkspacePathParams,
    query: NoQuery,
    body: WorkspaceLabelsBody,
    bodyRequired: true,
    response: WorkspaceLabelsResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'none',
    projection: false,
  }),
  'workspaces.runs.search': endpoint({
    method: 'POST',
    path: '/v2/workspaces/{workspaceId}/runs/search',
    summary: 'List the runs of one workspace.',
    params: WorkspacePathParams,
    query: PageQuery,
    body: RunSearchBody,
    bodyRequired: false,
    response: RunSearchResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'page',
    projection: true,
  }),
  'guardrails.search': endpoint({
    method: 'POST',
    path: '/v2/guardrails/search',
    summary: 'List guardrail rules by filter.',
    params: undefined,
    query: PageQuery,
    body: GuardrailSearchBody,
    bodyRequired: false,
    response: GuardrailSearchResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'page',
    projection: true,
  }),
  'guardrails.create': endpoint({
    method: 'POST',
    path: '/v2/guardrails',
    summary: 'Create a guardrail rule and its notification configuration.',
    params: undefined,
    query: NoQuery,
    body: GuardrailCreateBody,
    bodyRequired: true,
    response: GuardrailCreateResponse,
    successStatus: 200,
    retrySafe: false,
    auth: true,
    pagination: 'none',
    projection: false,
  }),
  'guardrails.update': endpoint({
    method: 'PATCH',
    path: '/v2/guardrails/{ruleId}',
    summary: 'Update a guardrail rule.',
    params: GuardrailPathParams,
    query: NoQuery,
    body: GuardrailUpdateBody,
    bodyRequired: true,
    response: GuardrailUpdateResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'none',
    projection: false,
  }),
  'guardrails.delete': endpoint({
    method: 'DELETE',
    path: '/v2/guardrails/{ruleId}',
    summary: 'Delete a guardrail rule and its notification configuration.',
    params: GuardrailPathParams,
    query: NoQuery,
    body: undefined,
    bodyRequired: false,
    response: GuardrailDeleteResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'none',
    projection: false,
  }),
  'iacExplorer.stacks': endpoint({
    method: 'POST',
    path: '/api/iacStacks',
    summary: 'Query IaC stacks with filtering, sorting and paging.',
    params: undefined,
    query: NoQuery,
    body: StackQueryBody,
    bodyRequired: false,
    response: StackQueryResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'offset',
    projection: false,
  }),
  'iacExplorer.backends': endpoint({
    method: 'POST',
    path: '/api/iacStacks/backends',
    summary: 'Query backends with aggregation buckets.',
    params: undefined,
    query: NoQuery,
    body: BackendQueryBody,
    bodyRequired: false,
    response: BackendQueryResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'offset',
    projection: false,
  }),
  'iacExplorer.repositories': endpoint({
    method: 'POST',
    path: '/api/iacStacks/repositories',
    summary: 'Query version-control repositories that hold IaC code.',
    params: undefined,
    query: NoQuery,
    body: RepositoryQueryBody,
    bodyRequired: false,
    response: RepositoryQueryResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'none',
    projection: false,
  }),
  'iacExplorer.modules': endpoint({
    method: 'POST',
    path: '/api/iacStacks/modules',
    summary: 'Query IaC modules.',
    params: undefined,
    query: NoQuery,
    body: ModuleQueryBody,
    bodyRequired: false,
    response: ModuleQueryResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'offset',
    projection: false,
  }),
  'iacExplorer.providers': endpoint({
    method: 'POST',
    path: '/api/iacStacks/providers',
    summary: 'Aggregate the providers of the IaC stacks.',
    params: undefined,
    query: NoQuery,
    body: ProviderQueryBody,
    bodyRequired: false,
    response: ProviderAggregation,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'none',
    projection: false,
  }),
  'eventCenter.query': endpoint({
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
  }),
  'eventCenter.facets': endpoint({
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
  }),
} as const;

/** The endpoint table's type. */
export type Endpoints = typeof endpoints;
/** The name of an endpoint (`'workspaces.search'`, ...). */
export type EndpointName = keyof Endpoints;

/** The endpoint table as a list of definitions with their names, in table order. */
export const endpointList: ReadonlyArray<EndpointDefinition> = Object.entries(endpoints).map(
  ([name, definition]) => ({
    name,
    ...definition,
  }),
);

/**
 * Fills a path template with (already validated) parameters, URL-encoding each value.
 * @example buildPath('/v2/guardrails/{ruleId}', { ruleId: 'abc' }) // '/v2/guardrails/abc'
 */
export function buildPath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new TypeError(`buildPath: missing path parameter "${key}"`);
    return encodeURIComponent(value);
  });
}

/**
 * Matches a concrete path against a template. Returns the decoded parameters, or undefined when the
 * path does not fit the template.
 */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const templateParts = template.split('/');
  const pathParts = path.split('/');
  if (templateParts.length !== pathParts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < templateParts.length; i++) {
    const expected = templateParts[i] as string;
    const actual = pathParts[i] as string;
    const param = /^\{(\w+)\}$/.exec(expected);
    if (param) {
      if (actual === '') return undefined;
      let decoded: string;
      try {
        decoded = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
      params[param[1] as string] = decoded;
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}

/**
 * The answer schema to read an endpoint's answer with, given the body that was sent: for a search
 * whose body named a `projection`, the items hold only the named members plus `id`, so every other
 * member becomes optional; otherwise the endpoint's own response schema.
 */
export function responseSchemaFor(
  definition: Pick<EndpointDefinition, 'projection' | 'response'>,
  body: unknown,
): z.ZodType {
  const projection = (body as { projection?: unknown } | undefined)?.projection;
  if (!definition.projection || !Array.isArray(projection) || projection.length === 0)
    return definition.response;
  const response = definition.response as unknown as z.ZodArray<z.ZodObject>;
  return response.element.partial().required({ id: true }).array();
}
