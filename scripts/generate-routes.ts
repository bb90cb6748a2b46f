/**
 * Writes packages/sdk/src/contract/routes.generated.ts, the schema-free routes of the endpoint
 * table, and each group's `endpoint-groups/<group>.schemas.generated.ts`, the schemas the client
 * loads to validate (without the route facts and the summaries), from the endpoint declarations
 * (`packages/sdk/src/contract/endpoint-groups/<group>.ts`).
 *
 * Usage: tsx scripts/generate-routes.ts [--check]
 *   --check  write nothing; exit 1 when a file does not hold what the declarations generate.
 *
 * The test `tests/contract-routes.test.ts` (in `pnpm test`) makes the same check.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { endpointGroups } from '../packages/sdk/src/contract/endpoint-groups/groups.js';
import { deriveRoutes, groupSchemasSources, ROUTES_FILE, routesSource } from './contract-routes.js';

const root = new URL('../', import.meta.url);
const files = [
  { file: ROUTES_FILE, source: routesSource(deriveRoutes(endpointGroups)) },
  ...(await groupSchemasSources(endpointGroups, root)),
];

if (process.argv.includes('--check')) {
  let stale = false;
  for (const { file, source } of files) {
    let current: string | undefined;
    try {
      current = readFileSync(fileURLToPath(new URL(file, root)), 'utf8');
    } catch {
      current = undefined;
    }
    if (current !== source) {
      stale = true;
      process.stderr.write(
        `${file} is out of date with the endpoint declarations: run \`pnpm contract:routes\`\n`,
      );
    }
  }
  if (stale) process.exit(1);
  process.stdout.write(`${files.map((f) => f.file).join(', ')}: up to date\n`);
} else {
  for (const { file, source } of files) {
    writeFileSync(fileURLToPath(new URL(file, root)), source);
    process.stdout.write(`wrote ${file}\n`);
  }
}
