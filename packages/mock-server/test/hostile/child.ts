/**
 * Runs a hostile-input script in a child Node with a small heap (`--max-old-space-size`, 256 MB unless
 * told: the heap the memory budget's attacks run in, issue 34), so that a regression that exhausts
 * memory fails one test instead of taking the test run down.
 * The script prints one JSON line with what it measured; the test asserts on that, never on time.
 *
 * The child runs with `--expose-gc`, and the script has `heapAfterGc()` in scope: the V8 heap in use
 * after two forced full collections, in bytes. Heap-bound tests (docs/security.md, "Bounds proven by
 * attack") measure it before and after an attack and assert that the growth stays within the
 * documented bound plus a small constant.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SRC = resolve(import.meta.dirname, '../../src');

/** Options of {@link runInSmallHeap}. */
export interface SmallHeapOptions {
  /** The child's `--max-old-space-size`, in MB (256). */
  heapMb?: number;
}

const PRELUDE = `const heapAfterGc = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };\n`;

/**
 * Runs `body` (an async function body with `src` (the mock's src path) and `heapAfterGc()` in scope)
 * and parses its last stdout line.
 */
export function runInSmallHeap<T>(body: string, options: SmallHeapOptions = {}): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'iacm-hostile-'));
  const file = join(dir, 'script.ts');
  writeFileSync(
    file,
    `const src = ${JSON.stringify(SRC)};\n${PRELUDE}const main = async () => {\n${body}\n};\nmain().then((r) => console.log(JSON.stringify(r)), (e) => { console.error(e); process.exit(1); });\n`,
  );
  const heapMb = options.heapMb ?? 256;
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      [`--max-old-space-size=${heapMb}`, '--expose-gc', '--import', 'tsx', file],
      { cwd: resolve(import.meta.dirname, '../../../..'), maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`the child failed (${error.message}):\n${stderr.slice(-2000)}`));
          return;
        }
        const last = stdout.trim().split('\n').at(-1) ?? '';
        resolvePromise(JSON.parse(last) as T);
      },
    );
  });
}
