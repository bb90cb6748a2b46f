/**
 * examples/vitest-sessions (issue 35, deliverable 3): four test files in four workers against one
 * standalone mock the global setup started, each in its own session (`useMockSession()`), with the
 * matchers on the remote client. Run with the example's own config, as a user runs it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** This process's environment without what marks it as a vitest worker (the child is a run of its own). */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS') delete env[key];
  return env;
}

it('passes in four workers on one mock, each file in its own session, all open at once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iacm-sessions-'));
  const report = join(dir, 'report.json');
  try {
    const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
    const args = [vitest, 'run', '--config', 'examples/vitest-sessions/vitest.config.ts', '--reporter=json'];
    const output = await new Promise<{ code: number | null; text: string }>((resolve) => {
      const child = spawn(process.execPath, [...args, `--outputFile=${report}`], {
        cwd: root,
        env: childEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (chunk) => {
        text += chunk;
      });
      child.stderr.on('data', (chunk) => {
        text += chunk;
      });
      child.on('close', (code) => resolve({ code, text }));
    });
    const json = JSON.parse(readFileSync(report, 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
      testResults: Array<{ name: string; status: string }>;
    };
    expect(
      {
        code: output.code,
        passed: json.numPassedTests,
        failed: json.numFailedTests,
        files: json.testResults.map((file) => [file.name.split('/').at(-1), file.status]).sort(),
      },
      output.text.slice(-4000),
    ).toEqual({
      code: 0,
      passed: 4,
      failed: 0,
      files: [
        ['answers.test.ts', 'passed'],
        ['clock.test.ts', 'passed'],
        ['deletes.test.ts', 'passed'],
        ['faults.test.ts', 'passed'],
      ],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
