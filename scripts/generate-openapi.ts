/**
 * Writes docs/openapi.json, the OpenAPI 3.1 document generated from the zod contract
 * (`buildOpenApiDocument()` of `@iacm/sdk/openapi`, read from the sources).
 *
 * Usage: tsx scripts/generate-openapi.ts [--check]
 *   --check  write nothing; exit 1 when docs/openapi.json does not hold what the contract generates.
 *
 * The file is `JSON.stringify(document, null, 2)` passed through the repository's formatter (biome),
 * so `biome check .` accepts it as generated; without biome the plain 2-space JSON is written.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { buildOpenApiDocument } from '../packages/sdk/src/openapi/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const relative = 'docs/openapi.json';
const target = fileURLToPath(new URL(`../${relative}`, import.meta.url));
const document = buildOpenApiDocument();

function format(text: string): string {
  const biome = fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url));
  const result = spawnSync(biome, ['format', `--stdin-file-path=${relative}`], {
    cwd: root,
    input: text,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (result.status === 0 && result.stdout) return result.stdout;
  process.stderr.write(`biome format failed; writing unformatted JSON\n${result.stderr ?? ''}`);
  return text;
}

if (process.argv.includes('--check')) {
  let current: unknown;
  try {
    current = JSON.parse(readFileSync(target, 'utf8'));
  } catch {
    current = undefined;
  }
  if (!isDeepStrictEqual(current, JSON.parse(JSON.stringify(document)))) {
    process.stderr.write(
      `${relative} is out of date with the contract: run \`pnpm openapi\` (tsx scripts/generate-openapi.ts)\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`${relative} is up to date\n`);
} else {
  writeFileSync(target, format(`${JSON.stringify(document, null, 2)}\n`));
  process.stdout.write(`wrote ${relative}\n`);
}
