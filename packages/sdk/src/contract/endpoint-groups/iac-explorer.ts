/**
 * The declarations of the `iacExplorer` group's endpoints: for each, its route facts (method, path,
 * statuses, paging, retry safety, authentication), its summary and its params, query, body and
 * response schemas, in one place. `../endpoints.ts` makes the endpoint table of every group's
 * declarations; `pnpm contract:routes` writes their route facts (schema-free) into
 * `../routes.generated.ts`, the routes a client sends with, and their schemas into
 * `./iac-explorer.schemas.generated.ts`, which a client that validates loads on the group's first call
 * (`load.ts`).
 *
 * @module
 */
import {
  BackendQueryBody,
  BackendQueryResponse,
  ModuleQueryBody,
  ModuleQueryResponse,
  ProviderAggregation,
  ProviderQueryBody,
  RepositoryQueryBody,
  RepositoryQueryResponse,
  StackQueryBody,
  StackQueryResponse,
} from '../iac-explorer.js';
import { NoQuery } from '../primitives.js';
import type { EndpointDeclarations } from './declaration.js';

/** The `iacExplorer` group's endpoints, by name, in the endpoint table's order. */
export const iacExplorerEndpoints = {
  'iacExplorer.stacks': {
    method: 'POST',
    path: '/api/iacStacks',
    summary: 'Query IaC stacks with filtering, sorting and paging.',
    params: undefined,
    query: NoQuery,
    body: StackQueryBody,
    bodyRequired: false,
    response: StackQueryResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'offset',
    projection: false,
  },
  'iacExplorer.backends': {
    method: 'POST',
    path: '/api/iacStacks/backends',
    summary: 'Query backends with aggregation buckets.',
    params: undefined,
    query: NoQuery,
    body: BackendQueryBody,
    bodyRequired: false,
    response: BackendQueryResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'offset',
    projection: false,
  },
  'iacExplorer.repositories': {
    method: 'POST',
    path: '/api/iacStacks/repositories',
    summary: 'Query version-control repositories that hold IaC code.',
    params: undefined,
    query: NoQuery,
    body: RepositoryQueryBody,
    bodyRequired: false,
    response: RepositoryQueryResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'none',
    projection: false,
  },
  'iacExplorer.modules': {
    method: 'POST',
    path: '/api/iacStacks/modules',
    summary: 'Query IaC modules.',
    params: undefined,
    query: NoQuery,
    body: ModuleQueryBody,
    bodyRequired: false,
    response: ModuleQueryResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'offset',
    projection: false,
  },
  'iacExplorer.providers': {
    method: 'POST',
    path: '/api/iacStacks/providers',
    summary: 'Aggregate the providers of the IaC stacks.',
    params: undefined,
    query: NoQuery,
    body: ProviderQueryBody,
    bodyRequired: false,
    response: ProviderAggregation,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'none',
    projection: false,
  },
} as const satisfies EndpointDeclarations;
