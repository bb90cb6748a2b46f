/**
 * The SDK's resource groups, one file per API group (the same grouping as the contract's files and
 * the endpoint names): `auth`, `workspaces` (with their runs), `guardrails`, `iac-explorer` and
 * `event-center`. The health check is the client's own `health()` method.
 *
 * @module
 */
export { Auth } from './auth.js';
export { EventCenter } from './event-center.js';
export { Guardrails } from './guardrails.js';
export { IacExplorer } from './iac-explorer.js';
export { WorkspaceRuns, Workspaces } from './workspaces.js';
