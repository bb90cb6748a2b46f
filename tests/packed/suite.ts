/**
 * The suite each Node line runs over the packed tarballs, in its own fresh npm project: ESM and CJS
 * programs using every entry point, a user's vitest suite with `createMockServer` and msw's
 * `setupServer`, an Express receiver, `npx iacm-mock` and `npx @iacm/mock-server` stopped by SIGTERM to npx and by SIGINT to its process
 * group,
 * and (where asked) a Jest suite and TypeScript consumers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { endpoints } from '../../packages/sdk/src/contract/index.js';
import {
  type CliRun,
  createConsumer,
  envFor,
  installedVersion,
  root,
  run,
  runOk,
  STOPS,
  type Stop,
  shellHandsOver,
  startAndStop,
  writeFiles,
} from './lib.js';
import { expressReceiver, jestSuite, sdkCjs, sdkEsm, typesConsumer, vitestSuite } from './programs.js';

/** A line of the matrix: a Node major with the msw and vitest majors a user of it installs. */
export interface Line {
  node: number;
  msw: number;
  vitest: number;
  /** Also run a Jest suite with this Jest major. */
  jest?: number;
  /** Also type-check TypeScript consumers (moduleResolution node16 and bundler). */
  types?: boolean;
}

/** What the SDK programs print (the same in ESM and CJS). */
export const sdkExpected = {
  count: 12,
  refused: true,
  endpoints: Object.keys(endpoints).length,
  health: 204,
  webhook: true,
  openapi: '3.1.0',
  node: 'function',
};

/** A JSON line a program printed (its last line on stdout). */
export function lastJson(stdout: string): unknown {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? 'null');
}

/** The user's vitest suite of `examples/vitest-suite`, as its files (the docs' scenario, end to end). */
export const examplesSuite: Readonly<Record<string, string>> = Object.fromEntries(
  ['app.ts', 'app.test.ts'].map((file) => [
    file,
    readFileSync(join(root, 'examples', 'vitest-suite', file), 'utf8'),
  ]),
);

/** The four-worker sessions example of `examples/vitest-sessions`, as its files. */
export const sessionsSuite: Readonly<Record<string, string>> = Object.fromEntries(
  [
    'vitest.config.ts',
    'all-at-once.ts',
    'faults.test.ts',
    'deletes.test.ts',
    'clock.test.ts',
    'answers.test.ts',
  ].map((file) => [file, readFileSync(join(root, 'examples', 'vitest-sessions', file), 'utf8')]),
);

/** How many tests `examples/vitest-suite/app.test.ts` declares (each `it(` at a line's start). */
export const examplesSuiteTests = (examplesSuite['app.test.ts'] ?? '').match(/^\s*it\(/gm)?.length ?? 0;

/**
 * Type-checks `source` as `index.ts` (or a set of `.ts` files) in `<dir>/ts-<name>` with the
 * repository's TypeScript, `strict` and `skipLibCheck: false`; returns tsc's output ('' when it passes).
 */
export async function typeCheck(
  dir: string,
  name: string,
  module: string,
  resolution: string,
  source: string | Readonly<Record<string, string>>,
  types: string[] = [],
): Promise<string> {
  const tsDir = join(dir, `ts-${name}`);
  const files = typeof source === 'string' ? { 'index.ts': source } : source;
  writeFiles(tsDir, {
    'package.json': JSON.stringify({ type: 'module' }),
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        module,
        moduleResolution: resolution,
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types,
        lib: ['ES2024', 'DOM', 'DOM.Iterable'],
      },
      include: Object.keys(files),
    }),
    ...files,
  });
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const { stdout, stderr } = await run(process.execPath, [tsc, '-p', tsDir], {
    cwd: tsDir,
    env: process.env,
  });
  return `${stdout}${stderr}`.trim();
}

/**
 * Asserts that a command stopped by {@link startAndStop} ended cleanly: npx exited as `exit` says
 * (0, or the signal sent when /bin/sh waits for its command: see {@link shellHandsOver}), the mock
 * said it was stopping on that signal, nothing of its process tree or group still runs, the port
 * takes a new listener, and npm printed no error (`npm error`, `ELIFECYCLE`).
 */
export function expectCleanStop(cli: CliRun, stop: Stop, exit: 0 | NodeJS.Signals): void {
  expect(cli.url, cli.output).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(cli.health, cli.output).toBe(204);
  expect(
    { exit: cli.exit, leftRunning: cli.leftRunning, portFreed: cli.portFreed },
    `after ${stop.signal} to npx's ${stop.target} (${cli.processes} processes):\n${cli.output}`,
  ).toEqual({
    exit: exit === 0 ? { code: 0, signal: null } : { code: null, signal: exit },
    leftRunning: [],
    portFreed: true,
  });
  expect(cli.stdout).toContain(`${stop.signal} received, stopping`);
  expect(cli.stderr).not.toMatch(/npm error|npm ERR!|ELIFECYCLE|Command failed/i);
}

