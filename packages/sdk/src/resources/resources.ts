import type { LoginBody, LoginResponse } from '../contract/auth.js';
import type { EndpointName } from '../contract/endpoints.js';
import type { Event, EventQueryResponse, FacetQueryBody, FacetResult } from '../contract/event-center.js';
import {
  type GuardrailCreateBody,
  type GuardrailCreated,
  type GuardrailCreateResponse,
  type GuardrailDeleteResponse,
  type GuardrailField,
  type GuardrailRule,
  type GuardrailUpdateBody,
  type GuardrailUpdateResponse,
  normalizeGuardrailCreateResponse,
} from '../contract/guardrails.js';
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
import { explorerPage } from '../contract/iac-explorer.js';
import { DEFAULT_PAGE_SIZE } from '../contract/primitives.js';
import type {
  RunField,
  WorkspaceDeleteResponse,
  WorkspaceField,
  WorkspaceLabelsResponse,
  WorkspaceRun,
  WorkspaceSummary,
} from '../contract/workspaces.js';
import type { RequestOptions } from '../core/options.js';
import { APIPromise, PagePromise } from '../core/pagination.js';
import { type CallInput, requireString, type Transport, type WithResponse } from '../core/transport.js';
import type {
  BackendQueryParams,
  EventQueryParams,
  GuardrailSearchParams,
  ModuleQueryParams,
  PageParams,
  Projected,
  RunSearchParams,
  StackQueryParams,
  WorkspaceSearchParams,
} from './types.js';

/** What every resource group holds: the client's request pipeline. */
abstract class APIResource {
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
   * A search paged by `page`/`pageSize` query parameters: awaiting gives one page (a bare array);
   * iterating goes on while a page is full.
   */
  protected pagedSearch<T>(
    name: EndpointName,
    params: PageParams | undefined,
    path: Record<string, string> | undefined,
    options: RequestOptions | undefined,
  ): PagePromise<T[], T> {
    const { page, pageSize, ...body } = (params ?? {}) as PageParams & Record<string, unknown>;
    const size = pageSize ?? DEFAULT_PAGE_SIZE;
    const at = (p: number | undefined) => () =>
      this.transport.call(
        name,
        { ...(path ? { params: path } : {}), query: { page: p, pageSize }, body },
        options,
      ) as Promise<WithResponse<T[]>>;
    const start = page ?? 0;
    return new PagePromise<T[], T>(
      at(page),
      (items) => items,
      (items, index) => (items.length < size ? undefined : at(start + index + 1)),
    );
  }

  /** An IaC explorer query paged by `page`/`pageSize` body members, using the answer's `total`. */
  protected offsetQuery<P extends { total: number }, T>(
    name: EndpointName,
    params: object | undefined,
    items: (page: P) => T[],
    options: RequestOptions | undefined,
  ): PagePromise<P, T> {
    const body = (params ?? {}) as Record<string, unknown>;
    const { page: first, pageSize: size } = explorerPage(body);
    const at = (p: number) => () => {
      const { pageNumber: _n, ...rest } = body;
      return this.transport.call(name, { body: { ...rest, page: p } }, options) as Promise<WithResponse<P>>;
    };
    return new PagePromise<P, T>(
      () => this.transport.call(name, { body }, options) as Promise<WithResponse<P>>,
      items,
      (page, index) => {
        const next = first + index + 1;
        return items(page).length === 0 || next * size >= page.total ? undefined : at(next);
      },
    );
  }
}

/** Runs of one workspace: `client.workspaces.runs`. Reach it through an `IacmClient`.
 * @hideconstructor
 */
