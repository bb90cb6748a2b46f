/**
 * The machinery of tests/docs-code.test.ts: finds the TypeScript blocks of Markdown guides and
 * type-checks them in memory with the project's compiler options and the prelude
 * (tests/docs-code/prelude.d.ts.txt). Nothing is written into the repository (running them is
 * tests/docs-code/run.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository's root. */
export const root = fileURLToPath(new URL('../..', import.meta.url));
/** Where the blocks are placed for module resolution: a directory that does not exist, in examples/. */
export const virtualDir = join(root, 'examples/.docs-code');
/** The prelude (see its comment), served to the compiler as a global declaration file. */
export const preludePath = join(virtualDir, 'prelude.d.ts');
const prelude = readFileSync(join(root, 'tests/docs-code/prelude.d.ts.txt'), 'utf8');

/** One fenced TypeScript block of a guide. */
export interface CodeBlock {
  /** The guide, relative to the repository root (`docs/sdk.md`). */
  doc: string;
  /** 1-based number of the block among the guide's TypeScript blocks. */
  index: number;
  /** Line of the guide where the code starts (the line after the opening fence). */
  line: number;
  /** The code. */
  code: string;
  /** The words of the info string after the language (`nocheck`, `norun`). */
  flags: string[];
  /**
   * Why a `norun` block is not run: `norun: <reason>` in an HTML comment on the line just above the
   * opening fence (`<!-- norun: needs the real service -->`), or in a `//` comment on the block's
   * first line. Absent when not given (or the block is not `norun`).
   */
  norunReason?: string;
}

/** The reason of a `norun` block, from the line above its fence or its first line (see {@link CodeBlock}). */
function norunReason(above: string, firstLine: string): string | undefined {
  const match =
    /^\s*<!--\s*norun:\s*(.*?)\s*-->\s*$/.exec(above) ?? /^\s*\/\/\s*norun:\s*(.*?)\s*$/.exec(firstLine);
  return match?.[1] || undefined;
}

/** The TypeScript blocks (```ts, ```typescript, also indented inside lists) of one Markdown text. */
export function extractBlocks(doc: string, markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  let open:
    | { fence: string; indent: number; lang: string; flags: string[]; start: number; above: string }
    | undefined;
  let body: string[] = [];
  let count = 0;
  lines.forEach((text, i) => {
    if (!open) {
      const match = /^( *)(`{3,}|~{3,})\s*([^\s`]*)(.*)$/.exec(text);
      if (!match) return;
      const [, indent = '', fence = '', lang = '', rest = ''] = match;
      open = {
        fence,
        indent: indent.length,
        lang: lang.toLowerCase(),
        flags: rest.trim().split(/\s+/),
        start: i + 1,
        above: lines[i - 1] ?? '',
      };
      body = [];
      return;
    }
    const close = new RegExp(`^ *${open.fence[0] === '`' ? '`' : '~'}{${open.fence.length},}\\s*$`);
    if (!close.test(text)) {
      body.push(text.slice(Math.min(open.indent, text.length - text.trimStart().length)));
      return;
    }
    if (open.lang === 'ts' || open.lang === 'typescript') {
      count += 1;
      const flags = open.flags.filter(Boolean);
      const reason = flags.includes('norun') ? norunReason(open.above, body[0] ?? '') : undefined;
      blocks.push({
        doc,
        index: count,
        line: open.start + 1,
        code: body.join('\n'),
        flags,
        ...(reason ? { norunReason: reason } : {}),
      });
    }
    open = undefined;
  });
  return blocks;
}

/** README.md and every guide in docs/ (not the generated API reference in docs/api/). */
export function guides(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** Where a block is placed (in memory) for the compiler. */
export function virtualName(block: CodeBlock): string {
  return join(virtualDir, `${block.doc.replace(/[/.]/g, '_')}-${block.index}.ts`);
}

/** Type-checks files given in memory; returns the diagnostics of each, formatted. */
export function typeCheck(given: Map<string, string>): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('cannot read tsconfig.json');
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, incremental: false };
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile } = host;
  const files = new Map([[preludePath, prelude], ...given]);
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, onError, create) => {
    const text = files.get(name);
    return text === undefined
      ? getSourceFile.call(host, name, language, onError, create)
      : ts.createSourceFile(name, text, language, true);
  };
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  const results = new Map<string, string[]>();
  const format = (diagnostic: ts.Diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file || diagnostic.start === undefined) return `TS${diagnostic.code}: ${message}`;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${line + 1}:${character + 1} TS${diagnostic.code}: ${message}`;
  };
  for (const name of files.keys()) {
    const source = program.getSourceFile(name);
    const diagnostics = source
      ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
      : [];
    results.set(name, diagnostics.map(format));
  }
  const global = program.getGlobalDiagnostics().map(format);
  if (global.length > 0) results.set('(global)', global);
  return results;
}
