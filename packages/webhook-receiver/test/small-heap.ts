/**
 * Runs a hostile-input script in a child Node with a small heap (`--max-old-space-size=512`), so that
 * a regression that exhausts memory fails one test instead of taking the test run down. The script
 * returns what the code accounted (issue counts, error codes); the test asserts on that, never on RSS
 * or time.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The receiver's sources, in scope of the script as `src`. */
const SRC = resolve(import.meta.dirname, '../src');
const ROOT = resolve(import.meta.dirname, '../../..');

/**
 * Runs `body`, the body of an async function with `src` (the receiver's `src` directory) in scope,
 * in a child Node with a 512 MB heap, and returns what it returned (as JSON). Rejects, with the end of
 * the child's stderr, when the child fails (an out-of-memory crash included).
 */
export function runInSmallHeap<T>(body: string): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'iacm-receiver-hostile-'));
  const file = join(dir, 'script.ts');
  writeFileSync(
    file,
    `const src = ${JSON.stringify(SRC)};\nconst main = async () => {\n${body}\n};\n` +
      'main().then((r) => console.log(JSON.stringify(r)), (e) => { console.error(e); process.exit(1); });\n',
  );
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      ['--max-old-space-size=512', '--import', 'tsx', file],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        rmSync(dir, { recursive: true, force: true });
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