export class WorkspaceRuns extends APIResource {
  /**
   * Lists the runs of one workspace (`POST /v2/workspaces/{workspaceId}/runs/search`). Await for one
   * page, or `for await` over every run.
   * @param workspaceId the workspace's id (the 24-hex id a search returns, or its UUID form).
   * @example
   * for await (const run of client.workspaces.runs.search(id, { filters: { status: ['blocked'] } })) console.log(run.title);
   */
  search<const P extends ReadonlyArray<RunField> | undefined = undefined>(
    workspaceId: string,
    params?: RunSearchParams<P>,
    options?: RequestOptions,
  ): PagePromise<Array<Projected<WorkspaceRun, P>>, Projected<WorkspaceRun, P>> {
    return this.pagedSearch(
      'workspaces.runs.search',
      params,
      { workspaceId: requireString(workspaceId, 'workspaceId') },
      options,
    );
  }
}

/** Workspaces: `client.workspaces`. Reach it through an `IacmClient`.
 * @hideconstructor
 */
export class Workspaces extends APIResource {
  /** Runs of one workspace. */
  readonly runs: WorkspaceRuns;

  /** Creates the group over a pipeline. @internal */
  constructor(transport: Transport) {
    super(transport);
    this.runs = new WorkspaceRuns(transport);
  }

  /**
   * Lists workspaces (`POST /v2/workspaces/search`) with typed filters, free-text search, projection
   * and sorting. Await for one page (`pageSize` items, default 25), or `for await` over every workspace.
   * @example
   * const page = await client.workspaces.search({ filters: { ciTool: ['github-actions'] }, sort: { lastRunTime: { order: -1 } } });
   */
  search<const P extends ReadonlyArray<WorkspaceField> | undefined = undefined>(
    params?: WorkspaceSearchParams<P>,
    options?: RequestOptions,
  ): PagePromise<Array<Projected<WorkspaceSummary, P>>, Projected<WorkspaceSummary, P>> {
    return this.pagedSearch('workspaces.search', params, undefined, options);
  }

  /**
   * Deletes a workspace and its runs (`DELETE /v2/workspaces/{workspaceId}`).
   * @returns `{ status, data: { message } }`.
   */
  delete(workspaceId: string, options?: RequestOptions): APIPromise<WorkspaceDeleteResponse> {
    return this.request(
      'workspaces.delete',
      { params: { workspaceId: requireString(workspaceId, 'workspaceId') } },
      options,
    );
  }

  /**
   * Replaces the labels of a workspace (`PUT /v2/workspaces/{workspaceId}/labels`); `[]` removes them all.
   * @returns `{ id, workspaceName, labels, updatedAt }`.
   */
  setLabels(
    workspaceId: string,
    labels: string[],
    options?: RequestOptions,
  ): APIPromise<WorkspaceLabelsResponse> {
    return this.request(
      'workspaces.setLabels',
      { params: { workspaceId: requireString(workspaceId, 'workspaceId') }, body: { labels } },
      options,
    );
  }
}

/** Guardrail rules: `client.guardrails`. Reach it through an `IacmClient`.
 * @hideconstructor
 */
export class Guardrails extends APIResource {
  /**
   * Lists guardrail rules (`POST /v2/guardrails/search`). There is no get-by-id: filter instead.
   * @example
   * const costRules = await client.guardrails.search({ filters: { type: ['cost'] } });
   */
  search<const P extends ReadonlyArray<GuardrailField> | undefined = undefined>(
    params?: GuardrailSearchParams<P>,
    options?: RequestOptions,
  ): PagePromise<Array<Projected<GuardrailRule, P>>, Projected<GuardrailRule, P>> {
    return this.pagedSearch('guardrails.search', params, undefined, options);
  }

  /**
   * Creates a rule and its notification configuration (`POST /v2/guardrails`). Not retried on
   * failure (a retry could create the rule twice) unless `options.idempotent` is set. The answer is
   * read in either published form and returned as `{ ruleId, notificationId }`.
   */
  create(body: GuardrailCreateBody, options?: RequestOptions): APIPromise<GuardrailCreated> {
    return new APIPromise(async () => {
      const result = (await this.transport.call(
        'guardrails.create',
        { body },
        options,
      )) as WithResponse<GuardrailCreateResponse>;
      return { ...result, data: normalizeGuardrailCreateResponse(result.data) };
    });
  }

