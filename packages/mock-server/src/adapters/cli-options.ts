/**
 * The command line of `iacm-mock`: parsing, the documented maxima of the data sizes and their memory
 * budget, and the check of a `--state` snapshot. Every mistake is a {@link UsageError}: one line
 * naming the flag or file and what was expected, printed without a stack (exit code 2).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { StateSchema } from '../control/state.js';
import { DEFAULT_SEED, DEFAULT_SIZES, type MockState, type SeedSizes } from '../store/state.js';
import type { LogFormat } from './request-log.js';

/** A bad command line or input file: printed as one line without a stack, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The key pair of the primary account when neither `--access-key`/`--secret-key` nor `--state` give one. */
export const DEMO_KEYS = { accessKey: 'iacm_ak_demo', secretKey: 'iacm_sk_demo' } as const;

/** The largest value each size flag takes. */
export const SIZE_MAXIMA: Readonly<SeedSizes> = {
  accounts: 50,
  workspaces: 100_000,
  runsPerWorkspace: 100,
  rules: 10_000,
  stacks: 100_000,
  events: 1_000_000,
  integrations: 1_000,
};

/**
 * The most memory the generated data may take, by {@link estimateSeedBytes}: 1.5 GB, what 100,000
 * workspaces with up to 6 runs each and 1,000,000 events take (with the default 3 accounts).
 */
export const SEED_MEMORY_BUDGET = 1_500_000_000;

/** The longest `--delay`, milliseconds (the longest fault delay of the control plane too). */
export const MAX_DELAY_MS = 120_000;

/**
 * About how many bytes of memory the generated data of these sizes takes, from measurements of the
 * generator: 1.5 KB a workspace, 1.6 KB a run (a workspace gets half its maximum on average), 0.4 KB
 * an event, 0.8 KB a stack, 1.6 KB a rule; each account after the first gets about a tenth of the
 * primary's data (3 workspaces, 4 rules, 3 stacks and 25 events at least).
 */
export function estimateSeedBytes(sizes: SeedSizes): number {
  const account = (workspaces: number, runs: number, rules: number, stacks: number, events: number) =>
    workspaces * 1500 +
    workspaces * runs * 800 +
    events * 400 +
    Math.min(stacks, workspaces) * 800 +
    rules * 1600;
  const primary = account(sizes.workspaces, sizes.runsPerWorkspace, sizes.rules, sizes.stacks, sizes.events);
  const other = account(
    Math.max(3, Math.floor(sizes.workspaces / 10)),
    Math.max(1, sizes.runsPerWorkspace),
    Math.max(4, Math.floor(sizes.rules / 10)),
    Math.max(3, Math.floor(sizes.stacks / 10)),
    Math.max(25, Math.floor(sizes.events / 10)),
  );
  return primary + (sizes.accounts - 1) * other;
}

/** What the command line asks for. */
export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | {
      kind: 'serve';
      /** The options of the run. */
      options: ServeOptions;
    };

/** The options of a run of the server. */
export interface ServeOptions {
  /** Port (0: a free one). */
  port: number;
  /** Address to bind. */
  host: string;
  /** Seed of the generated data. */
  seed: number | string;
  /** The data sizes, defaults included. */
  sizes: SeedSizes;
  /** The snapshot to start from (with the primary account's keys replaced when both were given), and its file. */
  state?: { file: string; snapshot: MockState };
  /** The primary account's key pair for generated data (absent with a snapshot). */
  primaryKeys?: { accessKey: string; secretKey: string };
  /** Delay of every API answer, milliseconds. */
  delayMs?: number;
  /** Enforce the service's rate limit. */
  rateLimit: boolean;
  /** No request log. */
  quiet: boolean;
  /** Format of the request log and the other lines after the start. */
  logFormat: LogFormat;
}

const SIZE_FLAGS: ReadonlyArray<readonly [keyof SeedSizes, string, number]> = [
  ['accounts', 'accounts', 1],
  ['workspaces', 'workspaces', 0],
  ['runsPerWorkspace', 'runs-per-workspace', 0],
  ['rules', 'rules', 0],
  ['stacks', 'stacks', 0],
  ['events', 'events', 0],
  ['integrations', 'integrations', 1],
];

const quote = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value);

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`--${flag} expects a whole number from ${min} to ${max}, received ${quote(value)}`);
  return n;
}

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/** One line describing the first few problems zod found in a snapshot. */
function describeIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  const shown = issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join('.');
    return `${path === '' ? '(top level)' : path}: ${issue.message}`;
  });
  const more = issues.length > shown.length ? ` (and ${issues.length - shown.length} more)` : '';
  return `${shown.join('; ')}${more}`;
}

/**
 * Reads and checks a snapshot file (what `GET /__mock/state` answers).
 * @throws UsageError naming the file when it cannot be read, is not JSON or is not a snapshot.
 */
