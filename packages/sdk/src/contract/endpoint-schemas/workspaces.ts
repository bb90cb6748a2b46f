/**
 * The schemas (and summaries) of the `workspaces` group's endpoints, runs included. Their routes
 * are in `../routes.ts`; `../endpoints.ts` joins both into the endpoint table.
 *
 * @module
 */
import { NoQuery, PageQuery } from '../primitives.js';
import {
  RunSearchBody,
  RunSearchResponse,
  WorkspaceDeleteResponse,
  WorkspaceLabelsBody,
  WorkspaceLabelsResponse,
  WorkspacePathParams,
  WorkspaceSearchBody,
  WorkspaceSearchResponse,
} from '../workspaces.js';

// With every group, so that the client has it once a group is loaded (`load.ts`).
export { responseSchemaFor } from '../primitives.js';

/** The `workspaces` group's summaries and schemas, by endpoint name. */
export const workspacesSchemas = {
  'workspaces.search': {
    summary: 'List workspaces with filtering, free-text search, projection and sorting.',
    params: undefined,
    query: PageQuery,
    body: WorkspaceSearchBody,
    response: WorkspaceSearchResponse,
  },
  'workspaces.delete': {
    summary: 'Delete a workspace and its runs.',
    params: WorkspacePathParams,
    query: NoQuery,
    body: undefined,
    response: WorkspaceDeleteResponse,
  },
  'workspaces.setLabels': {
    summary: 'Replace the labels of a workspace.',
    params: WorkspacePathParams,
    query: NoQuery,
    body: WorkspaceLabelsBody,
    response: WorkspaceLabelsResponse,
  },
  'workspaces.runs.search': {
    summary: 'List the runs of one workspace.',
    params: WorkspacePathParams,
    query: PageQuery,
    body: RunSearchBody,
    response: RunSearchResponse,
  },
} as const;
