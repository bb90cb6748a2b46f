/**
 * The control plane of a core ({@link createControlPlane}): the in-process methods and the router of
 * `/__mock`, both derived from one control table bound to its handlers (`table.ts`, `handlers.ts`,
 * `bind.ts`). A method runs its row's check on the request its arguments map to, then its row's
 * handler: so a bad body gets the same 400 in process as over HTTP.
 *
 * @module
 */

import type { MockResponse } from '../http/message.js';
import { type ControlHandlers, controlMethodsOf, controlRoutesOf } from './bind.js';
import type { ControlMethodsOf, ControlTable } from './declare.js';
import { CONTROL_HANDLERS } from './handlers.js';
import type { ControlBodyReader, ControlDeps, CoreView } from './route.js';
import { dispatchControl } from './router.js';
import { CONTROL_ROUTES } from './routes.js';
import { CONTROL_TABLE, type ControlTableOf } from './table.js';

/**
 * The control plane of a mock: the in-process methods of the control table's rows (`control/table.ts`,
 * where each is documented and typed: `control.reset()`, `control.addFault(rule)`,
 * `control.webhooks.create(body)`, `control.clock.advance(ms)`, ...), and `handle`, which serves the
 * same over HTTP under `/__mock`.
 *
 * @interface
 */
export type ControlPlane = ControlMethodsOf<ControlTableOf> & ControlPlaneServer;

/** The part of the control plane that is no capability of its own: serving the table over HTTP. */
export interface ControlPlaneServer {
  /**
   * Serves the control plane over HTTP (`control/serve.ts` calls it for paths under `/__mock`, after
   * checking access). `body` is the parsed body, or a reader `(limit) => Promise<body>`: `serveControl`
   * passes a reader, called only once a route matched, with that route's size and JSON bounds. `http`
   * carries what came over HTTP: with it, a mutating route needs a JSON `http.contentType` (the
   * contract's `isJsonMediaType`; 415 otherwise).
   */
  handle(
    method: string,
    path: string,
    query: Record<string, string | string[]>,
    body: unknown,
    requestId: string,
    http?: { contentType: string | undefined; signal?: AbortSignal | undefined },
  ): Promise<MockResponse>;
}

/** The control plane's view of webhook integrations and deliveries: `control.webhooks`. */
export type WebhookControl = ControlPlane['webhooks'];

/** Whether a control request's `body` is a reader (the core's) rather than the body itself. */
function isBodyReader(body: unknown): body is ControlBodyReader {
  return typeof body === 'function';
}

/**
 * Builds the control plane of a core from a table and its handlers (default: the mock's own): its
 * rows' in-process methods, and `handle`, which routes a request under `/__mock` to them.
 */
export function createControlPlane<T extends ControlTable = ControlTableOf>(
  core: CoreView,
  deps: ControlDeps,
  table: T = CONTROL_TABLE as unknown as T,
  handlers: ControlHandlers<T> = CONTROL_HANDLERS as unknown as ControlHandlers<T>,
): ControlMethodsOf<T> & ControlPlaneServer {
  const routes =
    (table as ControlTable) === CONTROL_TABLE && (handlers as unknown) === CONTROL_HANDLERS
      ? CONTROL_ROUTES
      : controlRoutesOf(table, handlers);
  const base = { core, deps };
  const server: ControlPlaneServer = {
    // `body` is the parsed body, or a reader (`serveControl` passes one, so that the body is read only
    // once a route matched, with the route's size limit).
    handle: (method, path, query, body, _requestId, http) =>
      dispatchControl(routes, method, path, {
        contentType: http ? http.contentType : null,
        signal: http?.signal,
        core,
        deps,
        query,
        readBody: isBodyReader(body) ? body : () => Promise.resolve(body),
      }),
  };
  return Object.assign(
    controlMethodsOf(table, handlers, () => base),
    server,
  );
}
