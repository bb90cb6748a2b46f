/**
 * Runs a hostile-input script in a child Node with a small heap (`--max-old-space-size=512`), so that a
 * regression that exhausts memory fails one test instead of taking the test run down. The script
 * prints one JSON line with what the code accounted; the test asserts on that, never on RSS or time.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SRC = resolve(import.meta.dirname, '../../src');

/** Runs `body` (an async function body with `src` (the mock's src path) in scope) and parses its last stdout line. */
export function runInSmallHeap<T>(body: string): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'iacm-hostile-'));
  const file = join(dir, 'script.ts');
  writeFileSync(
    file,
    `const src = ${JSON.stringify(SRC)};\nconst main = async () => {\n${body}\n};\nmain().then((r) => console.log(JSON.stringify(r)), (e) => { console.error(e); process.exit(1); });\n`,
  );
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      ['--max-old-space-size=512', '--import', 'tsx', file],
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
