#!/usr/bin/env node
/**
 * `iacm-mock`: runs the standalone mock server.
 *
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { listen } from './adapters/node.js';
import { DEFAULT_SEED, DEFAULT_SIZES, type MockState, type SeedSizes } from './store/state.js';
import { VERSION } from './version.js';

const HELP = `iacm-mock ${VERSION}: a stateful mock of the IaC management service API

Usage: iacm-mock [options]

Options:
  --port <n>               port to listen on (default 4010; 0 picks a free one)
  --host <host>            address to bind (default 127.0.0.1)
  --seed <seed>            seed of the generated data (default ${DEFAULT_SEED})
  --accounts <n>           number of accounts (default ${DEFAULT_SIZES.accounts})
  --workspaces <n>         workspaces of the primary account (default ${DEFAULT_SIZES.workspaces})
  --runs-per-workspace <n> most runs per workspace (default ${DEFAULT_SIZES.runsPerWorkspace})
  --rules <n>              guardrail rules of the primary account (default ${DEFAULT_SIZES.rules})
  --stacks <n>             IaC stacks of the primary account (default ${DEFAULT_SIZES.stacks})
  --events <n>             events of the primary account (default ${DEFAULT_SIZES.events})
  --integrations <n>       integrations events come from (default ${DEFAULT_SIZES.integrations})
  --access-key <key>       access key of the primary account (default: generated from the seed)
  --secret-key <key>       secret key of the primary account (default: generated from the seed)
  --state <file>           start from a JSON snapshot (from GET /__mock/state) instead of generating
  --delay <ms>             delay every API answer by this many milliseconds
  --rate-limit             enforce the service's rate limit (500 requests per 60 s per client)
  --help                   show this help
  --version                show the version

The OpenAPI 3.1 document is served at /openapi.json. The control plane is served without auth under /__mock (reset, seed, state, accounts, journal,
faults, rate-limit): bind it to a local address only.`;

/** Thrown for a bad command line: printed without a stack, exit code 2. */
class UsageError extends Error {}

function integer(name: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new UsageError(`--${name} expects a whole number ≥ ${min}, received "${value}"`);
  return Number(value);
}

async function main(argv: string[]): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        accounts: { type: 'string' },
        workspaces: { type: 'string' },
        'runs-per-workspace': { type: 'string' },
        rules: { type: 'string' },
        stacks: { type: 'string' },
        events: { type: 'string' },
        integrations: { type: 'string' },
        'access-key': { type: 'string' },
        'secret-key': { type: 'string' },
        state: { type: 'string' },
        delay: { type: 'string' },
        'rate-limit': { type: 'boolean' },
        help: { type: 'boolean' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nRun iacm-mock --help for the options.`);
  }
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const str = (name: string) => values[name] as string | undefined;
  const port = integer('port', str('port')) ?? 4010;
  if (port > 65535) throw new UsageError(`--port expects a port from 0 to 65535, received "${port}"`);
  const sizes: Partial<SeedSizes> = {};
  const sizeFlags: Array<[keyof SeedSizes, string, number]> = [
    ['accounts', 'accounts', 1],
    ['workspaces', 'workspaces', 0],
    ['runsPerWorkspace', 'runs-per-workspace', 0],
    ['rules', 'rules', 0],
    ['stacks', 'stacks', 0],
    ['events', 'events', 0],
    ['integrations', 'integrations', 1],
  ];
  for (const [key, flag, min] of sizeFlags) {
    const value = integer(flag, str(flag), min);
    if (value !== undefined) sizes[key] = value;
  }
  const accessKey = str('access-key');
  const secretKey = str('secret-key');
  if ((accessKey === undefined) !== (secretKey === undefined)) {
    throw new UsageError('--access-key and --secret-key go together: give both or neither');
  }
  let state: MockState | undefined;
  const stateFile = str('state');
  if (stateFile !== undefined) {
    try {
      state = JSON.parse(readFileSync(stateFile, 'utf8')) as MockState;
    } catch (error) {
      throw new UsageError(
        `--state: cannot read a JSON snapshot from "${stateFile}": ${(error as Error).message}`,
      );
    }
  }
  const seedText = str('seed');
  const seed = seedText === undefined ? DEFAULT_SEED : /^\d+$/.test(seedText) ? Number(seedText) : seedText;
  const delay = integer('delay', str('delay'));
  let server: Awaited<ReturnType<typeof listen>>;
  try {
    server = await listen({
      port,
      host: str('host') ?? '127.0.0.1',
      seed,
      sizes,
      ...(state ? { state } : {}),
      ...(accessKey !== undefined && secretKey !== undefined
        ? { primaryKeys: { accessKey, secretKey } }
        : {}),
      ...(delay !== undefined ? { delayMs: delay } : {}),
      ...(values['rate-limit'] ? { rateLimit: true } : {}),
    });
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE')
      throw new UsageError(`port ${port} is already in use; pick another with --port`);
    if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
      throw new UsageError(`cannot bind to host "${str('host')}"`);
    if (err.name === 'HttpError' || err.name === 'ZodError')
      throw new UsageError(`--state: the snapshot is not valid: ${err.message}`);
    throw error;
  }
  const primary = server.core.accounts()[0];
  const lines = [
    `iacm mock server ${VERSION} listening on ${server.url}`,
    '',
    `Primary account: ${primary?.name} (${primary?.id})`,
    `  access key: ${primary?.accessKey}`,
    `  secret key: ${primary?.secretKey}`,
    '',
    'Try it:',
    `  TOKEN=$(curl -s -X POST ${server.url}/v2/login -H 'content-type: application/json' \\`,
    `    -d '{"accessKey":"${primary?.accessKey}","secretKey":"${primary?.secretKey}"}' | sed -E 's/.*"accessToken":"([^"]+)".*/\\1/')`,
    `  curl -s -X POST '${server.url}/v2/workspaces/search?pageSize=5' -H "authorization: Bearer $TOKEN" \\`,
    `    -H 'content-type: application/json' -d '{}'`,
    '',
    `Control plane (no auth, local only): ${server.url}/__mock/accounts, /__mock/reset, /__mock/journal, /__mock/faults`,
    'Press Ctrl+C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal} received, stopping\n`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`iacm-mock: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`iacm-mock: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
