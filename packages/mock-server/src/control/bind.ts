/**
 * What the control table's rows become once bound to their handlers: the router's routes
 * ({@link controlRoutesOf}) and the in-process methods ({@link controlMethodsOf}), both running a
 * row's one check and its one handler. Typed from the rows: a handler gets its route's checked body,
 * query and `{params}` and must answer the row's answer ({@link ControlHandlers}); an in-process
 * method has the row's declared signature (`ControlMethodsOf`).
 *
 * @module
 */
import { parseOr400 } from '../errors.js';
import type { MockResponse } from '../http/message.js';
import {
  type AnswerOf,
  type CheckedBody,
  type CheckedQuery,
  type ControlBodyCheck,
  type ControlCallRequest,
  type ControlDeclaration,
  type ControlMethodsOf,
  type ControlSignature,
  type ControlTable,
  type ControlTransport,
  controlMembersOf,
  controlRows,
  type IsSync,
  type PathParams,
  type RowName,
  type RowOf,
  type SignatureOf,
  type ViaOf,
} from './declare.js';
import { type ControlContext, type ControlRoute, ok, parseControlBody } from './route.js';

/** The context a handler gets, without what its route's checks give (`params`, `query`, `body`). */
export type ControlBase = Omit<ControlContext, 'params' | 'query' | 'body' | 'transport'>;

/** The parts of a row's route declaration, as a handler is typed from them. */
type RouteOf<R> = R extends { readonly route?: infer D } ? NonNullable<D> : never;
type PathOf<R> = RouteOf<R> extends { readonly path: infer P extends string } ? P : string;
type BodyOf<R> = RouteOf<R> extends { readonly body?: infer B } ? B : undefined;
type QueryOf<R> = RouteOf<R> extends { readonly query?: infer Q } ? Q : undefined;

/** Whether a row's in-process method answers at once (its handler must, too). */
type SyncOf<R> = [SignatureOf<R>] extends [never]
  ? false
  : SignatureOf<R> extends ControlSignature
    ? IsSync<SignatureOf<R>>
    : false;

/**
 * The handler of row `R`: its route's checked body, query and path parameters in, the row's answer
 * out (a Promise of it only for a row whose in-process method answers a Promise, or that has none).
 */
export type ControlHandlerOf<R, S = SyncOf<R>> = (
  ctx: ControlContext<CheckedBody<BodyOf<R>>, PathParams<PathOf<R>>, CheckedQuery<QueryOf<R>>>,
) => S extends true ? AnswerOf<R> : AnswerOf<R> | Promise<AnswerOf<R>>;

/** The rows that a synchronous method goes `via`: their handlers must answer at once too. */
type SyncTargets<T> = {
  [N in RowName<T>]: SyncOf<RowOf<T, N>> extends true ? ViaOf<RowOf<T, N>> : never;
}[RowName<T>];

/** The rows of a table that have a handler of their own: every row but those that go `via` another. */
type OwnHandlerNames<T> = {
  [N in RowName<T>]: [ViaOf<RowOf<T, N>>] extends [never] ? N : never;
}[RowName<T>];

/** A table's handlers by row name (`group.name` in a group), one per row that has a route of its own. */
export type ControlHandlers<T> = {
  readonly [N in OwnHandlerNames<T>]: ControlHandlerOf<
    RowOf<T, N>,
    N extends SyncTargets<T> ? true : SyncOf<RowOf<T, N>>
  >;
};

/** Any row's handler, as the binding calls it. */
type AnyHandler = (ctx: ControlContext) => unknown;

/**
 * Runs a route's body check on the body as read: a schema through {@link parseControlBody}, a check
 * function on the body as sent; without a check, the body as sent.
 */
function checkControlBody(
  check: ControlBodyCheck | undefined,
  raw: unknown,
  transport: ControlTransport,
): unknown {
  if (check === undefined) return raw;
  return typeof check === 'function' ? check(raw, transport) : parseControlBody(check, raw);
}

/**
 * A route's checks on a request's query and body, the router's and the in-process methods' one path:
 * the query by the route's `query` schema (a 400 naming `query.<name>`; as sent without one), the
 * body by its body check (a Promise of it for a check that works in slices: see {@link withBody}).
 */
export function checkRouteInput(
  route: Pick<ControlRoute, 'query' | 'body'> | undefined,
  query: Record<string, unknown>,
  body: unknown,
  transport: ControlTransport,
): Pick<ControlContext, 'query' | 'body'> {
  // A table's routes are of any query: each handler gets what its own schema answers.
  const checked = route?.query ? parseOr400(route.query, query, 'query') : query;
  return {
    query: checked as Record<string, string | string[]>,
    body: checkControlBody(route?.body, body, transport),
  };
}

