/**
 * The routes of the endpoint table (`packages/sdk/src/contract/routes.generated.ts`) and each group's
 * schemas (`contract/endpoint-groups/<group>.schemas.generated.ts`) are generated from the endpoint
 * declarations (`contract/endpoint-groups/<group>.ts`) by `pnpm contract:routes`: this fails when a
 * committed file is not what the declarations generate, as the OpenAPI document's test does for
 * docs/openapi.json. (`tsc` fails too for the routes, by `endpoints.ts`'s checks.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { endpointList, endpoints } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { authSchemas } from '../packages/sdk/src/contract/endpoint-groups/auth.schemas.generated.js';
import { eventCenterSchemas } from '../packages/sdk/src/contract/endpoint-groups/event-center.schemas.generated.js';
import { endpointGroups } from '../packages/sdk/src/contract/endpoint-groups/groups.js';
import { guardrailsSchemas } from '../packages/sdk/src/contract/endpoint-groups/guardrails.schemas.generated.js';
import { iacExplorerSchemas } from '../packages/sdk/src/contract/endpoint-groups/iac-explorer.schemas.generated.js';
import { workspacesSchemas } from '../packages/sdk/src/contract/endpoint-groups/workspaces.schemas.generated.js';
import { routes } from '../packages/sdk/src/contract/routes.js';
import { deriveRoutes, groupSchemasSources, ROUTES_FILE, routesSource } from '../scripts/contract-routes.js';

const REGENERATE = `${ROUTES_FILE} is out of date with the endpoint declarations: run \`pnpm contract:routes\``;

describe('the generated routes', () => {
  it(`${ROUTES_FILE} is what the declarations generate (else run \`pnpm contract:routes\`)`, () => {
    const committed = readFileSync(fileURLToPath(new URL(`../${ROUTES_FILE}`, import.meta.url)), 'utf8');
    expect(committed, REGENERATE).toBe(routesSource(deriveRoutes(endpointGroups)));
  });

  it('are the routes the SDK imports, in the endpoint table order, with the declarations facts', () => {
    expect(JSON.stringify(routes)).toBe(JSON.stringify(deriveRoutes(endpointGroups)));
    expect(Object.keys(routes)).toEqual(Object.keys(endpoints));
    for (const definition of endpointList) {
      const route = routes[definition.name as keyof typeof routes];
      expect(route.method).toBe(definition.method);
      expect(route.path).toBe(definition.path);
      expect(route.hasBody).toBe(definition.body !== undefined);
      expect(route.bodyRequired).toBe(definition.bodyRequired);
      expect(route.successStatus).toBe(definition.successStatus);
      expect(route.retrySafe).toBe(definition.retrySafe);
      expect(route.auth).toBe(definition.auth);
      expect(route.pagination).toBe(definition.pagination);
      expect(route.projection).toBe(definition.projection);
    }
  });

  it('import nothing but each other: a bundle that only routes keeps no schema and no zod', () => {
    const source = (file: string) =>
      readFileSync(fileURLToPath(new URL(`../packages/sdk/src/contract/${file}`, import.meta.url)), 'utf8');
    const imports = (text: string) =>
      [...text.matchAll(/^(?:import|export)\b[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]);
    expect(imports(source('routes.generated.ts'))).toEqual([]);
    expect(imports(source('routes.ts'))).toEqual(['./routes.generated.js']);
  });

  it('the generator writes a stale route back to what its declaration says', () => {
    const changed = structuredClone(deriveRoutes(endpointGroups));
    (changed['guardrails.create'] as { retrySafe: boolean }).retrySafe = true;
    expect(routesSource(changed)).not.toBe(routesSource(deriveRoutes(endpointGroups)));
  });
});

describe("the generated groups' schemas", () => {
  const root = new URL('../', import.meta.url);

  it('each group schemas file is what its declarations generate (else run `pnpm contract:routes`)', async () => {
    for (const { file, source } of await groupSchemasSources(endpointGroups, root)) {
      const committed = readFileSync(fileURLToPath(new URL(file, root)), 'utf8');
      expect(
        committed,
        `${file} is out of date with the endpoint declarations: run \`pnpm contract:routes\``,
      ).toBe(source);
    }
  });

  it('are the schemas of the declarations, the same objects, for the same endpoints in the same order', () => {
    const generated = {
      auth: authSchemas,
      workspaces: workspacesSchemas,
      guardrails: guardrailsSchemas,
      iacExplorer: iacExplorerSchemas,
      eventCenter: eventCenterSchemas,
    };
    expect(Object.keys(generated)).toEqual(Object.keys(endpointGroups));
    for (const [group, declarations] of Object.entries(endpointGroups)) {
      const schemas = generated[group as keyof typeof generated] as Record<string, Record<string, unknown>>;
      expect(Object.keys(schemas)).toEqual(Object.keys(declarations));
      for (const [name, declaration] of Object.entries(declarations)) {
        const entry = schemas[name] as Record<string, unknown>;
        expect(Object.keys(entry)).toEqual(['params', 'query', 'body', 'response']);
        for (const member of ['params', 'query', 'body', 'response'] as const)
          expect(entry[member], `${name}.${member}`).toBe(declaration[member]);
      }
    }
  });
});
