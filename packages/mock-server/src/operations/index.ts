/**
 * The operations of every endpoint of the contract's table, one file per API group. The table is
 * typed over every endpoint name: an endpoint without an operation fails to compile.
 *
 * @module
 */
import type { EndpointName } from '@iacm/sdk/contract';
import { authOperations } from './auth.js';
import { eventCenterOperations } from './event-center.js';
import { guardrailsOperations } from './guardrails.js';
import { healthOperations } from './health.js';
import { iacExplorerOperations } from './iac-explorer.js';
import type { Handler } from './operation.js';
import { workspacesOperations } from './workspaces.js';

export type { Handler, HandlerContext, HandlerServices } from './operation.js';

/** The operation of every endpoint of the contract's table. */
export const operations = {
  ...authOperations,
  ...healthOperations,
  ...workspacesOperations,
  ...guardrailsOperations,
  ...iacExplorerOperations,
  ...eventCenterOperations,
} satisfies Record<EndpointName, Handler>;
