/**
 * The operations of every endpoint of the contract's table, one file per API group. The table is
 * typed over every endpoint name, each operation for its own endpoint (`Handler<N>`): an endpoint
 * without an operation, or an operation answering the wrong shape, fails to compile. The dispatcher
 * calls them through {@link operations}, the one place where inputs the route stage parsed meet the
 * types of their endpoint.
 *
 * @module
 */
import type { EndpointName } from '@iacm/sdk/contract';
import type { AccountStore } from '../store/store.js';
import { authOperations } from './auth.js';
import { eventCenterOperations } from './event-center.js';
import { guardrailsOperations } from './guardrails.js';
import { healthOperations } from './health.js';
import { iacExplorerOperations } from './iac-explorer.js';
import type { Handler, HandlerServices } from './operation.js';
import { workspacesOperations } from './workspaces.js';

export type {
  EndpointAnswer,
  EndpointBody,
  EndpointParams,
  EndpointQuery,
  Handler,
  HandlerContext,
  HandlerServices,
} from './operation.js';

/** The operation of every endpoint of the contract's table, each typed for its endpoint. */
export const endpointOperations: { readonly [N in EndpointName]: Handler<N> } = {
  ...authOperations,
  ...healthOperations,
  ...workspacesOperations,
  ...guardrailsOperations,
  ...iacExplorerOperations,
  ...eventCenterOperations,
};

/**
 * What the dispatcher hands an operation: the caller's account, a request's inputs as the route
 * stage parsed them with the schemas of the endpoint it resolved, and the services.
 */
export interface DispatchContext {
  /** The caller's account (undefined only for endpoints without auth). */
  account: AccountStore | undefined;
  /** The path parameters, parsed by the endpoint's `params` schema. */
  params: Readonly<Record<string, string>>;
  /** The query, parsed by the endpoint's `query` schema. */
  query: Readonly<Record<string, unknown>>;
  /** The body, parsed by the endpoint's `body` schema (`undefined` for an endpoint without one). */
  body: unknown;
  /** The mock's services. */
  services: HandlerServices;
  /** Aborts when the client has gone. */
  signal?: AbortSignal | undefined;
}

/** An operation as the dispatcher calls it: the success body, or a promise of it. */
export type DispatchedOperation = (ctx: DispatchContext) => unknown;

/**
 * The operations as the dispatcher calls them, by the endpoint name the route stage resolved
 * (`operations[route.name](ctx)`).
 */
export const operations: Readonly<Record<EndpointName, DispatchedOperation>> =
  forDispatch(endpointOperations);

/**
 * The typed operations, seen from the dispatcher. The one cast of the operations: the route stage
 * resolved the endpoint `N` and parsed the request's path, query and body with `N`'s own schemas
 * (`pipeline/route.ts` `validateInput`), so the context it hands `operations[N]` is
 * `HandlerContext<N>`; the compiler cannot follow that link from a name known only at run time.
 */
function forDispatch(
  table: { readonly [N in EndpointName]: Handler<N> },
): Readonly<Record<EndpointName, DispatchedOperation>> {
  return table as unknown as Record<EndpointName, DispatchedOperation>;
}
