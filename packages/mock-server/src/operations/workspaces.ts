/**
 * The workspaces group: search, delete, labels, and the runs of a workspace.
 *
 * @module
 */
import { pathIdToObjectId, sortKeys, type WorkspaceRun, type WorkspaceSummary } from '@iacm/sdk/contract';
import { setWorkspaceLabels } from '../domain/labels.js';
import { notFound } from '../errors.js';
import type { Collection } from '../query/collection.js';
import type { SortValue } from '../query/compare.js';
import { atOrAfter } from '../query/dates.js';
import { allOf, anyOf, type FilterSpec, filterPredicate, project } from '../query/search.js';
import { SEARCH_FIELDS, TextIndex } from '../query/text.js';
import type { AccountStore } from '../store/store.js';
import { searchList } from './listing.js';
import { accountOf, type Operations, pageWindow } from './operation.js';

const workspaceFilters: FilterSpec<WorkspaceSummary> = {
  workspaceName: (w, v: string[]) => anyOf(w.workspaceName, v),
  repositories: (w, v: string[]) => anyOf(w.repo, v),
  ciTool: (w, v: string[]) => anyOf(w.runnerType, v),
  labels: (w, v: string[]) => anyOf(w.labels, v),
  status: (w, v: string[]) => anyOf(w.lastRunStatus?.description, v),
  isManagedWorkflow: (w, v: boolean) => w.isWorkflowManaged === v,
  vcsType: (w, v: string[]) => anyOf(w.vcsType, v),
};

function findWorkspace(account: AccountStore, rawId: string): WorkspaceSummary {
  const id = pathIdToObjectId(rawId);
  const workspace = id === undefined ? undefined : account.workspaces.get(id);
  if (!workspace) throw notFound('workspace', rawId);
  return workspace;
}

const runFilters: FilterSpec<WorkspaceRun> = {
  runId: (r, v: string[]) => anyOf(r.runId, v),
  runName: (r, v: string[]) => anyOf(r.runName, v),
  status: (r, v: string[]) => anyOf(r.status, v),
  pullRequestUrl: (r, v: string[]) => anyOf(r.pullRequestUrl, v),
  branch: (r, v: string[]) => anyOf(r.branch, v),
  commitId: (r, v: string[]) => anyOf(r.commitId, v),
  ciTool: (r, v: string[]) => anyOf(r.runnerType, v),
  buildId: (r, v: string[]) => anyOf(r.buildId, v),
  buildName: (r, v: string[]) => anyOf(r.buildName, v),
  buildUrl: (r, v: string[]) => anyOf(r.buildUrl, v),
  vcsType: (r, v: string[]) => anyOf(r.vcsType, v),
  repository: (r, v: string[]) => anyOf(r.repo, v),
  repositoryUrl: (r, v: string[]) => anyOf(r.repoUrl, v),
  title: (r, v: string[]) => anyOf(r.title, v),
  createdAt: (r, v: string) => atOrAfter(r.createdAt, v),
  updatedAt: (r, v: string) => atOrAfter(r.updatedAt, v),
};

/**
 * Each account's workspace text index, by its collection (made again on the first search after a
 * change; it goes with the collection).
 */
const WORKSPACE_TEXTS = new WeakMap<Collection<WorkspaceSummary>, TextIndex<WorkspaceSummary>>();

function workspaceText(workspaces: Collection<WorkspaceSummary>): TextIndex<WorkspaceSummary> {
  let index = WORKSPACE_TEXTS.get(workspaces);
  if (!index) {
    index = new TextIndex(workspaces, SEARCH_FIELDS.workspaces);
    WORKSPACE_TEXTS.set(workspaces, index);
  }
  return index;
}

const runSorts: Record<string, (r: WorkspaceRun) => SortValue> = {
  updatedAt: (r) => r.updatedAt,
  title: (r) => r.title,
  commitId: (r) => r.commitId,
  branch: (r) => r.branch,
  status: (r) => r.status,
  ciTool: (r) => r.runnerType,
  vcsType: (r) => r.vcsType,
  repository: (r) => r.repo,
};

/** The operations of the workspaces group, one per endpoint. */
export const workspacesOperations = {
  'workspaces.search': async (ctx) => {
    const account = accountOf(ctx);
    const { body } = ctx;
    const keys = sortKeys(body.sort);
    const sort = (keys.length > 0 ? keys : [['lastRunTime', -1] as const]).map(([field, order]) => ({
      field,
      order,
    }));
    // Long work (a text index or a sort index made whole over many workspaces) in chunks that give
    // the event loop turns; what changed meanwhile is brought up to date by the query itself.
    const text = workspaceText(account.workspaces);
    if (body.searchValue) await text.prepare(ctx.signal);
    await account.workspaces.prepare(sort, ctx.signal);
    const among = text.matches(body.searchValue);
    const filter = allOf(filterPredicate(workspaceFilters, body.filters), among && ((w) => among.has(w)));
    const page = account.workspaces.query({ filter, sort, among, ...pageWindow('workspaces.search', ctx) });
    return page.map((w) => project(w, body.projection));
  },

  'workspaces.delete': (ctx) => {
    const account = accountOf(ctx);
    const workspace = findWorkspace(account, ctx.params.workspaceId);
    account.workspaces.delete(workspace.id);
    account.runs.delete(workspace.id);
    ctx.services.events.record(account, {
      type: 'mutation',
      mutation: 'delete',
      assetId: workspace.id,
      assetType: 'iacm_workspace',
      attributes: { workspaceId: workspace.id, workspaceName: workspace.workspaceName },
    });
    return {
      status: 200,
      data: { message: `Workspace ${workspace.workspaceName} and its runs were deleted` },
    };
  },

  'workspaces.setLabels': (ctx) => {
    const account = accountOf(ctx);
    const workspace = findWorkspace(account, ctx.params.workspaceId);
    const updated = setWorkspaceLabels(account, workspace, ctx.body.labels, ctx.services);
    return {
      id: updated.id,
      workspaceName: updated.workspaceName,
      labels: updated.labels,
      updatedAt: updated.updatedAt,
    };
  },

  'workspaces.runs.search': (ctx) => {
    const account = accountOf(ctx);
    const workspace = findWorkspace(account, ctx.params.workspaceId);
    return searchList('workspaces.runs.search', ctx, account.runs.get(workspace.id) ?? [], ctx.body, {
      filters: runFilters,
      text: SEARCH_FIELDS.runs,
      sorts: runSorts,
      fallback: ['updatedAt', -1],
    });
  },
} satisfies Operations<'workspaces'>;
