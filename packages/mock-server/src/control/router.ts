/**
 * Matches a control request against the table of routes (with the contract's `compilePath`, as the
 * API's routes are): the route and its decoded `{params}`, or a
 * 404 (`route_not_found`) for a path no route has, or a 405 with `Allow` for a known path. Then
 * checks the body once with the route's own check (`checkControlBody`, which the in-process
 * control methods share) and runs the handler with what it answered.
 *
 * @module
 */
import { type CompiledPath, compilePath } from '@iacm/sdk/contract';
import { HttpError } from '../errors.js';
import { checkControlContentType } from './access.js';
import { checkRouteInput } from './bind.js';
import {
  type ControlBodyReader,
  type ControlContext,
  type ControlRoute,
  DEFAULT_CONTROL_BODY_BYTES,
} from './route.js';

/** The docs link of a 404 on the control plane. */
const CONTROL_DOCS = 'https://github.com/iacm/iacm/blob/main/docs/mock-server.md';

/** A matched route and its path parameters. */
export interface ControlMatch {
  /** The route. */
  route: ControlRoute;
  /** Its `{params}`, decoded. */
  params: Record<string, string>;
}

/** Each control route's path template, split once (routes are the tables' own objects). */
const compiledPaths = new WeakMap<ControlRoute, CompiledPath>();

function compiledPath(route: ControlRoute): CompiledPath {
  let compiled = compiledPaths.get(route);
  if (!compiled) {
    compiled = compilePath(route.path);
    compiledPaths.set(route, compiled);
  }
  return compiled;
}

/** Finds the route for `method` and `path` in `routes`; throws 404 or 405 (with `Allow`). */
export function matchControlRoute(
  routes: readonly ControlRoute[],
  method: string,
  path: string,
): ControlMatch {
  const allowed: string[] = [];
  const segments = path.split('/');
  for (const route of routes) {
    const params = compiledPath(route).match(segments);
    if (!params) continue;
    if (route.method === method) return { route, params };
    if (!allowed.includes(route.method)) allowed.push(route.method);
  }
  if (allowed.length > 0) {
    const allow = allowed.join(', ');
    throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${path}; allowed: ${allow}`, {
      headers: { allow },
    });
  }
  throw new HttpError(
    404,
    'route_not_found',
    `no control endpoint at ${path.slice(0, 120)}; see ${CONTROL_DOCS}`,
  );
}

/** Methods whose control routes read a body. */
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Matches, then runs the handler. The body is read (`readBody`, which may reject with 413, 415 or
 * 400) only once a route matched, with that route's size limit and JSON bounds, and only for a method that carries
 * one (POST, PUT, PATCH): so an unknown path answers 404 and `GET /__mock/clock` 200 whatever body
 * came with them. A route with a body check runs it once, before its handler (a schema's failure is
 * a 400 naming each bad field), and the handler gets what it answered.
 */
export async function dispatchControl(
  routes: readonly ControlRoute[],
  method: string,
  path: string,
  context: Omit<ControlContext, 'params' | 'body' | 'query' | 'transport'> & {
    /** The query as sent (parsed by the route's `query` schema, when it declares one). */
    query: Record<string, string | string[]>;
    readBody: ControlBodyReader;
    /** The request's `Content-Type`, checked for mutating routes; `null` skips the check (in-process calls). */
    contentType: string | undefined | null;
  },
) {
  const { route, params } = matchControlRoute(routes, method, path);
  const { readBody, contentType, ...rest } = context;
  if (contentType !== null) checkControlContentType(method, contentType);
  const raw = BODY_METHODS.has(method)
    ? await readBody(route.maxBodyBytes ?? DEFAULT_CONTROL_BODY_BYTES, route.jsonBounds)
    : undefined;
  const input = checkRouteInput(route, rest.query, raw, 'http');
  const body = await input.body;
  readBody.checked?.();
  return route.handler({ ...rest, transport: 'http', params, query: input.query, body });
}
