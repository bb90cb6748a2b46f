/**
 * Matches a control request against the table of routes (with the contract's `matchPath`, as the API's
 * routes are): the route and its decoded `{params}`, or a
 * 404 (`route_not_found`) for a path no route has, or a 405 with `Allow` for a known path.
 *
 * @module
 */
import { matchPath } from '@iacm/sdk/contract';
import { HttpError, parseOr400 } from '../errors.js';
import type { ControlContext, ControlRoute } from './route.js';

/** The docs link of a 404 on the control plane. */
const CONTROL_DOCS = 'https://github.com/iacm/iacm/blob/main/docs/mock-server.md';

/** A matched route and its path parameters. */
export interface ControlMatch {
  /** The route. */
  route: ControlRoute;
  /** Its `{params}`, decoded. */
  params: Record<string, string>;
}

/** Finds the route for `method` and `path` in `routes`; throws 404 or 405 (with `Allow`). */
export function matchControlRoute(
  routes: readonly ControlRoute[],
  method: string,
  path: string,
): ControlMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPath(route.path, path);
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

/**
 * Matches, then runs the handler. The body is read (`readBody`, which may throw 400 or 415) only
 * once a route matched: a route with a body schema reads and validates it before its handler runs
 * (400 naming each bad field); a route without one reads it only if its handler uses `body`. So an
 * unknown path answers 404 and `GET /__mock/clock` 200 whatever body came with them.
 */
export async function dispatchControl(
  routes: readonly ControlRoute[],
  method: string,
  path: string,
  context: Omit<ControlContext, 'params' | 'body'> & { readBody: () => unknown },
) {
  const { route, params } = matchControlRoute(routes, method, path);
  const { readBody, ...rest } = context;
  if (route.body) {
    const body = parseOr400(route.body, readBody() ?? {});
    return route.handler({ ...rest, params, body });
  }
  const handlerContext = { ...rest, params } as ControlContext;
  Object.defineProperty(handlerContext, 'body', { enumerable: true, get: readBody });
  return route.handler(handlerContext);
}
