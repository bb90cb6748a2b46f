/**
 * Writes the control-plane table of docs/mock-server.md (between its `control-table` markers) from
 * the mock's control table (`packages/mock-server/src/control/table.ts`), formatted by biome as the
 * rest of the file is.
 *
 * Usage: tsx scripts/generate-control-docs.ts [--check]
 *   --check  write nothing; exit 1 when the table in the docs does not hold what the control table says.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import {
  controlDocsTable,
  generatedSection,
  tableCells,
  withGeneratedSection,
} from '../packages/mock-server/src/control/docs-table.js';
import { CONTROL_TABLE } from '../packages/mock-server/src/control/table.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const relative = 'docs/mock-server.md';
const target = fileURLToPath(new URL(`../${relative}`, import.meta.url));
const document = readFileSync(target, 'utf8');
const table = controlDocsTable(CONTROL_TABLE);

if (process.argv.includes('--check')) {
  const section = generatedSection(document);
  if (section === undefined || !isDeepStrictEqual(tableCells(section), tableCells(table))) {
    process.stderr.write(
      `${relative}'s control-plane table is out of date with control/table.ts: run \`pnpm docs:control\`\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`${relative}'s control-plane table is up to date\n`);
} else {
  const written = withGeneratedSection(document, table);
  const biome = fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url));
  const result = spawnSync(biome, ['format', `--stdin-file-path=${relative}`], {
    cwd: root,
    input: written,
    encoding: 'utf8',
  });
  writeFileSync(target, result.status === 0 && result.stdout ? result.stdout : written);
  process.stdout.write(`wrote ${relative}'s control-plane table\n`);
}
