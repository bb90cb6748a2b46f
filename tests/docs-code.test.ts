/**
 * Type-checks and runs every TypeScript block of the guides (README.md and docs/*.md), so that no
 * code a reader copies has drifted from the packages' real API or fails when run.
 *
 * Conventions for ```ts blocks:
 * - Each block is checked as its own module, with the root tsconfig's options (strict,
 *   exactOptionalPropertyTypes, noUncheckedIndexedAccess) and `paths` (the packages' sources), as if
 *   it sat in examples/ (so express, fastify, hono and msw resolve too). Top-level `await` works.
 * - A block may use the names a guide introduced earlier without declaring them again: `client`
 *   (an IacmClient), `receiver` (a WebhookReceiver), `mock` (the MSW mock server), and the others
 *   declared in tests/docs-code/prelude.d.ts.txt. A block that declares a name itself (or imports it) uses
 *   its own.
 * - Then each block runs, as an ES module in this process, over a fresh in-process mock that answers
 *   http://127.0.0.1:4010, http://localhost:4010 and https://iacm.example.com (key pair iacm_ak_demo /
 *   iacm_sk_demo, also in IACM_ACCESS_KEY and IACM_SECRET_KEY), with real values for the prelude's names
 *   (tests/docs-code/runtime.ts.txt says which) and the servers it starts closed afterwards
 *   (tests/docs-code/run.ts). It must end without an error within 30 s. A block that declares vitest
 *   tests has them run too.
 * - A block whose info string says `norun` (```ts norun) is checked but not run: only for code that
 *   needs the real service or never ends. It must say why, as `norun: <reason>` in an HTML comment on
 *   the line just above the fence (`<!-- norun: needs the real service -->`) or in a `//` comment on the
 *   block's first line.
 * - `nocheck` (```ts nocheck: neither checked nor run) is understood by the checker but refused in
 *   the guides: code a reader copies compiles and runs; a fragment is written as a whole block over the
 *   prelude, or shown in a ```text block.
 * - Printed output: a block shows what it prints with `// prints:` comments, and the test compares them
 *   with what the block printed when run (console.log and the others, formatted as Node's console does).
 *   `// prints: <text>` ends the last line of the statement that prints, or sits on the comment lines
 *   right below it; a `// prints:` with nothing after it takes the `//` comment lines below it, one
 *   printed line each (for an output of several lines). Everything the statement printed (its calls,
 *   in loops and callbacks too, in order; an object as Node formats it) must equal the lines shown,
 *   where `...` inside a line stands for any text (an id, a time) and a line that is only `...` for any
 *   number of lines. Other comments beside a console call are prose and are not compared: so a printed
 *   value a guide shows is written as `// prints:` and comes from running the block. A `norun` block
 *   cannot show one, and a `// prints:` tied to no statement fails. Example:
 *       for (const issue of error.issues) console.log(issue.path, issue.expected);
 *       // prints:
 *       // pageSize at most 500
 *       // filters.status[0] one of "init_error", ... "failed"
 *       console.log(problem?.bound, problem?.limit); // prints: maxDepth 64
 *
 * The blocks are compiled in memory; on failure they are also written to a directory under
 * os.tmpdir(), named in the message, to look at. They run from examples/.docs-code-run/ (git-ignored,
 * removed afterwards).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  extractBlocks,
  guides,
  preludePath,
  printedMatches,
  printsExpectations,
  root,
  typeCheck,
  virtualDir,
  virtualName,
} from './docs-code/check.js';
import {
  BlockRunner,
  type RunnableBlock,
  type RunResult,
  rewriteImports,
  runtimePath,
} from './docs-code/run.js';

const blocks = guides().flatMap((doc) => extractBlocks(doc, readFileSync(join(root, doc), 'utf8')));
const checked = blocks.filter((block) => !block.flags.includes('nocheck'));
const runnable = checked.filter((block) => !block.flags.includes('norun'));
/** The runtime prelude, type-checked where it runs from (so that msw and express resolve). */
const runtimeVirtual = join(virtualDir, 'runtime.ts');
/** A bound for hangs only. */
const RUN_BOUND_MS = 30_000;

