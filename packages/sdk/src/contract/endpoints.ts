import type * as z from 'zod';
import { HealthResponse, LoginBody, LoginResponse } from './auth.js';
import { API_ERRORS } from './errors.js';
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

/** A path template split once into segments, to match many paths against (see {@link compilePath}). */
export interface CompiledPath {
  /** The template it was made from. */
  readonly template: string;
  /** How many `/`-separated segments a matching path has (the leading empty one included). */
  readonly segments: number;
  /** How many segments are literal rather than parameters: the more, the more specific the template. */
  readonly literal: number;
  /**
   * The decoded parameters of a path already split on `/`, or undefined when it does not fit: a
   * literal segment must be equal, a parameter one non-empty, URL-decodable segment.
   */
  match(segments: readonly string[]): Record<string, string> | undefined;
}

/**
 * Splits a path template once, for matching many paths against it (a router's table).
 * @example compilePath('/v2/guardrails/{ruleId}').match('/v2/guardrails/abc'.split('/')) // { ruleId: 'abc' }
 */
export function compilePath(template: string): CompiledPath {
  const parts = template.split('/').map((part) => {
    const param = /^\{(\w+)\}$/.exec(part);
    return param ? { param: param[1] as string } : { literal: part };
  });
  return {
    template,
    segments: parts.length,
    literal: parts.filter((part) => 'literal' in part).length,
    match(segments) {
      if (segments.length !== parts.length) return undefined;
      const params: Record<string, string> = {};
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i] as { literal: string } | { param: string };
        const actual = segments[i] as string;
        if ('literal' in part) {
          if (part.literal !== actual) return undefined;
          continue;
        }
        if (actual === '') return undefined;
        try {
          params[part.param] = decodeURIComponent(actual);
        } catch {
          return undefined;
        }
      }
      return params;
    },
  };
}

/**
 * Matches a concrete path against a template. Returns the decoded parameters, or undefined when the
 * path does not fit the template. (To match many paths against one template, {@link compilePath}.)
 */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  return compilePath(template).match(path.split('/'));
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
