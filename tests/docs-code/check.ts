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

/**
 * What a block says it prints: one `// prints:` comment group, tied to the statement above it (see
 * tests/docs-code.test.ts for the convention). Lines are 1-based lines of the block.
 */
export interface PrintsExpectation {
  /** Block line of the first `// prints:` comment of the group (for messages). */
  line: number;
  /** The statement's first and last lines: the console calls made from these lines are compared. */
  from: number;
  to: number;
  /** The printed lines shown; `...` in a line stands for any text, a line that is only `...` for any lines. */
  expected: string[];
}

/** `// prints: <one line>` or `// prints:` alone (the lines are the `//` comment lines below it). */
const PRINTS = /^\/\/\s?prints:(.*)$/;

/**
 * The `// prints:` comments of a block, each group tied to its statement; `problems` lists the ones
 * that are tied to nothing (a comment must end the statement's last line, or sit on the comment lines
 * right below it).
 */
export function printsExpectations(code: string): { expectations: PrintsExpectation[]; problems: string[] } {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const lines = code.split('\n');
  // Every `//` comment, once (the same comment is the trailing one of a node and the leading one of the next).
  const comments = new Map<number, { line: number; text: string; trailing: boolean }>();
  // The statements of statement lists (and the bodies of if/for/while), by their last line.
  const statements: Array<{ from: number; to: number }> = [];
  const visit = (node: ts.Node) => {
    for (const range of [
      ...(ts.getLeadingCommentRanges(code, node.pos) ?? []),
      ...(ts.getTrailingCommentRanges(code, node.end) ?? []),
    ]) {
      if (range.kind !== ts.SyntaxKind.SingleLineCommentTrivia || comments.has(range.pos)) continue;
      const line = lineOf(range.pos);
      const before = (lines[line - 1] ?? '').slice(
        0,
        source.getLineAndCharacterOfPosition(range.pos).character,
      );
      comments.set(range.pos, {
        line,
        text: code.slice(range.pos, range.end),
        trailing: before.trim() !== '',
      });
    }
    if (isStatement(node)) statements.push({ from: lineOf(node.getStart(source)), to: lineOf(node.end) });
    // getChildren (not forEachChild): the tokens too, so that a comment before a `}` is seen.
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  const ordered = [...comments.values()].sort((a, b) => a.line - b.line);
  const commentLines = new Map(ordered.filter((c) => !c.trailing).map((c) => [c.line, c.text]));

  const expectations: PrintsExpectation[] = [];
  const problems: string[] = [];
  const byAnchor = new Map<number, PrintsExpectation>();
  for (const comment of ordered) {
    const match = PRINTS.exec(comment.text);
    if (!match) continue;
    // The code line it belongs to: its own, or the code line above its run of comment lines.
    let anchor = comment.line;
    if (!comment.trailing) {
      anchor -= 1;
      while (commentLines.has(anchor)) anchor -= 1;
    }
    const code = anchor >= 1 ? (lines[anchor - 1] ?? '').trim() : '';
    const statement = statements.filter((each) => each.to === anchor).sort((a, b) => a.from - b.from)[0];
    if (!code || !statement) {
      problems.push(
        `line ${comment.line}: a // prints: comment must end the last line of the statement that prints, ` +
          'or follow it on the comment lines right below it',
      );
      continue;
    }
    const expected: string[] = [];
    const text = (match[1] ?? '').trim();
    if (text) expected.push(text);
    else {
      // `// prints:` alone: the output is the comment lines below it, `// ` taken off.
      for (let next = comment.line + 1; commentLines.has(next); next += 1) {
        const body = commentLines.get(next) ?? '';
        if (PRINTS.test(body)) break;
        expected.push(body.replace(/^\/\/ ?/, '').trimEnd());
      }
      if (expected.length === 0) {
        problems.push(
          `line ${comment.line}: a // prints: with nothing after it needs the printed lines below it`,
        );
        continue;
      }
    }
    const known = byAnchor.get(anchor);
    if (known) known.expected.push(...expected);
    else {
      const expectation = { line: comment.line, from: statement.from, to: statement.to, expected };
      byAnchor.set(anchor, expectation);
      expectations.push(expectation);
    }
  }
  return { expectations, problems };
}

/** A statement of a statement list, or the body of an if/for/while/do statement. */
function isStatement(node: ts.Node): boolean {
  const parent = node.parent;
  // Not a token (`{`, `}`), not the list getChildren makes, not a block of its own.
  if (!parent || node.kind <= ts.SyntaxKind.LastToken || node.kind === ts.SyntaxKind.SyntaxList) return false;
  if (ts.isBlock(node)) return false;
  if (
    ts.isSourceFile(parent) ||
    ts.isBlock(parent) ||
    ts.isCaseClause(parent) ||
    ts.isDefaultClause(parent)
  ) {
    return true;
  }
  return (
    (ts.isIfStatement(parent) && (parent.thenStatement === node || parent.elseStatement === node)) ||
    (ts.isIterationStatement(parent, false) && parent.statement === node)
  );
}

/**
 * Whether printed lines match the lines a guide shows: equal line by line, where `...` in a shown line
 * stands for any text and a shown line that is only `...` for any number of lines.
 */
export function printedMatches(shown: readonly string[], printed: readonly string[]): boolean {
  // Bounded by the lengths: a guide shows a few lines, a block prints a few.
  const memo = new Map<string, boolean>();
  const from = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === shown.length) result = j === printed.length;
    else if (shown[i] === '...') result = from(i + 1, j) || (j < printed.length && from(i, j + 1));
    else result = j < printed.length && lineMatches(shown[i] ?? '', printed[j] ?? '') && from(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return from(0, 0);
}

/** One shown line against one printed line; `...` stands for any text (no regular expression). */
function lineMatches(shown: string, printed: string): boolean {
  const parts = shown.trim().split('...');
  const text = printed.trim();
  if (parts.length === 1) return text === parts[0];
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (!text.startsWith(first) || text.length < first.length + last.length || !text.endsWith(last))
    return false;
  let at = first.length;
  const end = text.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = text.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}
