import type {
  Backend,
  BackendQueryResponse,
  IacStack,
  Module,
  ModuleQueryResponse,
  ProviderAggregation,
  ProviderQueryBody,
  RepositoryQueryBody,
  RepositoryQueryResponse,
  StackQueryResponse,
} from '../contract/iac-explorer.js';
import type { RequestOptions } from '../core/options.js';
import type { APIPromise, PagePromise } from '../core/pagination.js';
import { APIResource } from './resource.js';
import type { BackendQueryParams, ModuleQueryParams, StackQueryParams } from './types.js';

/** IaC explorer queries: `client.iacExplorer`. Reach it through an `IacmClient`.
 * @hideconstructor
 */
export class IacExplorer extends APIResource {
  /**
   * Queries IaC stacks (`POST /api/iacStacks`). Await for the page (`{ hits, total }`), or
   * `for await` over every stack across pages.
   */
  stacks(params?: StackQueryParams, options?: RequestOptions): PagePromise<StackQueryResponse, IacStack> {
    return this.paged(
      'iacExplorer.stacks',
      params,
      undefined,
      (page: StackQueryResponse) => page.hits,
      options,
    );
  }

  /** Queries backends (`POST /api/iacStacks/backends`): `{ hits, aggs, total }`; iterate for every backend. */
  backends(
    params?: BackendQueryParams,
    options?: RequestOptions,
  ): PagePromise<BackendQueryResponse, Backend> {
    return this.paged(
      'iacExplorer.backends',
      params,
      undefined,
      (page: BackendQueryResponse) => page.hits,
      options,
    );
  }

  /** Lists the repositories that hold IaC code (`POST /api/iacStacks/repositories`), all at once. */
  repositories(params?: RepositoryQueryBody, options?: RequestOptions): APIPromise<RepositoryQueryResponse> {
    return this.request('iacExplorer.repositories', { body: params ?? {} }, options);
  }

  /** Queries modules (`POST /api/iacStacks/modules`): `{ modules, total }`; iterate for every module. */
  modules(params?: ModuleQueryParams, options?: RequestOptions): PagePromise<ModuleQueryResponse, Module> {
    return this.paged(
      'iacExplorer.modules',
      params,
      undefined,
      (page: ModuleQueryResponse) => page.modules,
      options,
    );
  }

  /** Aggregates the stacks' providers (`POST /api/iacStacks/providers`). */
  providers(params?: ProviderQueryBody, options?: RequestOptions): APIPromise<ProviderAggregation> {
    return this.request('iacExplorer.providers', { body: params ?? {} }, options);
  }
}