/** The vitest config that runs the examples' suite in a consumer (both pools' default: forks). */
const EXAMPLES_CONFIG = `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { include: ['examples-suite/**/*.test.ts'] } });
`;

/** Registers the suite of one line of the matrix. */
export function lineSuite(line: Line): void {
  const title = `Node ${line.node}, msw ${line.msw}, vitest ${line.vitest}${line.jest ? `, Jest ${line.jest}` : ''}`;
  describe(`the packed tarballs on ${title}`, () => {
    const prepared = inject('prepared');
    const dir = join(prepared.workDir, `node${line.node}`);
    const nodeBin = prepared.nodeBins[String(line.node)] as string;
    const env = envFor(nodeBin);
    const node = (args: string[]) => runOk('node', args, { cwd: dir, env, timeoutMs: 60_000 });
    let handsOver = false;
    /**
     * Runs the consumer's vitest (with `config`, else its default one) with the JSON reporter: its exit
     * and the report, or `{ report: 'none written' }` when the process wrote none (it aborted).
     */
    const vitestRun = async (config: string | undefined, reportName: string) => {
      const reportFile = join(dir, reportName);
      const ran = await run(
        join(dir, 'node_modules', '.bin', 'vitest'),
        ['run', ...(config ? ['--config', config] : []), '--reporter=json', `--outputFile=${reportFile}`],
        { cwd: dir, env, timeoutMs: 120_000 },
      );
      const report = (
        existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : { report: 'none written' }
      ) as { numPassedTests?: number; numFailedTests?: number };
      return { ran, report, output: `${ran.stdout}\n${ran.stderr}` };
    };

    beforeAll(async () => {
      await createConsumer(
        dir,
        prepared,
        {
          msw: `^${line.msw === 2 ? '2.15' : line.msw}`,
          vitest: `^${line.vitest}`,
          express: '^5',
          ...(line.jest ? { jest: `^${line.jest}` } : {}),
          // Every line: the examples' suite is type-checked on each (msw/node's types need Node's).
          '@types/node': `^${line.node}`,
        },
        env,
      );
      writeFiles(dir, {
        'sdk.mjs': sdkEsm,
        'sdk.cjs': sdkCjs,
        'express.mjs': expressReceiver,
        ...vitestSuite,
        ...Object.fromEntries(
          Object.entries(examplesSuite).map(([file, text]) => [`examples-suite/${file}`, text]),
        ),
        'vitest.examples.config.mjs': EXAMPLES_CONFIG,
        ...Object.fromEntries(
          Object.entries(sessionsSuite).map(([file, text]) => [`sessions-suite/${file}`, text]),
        ),
        ...(line.jest ? jestSuite : {}),
      });
      handsOver = await shellHandsOver(dir, env);
    }, 180_000);

    it('installs the majors this line names', async () => {
      const versions = {
        node: (await node(['-p', 'process.versions.node'])).stdout.trim(),
        msw: await installedVersion(dir, 'msw', env),
        vitest: await installedVersion(dir, 'vitest', env),
        ...(line.jest ? { jest: await installedVersion(dir, 'jest', env) } : {}),
      };
      console.log(`[node${line.node}] installed: ${JSON.stringify(versions)}`);
      const major = (v: string) => Number(v.split('.')[0]);
      expect(major(versions.node)).toBe(line.node);
      expect(major(versions.msw)).toBe(line.msw);
      expect(major(versions.vitest)).toBe(line.vitest);
      if (line.jest) expect(major(versions.jest as string)).toBe(line.jest);
    });

    it('runs the SDK, the mock and the receiver from an ESM program', async () => {
      expect(lastJson((await node(['sdk.mjs'])).stdout)).toEqual(sdkExpected);
    });

    it('runs the SDK, the mock and the receiver from a CJS program', async () => {
      expect(lastJson((await node(['sdk.cjs'])).stdout)).toEqual(sdkExpected);
    });

    it('passes a vitest suite using createMockServer with setupServer from msw/node', async () => {
      const { ran, report, output } = await vitestRun(undefined, 'vitest-report.json');
      expect({ code: ran.code, ...report }, output).toMatchObject({
        code: 0,
        numPassedTests: 3,
        numFailedTests: 0,
      });
    }, 120_000);

    it("passes the examples' vitest suite (scenes, matchers, waits, webhooks, a reset after a delivery, fake timers)", async () => {
      const { ran, report, output } = await vitestRun('vitest.examples.config.mjs', 'examples-report.json');
      // rc 134 with no report was finding 1 of issue 35 (Node 22 and 24 with msw 3 aborted).
      expect({ code: ran.code, signal: ran.signal, ...report }, output).toMatchObject({
        code: 0,
        signal: null,
        numPassedTests: examplesSuiteTests,
        numFailedTests: 0,
      });
      expect(examplesSuiteTests).toBeGreaterThanOrEqual(9);
    }, 120_000);

    it("type-checks the examples' vitest suite with skipLibCheck: false (matchers typed on this vitest)", async () => {
      expect(await typeCheck(dir, 'examples', 'ESNext', 'Bundler', examplesSuite, ['node'])).toBe('');
    }, 120_000);

    it('runs the sessions example: four files in four workers on one mock (globalSetup, useMockSession, remote matchers)', async () => {
      const { ran, report, output } = await vitestRun(
        'sessions-suite/vitest.config.ts',
        'sessions-report.json',
      );
      expect({ code: ran.code, ...report }, output).toMatchObject({
        code: 0,
        numPassedTests: 4,
        numFailedTests: 0,
      });
    }, 120_000);

    it('type-checks the sessions example with skipLibCheck: false', async () => {
      const { 'vitest.config.ts': _config, ...sources } = sessionsSuite;
      expect(await typeCheck(dir, 'sessions', 'ESNext', 'Bundler', sources, ['node'])).toBe('');
    }, 120_000);

    it('verifies webhook deliveries in an Express app', async () => {
      expect(lastJson((await node(['express.mjs'])).stdout)).toEqual({
        good: 200,
        bad: 401,
        drifted: expect.any(Number),
        other: { echoed: { a: 1 } },
      });
    });

    it.each(
      [['iacm-mock'], ['@iacm/mock-server']].flatMap(([command]) =>
        STOPS.map(([name, stop]) => [command as string, name, stop] as const),
      ),
    )(
      'starts the standalone mock with `npx %s --port 0` and stops it with %s',
      async (command, _name, stop) => {
        const cli = await startAndStop(dir, env, [command, '--port', '0'], stop);
        expectCleanStop(cli, stop, handsOver ? 0 : stop.signal);
      },
      90_000,
    );

    it.each(STOPS)(
      'with a /bin/sh that hands over (npm script-shell bash), npx iacm-mock exits 0 after %s',
      async (_name, stop) => {
        const bashEnv = { ...env, npm_config_script_shell: 'bash' };
        const cli = await startAndStop(dir, bashEnv, ['iacm-mock', '--port', '0'], stop);
        expectCleanStop(cli, stop, 0);
      },
      90_000,
    );

    if (line.jest) {
      it(`reports an SDK error thrown in a Jest ${line.jest} worker with its message`, async () => {
        const ran = await run(
          join(dir, 'node_modules', '.bin', 'jest'),
          ['--ci', '--maxWorkers=2', '--json', '--outputFile=jest-report.json'],
          // Jest's documented switch for ESM: with it, Jest 30 on Node >= 24.9 require()s ESM-only
          // packages (msw 3) natively.
          { cwd: dir, env: { ...env, NODE_OPTIONS: '--experimental-vm-modules' }, timeoutMs: 120_000 },
        );
        const output = `${ran.stdout}\n${ran.stderr}`;
        const report = JSON.parse(readFileSync(join(dir, 'jest-report.json'), 'utf8')) as {
          numPassedTests: number;
          numFailedTests: number;
          testResults: Array<{ name: string; message: string }>;
        };
        // Two test files run in two workers; the failure travels from the worker to the parent.
        expect(
          { code: ran.code, passed: report.numPassedTests, failed: report.numFailedTests },
          output,
        ).toEqual({
          code: 1,
          passed: 1,
          failed: 1,
        });
        const failure = report.testResults.find((result) => result.name.endsWith('fail.test.js'));
        expect(failure?.message).toContain('NotFoundError: workspaces.search: 404');
        expect(output).not.toMatch(/circular structure|could not be cloned|DataCloneError|serializ/i);
      }, 120_000);
    }

    if (line.types) {
      it.each([
        ['node16', 'Node16', 'Node16'],
        ['bundler', 'ESNext', 'Bundler'],
      ])(
        'type-checks a TypeScript consumer (moduleResolution %s)',
        async (name, module, resolution) => {
          expect(await typeCheck(dir, name, module, resolution, typesConsumer, ['node'])).toBe('');
        },
        // About 11 s alone (the SDK's calls typed by endpoint); three Node lines check at once.
        120_000,
      );
    }
  });
}
