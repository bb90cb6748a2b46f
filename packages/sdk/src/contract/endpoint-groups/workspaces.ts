/**
 * The declarations of the `workspaces` group's endpoints (runs included): for each, its route facts
 * (method, path, statuses, paging, retry safety, authentication), its summary and its params,
 * query, body and response schemas, in one place. `../endpoints.ts` makes the endpoint table of
 * every group's declarations; `pnpm contract:routes` writes their route facts (schema-free) into
 * `../routes.generated.ts`, the routes a client sends with, and their schemas into
 * `./workspaces.schemas.generated.ts`, which a client that validates loads on the group's first call
 * (`load.ts`).
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
import type { EndpointDeclarations } from './declaration.js';

/** The `workspaces` group's endpoints, by name, in the endpoint table's order. */
export const workspacesEndpoints = {
  'workspaces.search': {
    method: 'POST',
    path: '/v2/workspaces/search',
    summary: 'List workspaces with filtering, free-text search, projection and sorting.',
    params: undefined,
    query: PageQuery,
    body: WorkspaceSearchBody,
    bodyRequired: false,
    response: WorkspaceSearchResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'page',
    projection: true,
  },
  'workspaces.delete': {
    method: 'DELETE',
    path: '/v2/workspaces/{workspaceId}',
    summary: 'Delete a workspace and its runs.',
    params: WorkspacePathParams,
    query: NoQuery,
    body: undefined,
    bodyRequired: false,
    response: WorkspaceDeleteResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'none',
    projection: false,
  },
  'workspaces.setLabels': {
    method: 'PUT',
    path: '/v2/workspaces/{workspaceId}/labels',
    summary: 'Replace the labels of a workspace.',
    params: WorkspacePathParams,
    query: NoQuery,
    body: WorkspaceLabelsBody,
    bodyRequired: true,
    response: WorkspaceLabelsResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'none',
    projection: false,
  },
  'workspaces.runs.search': {
    method: 'POST',
    path: '/v2/workspaces/{workspaceId}/runs/search',
    summary: 'List the runs of one workspace.',
    params: WorkspacePathParams,
    query: PageQuery,
    body: RunSearchBody,
    bodyRequired: false,
    response: RunSearchResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'page',
    projection: true,
  },
} as const satisfies EndpointDeclarations;
