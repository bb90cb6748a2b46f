/**
 * Writes packages/sdk/src/contract/routes.generated.ts, the schema-free routes of the endpoint
 * table, from the endpoint declarations (`packages/sdk/src/contract/endpoint-groups/<group>.ts`).
 *
 * Usage: tsx scripts/generate-routes.ts [--check]
 *   --check  write nothing; exit 1 when the file does not hold what the declarations generate.
 *
 * The test `tests/contract-routes.test.ts` (in `pnpm test`) makes the same check.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { endpointGroups } from '../packages/sdk/src/contract/endpoint-groups/groups.js';
import { deriveRoutes, ROUTES_FILE, routesSource } from './contract-routes.js';

const target = fileURLToPath(new URL(`../${ROUTES_FILE}`, import.meta.url));
const source = routesSource(deriveRoutes(endpointGroups));

if (process.argv.includes('--check')) {
  let current: string | undefined;
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== source) {
    process.stderr.write(
      `${ROUTES_FILE} is out of date with the endpoint declarations: run \`pnpm contract:routes\`\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`${ROUTES_FILE} is up to date\n`);
} else {
  writeFileSync(target, source);
  process.stdout.write(`wrote ${ROUTES_FILE}\n`);
}