/**
 * Runs a block and compares what it printed with its `// prints:` comments (see the top of this file);
 * rejects naming the guide's line, what was shown and what was printed.
 */
async function runAndCompare(runner: BlockRunner, block: RunnableBlock, boundMs: number): Promise<RunResult> {
  const { expectations, problems } = printsExpectations(block.code);
  const where = `${block.doc}, TypeScript block ${block.index} (line ${block.line})`;
  if (problems.length > 0) {
    throw new Error(
      `${where}: ${problems.map((problem) => problem.replace(/^line (\d+)/, (_all, n: string) => `guide line ${block.line + Number(n) - 1}`)).join('; ')}`,
    );
  }
  const result = await runner.run(block, boundMs);
  const wrong: string[] = [];
  for (const expectation of expectations) {
    const printed = result.printed
      .filter(
        (call) => call.line !== undefined && call.line >= expectation.from && call.line <= expectation.to,
      )
      .flatMap((call) => call.text.split('\n').map((line) => line.trimEnd()));
    if (!printedMatches(expectation.expected, printed)) {
      wrong.push(
        `guide line ${block.line + expectation.line - 1} shows:\n${expectation.expected.map((line) => `  ${line}`).join('\n')}\n` +
          `but guide lines ${block.line + expectation.from - 1}-${block.line + expectation.to - 1} printed:\n` +
          (printed.length > 0 ? printed.map((line) => `  ${line}`).join('\n') : '  (nothing)'),
      );
    }
  }
  if (wrong.length > 0) throw new Error(`${where} does not print what it shows:\n${wrong.join('\n')}`);
  return result;
}

let results: Map<string, string[]>;
let dumpDir: string | undefined;

