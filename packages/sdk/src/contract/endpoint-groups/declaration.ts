/**
 * What a group's module (`./<group>.ts`) declares of each of its endpoints: the one place an
 * endpoint of the contract is written down. Types only (nothing at run time): a group's declarations
 * are `as const satisfies EndpointDeclarations` object literals, so that each value keeps its literal
 * type for the endpoint table, the generated routes and their compile-time checks (`../endpoints.ts`).
 *
 * @module
 */
import type * as z from 'zod/mini';
import type { Route } from '../routes.js';

/**
 * One endpoint as its group's module declares it, its members in the order of the endpoint table's
 * entries (`EndpointDefinition`, which documents each). The route facts are those of a `Route` but
 * two, which follow from the declaration: `group` is the module's, and `hasBody` is whether `body` is
 * a schema. `scripts/generate-routes.ts` writes the route facts into `../routes.generated.ts`.
 */
export interface EndpointDeclaration {
  /** HTTP method. */
  readonly method: Route['method'];
  /** Path template relative to the base URL, with `{param}` placeholders, exactly as in the spec. */
  readonly path: string;
  /** One-line summary. */
  readonly summary: string;
  /** Schema of the path parameters (strict), or undefined when the path has none. */
  readonly params: z.ZodMiniType | undefined;
  /** Schema of the query parameters (strict). */
  readonly query: z.ZodMiniType;
  /** Schema of the request body, or undefined when the endpoint takes none (then `hasBody` is false). */
  readonly body: z.ZodMiniType | undefined;
  /** Whether a body must be sent (an endpoint whose members are all optional takes an absent body as `{}`). */
  readonly bodyRequired: boolean;
  /** Schema of the success answer (tolerant). */
  readonly response: z.ZodMiniType;
  /** Status of the success answer. */
  readonly successStatus: Route['successStatus'];
  /** Whether repeating the request cannot change the outcome, so a client may retry it on its own. */
  readonly retrySafe: boolean;
  /** Whether the request needs `Authorization: Bearer <token>`. */
  readonly auth: boolean;
  /** How the endpoint's results are paged. */
  readonly pagination: Route['pagination'];
  /** Whether the body's `projection` may trim the answer's items to some members (plus `id`). */
  readonly projection: boolean;
}

/** A group's declarations, by endpoint name (`group.action`), in the endpoint table's order. */
export type EndpointDeclarations = Readonly<Record<string, EndpointDeclaration>>;

/** The schemas of one endpoint, as its declaration gives them (what a client that validates needs). */
export type EndpointSchemas = Pick<EndpointDeclaration, 'params' | 'query' | 'body' | 'response'>;

/**
 * A group's schemas, by endpoint name, as its generated schemas module (`./<group>.schemas.generated.ts`)
 * holds them: the route facts are in `../routes.ts`.
 */
export type GroupSchemas = Readonly<Record<string, EndpointSchemas>>;
