/**
 * Every group's endpoint declarations (`./<group>.ts`), in the endpoint table's order: what
 * `../endpoints.ts` makes the table of, and what `scripts/generate-routes.ts` writes the routes
 * from. Imports every group, so every schema: a client that validates loads one group at a time
 * instead (`load.ts`).
 *
 * @module
 */
import type { EndpointGroup } from '../routes.js';
import { authEndpoints } from './auth.js';
import type { EndpointDeclarations } from './declaration.js';
import { eventCenterEndpoints } from './event-center.js';
import { guardrailsEndpoints } from './guardrails.js';
import { iacExplorerEndpoints } from './iac-explorer.js';
import { workspacesEndpoints } from './workspaces.js';

/** The declarations of each group, by group, in the endpoint table's order. */
export const endpointGroups = {
  auth: authEndpoints,
  workspaces: workspacesEndpoints,
  guardrails: guardrailsEndpoints,
  iacExplorer: iacExplorerEndpoints,
  eventCenter: eventCenterEndpoints,
} as const satisfies Readonly<Record<EndpointGroup, EndpointDeclarations>>;

/** The groups' declarations' type. */
export type EndpointGroups = typeof endpointGroups;
