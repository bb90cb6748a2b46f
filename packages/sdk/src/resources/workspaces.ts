import type {
  RunField,
  WorkspaceDeleteResponse,
  WorkspaceField,
  WorkspaceLabelsResponse,
  WorkspaceRun,
  WorkspaceSummary,
} from '../contract/workspaces.js';
import type { RequestOptions } from '../core/options.js';
import type { APIPromise, PagePromise } from '../core/pagination.js';
import { requireString, type Transport } from '../core/transport.js';
import { APIResource, bareArray } from './resource.js';
import type { Projected, RunSearchParams, WorkspaceSearchParams } from './types.js';

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
    return this.paged(
      'workspaces.runs.search',
      params,
      { workspaceId: requireString(workspaceId, 'workspaceId') },
      bareArray<Projected<WorkspaceRun, P>>,
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
    return this.paged(
      'workspaces.search',
      params,
      undefined,
      bareArray<Projected<WorkspaceSummary, P>>,
      options,
    );
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
