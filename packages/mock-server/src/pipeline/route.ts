/**
 * The route stage: which endpoint of the contract's table a request is for (404 `route_not_found`
 * for a path none has, 405 with `Allow` for a known path and another method), and its inputs
 * validated against that endpoint's path, query and body schemas (one 400 naming every bad field).
 *
 * @module
 */
import {
  type CompiledPath,
  compilePath,
  type EndpointDefinition,
  type EndpointName,
  endpointList,
  type FieldIssue,
  fieldIssuesFromZod,
  type IssueLocation,
  limitIssues,
} from '@iacm/sdk/contract';
import type * as z from 'zod/mini';
import { HttpError, validationError } from '../errors.js';
import { clip } from '../http/objects.js';
import type { RequestLine } from './request.js';

/** An endpoint of the contract matched by a request. */
export interface ResolvedRoute {
  /** The endpoint's name (`workspaces.search`). */
  name: EndpointName;
  /** Its definition in the endpoint table. */
  definition: EndpointDefinition;
  /** The path parameters, as sent. */
  params: Record<string, string>;
}

/** A request's inputs, validated against its endpoint. */
export interface RouteInput {
  /** Validated path parameters. */
  params: Record<string, string>;
  /** Validated query parameters. */
  query: Record<string, unknown>;
  /**
   * Validated body (`{}` when an optional body was absent, never for a JSON `null`; `undefined` for
   * endpoints without one).
   */
  body: unknown;
}

/**
 * The path aliases, in one place: every endpoint of the table whose path starts with one of these
 * prefixes is also matched at the same path without its `/v2` (`POST /workspaces/search` is
 * `workspaces.search`, `DELETE /workspaces/{workspaceId}` is `workspaces.delete`), because the live
 * service answers there and clients written against it (Firefly's Terraform provider) call it so.
 * An alias is the same endpoint: the same name, authentication, validation, operation, faults named
 * by endpoint and one-off answers; the journal keeps the path as sent. Not in the OpenAPI document,
 * which lists each operation once, at the spec's path (`docs/api-semantics.md`, "Clients written
 * against other models").
 */
export const UNVERSIONED_PREFIXES: readonly string[] = ['/v2/workspaces'];

/** The version prefix an alias drops. */
const VERSION_PREFIX = '/v2';

/**
 * The templates `definition` is matched at: its own path, and its path without `/v2` when it starts
 * with one of {@link UNVERSIONED_PREFIXES} (the prefix whole, or followed by `/`).
 */
export function routeTemplates(definition: Pick<EndpointDefinition, 'path'>): string[] {
  const { path } = definition;
  const aliased = UNVERSIONED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  return aliased ? [path, path.slice(VERSION_PREFIX.length)] : [path];
}

/**
 * The endpoint table by number of path segments, each template (and each alias,
 * {@link routeTemplates}) split once (not per request).
 */
const routesBySegments = new Map<number, Array<{ definition: EndpointDefinition; path: CompiledPath }>>();
for (const definition of endpointList) {
  for (const template of routeTemplates(definition)) {
    const path = compilePath(template);
    const list = routesBySegments.get(path.segments) ?? [];
    list.push({ definition, path });
    routesBySegments.set(path.segments, list);
  }
}

/**
 * The routes of templates without parameters, by path then method, resolved once: a path equal to
 * such a template is matched by it before any template with a parameter (it is the most literal), so
 * its route is the same object for every request (frozen, parameters `{}`). Bounded by the table.
 */
const literalRoutes = new Map<string, Map<string, ResolvedRoute>>();
for (const [segments, routes] of routesBySegments) {
  for (const { definition, path } of routes) {
    if (path.literal !== segments) continue;
    const byMethod = literalRoutes.get(path.template) ?? new Map<string, ResolvedRoute>();
    byMethod.set(
      definition.method,
      Object.freeze({ name: definition.name as EndpointName, definition, params: Object.freeze({}) }),
    );
    literalRoutes.set(path.template, byMethod);
  }
}

/**
 * The endpoint for `method` and `path`: of the endpoints whose path (or alias, {@link routeTemplates})
 * matches, the most literal ones (`/v2/guardrails/search` before `/v2/guardrails/{ruleId}`); 404 or
 * 405 (with `Allow`) otherwise.
 */
export function resolveRoute(method: string, path: string): ResolvedRoute {
  const literal = literalRoutes.get(path)?.get(method);
  if (literal !== undefined) return literal;
  const candidates: Array<ResolvedRoute & { literal: number }> = [];
  const segments = path.split('/');
  for (const route of routesBySegments.get(segments.length) ?? []) {
    const params = route.path.match(segments);
    if (!params) continue;
    const { definition } = route;
    candidates.push({
      name: definition.name as EndpointName,
      definition,
      params,
      literal: route.path.literal,
    });
  }
  if (candidates.length === 0) {
    throw new HttpError(
      404,
      'route_not_found',
      `no endpoint at ${clip(path, 120)}; see docs/api-semantics.md for the API's paths`,
    );
  }
  const best = Math.max(...candidates.map((c) => c.literal));
  const specific = candidates.filter((c) => c.literal === best);
  const hit = specific.find((c) => c.definition.method === method);
  if (hit) return hit;
  const allow = [...new Set(specific.map((c) => c.definition.method))].join(', ');
  throw new HttpError(
    405,
    'method_not_allowed',
    `${method} is not allowed on ${clip(path, 120)}; allowed: ${allow}`,
    {
      headers: { allow },
    },
  );
}