beforeAll(() => {
  // `export {}` makes each block a module: its names are its own, and top-level await works.
  results = typeCheck(
    new Map([
      ...checked.map((block) => [virtualName(block), `${block.code}\nexport {};\n`] as const),
      [runtimeVirtual, readFileSync(runtimePath, 'utf8')],
    ]),
  );
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

  it('the prelude compiles, and the runtime prelude', () => {
    expect(results.get(preludePath)).toEqual([]);
    expect(results.get('(global)') ?? []).toEqual([]);
    expect(results.get(runtimeVirtual)).toEqual([]);
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

describe('the TypeScript blocks of the guides run', () => {
  let runner: BlockRunner;
  beforeAll(async () => {
    runner = await BlockRunner.create();
  }, 60_000);
  afterAll(() => runner?.dispose());

  it('runs most of them', () => {
    expect(runnable.length).toBeGreaterThan(30);
  });

  it('has no nocheck block in a guide: a block that must not run says why, as norun', () => {
    const unchecked = blocks.filter((block) => block.flags.includes('nocheck'));
    expect(unchecked.map((block) => `${block.doc}:${block.line}`)).toEqual([]);
  });

  it.each(checked.map((block) => [`${block.doc} block ${block.index} (line ${block.line})`, block] as const))(
    '%s',
    async (_name, block) => {
      if (block.flags.includes('norun')) {
        expect(
          block.norunReason,
          `${block.doc}, TypeScript block ${block.index} (line ${block.line}) is norun without a reason: ` +
            'write <!-- norun: <why> --> on the line above its fence, or // norun: <why> as its first line',
        ).toBeTruthy();
        expect(
          printsExpectations(block.code).expectations.map(
            (each) => `${block.doc}:${block.line + each.line - 1}`,
          ),
          'a norun block is not run, so it cannot show a printed output (// prints:)',
        ).toEqual([]);
        return;
      }
      await runAndCompare(runner, block, RUN_BOUND_MS);
    },
    RUN_BOUND_MS + 10_000,
  );

  it('compares printed outputs: the guides show some', () => {
    const shown = runnable.filter((block) => printsExpectations(block.code).expectations.length > 0);
    expect(shown.length).toBeGreaterThan(5);
  });
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

  it('reads why a norun block is not run, from an HTML comment above it or its first line', () => {
    const markdown = [
      '<!-- norun: needs the real service -->',
      '```ts norun',
      'await fetch(url);',
      '```',
      '```ts norun',
      '// norun: never ends (it serves webhooks)',
      'serve();',
      '```',
      'A sentence is not a reason:',
      '```ts norun',
      '// serves webhooks',
      'serve();',
      '```',
      '<!-- norun: -->',
      '```ts norun',
      'serve();',
      '```',
    ].join('\n');
    expect(extractBlocks('x.md', markdown).map((block) => block.norunReason)).toEqual([
      'needs the real service',
      'never ends (it serves webhooks)',
      undefined,
      undefined,
    ]);
  });

  it('ties each // prints: comment to the statement it ends or follows, and refuses one tied to nothing', () => {
    const code = [
      'try {', //                                           1
      '  await run();', //                                  2
      '} catch (error) {', //                               3
      '  console.log(String(error)); // prints: Error: ...', // 4
      '  for (const n of [1, 2]) console.log(n);', //       5
      '  // prints: 1', //                                  6
      '  // prints: 2', //                                  7
      '}', //                                               8
      "const text = '// prints: not a comment';", //        9
      '', //                                                10
      '// prints: nothing above', //                        11
    ].join('\n');
    expect(printsExpectations(code)).toEqual({
      expectations: [
        { line: 4, from: 4, to: 4, expected: ['Error: ...'] },
        { line: 6, from: 5, to: 5, expected: ['1', '2'] },
      ],
      problems: [expect.stringMatching(/^line 11: a \/\/ prints: comment must end the last line/)],
    });
    expect(printedMatches(['a ... c', '...', 'z'], ['a b c', 'x', 'y', 'z'])).toBe(true);
    expect(printedMatches(['a ... c'], ['a b'])).toBe(false);
    expect(printedMatches(['a'], ['a', 'b'])).toBe(false);
    expect(printedMatches(['...'], [])).toBe(true);
  });

  it('points the imports of vitest and msw at the stand-ins, on the same lines, and leaves the others', () => {
    const code = [
      "import { expect, it } from 'vitest';",
      "import { setupServer } from 'msw/node';",
      "import { http } from 'msw';",
      "import express from 'express';",
      "const { setupWorker } = await import('msw/browser');",
    ].join('\n');
    expect(rewriteImports(code).split('\n')).toEqual([
      "import { expect, it } from './shim-vitest.ts';",
      "import { setupServer } from './shim-msw-node.ts';",
      "import { http } from 'msw';",
      "import express from 'express';",
      "const { setupWorker } = await import('./shim-msw-browser.ts');",
    ]);
  });

  describe('running', () => {
    let runner: BlockRunner;
    beforeAll(async () => {
      runner = await BlockRunner.create();
    }, 60_000);
    afterAll(() => runner?.dispose());
    const shared = globalThis as Record<string, unknown>;

    it('fails a block that throws, with the line of the guide and what it printed', async () => {
      const block = {
        doc: 'x.md',
        index: 1,
        line: 10,
        code: "console.log('before');\nthrow new Error('boom');",
      };
      await expect(runner.run(block, RUN_BOUND_MS)).rejects.toThrow(
        /^x\.md, TypeScript block 1 \(line 10\) failed when run:\nError: boom\n[\s\S]*\(guide line 11, column \d+\)[\s\S]*It printed:\nlog: before$/,
      );
    });

    it('gives each block a fresh mock, and closes the servers a block leaves listening', async () => {
      const first = [
        "import { createServer } from 'node:http';",
        "import type { AddressInfo } from 'node:net';",
        "mock.control.addFault({ path: '/v2/workspaces/search', status: 503, times: 10 });",
        'const left = createServer().listen(3000);',
        "await new Promise((resolve) => left.once('listening', resolve));",
        '(globalThis as Record<string, unknown>).docsCodeLeft = left;',
        '(globalThis as Record<string, unknown>).docsCodePort = (left.address() as AddressInfo).port;',
      ].join('\n');
      await runner.run({ doc: 'x.md', index: 2, line: 1, code: first }, RUN_BOUND_MS);
      const left = shared.docsCodeLeft as import('node:net').Server;
      expect(left.listening).toBe(false);
      expect(shared.docsCodePort).not.toBe(3000); // a free port instead of a fixed one
      // The faults were the first block's mock's: this one answers at once.
      const second =
        'expect(await client.workspaces.search({ pageSize: 1 }, { maxRetries: 0 })).toHaveLength(1);';
      await runner.run({ doc: 'x.md', index: 3, line: 1, code: second }, RUN_BOUND_MS);
      delete shared.docsCodeLeft;
      delete shared.docsCodePort;
    });

    it('runs the vitest tests a block declares, with their hooks, and fails with the failing one', async () => {
      const block = [
        "import { afterAll, beforeAll, expect, it } from 'vitest';",
        'const calls: string[] = [];',
        "beforeAll(() => calls.push('beforeAll'));",
        "it('passes', () => calls.push('passes'));",
        "it('fails', () => expect(1).toBe(2));",
        'afterAll(() => {',
        "  calls.push('afterAll');",
        '  (globalThis as Record<string, unknown>).docsCodeCalls = calls;',
        '});',
      ].join('\n');
      await expect(runner.run({ doc: 'x.md', index: 4, line: 1, code: block }, RUN_BOUND_MS)).rejects.toThrow(
        /test "fails" failed: expected 1 to be 2/,
      );
      expect(shared.docsCodeCalls).toEqual(['beforeAll', 'passes', 'afterAll']);
      delete shared.docsCodeCalls;
    });

    it('compares what a block printed with its // prints: comments, and fails on a wrong one', async () => {
      const code = [
        "const names = ['a', 'b'];", //                          1
        'for (const name of names) console.log(name, 1);', //    2
        '// prints:', //                                         3
        '// a 1', //                                             4
        '// b 1', //                                             5
        'console.log({ id: crypto.randomUUID() }); // prints: { id: ... }', // 6
        'console.log(', //                                       7
        "  'several',", //                                       8
        "  'lines',", //                                         9
        '); // prints: several lines', //                        10
        "console.log('not compared'); // a remark", //           11
      ].join('\n');
      const result = await runAndCompare(runner, { doc: 'x.md', index: 6, line: 20, code }, RUN_BOUND_MS);
      expect(result.printed.map((call) => call.line)).toEqual([2, 2, 6, 7, 11]);
      const wrong = code.replace('// b 1', '// b 2');
      await expect(
        runAndCompare(runner, { doc: 'x.md', index: 7, line: 20, code: wrong }, RUN_BOUND_MS),
      ).rejects.toThrow(
        'x.md, TypeScript block 7 (line 20) does not print what it shows:\n' +
          'guide line 22 shows:\n  a 1\n  b 2\nbut guide lines 21-21 printed:\n  a 1\n  b 1',
      );
      const missing = "console.log('one');\nconsole.log('two'); // prints: one";
      await expect(
        runAndCompare(runner, { doc: 'x.md', index: 8, line: 1, code: missing }, RUN_BOUND_MS),
      ).rejects.toThrow(/guide line 2 shows:\n {2}one\nbut guide lines 2-2 printed:\n {2}two$/);
    });

    it('fails a block that does not end within the bound', async () => {
      const block = { doc: 'x.md', index: 5, line: 1, code: 'await new Promise(() => {});' };
      await expect(runner.run(block, 1_000)).rejects.toThrow(/did not end within 1 s/);
    });
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
