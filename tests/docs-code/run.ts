/**
 * Runs the TypeScript blocks of the guides for tests/docs-code.test.ts, each as its own ES module in
 * the vitest process, over the runtime prelude (tests/docs-code/runtime.ts.txt: a fresh in-process mock,
 * `client`, `receiver` and the other names of prelude.d.ts.txt, and the environment a reader has).
 *
 * A block is written to examples/.docs-code-run/<pid>-<random>/ (git-ignored, removed afterwards), where
 * express, fastify, hono and msw resolve as for the examples and vitest's aliases map `@iacm/*` to the
 * packages' sources; vitest transpiles it. Imports of 'vitest', 'msw/node' and 'msw/browser' are
 * pointed at the prelude's stand-ins (see runtime.ts.txt). While a block runs:
 * - the working directory is a temporary directory (a block may write files; this needs vitest's
 *   default `forks` pool, as worker threads cannot change directory);
 * - what it prints is kept, as Node's console formats it, with the block's line each call came from
 *   (read from the call's stack), for the `// prints:` comparison, and shown if it fails;
 * - every server it starts listening (node:http, the mock's `listen`, ...) is recorded and closed after
 *   it; a fixed port (`listen(3000)`) becomes a free one, so that blocks never collide with each other
 *   or with a server already running on the machine;
 * - it must end within the bound given (a bound for hangs only).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import ts from 'typescript';
import { type CodeBlock, root } from './check.js';

/** Where the blocks are written while they run: git-ignored. */
export const runRoot = join(root, 'examples/.docs-code-run');
/** The runtime prelude's source. */
export const runtimePath = join(root, 'tests/docs-code/runtime.ts.txt');

/** The imports a block may not have as they are in Node, and the module (in the run directory) that stands in. */
const SHIMS: Record<string, { file: string; code: string }> = {
  vitest: {
    file: 'shim-vitest.ts',
    code:
      "export * from 'vitest';\n" +
      "export { afterAll, afterEach, beforeAll, beforeEach, describe, it, test } from './runtime.ts';\n",
  },
  'msw/node': {
    file: 'shim-msw-node.ts',
    code: "export * from 'msw/node';\nexport { setupServer } from './runtime.ts';\n",
  },
  'msw/browser': {
    file: 'shim-msw-browser.ts',
    code: "export { setupWorker } from './runtime.ts';\n",
  },
};

/** What runtime.ts.txt exports (it is not visible to the project's type check, see its comment). */
interface Runtime {
  startPrelude(): Promise<{ globals: Record<string, unknown>; env: Record<string, string>; close(): void }>;
  runCollectedTests(): Promise<number>;
}

/** A block to run: where it comes from (for messages) and its code. */
export type RunnableBlock = Pick<CodeBlock, 'doc' | 'index' | 'line' | 'code'>;

/** One console call of a block. */
export interface Printed {
  /** The block's line the call was made from (absent when no line of the block is on the stack). */
  line?: number;
  /** What it printed, as Node's console prints it (without colours). */
  text: string;
}

/** What a block did. */
export interface RunResult {
  /** What it printed (console.log and the others), one entry per call: `<method>: <text>`. */
  output: string[];
  /** The same calls, with the block's line each was made from. */
  printed: Printed[];
  /** The vitest tests it declared, run after it. */
  tests: number;
}