export function readSnapshot(file: string, read: (file: string) => string = (f) => readFileSync(f, 'utf8')) {
  let text: string;
  try {
    text = read(file);
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    const reason =
      err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a directory' : err.message;
    throw new UsageError(`--state: cannot read ${quote(file)}: ${reason}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--state: ${quote(file)} is not JSON (${(error as Error).message}); expected a snapshot from GET /__mock/state`,
    );
  }
  const parsed = StateSchema.safeParse(json);
  if (!parsed.success) {
    throw new UsageError(
      `--state: ${quote(file)} is not a mock state snapshot (expected what GET /__mock/state answers): ${describeIssues(parsed.error.issues)}`,
    );
  }
  return parsed.data as unknown as MockState;
}

/**
 * Parses and checks the command line of `iacm-mock`.
 * @param argv the arguments after the script.
 * @param read reads a `--state` file (tests pass their own).
 * @throws UsageError for any bad flag, value or file.
 */
export function parseCommandLine(argv: string[], read?: (file: string) => string): CliCommand {
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
        quiet: { type: 'boolean' },
        'log-format': { type: 'string' },
        help: { type: 'boolean' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    const err = error as Error & { code?: string };
    const unknown = /'([^']+)'/.exec(err.message)?.[1];
    const message =
      err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown
        ? `unknown option '${unknown}'`
        : err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && unknown
          ? `unexpected argument '${unknown}' (every option starts with --)`
          : (err.message.split('\n')[0] ?? err.message);
    throw new UsageError(`${message}; run iacm-mock --help for the options`);
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const str = (name: string) => values[name] as string | undefined;

  const portText = str('port');
  const port = portText === undefined ? 4010 : wholeNumber('port', portText, 0, 65535);
  const host = str('host') ?? '127.0.0.1';
  if (host === '') throw new UsageError('--host expects an address to bind, like 127.0.0.1, received ""');

  const stateFile = str('state');
  const seedText = str('seed');
  const given = SIZE_FLAGS.filter(([, flag]) => str(flag) !== undefined).map(([, flag]) => `--${flag}`);
  if (stateFile !== undefined && (seedText !== undefined || given.length > 0)) {
    const flags = [...(seedText !== undefined ? ['--seed'] : []), ...given].join(', ');
    throw new UsageError(
      `--state cannot be combined with ${flags}: the snapshot holds the data (drop ${flags}, or --state)`,
    );
  }

  let seed: number | string = DEFAULT_SEED;
  if (seedText !== undefined) {
    if (seedText === '' || seedText.length > 200)
      throw new UsageError(
        `--seed expects a number or a text of 1 to 200 characters, received ${quote(seedText)}`,
      );
    seed = /^\d+$/.test(seedText) && Number.isSafeInteger(Number(seedText)) ? Number(seedText) : seedText;
  }

  const sizes: SeedSizes = { ...DEFAULT_SIZES };
  for (const [key, flag, min] of SIZE_FLAGS) {
    const value = str(flag);
    if (value !== undefined) sizes[key] = wholeNumber(flag, value, min, SIZE_MAXIMA[key]);
  }
  const bytes = estimateSeedBytes(sizes);
  if (bytes > SEED_MEMORY_BUDGET) {
    throw new UsageError(
      `${given.join(', ')}: these sizes would take about ${gb(bytes)} of memory; the most is ${gb(SEED_MEMORY_BUDGET)} (for example --workspaces 100000 --runs-per-workspace 6 --events 1000000): lower --workspaces, --runs-per-workspace, --events or --accounts`,
    );
  }

  const accessKey = str('access-key');
  const secretKey = str('secret-key');
  if ((accessKey === undefined) !== (secretKey === undefined))
    throw new UsageError(
      `${accessKey === undefined ? '--secret-key' : '--access-key'} needs ${accessKey === undefined ? '--access-key' : '--secret-key'}: give both or neither`,
    );
  if (accessKey === '' || secretKey === '')
    throw new UsageError(`--${accessKey === '' ? 'access-key' : 'secret-key'} expects a non-empty key`);

  const delayText = str('delay');
  const delayMs = delayText === undefined ? undefined : wholeNumber('delay', delayText, 0, MAX_DELAY_MS);

  const logFormat = str('log-format') ?? 'text';
  if (logFormat !== 'text' && logFormat !== 'json')
    throw new UsageError(`--log-format expects text or json, received ${quote(logFormat)}`);

  const keys = accessKey !== undefined && secretKey !== undefined ? { accessKey, secretKey } : undefined;
  let state: ServeOptions['state'];
  if (stateFile !== undefined) {
    const snapshot = readSnapshot(stateFile, read);
    // The snapshot's own key pairs stay, unless both keys are given for its primary account.
    const primary = snapshot.accounts[0];
    if (primary && keys) primary.account = { ...primary.account, ...keys };
    state = { file: stateFile, snapshot };
  }
  const primaryKeys = state ? undefined : (keys ?? { ...DEMO_KEYS });

  return {
    kind: 'serve',
    options: {
      port,
      host,
      seed,
      sizes,
      ...(state ? { state } : {}),
      ...(primaryKeys ? { primaryKeys } : {}),
      ...(delayMs !== undefined ? { delayMs } : {}),
      rateLimit: values['rate-limit'] === true,
      quiet: values.quiet === true,
      logFormat,
    },
  };
}
