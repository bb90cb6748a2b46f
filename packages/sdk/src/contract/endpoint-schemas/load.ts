/**
 * The endpoints' schemas, loaded one group at a time: what a client that validates needs, and only
 * for the groups it calls. Each group's module (`./<group>.ts`) is imported on first use with a
 * dynamic `import()`, which a bundler makes a chunk of its own (CommonJS builds may inline them);
 * once loaded, a group is read synchronously. Not exported from the contract's entry: the endpoint
 * table (`../endpoints.ts`) holds every schema for those who want them all.
 *
 * @module
 */
import type { EndpointDefinition } from '../endpoints.js';
import type { EndpointGroup } from '../routes.js';

/** The schemas (and summary) of one endpoint, as its group's module holds them. */
export type EndpointSchemas = Pick<EndpointDefinition, 'summary' | 'params' | 'query' | 'body' | 'response'>;

/** A group's schemas, by endpoint name. */
export type GroupSchemas = Readonly<Record<string, EndpointSchemas>>;

/** How to load each group's module: literal specifiers, so that bundlers see and split them. */
const LOADERS: Readonly<Record<EndpointGroup, () => Promise<GroupSchemas>>> = {
  auth: () => import('./auth.js').then((module) => module.authSchemas),
  workspaces: () => import('./workspaces.js').then((module) => module.workspacesSchemas),
  guardrails: () => import('./guardrails.js').then((module) => module.guardrailsSchemas),
  iacExplorer: () => import('./iac-explorer.js').then((module) => module.iacExplorerSchemas),
  eventCenter: () => import('./event-center.js').then((module) => module.eventCenterSchemas),
};

/** The groups loaded so far (five at most). A failed load is not kept: the next call tries again. */
const loaded: Partial<Record<EndpointGroup, GroupSchemas>> = {};

/** A group's schemas if they are loaded already, else undefined (then {@link loadGroupSchemas}). */
export function groupSchemas(group: EndpointGroup): GroupSchemas | undefined {
  return loaded[group];
}

/**
 * Loads a group's schemas (its module's first import), and keeps them for {@link groupSchemas}.
 * Rejects with the import's error when the module cannot be loaded (a chunk missing from a
 * deployment, a network failure in a browser).
 */
export async function loadGroupSchemas(group: EndpointGroup): Promise<GroupSchemas> {
  const schemas = await LOADERS[group]();
  loaded[group] = schemas;
  return schemas;
}
