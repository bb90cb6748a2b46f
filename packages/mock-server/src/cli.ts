#!/usr/bin/env node
import {
  DEMO_KEYS,
  JOURNAL_MAXIMA,
  MAX_DELAY_MS,
  parseCommandLine,
  SEED_MEMORY_BUDGET,
  type ServeOptions,
  SIZE_MAXIMA,
  UsageError,
} from './adapters/cli-options.js';
import { DEFAULT_SERVER_TIMEOUTS, listen, type RunningMockServer, UnsafeBindError } from './adapters/node.js';
import { seedProgressPrinter, startNotice } from './adapters/progress.js';
import { RequestLog } from './adapters/request-log.js';
/**
 * `iacm-mock`: runs the standalone mock server.
 *
 * @packageDocumentation
 */
import { DEFAULT_SESSION_BOUNDS, SESSION_RANGES } from './app/sessions.js';
import { controlFlagHelp } from './control/docs-table.js';
import { CONTROL_TABLE } from './control/table.js';
import { isLoopbackHost } from './pipeline/host.js';
import { DEFAULT_JOURNAL_LIMIT, DEFAULT_JOURNAL_MAX_BYTES } from './pipeline/journal.js';
import { DEFAULT_SIZES } from './store/state.js';
import { VERSION } from './version.js';

/** The help line of a flag the control table declares (the row of the same concept says it once). */
function controlFlag(flag: string): string {
  const line = CONTROL_FLAG_HELP.get(flag);
  if (line === undefined) throw new Error(`the control table declares no help for ${flag}`);
  return line;
}

const CONTROL_FLAG_HELP = controlFlagHelp(CONTROL_TABLE);

const HELP = `iacm-mock ${VERSION}: a stateful mock of the IaC management service API

Usage: iacm-mock [options]

Options:
  --port <n>               port to listen on, 0 to 65535 (default 4010; 0 picks a free one)
  --host <host>            address to bind (default 127.0.0.1)
${controlFlag('--seed <seed>')}
  --accounts <n>           number of accounts, 1 to ${SIZE_MAXIMA.accounts} (default ${DEFAULT_SIZES.accounts})
  --workspaces <n>         workspaces of the primary account, 0 to ${SIZE_MAXIMA.workspaces} (default ${DEFAULT_SIZES.workspaces})
  --runs-per-workspace <n> most runs per workspace, 0 to ${SIZE_MAXIMA.runsPerWorkspace} (default ${DEFAULT_SIZES.runsPerWorkspace})
  --rules <n>              guardrail rules of the primary account, 0 to ${SIZE_MAXIMA.rules} (default ${DEFAULT_SIZES.rules})
  --stacks <n>             IaC stacks of the primary account, 0 to ${SIZE_MAXIMA.stacks} (default ${DEFAULT_SIZES.stacks})
  --events <n>             events of the primary account, 0 to ${SIZE_MAXIMA.events} (default ${DEFAULT_SIZES.events})
  --integrations <n>       integrations events come from, 1 to ${SIZE_MAXIMA.integrations} (default ${DEFAULT_SIZES.integrations})
  --access-key <key>       access key of the primary account (default ${DEMO_KEYS.accessKey})
  --secret-key <key>       secret key of the primary account (default ${DEMO_KEYS.secretKey})
${controlFlag('--scene <file>')}
${controlFlag('--scenario <file>')}
${controlFlag('--state <file>')}
  --keep-state-keys        off loopback, a snapshot (--state, PUT /__mock/state) keeps its key pairs
                           (by default every account gets a random pair there; see below)
  --delay <ms>             delay every API answer, 0 to ${MAX_DELAY_MS} milliseconds
${controlFlag('--rate-limit')}
  --quiet                  no line per request
  --log-format <format>    text (default) or json: one JSON object a line
  --control-token <token>  every /__mock request needs Authorization: Bearer <token> (16 to 512
                           characters; or set IACM_MOCK_CONTROL_TOKEN); required off loopback
  --no-control             serve no control plane (/__mock answers 404)
  --allowed-host <name>    accept this Host header too (repeatable; DNS-rebinding guard)
  --trust-proxy            count the rate limit by the last X-Forwarded-For entry (behind one reverse proxy)
  --max-sessions <n>       sessions (X-Iacm-Mock-Session) at a time, 0 to ${SESSION_RANGES.max.max} (default ${DEFAULT_SESSION_BOUNDS.max})
  --session-idle <ms>      a session unused this long (wall time) ends (default ${DEFAULT_SESSION_BOUNDS.idleMs})
${controlFlag('--clock <real|manual>')}
  --journal-limit <n>      requests the journal keeps, 0 to ${JOURNAL_MAXIMA.limit} (default ${DEFAULT_JOURNAL_LIMIT})
  --journal-max-bytes <n>  bytes the journal keeps (default ${DEFAULT_JOURNAL_MAX_BYTES}, 16 MiB)
  --budget-bytes <n>       bytes the mock keeps at run time, sessions included (default: half the heap limit)
  --session-budget-bytes <n> bytes one session keeps of it (default: a quarter of the budget)
  --headers-timeout <ms>   time to send a request's headers (default ${DEFAULT_SERVER_TIMEOUTS.headersTimeoutMs})
  --request-timeout <ms>   time to send a whole request (default ${DEFAULT_SERVER_TIMEOUTS.requestTimeoutMs})
  --keep-alive-timeout <ms> idle keep-alive connections close after (default ${DEFAULT_SERVER_TIMEOUTS.keepAliveTimeoutMs})
  --idle-timeout <ms>      silent connections close after (default ${DEFAULT_SERVER_TIMEOUTS.idleTimeoutMs})
  --help                   show this help
  --version                show the version

Sizes: besides each flag's maximum, the generated data may take at most about ${SEED_MEMORY_BUDGET / 1e9} GB of
memory (--workspaces 100000 --runs-per-workspace 6 --events 1000000 fits; every account after the first
adds about a tenth); larger sizes are refused. A bad flag or file exits with code 2.

GET / answers the routes and how to log in; the OpenAPI 3.1 document is served at /openapi.json. The
control plane is served under /__mock (reset, seed, state, accounts, journal, faults, rate-limit);
POST, PUT, PATCH and DELETE there need Content-Type: application/json. On a loopback address it needs
no token; on any other (--host 0.0.0.0) the server refuses to start without --control-token or
--no-control, and every account gets a random key pair, a snapshot's accounts (--state) too (unless
--keep-state-keys; --access-key/--secret-key still set the primary's): access keys are printed at
start, secret keys never (GET /__mock/accounts with the token shows them). A Host
header that is not the bound address, localhost, 127.0.0.1, [::1] or an --allowed-host gets 403.
SIGINT and SIGTERM stop the server (exit code 0).`;