/**
 * The name of the endpoint for `method` and `path`, or `undefined` when there is none (404, 405): for
 * the journal of a request answered before the route stage (a fault, a 429).
 */
export function endpointAt(method: string, path: string): EndpointName | undefined {
  try {
    return resolveRoute(method, path).name;
  } catch {
    return undefined;
  }
}

/**
 * Validates a request's path parameters, query and body against its endpoint; one 400 names every
 * bad field. A parameter given more than once that the endpoint's query schema does not take as a
 * list (every parameter of the API today) is one of them: `query.<name>: expected one value,
 * received N values`. The query is read as a record without a prototype, and the schemas build
 * new objects of the members they know, so a member named `__proto__` or `constructor`, in the
 * query or at any depth of the body, is only a name (an unknown member, refused as such) and never
 * reaches `Object.prototype`. The query is the request line's (parsed once, by the request stage),
 * the body what the body stage read (after authentication): neither is read again here.
 */
export function validateInput(
  route: ResolvedRoute,
  line: Pick<RequestLine, 'method' | 'query'>,
  sent: unknown,
): RouteInput {
  const { definition } = route;
  const { method } = line;
  const issues: FieldIssue[] = [];
  const params = definition.params ? check(definition.params, route.params, 'path', issues) : {};
  const single = singleValues(definition.query, line.query, issues);
  const checkedQuery = check(definition.query, single, 'query', issues) as Record<string, unknown>;
  let input: unknown;
  if (definition.body === undefined) {
    if (sent !== undefined && !(isObject(sent) && Object.keys(sent).length === 0)) {
      issues.push({
        location: 'body',
        path: '',
        message: `body: ${method} ${definition.path} takes no body`,
      });
    }
  } else if (sent === undefined && definition.bodyRequired) {
    issues.push({
      location: 'body',
      path: '',
      message: `body: ${method} ${definition.path} needs a JSON body`,
    });
  } else {
    // Only an absent body is read as `{}`: a JSON `null` is a value, refused by the body schema
    // (`body: expected object, received null`).
    input = check(definition.body, sent === undefined ? {} : sent, 'body', issues);
  }
  if (issues.length > 0) throw validationError(limitIssues(issues));
  return { params: params as Record<string, string>, query: checkedQuery, body: input };
}

/**
 * A copy of the query (a record without a prototype) without the parameters given more than once
 * that `schema` takes as one value (each gets an issue naming it); a parameter it takes as a list
 * is one, even when given once. A parameter the schema does not know stays, for the schema to refuse.
 */
function singleValues(
  schema: z.ZodMiniType,
  query: Readonly<Record<string, string | string[]>>,
  issues: FieldIssue[],
): Record<string, string | string[]> {
  const known = membersOf(schema);
  const single: Record<string, string | string[]> = Object.create(null);
  for (const name of Object.keys(query)) {
    const given = query[name] as string | string[];
    // A list of one value is that value (as the request stage reads a parameter given once).
    const value = Array.isArray(given) && given.length === 1 ? (given[0] as string) : given;
    const kind = known?.get(name);
    if (!Array.isArray(value) || kind === undefined || kind === 'list') {
      single[name] = kind === 'list' && typeof value === 'string' ? [value] : value;
      continue;
    }
    const shown = clip(name, 60);
    issues.push({
      location: 'query',
      path: shown,
      message: `query.${shown}: expected one value, received ${value.length} values (the parameter was repeated)`,
      expected: 'one value',
      received: `${value.length} values`,
    });
  }
  return single;
}

/** Whether each member of an object schema takes one value or a list; `undefined` for a schema that is not an object. */
const memberKinds = new WeakMap<z.ZodMiniType, ReadonlyMap<string, 'one' | 'list'> | undefined>();

function membersOf(schema: z.ZodMiniType): ReadonlyMap<string, 'one' | 'list'> | undefined {
  if (memberKinds.has(schema)) return memberKinds.get(schema);
  const shape = (schema.def as { shape?: Record<string, z.ZodMiniType> }).shape;
  const kinds = shape
    ? new Map(
        Object.keys(shape).map(
          (name) => [name, takesList(shape[name] as z.ZodMiniType) ? 'list' : 'one'] as const,
        ),
      )
    : undefined;
  memberKinds.set(schema, kinds);
  return kinds;
}

/** Whether a member's schema takes a list (through optional, default, pipe and union wrappers). */
function takesList(schema: z.ZodMiniType, depth = 0): boolean {
  if (depth > 16) return false;
  const def = schema.def as {
    type: string;
    innerType?: z.ZodMiniType;
    in?: z.ZodMiniType;
    options?: readonly z.ZodMiniType[];
  };
  if (def.type === 'array' || def.type === 'tuple' || def.type === 'set') return true;
  if (def.innerType) return takesList(def.innerType, depth + 1);
  if (def.type === 'pipe' && def.in) return takesList(def.in, depth + 1);
  if (def.options) return def.options.some((option) => takesList(option, depth + 1));
  return false;
}

/** Parses `input`; on failure adds its field issues to `issues` (so one answer names every bad field). */
function check(
  schema: z.ZodMiniType,
  input: unknown,
  location: IssueLocation,
  issues: FieldIssue[],
): unknown {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  issues.push(...fieldIssuesFromZod(result.error, location, input));
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
