/**
 * The routes of the endpoint table: the schema-free facts of each endpoint (method, path template,
 * success status, paging, retry safety, authentication, its group), and the path templates'
 * helpers. What a client needs to send a request without validating it: the SDK's transport
 * imports this table, and loads an endpoint's schemas (`endpoint-groups/<group>.ts`) only when a
 * call validates.
 *
 * Each endpoint is declared once, in its group's module (`endpoint-groups/<group>.ts`: route facts,
 * summary and schemas together); its route facts are copied from there into `routes.generated.ts`
 * by `pnpm contract:routes` (`scripts/generate-routes.ts`). A test fails when that file is stale
 * (`tests/contract-routes.test.ts`), and so does `tsc` (`endpoints.ts` checks that
 * each generated route has its declaration's facts).
 *
 * Imports nothing but the generated routes, which import nothing: a bundle that only routes keeps
 * no schema and no zod.
 *
 * @module
 */
import { routes } from './routes.generated.js';

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

/**
 * The groups of endpoints, one module of declarations each (`endpoint-groups/<group>.ts`): a client
 * loads the schemas of a group the first time it validates a call of one of its endpoints.
 */
export type EndpointGroup = 'auth' | 'workspaces' | 'guardrails' | 'iacExplorer' | 'eventCenter';

/** The schema-free part of an entry of the endpoint table (see `EndpointDefinition` for the fields). */
export interface Route {
  /** HTTP method. */
  readonly method: HttpMethod;
  /** Path template relative to the base URL, with `{param}` placeholders, exactly as in the spec. */
  readonly path: string;
  /** Whether the endpoint takes a request body (its schema is then the entry's `body`). */
  readonly hasBody: boolean;
  /** Whether a body must be sent (an endpoint whose members are all optional takes an absent body as `{}`). */
  readonly bodyRequired: boolean;
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
  /** The group whose module declares the endpoint (and holds its schemas). */
  readonly group: EndpointGroup;
}

// The routes, one per endpoint, in the endpoint table's order (keys are the endpoint names):
// generated from the endpoint declarations (`endpoint-groups/<group>.ts`).
export { routes };

/** The routes' type. */
export type Routes = typeof routes;
/** The name of a route (the same names as the endpoint table's). */
export type RouteName = keyof Routes;

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