/** Quotes a value for a POSIX shell when it needs it. */
function shq(value: string): string {
  return /^[\w.:/@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Where the accounts' key pairs come from: `random` (off loopback, drawn at start by the mock, kept
 * across resets), `snapshot` (a `--state` file's own: on loopback, or with `--keep-state-keys`), or
 * `seed` (the seed's documented pairs and the demo pair, on loopback). `--access-key`/`--secret-key`
 * set the primary's in every case.
 */
function keyPairSource(options: ServeOptions): 'random' | 'snapshot' | 'seed' {
  if (options.state && (options.keepStateKeys || isLoopbackHost(options.host))) return 'snapshot';
  return isLoopbackHost(options.host) ? 'seed' : 'random';
}

/**
 * Off loopback: every account's access key, one line each (the first {@link SIZE_MAXIMA}`.accounts`),
 * under a heading that says where the pairs come from. Secret keys are never printed (the console of a
 * shared host ends up in logs): they are at `GET /__mock/accounts` with the control token, and the
 * primary's can be set with `--secret-key`.
 */
function keyPairLines(server: RunningMockServer, options: ServeOptions): string[] {
  const { url } = server;
  const accounts = server.core.accounts();
  const heading =
    keyPairSource(options) === 'snapshot'
      ? "Key pairs (the snapshot's own, kept by --keep-state-keys: whoever has the snapshot can log in):"
      : 'Key pairs (random on this bind: drawn at start, kept across resets):';
  const shown = accounts.slice(0, SIZE_MAXIMA.accounts).map((account, index) => {
    const who = `  ${account.name} (${account.id}${index === 0 ? ', primary' : ''})`;
    const secret = index === 0 && options.primaryKeys ? ', secret key yours (--secret-key)' : '';
    return `${who}: access key ${account.accessKey}${secret}`;
  });
  if (accounts.length > shown.length) shown.push(`  ... and ${accounts.length - shown.length} more`);
  const notes = [
    ...(options.keepStateKeys && keyPairSource(options) === 'random'
      ? ['A snapshot loaded with PUT /__mock/state keeps its own key pairs (--keep-state-keys).']
      : []),
    options.noControl
      ? 'Secret keys are not printed; with --no-control only a pair you gave (--access-key/--secret-key) is usable.'
      : `Secret keys are not printed: GET ${url}/__mock/accounts with Authorization: Bearer <control token>`,
  ];
  return [heading, ...shown, ...notes];
}

function banner(server: RunningMockServer, options: ServeOptions): string {
  const { url } = server;
  const primary = server.core.accounts()[0];
  if (options.logFormat === 'json') {
    // For log tools: no secret key (GET /__mock/accounts has the pairs).
    return JSON.stringify({
      msg: 'listening',
      version: VERSION,
      url,
      primaryAccount: primary ? { id: primary.id, name: primary.name, accessKey: primary.accessKey } : null,
      keyPairs: `${url}/__mock/accounts`,
      keyPairSource: keyPairSource(options),
      openapi: `${url}/openapi.json`,
    });
  }
  const accessKey = primary?.accessKey ?? '';
  const secretKey = primary?.secretKey ?? '';
  const controlLine = options.noControl
    ? 'Control plane: off (--no-control).'
    : options.controlToken !== undefined
      ? `Control plane: ${url}/__mock/... with Authorization: Bearer <your --control-token>`
      : `Control plane (no auth, local only): ${url}/__mock/accounts, /__mock/reset, /__mock/journal, /__mock/faults`;
  if (!isLoopbackHost(options.host)) {
    // Off loopback the key pairs are the mock's own random secrets (or the snapshot's, by choice):
    // access keys are printed, secret keys never (the console of a shared host ends up in logs).
    return [
      `iacm mock server ${VERSION} listening on ${url}`,
      '',
      ...keyPairLines(server, options),
      '',
      `Routes and how to log in: ${url}/   OpenAPI document: ${url}/openapi.json`,
      controlLine,
      `${options.quiet ? '' : 'Each request is logged below (--quiet: no log). '}Press Ctrl+C to stop.`,
    ].join('\n');
  }
  return [
    `iacm mock server ${VERSION} listening on ${url}`,
    '',
    `Primary account: ${primary?.name} (${primary?.id}). Point the SDK and the examples at it:`,
    `  export IACM_BASE_URL=${url}`,
    `  export IACM_ACCESS_KEY=${shq(accessKey)}`,
    `  export IACM_SECRET_KEY=${shq(secretKey)}`,
    `Every account's key pair: ${url}/__mock/accounts`,
    '',
    'Try it:',
    `  TOKEN=$(curl -s -X POST ${url}/v2/login -H 'content-type: application/json' \\`,
    `    -d ${shq(JSON.stringify({ accessKey, secretKey }))} | sed -E 's/.*"accessToken":"([^"]+)".*/\\1/')`,
    `  curl -s -X POST '${url}/v2/workspaces/search?pageSize=5' -H "authorization: Bearer $TOKEN" \\`,
    `    -H 'content-type: application/json' -d '{}'`,
    '',
    `Routes and how to log in: ${url}/   OpenAPI document: ${url}/openapi.json`,
    controlLine,
    `${options.quiet ? '' : 'Each request is logged below (--quiet: no log). '}Press Ctrl+C to stop.`,
  ].join('\n');
}

async function main(argv: string[]): Promise<void> {
  const command = parseCommandLine(argv);
  if (command.kind === 'help') {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  if (command.kind === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const { options } = command;
  const json = options.logFormat === 'json';
  const out = (text: string, object: Record<string, unknown>) =>
    process.stdout.write(`${json ? JSON.stringify(object) : text}\n`);

  const log = options.quiet ? undefined : new RequestLog(process.stdout, options.logFormat);
  // A reader that went away (EPIPE) must not stop the server: stop logging instead.
  process.stdout.on('error', () => log?.markBroken());

  let server: RunningMockServer | undefined;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // Lines dropped since the last report would otherwise wait for a drain that may never come.
    log?.stop();
    out(`\n${signal} received, stopping`, { msg: 'stopping', signal });
    if (!server) process.exit(0);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  watchWrapper(() => stop('SIGTERM'));

  const notice = startNotice(options);
  if (notice) out(notice.text, notice.json);
  const started = performance.now();
  try {
    server = await listen({
      port: options.port,
      host: options.host,
      seed: options.seed,
      ...(options.scene
        ? { scene: options.scene.scene }
        : options.scenario
          ? { scenario: options.scenario.scenario }
          : { sizes: options.sizes }),
      ...(options.state ? { state: options.state.snapshot } : {}),
      ...(options.primaryKeys ? { primaryKeys: options.primaryKeys } : {}),
      ...(options.keepStateKeys ? { keepStateKeys: true } : {}),
      ...(options.delayMs !== undefined ? { delayMs: options.delayMs } : {}),
      ...(options.rateLimit ? { rateLimit: true } : {}),
      ...(options.controlToken !== undefined ? { controlToken: options.controlToken } : {}),
      ...(options.noControl ? { control: false } : {}),
      ...(options.trustProxy ? { trustProxy: true } : {}),
      allowedHosts: options.allowedHosts,
      ...(options.journalLimit !== undefined ? { journalLimit: options.journalLimit } : {}),
      ...(options.sessions ? { sessions: options.sessions } : {}),
      // A manual clock stands at the start instant: only POST /__mock/clock moves it, and reset returns to it.
      ...(options.manualClock ? { clock: manualClock(Date.now()) } : {}),
      ...(options.journalMaxBytes !== undefined ? { journalMaxBytes: options.journalMaxBytes } : {}),
      ...(options.budget ? { budget: options.budget } : {}),
      ...options.timeouts,
      ...(log ? { onRequest: (request) => log.log(request) } : {}),
      // Not silenced by --quiet (which turns off the request log only), like the start lines.
      onSeedProgress: seedProgressPrinter((line) => out(line.text, line.json)),
    });
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    if (error instanceof UnsafeBindError) throw new UsageError(error.message);
    if (err.code === 'EADDRINUSE')
      throw new UsageError(
        `--port: port ${options.port} is already in use; pick another, or 0 for a free one`,
      );
    if (err.code === 'EACCES')
      throw new UsageError(`--port: port ${options.port} needs privileges; pick one above 1023, or 0`);
    if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
      throw new UsageError(
        `--host: cannot bind to ${JSON.stringify(options.host)}; expected a local address`,
      );
    if (options.state && (err.name === 'HttpError' || err.name === 'ZodError'))
      throw new UsageError(
        `--state: ${JSON.stringify(options.state.file)} is not a valid snapshot: ${err.message.split('\n')[0]}`,
      );
    throw error;
  }
  if (notice) {
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    out(`${options.state ? 'loaded' : 'seeded'} in ${seconds} s`, {
      msg: options.state ? 'loaded' : 'seeded',
      seconds,
    });
  }
  if (stopping) return;
  process.stdout.write(`${banner(server, options)}\n`);
}

/** A clock that stands at `start`: the mock's clock then moves only when told to. */
function manualClock(start: number): () => number {
  return () => start;
}

/**
 * Under a package manager's wrapper (`npx iacm-mock`, `npm exec`, `pnpm start`), the command runs
 * through `sh -c`: a SIGTERM to the wrapper reaches that shell, which dies without passing it on,
 * and this process is re-parented while it keeps the port. So, only when started by such a wrapper
 * (npm and pnpm set `npm_command` / `npm_lifecycle_event`), the server stops as on SIGTERM once its
 * parent is gone. Started directly (`node dist/cli.js`, `nohup iacm-mock &`), it outlives its parent.
 */
function watchWrapper(onOrphaned: () => void): void {
  const env = process.env;
  if (env.npm_command === undefined && env.npm_lifecycle_event === undefined) return;
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) onOrphaned();
  }, 250).unref();
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`iacm-mock: ${error.message.replace(/\s*\n\s*/g, ' ')}\n`);
    process.exit(2);
  }
  process.stderr.write(`iacm-mock: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