  /**
   * Updates a rule (`PATCH /v2/guardrails/{ruleId}`): the members given replace the stored ones.
   * @returns `{ id, name, enabled, updatedAt }`.
   */
  update(
    ruleId: string,
    body: GuardrailUpdateBody,
    options?: RequestOptions,
  ): APIPromise<GuardrailUpdateResponse> {
    return this.request(
      'guardrails.update',
      { params: { ruleId: requireString(ruleId, 'ruleId') }, body },
      options,
    );
  }

  /**
   * Deletes a rule and its notification configuration (`DELETE /v2/guardrails/{ruleId}`).
   * @returns `{ status, message }`.
   */
  delete(ruleId: string, options?: RequestOptions): APIPromise<GuardrailDeleteResponse> {
    return this.request(
      'guardrails.delete',
      { params: { ruleId: requireString(ruleId, 'ruleId') } },
      options,
    );
  }
}

/** IaC explorer queries: `client.iacExplorer`. Reach it through an `IacmClient`.
 * @hideconstructor
 */
export class IacExplorer extends APIResource {
  /**
   * Queries IaC stacks (`POST /api/iacStacks`). Await for the page (`{ hits, total }`), or
   * `for await` over every stack across pages.
   */
  stacks(params?: StackQueryParams, options?: RequestOptions): PagePromise<StackQueryResponse, IacStack> {
    return this.offsetQuery('iacExplorer.stacks', params, (page: StackQueryResponse) => page.hits, options);
  }

  /** Queries backends (`POST /api/iacStacks/backends`): `{ hits, aggs, total }`; iterate for every backend. */
  backends(
    params?: BackendQueryParams,
    options?: RequestOptions,
  ): PagePromise<BackendQueryResponse, Backend> {
    return this.offsetQuery(
      'iacExplorer.backends',
      params,
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
    return this.offsetQuery(
      'iacExplorer.modules',
      params,
      (page: ModuleQueryResponse) => page.modules,
      options,
    );
  }

  /** Aggregates the stacks' providers (`POST /api/iacStacks/providers`). */
  providers(params?: ProviderQueryBody, options?: RequestOptions): APIPromise<ProviderAggregation> {
    return this.request('iacExplorer.providers', { body: params ?? {} }, options);
  }
}

/** The event center: `client.eventCenter`. Reach it through an `IacmClient`.
 * @hideconstructor
 */
export class EventCenter extends APIResource {
  /**
   * Queries events, newest first, and facet counts (`POST /v2/event-center`). Await for one page
   * (`{ events, facets, continuationToken }`), or `for await` over every event: iteration follows
   * the continuation token with the same query.
   */
  query(params?: EventQueryParams, options?: RequestOptions): PagePromise<EventQueryResponse, Event> {
    const body = params ?? {};
    const call = (token: string | undefined) => () =>
      this.transport.call(
        'eventCenter.query',
        { body: token ? { ...body, continuationToken: token } : body },
        options,
      ) as Promise<WithResponse<EventQueryResponse>>;
    return new PagePromise<EventQueryResponse, Event>(
      call(body.continuationToken),
      (page) => page.events,
      (page) => (page.continuationToken ? call(page.continuationToken) : undefined),
    );
  }

  /** The values of one event field with their counts (`POST /v2/event-center/facets`). */
  facets(params: FacetQueryBody, options?: RequestOptions): APIPromise<FacetResult[]> {
    return this.request('eventCenter.facets', { body: params }, options);
  }
}

/** Authentication: `client.auth`. Reach it through an `IacmClient`.
 * @hideconstructor
 */
export class Auth extends APIResource {
  /**
   * Exchanges a key pair for a bearer token (`POST /v2/login`). A client configured with
   * `{ accessKey, secretKey }` does this itself; call it to manage tokens yourself.
   * @returns `{ accessToken, expiresAt (epoch seconds), tokenType }`.
   */
  login(body: LoginBody, options?: RequestOptions): APIPromise<LoginResponse> {
    return this.request('auth.login', { body }, options);
  }
}
