/**
 * The endpoints' schemas, loaded one group at a time: what a client that validates needs, and only
 * for the groups it calls. Each group's schemas module (`./<group>.schemas.generated.ts`, generated
 * from its declarations by `pnpm contract:routes`: the schemas without the route facts, which the
 * client has in `../routes.ts`, and without the summaries) is imported on first use with a dynamic
 * `import()`, which a bundler makes a chunk of its own (CommonJS builds may inline them); once
 * loaded, a group is read synchronously. Not exported from the contract's entry: the endpoint table
 * (`../endpoints.ts`) holds every schema for those who want them all.
 *
 * @module
 */
import type * as z from 'zod/mini';
import type { responseSchemaFor } from '../primitives.js';
import type { EndpointGroup } from '../routes.js';
import type { GroupSchemas } from './declaration.js';

export type { EndpointSchemas, GroupSchemas } from './declaration.js';

/** A group's schemas module: its schemas, and the contract's `responseSchemaFor`, which every one re-exports. */
interface GroupModule {
  readonly schemas: GroupSchemas;
  readonly responseSchemaFor: typeof responseSchemaFor;
}

/**
 * How to load each group's schemas module: literal specifiers, so that bundlers see and split them.
 * Each re-exports `responseSchemaFor` (`../primitives.ts`), which the client needs once a group is
 * loaded, and not before: it builds schemas with zod, which a client that does not validate never loads.
 */
const LOADERS: Readonly<Record<EndpointGroup, () => Promise<GroupModule>>> = {
  auth: () => import('./auth.schemas.generated.js').then((m) => groupModule(m, m.authSchemas)),
  workspaces: () =>
    import('./workspaces.schemas.generated.js').then((m) => groupModule(m, m.workspacesSchemas)),
  guardrails: () =>
    import('./guardrails.schemas.generated.js').then((m) => groupModule(m, m.guardrailsSchemas)),
  iacExplorer: () =>
    import('./iac-explorer.schemas.generated.js').then((m) => groupModule(m, m.iacExplorerSchemas)),
  eventCenter: () =>
    import('./event-center.schemas.generated.js').then((m) => groupModule(m, m.eventCenterSchemas)),
};

/** A loaded group's schemas module as {@link GroupModule}: its schemas (named after the group) and `responseSchemaFor`. */
function groupModule(module: Pick<GroupModule, 'responseSchemaFor'>, schemas: GroupSchemas): GroupModule {
  return { schemas, responseSchemaFor: module.responseSchemaFor };
}

/** The groups loaded so far (five at most). A failed load is not kept: the next call tries again. */
const loaded: Partial<Record<EndpointGroup, GroupSchemas>> = {};

/**
 * The contract's `responseSchemaFor` (`../primitives.ts`), loaded with the first group.
 */
let projected: typeof responseSchemaFor | undefined;

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
  const module = await LOADERS[group]();
  projected = module.responseSchemaFor;
  loaded[group] = module.schemas;
  return module.schemas;
}

/**
 * The schema to read an endpoint's answer with, given the body that was sent (the contract's
 * `responseSchemaFor`: a search that named a `projection` gets items holding only those members).
 * Called with the schemas of a loaded group only, so the function is loaded too.
 */
export function answerSchema(
  definition: { readonly projection: boolean; readonly response: z.ZodMiniType },
  body: unknown,
): z.ZodMiniType {
  return (projected as typeof responseSchemaFor)(definition, body);
}
