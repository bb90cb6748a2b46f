/**
 * Type-checks every TypeScript block of the guides (README.md and docs/*.md), so that no code a
 * reader copies has drifted from the packages' real API.
 *
 * Conventions for ```ts blocks:
 * - Each block is checked as its own module, with the root tsconfig's options (strict,
 *   exactOptionalPropertyTypes, noUncheckedIndexedAccess) and `paths` (the packages' sources), as if
 *   it sat in examples/ (so express, fastify, hono and msw resolve too). Top-level `await` works.
 * - A block may use the names a guide introduced earlier without declaring them again: `client`
 *   (an IacmClient), `receiver` (a WebhookReceiver), `mock` (the MSW mock server), and the others
 *   declared in tests/docs-code/prelude.d.ts.txt. A block that declares a name itself (or imports it) uses
 *   its own.
 * - A block whose info string says `nocheck` (```ts nocheck) is not checked: for code that cannot
 *   compile on its own on purpose (a fragment of a larger file, pseudo-code). Prefer the prelude.
 *
 * The blocks are compiled in memory (nothing is written into the repository); on failure they are
 * also written to a directory under os.tmpdir(), named in the message, to look at.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  extractBlocks,
  guides,
  preludePath,
  root,
  typeCheck,
  virtualDir,
  virtualName,
} from './docs-code/check.js';

const blocks = guides().flatMap((doc) => extractBlocks(doc, readFileSync(join(root, doc), 'utf8')));
const checked = blocks.filter((block) => !block.flags.includes('nocheck'));

let results: Map<string, string[]>;
let dumpDir: string | undefined;

beforeAll(() => {
  // `export {}` makes each block a module: its names are its own, and top-level await works.
  results = typeCheck(new Map(checked.map((block) => [virtualName(block), `${block.code}\nexport {};\n`])));
}, 120_000);

/** Writes the blocks to a temporary directory once, for a look after a failure. */
function dump(): string {
  if (!dumpDir) {
    dumpDir = join(tmpdir(), `iacm-docs-code-${process.pid}`);
    mkdirSync(dumpDir, { recursive: true });
    for (const block of checked) {
      writeFileSync(join(dumpDir, relative(virtualDir, virtualName(block))), `${block.code}\nexport {};\n`);
    }
  }
  return dumpDir;
}

describe('the TypeScript blocks of the guides compile', () => {
  it('finds the blocks of every guide', () => {
    expect(checked.length).toBeGreaterThan(30);
    for (const doc of [
      'README.md',
      'docs/sdk.md',
      'docs/getting-started.md',
      'docs/testing-with-the-mock.md',
    ]) {
      expect(checked.some((block) => block.doc === doc)).toBe(true);
    }
  });

  it('the prelude compiles', () => {
    expect(results.get(preludePath)).toEqual([]);
    expect(results.get('(global)') ?? []).toEqual([]);
  });

  it.each(checked.map((block) => [`${block.doc} block ${block.index} (line ${block.line})`, block] as const))(
    '%s',
    (_name, block) => {
      const errors = results.get(virtualName(block)) ?? ['not compiled'];
      if (errors.length > 0) {
        // Lines of the block → lines of the guide.
        const located = errors.map((error) =>
          error.replace(/^(\d+):(\d+)/, (_all, line: string, column: string) => {
            return `${block.doc}:${block.line + Number(line) - 1}:${column}`;
          }),
        );
        const file = join(dump(), relative(virtualDir, virtualName(block)));
        expect.fail(
          `${block.doc}, TypeScript block ${block.index} (line ${block.line}) does not compile (${file}):\n` +
            located.join('\n'),
        );
      }
    },
  );
});

describe('the checker itself', () => {
  it('extracts ts blocks with their flags and lines, indented ones too, and skips other languages', () => {
    const markdown = [
      '# Title', //                      1
      '```ts', //                        2
      'const a = 1;', //                 3
      '```', //                          4
      '```sh', //                        5
      'echo hi', //                      6
      '```', //                          7
      '- item', //                       8
      '  ```ts nocheck', //              9
      '  not: typescript', //            10
      '  ```', //                        11
      '````typescript', //               12
      '```ts', //                        13
      '````', //                         14
    ].join('\n');
    expect(extractBlocks('x.md', markdown)).toEqual([
      { doc: 'x.md', index: 1, line: 3, code: 'const a = 1;', flags: [] },
      { doc: 'x.md', index: 2, line: 10, code: 'not: typescript', flags: ['nocheck'] },
      { doc: 'x.md', index: 3, line: 13, code: '```ts', flags: [] },
    ]);
  });

  it('reports a block that does not compile, and lets a block use the prelude', () => {
    const bad = join(virtualDir, 'bad.ts');
    const good = join(virtualDir, 'good.ts');
    const found = typeCheck(
      new Map([
        [bad, "import { IacmClient } from '@iacm/sdk';\nnew IacmClient({ retries: 3 });\nexport {};\n"],
        [good, 'for await (const w of client.workspaces.search()) w.workspaceName;\nexport {};\n'],
      ]),
    );
    expect(found.get(bad)).toEqual([
      expect.stringMatching(/^2:18 TS2353: Object literal may only specify known/),
    ]);
    expect(found.get(good)).toEqual([]);
  }, 120_000);
});
