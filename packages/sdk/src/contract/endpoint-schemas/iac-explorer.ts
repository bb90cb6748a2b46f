/**
 * The schemas (and summaries) of the `iacExplorer` group's endpoints. Their routes are in
 * `../routes.ts`; `../endpoints.ts` joins both into the endpoint table.
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

// With every group, so that the client has it once a group is loaded (`load.ts`).
export { responseSchemaFor } from '../primitives.js';

/** The `iacExplorer` group's summaries and schemas, by endpoint name. */
export const iacExplorerSchemas = {
  'iacExplorer.stacks': {
    summary: 'Query IaC stacks with filtering, sorting and paging.',
    params: undefined,
    query: NoQuery,
    body: StackQueryBody,
    response: StackQueryResponse,
  },
  'iacExplorer.backends': {
    summary: 'Query backends with aggregation buckets.',
    params: undefined,
    query: NoQuery,
    body: BackendQueryBody,
    response: BackendQueryResponse,
  },
  'iacExplorer.repositories': {
    summary: 'Query version-control repositories that hold IaC code.',
    params: undefined,
    query: NoQuery,
    body: RepositoryQueryBody,
    response: RepositoryQueryResponse,
  },
  'iacExplorer.modules': {
    summary: 'Query IaC modules.',
    params: undefined,
    query: NoQuery,
    body: ModuleQueryBody,
    response: ModuleQueryResponse,
  },
  'iacExplorer.providers': {
    summary: 'Aggregate the providers of the IaC stacks.',
    params: undefined,
    query: NoQuery,
    body: ProviderQueryBody,
    response: ProviderAggregation,
  },
} as const;