/** Points the block's imports of 'vitest', 'msw/node' and 'msw/browser' at the stand-ins; lines are kept. */
export function rewriteImports(code: string): string {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const consider = (literal: ts.Node | undefined) => {
    if (!literal || !ts.isStringLiteral(literal)) return;
    const shim = SHIMS[literal.text];
    if (shim) edits.push({ start: literal.getStart(source), end: literal.end, text: `'./${shim.file}'` });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) consider(node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      consider(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let out = code;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

/** Runs blocks one at a time; {@link BlockRunner.dispose} removes its files. */
export class BlockRunner {
  readonly #dir: string;
  readonly #cwd: string;
  readonly #runtime: Runtime;
  #count = 0;

  private constructor(dir: string, cwd: string, runtime: Runtime) {
    this.#dir = dir;
    this.#cwd = cwd;
    this.#runtime = runtime;
  }

  /** Writes the runtime prelude and the stand-ins into a fresh run directory and loads the prelude. */
  static async create(): Promise<BlockRunner> {
    mkdirSync(runRoot, { recursive: true });
    const dir = mkdtempSync(join(runRoot, `${process.pid}-`));
    writeFileSync(join(dir, 'runtime.ts'), readFileSync(runtimePath, 'utf8'));
    for (const shim of Object.values(SHIMS)) writeFileSync(join(dir, shim.file), shim.code);
    const cwd = mkdtempSync(join(tmpdir(), 'iacm-docs-code-cwd-'));
    const runtime = (await import(/* @vite-ignore */ join(dir, 'runtime.ts'))) as Runtime;
    return new BlockRunner(dir, cwd, runtime);
  }

  /** Where a block is written. */
  fileOf(block: RunnableBlock): string {
    return join(this.#dir, `${block.doc.replace(/[/.]/g, '_')}-${block.index}.ts`);
  }

  /**
   * Runs one block over a fresh prelude; resolves with what it printed, or rejects with its error
   * (lines given as lines of the guide) followed by what it printed.
   */
  async run(block: RunnableBlock, boundMs: number): Promise<RunResult> {
    // A new name each time: vitest runs a module once per path.
    this.#count += 1;
    const file = this.fileOf(block).replace(/\.ts$/, `.${this.#count}.ts`);
    writeFileSync(file, `${rewriteImports(block.code)}\nexport {};\n`);
    const prelude = await this.#runtime.startPrelude();
    const output: string[] = [];
    const printed: Printed[] = [];
    const restoreEnv = setEnv(prelude.env);
    const restoreGlobals = setGlobals(prelude.globals);
    const restoreConsole = captureConsole(output, printed, file);
    const servers = recordServers();
    const cwd = process.cwd();
    process.chdir(this.#cwd);
    let tests = 0;
    const work = (async () => {
      await import(/* @vite-ignore */ file);
      tests = await this.#runtime.runCollectedTests();
    })();
    work.catch(() => {}); // awaited below; after a timeout, nobody waits for it any more
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        work,
        new Promise((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error(`did not end within ${boundMs / 1000} s (a hang)`)),
            boundMs,
          );
        }),
      ]);
    } catch (error) {
      throw new Error(
        `${block.doc}, TypeScript block ${block.index} (line ${block.line}) failed when run:\n` +
          located(explain(error), file, block.line) +
          (output.length > 0 ? `\n\nIt printed:\n${output.slice(-40).join('\n')}` : ''),
      );
    } finally {
      clearTimeout(timer);
      process.chdir(cwd);
      restoreConsole();
      restoreGlobals();
      restoreEnv();
      await servers.close();
      prelude.close();
      rmSync(file, { force: true });
    }
    return { output, printed, tests };
  }

  /** Removes the run directory (and the run root, when no other run uses it). */
  dispose(): void {
    rmSync(this.#dir, { recursive: true, force: true });
    rmSync(this.#cwd, { recursive: true, force: true });
    try {
      rmdirSync(runRoot);
    } catch {
      // another run's directory is still there
    }
  }
}

/** An error with its stack and causes. */
function explain(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const text = error.stack ?? `${error.name}: ${error.message}`;
  return error.cause === undefined ? text : `${text}\nCaused by: ${explain(error.cause)}`;
}

/** Positions in the block's file → positions in the guide. */
function located(text: string, file: string, firstLine: number): string {
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(
    new RegExp(`(?:file://)?${escaped}:(\\d+):(\\d+)`, 'g'),
    (_all, line: string, column: string) => `(guide line ${firstLine + Number(line) - 1}, column ${column})`,
  );
}

/** The line of `file` in the first stack frame that is in it (the block's line of a console call). */
function callerLine(stack: string, file: string): number | undefined {
  for (const frame of stack.split('\n')) {
    const at = frame.indexOf(`${file}:`);
    if (at < 0) continue;
    const line = Number.parseInt(frame.slice(at + file.length + 1), 10);
    if (Number.isSafeInteger(line)) return line;
  }
  return undefined;
}

function setEnv(values: Record<string, string>): () => void {
  const saved = Object.keys(values).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

function setGlobals(values: Record<string, unknown>): () => void {
  const target = globalThis as Record<string, unknown>;
  const saved = Object.keys(values).map(
    (name) => [name, Object.getOwnPropertyDescriptor(target, name)] as const,
  );
  for (const [name, value] of Object.entries(values)) {
    Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
  }
  return () => {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(target, name, descriptor);
      else delete target[name];
    }
  };
}

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/** Keeps what the block prints, and from which of its lines (read from the stack, `file:line:column`). */
function captureConsole(output: string[], printed: Printed[], file: string): () => void {
  const saved = CONSOLE_METHODS.map((method) => [method, console[method]] as const);
  for (const method of CONSOLE_METHODS) {
    console[method] = (...args: unknown[]) => {
      const text = format(...args);
      output.push(`${method}: ${text}`);
      const line = callerLine(new Error().stack ?? '', file);
      printed.push(line === undefined ? { text } : { line, text });
    };
  }
  return () => {
    for (const [method, original] of saved) console[method] = original;
  };
}

/** Records the servers that start listening (on a free port instead of a fixed one) until close(). */
function recordServers(): { close(): Promise<void> } {
  const original = Server.prototype.listen;
  const started = new Set<Server>();
  Server.prototype.listen = function listen(this: Server, ...args: unknown[]) {
    started.add(this);
    const [first] = args;
    if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) args[0] = 0;
    else if (typeof first === 'object' && first !== null && 'port' in first) args[0] = { ...first, port: 0 };
    return original.apply(this, args as Parameters<Server['listen']>);
  } as Server['listen'];
  return {
    async close() {
      Server.prototype.listen = original;
      await Promise.all(
        [...started].map(
          (server) =>
            new Promise<void>((resolve) => {
              if (!server.listening) return resolve();
              const http = server as Server & { closeAllConnections?: () => void };
              server.close(() => resolve());
              http.closeAllConnections?.();
            }),
        ),
      );
    },
  };
}
