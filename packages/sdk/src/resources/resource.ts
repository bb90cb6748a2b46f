import type * as z from 'zod/mini';
import type { EndpointName, Endpoints } from '../contract/endpoints.js';
import { routes } from '../contract/routes.js';
import type { RequestOptions } from '../core/options.js';
import { APIPromise, PAGINATORS, type PagedEndpointName, type PagePromise } from '../core/pagination.js';
import type { CallInput, Transport, WithResponse } from '../core/transport.js';

/** What `N`'s body schema accepts, or `never` when `N` takes no body. */
type BodyOf<N extends EndpointName> = Endpoints[N]['body'] extends z.ZodMiniType
  ? z.input<Endpoints[N]['body']>
  : never;

/** `N`'s path parameters (the members its params schema names, as text), or `never` when it has none. */
type ParamsOf<N extends EndpointName> = Endpoints[N]['params'] extends z.ZodMiniType
  ? { [K in keyof z.input<Endpoints[N]['params']>]: string }
  : never;

/**
 * The inputs of one call of `N`, typed from the endpoint table: its path parameters when it has
 * some, its body when it takes one (required when the table says a body must be sent).
 */
export type EndpointInput<N extends EndpointName> = ([ParamsOf<N>] extends [never]
  ? { params?: never }
  : { params: ParamsOf<N> }) &
  ([BodyOf<N>] extends [never]
    ? { body?: never }
    : Endpoints[N]['bodyRequired'] extends true
      ? { body: BodyOf<N> }
      : { body?: BodyOf<N> }) &
  Pick<CallInput, 'query'>;

/** Whether `T` is `string` itself (not a literal, not `string & {}`). */
type IsExactlyString<T> =
  (<G>() => G extends T ? 1 : 2) extends <G>() => G extends string ? 1 : 2 ? true : false;
/** A key that names a member (not an index signature's). */
type KnownKey<K> = string extends K ? never : number extends K ? never : K;
/** Whether an object type names members (else it is a record). */
type HasKnownKeys<T> = [keyof { [K in keyof T as KnownKey<K>]: 1 }] extends [never] ? false : true;
/**
 * The documented view of a tolerant schema's output, as the SDK's named answer types are: no index
 * signature on objects with known members, no `string & {}` in open enumerations (records keep
 * theirs). `packages/sdk/test/types.test-d.ts` pins each named answer type to it.
 */
export type Documented<T> = T extends string
  ? IsExactlyString<T> extends true
    ? T
    : string extends T
      ? never
      : T
  : T extends readonly (infer E)[]
    ? Documented<E>[]
    : T extends object
      ? HasKnownKeys<T> extends true
        ? { [K in keyof T as KnownKey<K>]: Documented<T[K]> }
        : { [K in keyof T]: Documented<T[K]> }
      : T;

/** What `N` answers: its response schema's output, documented members and values only. */
export type EndpointOutput<N extends EndpointName> = Documented<z.output<Endpoints[N]['response']>>;

/**
 * What every resource group holds: the client's request pipeline, one-call requests, and paged
 * calls in the paging style that the endpoint table gives each endpoint.
 */
export abstract class APIResource {
  /** The request pipeline. @internal */
  protected readonly transport: Transport;

  /** Creates the group over a pipeline. @internal */
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /**
   * One call of endpoint `name`, as an {@link APIPromise}: its input and its answer typed from the
   * endpoint table, so that a method that calls the wrong endpoint, or sends the wrong body, does
   * not compile.
   */
  protected request<N extends EndpointName>(
    name: N,
    input: EndpointInput<N>,
    options: RequestOptions | undefined,
  ): APIPromise<EndpointOutput<N>> {
    return new APIPromise(() => this.call(name, input, options));
  }

  /** One call of endpoint `name` with its raw answer, typed as {@link request} is. */
  protected call<N extends EndpointName>(
    name: N,
    input: EndpointInput<N>,
    options: RequestOptions | undefined,
  ): Promise<WithResponse<EndpointOutput<N>>> {
    return this.transport.call(name, input as CallInput, options) as Promise<WithResponse<EndpointOutput<N>>>;
  }

  /**
   * A paged call: awaiting gives the first page, iterating goes through every item. How it pages
   * (`page`, `offset` or `continuation`) is the endpoint table's `pagination` for `name`.
   * @param params the method's parameters: the body members, and for `page` paging `page`/`pageSize`.
   * @param path the path parameters, when the endpoint has some.
   * @param items how to read the items of a page.
   */
  protected paged<P, Item>(
    name: PagedEndpointName,
    params: object | undefined,
    path: Record<string, string> | undefined,
    items: (page: P) => Item[],
    options: RequestOptions | undefined,
  ): PagePromise<P, Item> {
    const paginate = PAGINATORS[routes[name].pagination];
    return paginate((input) => this.transport.call(name, input, options), params, path, items);
  }
}

/** The items of a page that is a bare array: the page itself. */
export const bareArray = <T>(page: T[]): T[] => page;
