import type { EndpointName } from '../contract/endpoints.js';
import { routes } from '../contract/routes.js';
import type { RequestOptions } from '../core/options.js';
import { APIPromise, PAGINATORS, type PagedEndpointName, type PagePromise } from '../core/pagination.js';
import type { CallInput, Transport, WithResponse } from '../core/transport.js';

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

  /** One call, as an {@link APIPromise}. */
  protected request<T>(
    name: EndpointName,
    input: CallInput,
    options: RequestOptions | undefined,
  ): APIPromise<T> {
    return new APIPromise(() => this.transport.call(name, input, options) as Promise<WithResponse<T>>);
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
