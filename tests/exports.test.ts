/**
 * Each package entry's public names, pinned. The TypeScript compiler reads the entry sources (no build
 * needed) and lists what each exports, as values and as types; the lists committed in tests/exports/
 * are what users may rely on. Removing a name (or its value or type side) is a breaking change: deprecate
 * it first and say so in a changeset. Adding one is fine: add it to the list.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each public entry (an `exports` key of a package.json), its source file and its committed list. */
const entries = [
  { name: '@iacm/sdk', source: 'packages/sdk/src/index.ts', list: 'sdk.txt' },
  { name: '@iacm/sdk/contract', source: 'packages/sdk/src/contract/index.ts', list: 'sdk-contract.txt' },
  { name: '@iacm/sdk/openapi', source: 'packages/sdk/src/openapi/index.ts', list: 'sdk-openapi.txt' },
  { name: '@iacm/mock-server', source: 'packages/mock-server/src/index.ts', list: 'mock-server.txt' },
  {
    name: '@iacm/mock-server/node',
    source: 'packages/mock-server/src/node.ts',
    list: 'mock-server-node.txt',
  },
  {
    name: '@iacm/mock-server/vitest',
    source: 'packages/mock-server/src/vitest.ts',
    list: 'mock-server-vitest.txt',
  },
  {
    name: '@iacm/mock-server/remote',
    source: 'packages/mock-server/src/remote.ts',
    list: 'mock-server-remote.txt',
  },
  {
    name: '@iacm/mock-server/vitest-setup',
    source: 'packages/mock-server/src/vitest-setup.ts',
    list: 'mock-server-vitest-setup.txt',
  },
  {
    name: '@iacm/webhook-receiver',
    source: 'packages/webhook-receiver/src/index.ts',
    list: 'webhook-receiver.txt',
  },
  {
    name: '@iacm/webhook-receiver/node',
    source: 'packages/webhook-receiver/src/node.ts',
    list: 'webhook-receiver-node.txt',
  },
];

/** `UPDATE_EXPORTS=1 pnpm vitest run --project integration tests/exports.test.ts` rewrites the lists. */
const update = process.env.UPDATE_EXPORTS === '1';

/** Lines `value <name>` and `type <name>`, sorted, for every name that the entry exports. */
function exportedNames(program: ts.Program, source: string): string[] {
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(`${root}${source}`);
  if (!file) throw new Error(`${source} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol) throw new Error(`${source} is not a module`);
  const lines: string[] = [];
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const name = symbol.getName();
    if (target.flags & ts.SymbolFlags.Value) lines.push(`value ${name}`);
    if (target.flags & (ts.SymbolFlags.Type | ts.SymbolFlags.Namespace)) lines.push(`type ${name}`);
  }
  return lines.sort();
}

function compilerOptions(): ts.CompilerOptions {
  const configPath = `${root}tsconfig.json`;
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, configPath).options;
}

describe('the exported names of each package entry', () => {
  const program = ts.createProgram(
    entries.map((entry) => `${root}${entry.source}`),
    compilerOptions(),
  );

  it.each(entries)('$name exports what it exported before, or more', ({ name, source, list }) => {
    const listPath = fileURLToPath(new URL(`./exports/${list}`, import.meta.url));
    const actual = exportedNames(program, source);
    expect(actual.length, `${name} exports nothing: is ${source} still its entry?`).toBeGreaterThan(0);
    if (update) writeFileSync(listPath, `${actual.join('\n')}\n`);
    const pinned = readFileSync(listPath, 'utf8').split('\n').filter(Boolean);
    const removed = pinned.filter((line) => !actual.includes(line));
    const added = actual.filter((line) => !pinned.includes(line));
    expect(
      removed,
      `${name} no longer exports these names (${source}). Removing an export breaks users: deprecate it ` +
        `first (keep it, with a @deprecated TSDoc tag), and add a changeset (.changeset/*.md, a minor bump ` +
        `while 0.x) that says what replaces it; remove it from tests/exports/${list} only in the release ` +
        `that removes it on purpose`,
    ).toEqual([]);
    expect(
      added,
      `${name} exports new names (${source}): add them to tests/exports/${list} (sorted; or run ` +
        `UPDATE_EXPORTS=1 pnpm vitest run --project integration tests/exports.test.ts), with TSDoc and a changeset`,
    ).toEqual([]);
  });
});