/**
 * Calls `next` with the checked body: at once for a body checked at once, once settled for a check
 * that answered a Promise (rejecting with what it rejects with).
 */
export function withBody<R>(body: unknown, next: (body: unknown) => R): R | Promise<Awaited<R>> {
  return isPromise(body) ? (body.then(next) as Promise<Awaited<R>>) : next(body);
}

/** A success answer of a row's route: its status (204 answers no body), the answer as JSON. */
function answerOf(declaration: ControlDeclaration, answer: unknown): MockResponse {
  const declared = declaration.route?.status;
  const status =
    typeof declared === 'function' ? (declared as (a: unknown) => number)(answer) : (declared ?? 200);
  const response = ok(status === 204 ? undefined : answer, status);
  if (declaration.route?.journalled === false) response.unjournalled = true;
  return response;
}

/** Whether a value is a thenable (a handler that answered a Promise). */
function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The routes of a table, in its order: what the router matches (`router.ts`). */
export function controlRoutesOf<T extends ControlTable>(
  table: T,
  handlers: ControlHandlers<T>,
): ControlRoute[] {
  const routes: ControlRoute[] = [];
  for (const [name, declaration] of controlRows(table)) {
    const route = declaration.route;
    if (!route) continue;
    const handler = (handlers as unknown as Record<string, AnyHandler>)[name] as AnyHandler;
    routes.push({
      name,
      method: route.method,
      path: route.path,
      summary: route.summary,
      body: route.body,
      query: route.query,
      maxBodyBytes: route.maxBodyBytes,
      jsonBounds: route.jsonBounds,
      journalled: route.journalled,
      handler: (ctx) => {
        const answer = handler(ctx);
        return isPromise(answer)
          ? answer.then((a) => answerOf(declaration, a))
          : answerOf(declaration, answer);
      },
    });
  }
  return routes;
}

/** The query a call maps to, its `undefined` members left out (as a client leaves them unsent). */
function sentQuery(query: ControlCallRequest['query']): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * Calls row `name` in process: its arguments mapped to the request parts, checked as the route
 * checks them (its query schema, its body check), its handler (or the `via` row's), its `result`.
 */
function callRow(
  table: ReadonlyMap<string, ControlDeclaration>,
  handlers: Record<string, AnyHandler>,
  name: string,
  base: () => ControlBase,
  args: unknown[],
): unknown {
  const declaration = table.get(name) as ControlDeclaration;
  const call = declaration.call as NonNullable<ControlDeclaration['call']>;
  const target = declaration.via ?? name;
  const route = table.get(target)?.route;
  const request = call.args(...args);
  const input = checkRouteInput(route, sentQuery(request.query), request.body, 'process');
  if (call.sync && isPromise(input.body))
    throw new TypeError(`control.${name}: a synchronous row's body check answered a Promise`);
  const answer = withBody(input.body, (body) =>
    (handlers[target] as AnyHandler)({
      ...base(),
      transport: 'process',
      params: request.params ?? {},
      query: input.query,
      body,
    }),
  );
  const result = call.result as ((a: unknown) => unknown) | undefined;
  if (call.sync) {
    if (isPromise(answer))
      throw new TypeError(`control.${name}: a synchronous row's handler answered a Promise`);
    return result ? result(answer) : answer;
  }
  // An asynchronous method rejects (never throws) whatever fails, its check included.
  return Promise.resolve(answer).then((a) => (result ? result(a) : a));
}

/**
 * The in-process methods of a table's rows: `control.<name>`, and `control.<group>.<member>` for a
 * row named `group.member`. An asynchronous row's method rejects with what its check throws.
 */
export function controlMethodsOf<T extends ControlTable>(
  table: T,
  handlers: ControlHandlers<T>,
  base: () => ControlBase,
): ControlMethodsOf<T> {
  const bound = handlers as unknown as Record<string, AnyHandler>;
  const rows: ReadonlyMap<string, ControlDeclaration> = new Map(controlRows(table));
  const out = controlMembersOf(table, (name, declaration) =>
    declaration.call?.sync
      ? (...args: unknown[]) => callRow(rows, bound, name, base, args)
      : (...args: unknown[]) => {
          try {
            return callRow(rows, bound, name, base, args);
          } catch (error) {
            return Promise.reject(error);
          }
        },
  );
  return out as ControlMethodsOf<T>;
}
