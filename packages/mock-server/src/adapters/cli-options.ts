/**
 * The command line of `iacm-mock`: parsing, the documented maxima of the data sizes and their memory
 * budget, and the check of a `--state` snapshot. Every mistake is a {@link UsageError}: one line
 * naming the flag or file and what was expected, printed without a stack (exit code 2).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SESSION_RANGES } from '../app/sessions.js';
import { checkData } from '../control/data.js';
import type { Scenario } from '../domain/scenario.js';
import { FAULT_DELAY_RANGE } from '../pipeline/faults.js';
import { isLoopbackHost } from '../pipeline/host.js';
import { JOURNAL_RANGES } from '../pipeline/journal.js';
import { BUDGET_RANGES } from '../store/budget.js';
import {
  estimateSeedBytes,
  SEED_MEMORY_BUDGET,
  SEED_TEXT_LENGTH,
  SIZE_MAXIMA,
  SIZE_RANGES,
} from '../store/seed/limits.js';
import type { CheckedScene } from '../store/seed/scene.js';
import { DEFAULT_SEED, DEFAULT_SIZES, type MockState, type SeedSizes } from '../store/state.js';
import { MAX_TIMEOUT_MS, SERVER_TIMEOUT_RANGE } from './timeouts.js';

export { estimateSeedBytes, SEED_MEMORY_BUDGET, SIZE_MAXIMA };

import type { LogFormat } from './request-log.js';

/** A bad command line or input file: printed as one line without a stack, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The key pair of the primary account when neither `--access-key`/`--secret-key` nor `--state` give one. */
export const DEMO_KEYS = { accessKey: 'iacm_ak_demo', secretKey: 'iacm_sk_demo' } as const;

/** The longest `--delay`, milliseconds: the top of `FAULT_DELAY_RANGE` (a fault's and the `delayMs` option's). */
export const MAX_DELAY_MS = FAULT_DELAY_RANGE.max;

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
  /** The scene to start from (`--scene`), checked, and its file. */
  scene?: { file: string; scene: CheckedScene };
  /**
   * The scenario to play (`--scenario`), as the file holds it (checked whole), and its file: its scene
   * is the start data, its timeline plays on the mock's clock.
   */
  scenario?: { file: string; scenario: Scenario };
  /**
   * The primary account's key pair: `--access-key`/`--secret-key`, else the demo pair for generated
   * data on loopback; absent otherwise (off loopback the mock draws random pairs; a snapshot on
   * loopback keeps its own).
   */
  primaryKeys?: { accessKey: string; secretKey: string };
  /**
   * `--keep-state-keys`: off loopback, a snapshot (`--state`, `PUT /__mock/state`) keeps its key pairs
   * instead of getting random ones. Present only when given.
   */
  keepStateKeys?: true;
  /** Delay of every API answer, milliseconds. */
  delayMs?: number;
  /** Enforce the service's rate limit. */
  rateLimit: boolean;
  /** No request log. */
  quiet: boolean;
  /** Format of the request log and the other lines after the start. */
  logFormat: LogFormat;
  /** The control plane's bearer token (`--control-token` or `IACM_MOCK_CONTROL_TOKEN`). */
  controlToken?: string;
  /** No control plane over HTTP (`--no-control`). */
  noControl: boolean;
  /** Trust `X-Forwarded-For` from one proxy in front (the rate limit's client; `--trust-proxy`). */
  trustProxy: boolean;
  /** More `Host` names to accept (`--allowed-host`, repeatable). */
  allowedHosts: string[];
  /** The sessions' bounds (`--max-sessions`, `--session-idle`). */
  sessions?: { max?: number; idleMs?: number };
  /** `--clock manual`: the mock's clock stands at the start instant until moved (`POST /__mock/clock`). */
  manualClock?: boolean;
  /** The journal's bounds (`--journal-limit`, `--journal-max-bytes`). */
  journalLimit?: number;
  /** See `journalLimit`. */
  journalMaxBytes?: number;
  /** The memory budget (`--budget-bytes`, `--session-budget-bytes`). */
  budget?: { bytes?: number; sessionBytes?: number };
  /** Connection timeouts, ms (`--headers-timeout`, `--request-timeout`, `--keep-alive-timeout`, `--idle-timeout`). */
  timeouts: Partial<
    Record<'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'idleTimeoutMs', number>
  >;
}

/** The timeout flags, their option and their range (ms). */
const TIMEOUT_FLAGS = [
  ['headers-timeout', 'headersTimeoutMs'],
  ['request-timeout', 'requestTimeoutMs'],
  ['keep-alive-timeout', 'keepAliveTimeoutMs'],
  ['idle-timeout', 'idleTimeoutMs'],
] as const;

export { MAX_TIMEOUT_MS };

/** The most requests `--journal-limit` keeps, and the most bytes `--journal-max-bytes` allows (1 GiB). */
export const JOURNAL_MAXIMA = {
  limit: JOURNAL_RANGES.limit.max,
  bytes: JOURNAL_RANGES.maxBytes.max,
} as const;

/** The size flags and their size; each takes its size's range (`SIZE_RANGES`). */
const SIZE_FLAGS: ReadonlyArray<readonly [keyof SeedSizes, string]> = [
  ['accounts', 'accounts'],
  ['workspaces', 'workspaces'],
  ['runsPerWorkspace', 'runs-per-workspace'],
  ['rules', 'rules'],
  ['stacks', 'stacks'],
  ['events', 'events'],
  ['integrations', 'integrations'],
];

const quote = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value);

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`--${flag} expects a whole number from ${min} to ${max}, received ${quote(value)}`);
  return n;
}

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/**
 * Reads and checks a snapshot file (what `GET /__mock/state` answers), with the one check of data
 * (`checkData`, as `PUT /__mock/state` and the `state` option check one).
 * @throws UsageError naming the file and the snapshot's first problem, by its path.
 */
export function readSnapshot(
  file: string,
  read: (file: string) => string = (f) => readFileSync(f, 'utf8'),
): MockState {
  const json = readJsonFile('--state', file, read, 'a snapshot from GET /__mock/state');
  try {
    return checkData('snapshot', json).source.state;
  } catch (error) {
    throw new UsageError(
      `--state: ${quote(file)} is not a snapshot (expected what GET /__mock/state answers): ${(error as Error).message}`,
    );
  }
}

/** Reads a JSON file for `flag`: its text parsed, or a {@link UsageError} naming the file. */
function readJsonFile(flag: string, file: string, read: (file: string) => string, expected: string): unknown {
  let text: string;
  try {
    text = read(file);
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    const reason =
      err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a directory' : err.message;
    throw new UsageError(`${flag}: cannot read ${quote(file)}: ${reason}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${flag}: ${quote(file)} is not JSON (${(error as Error).message}); expected ${expected}`,
    );
  }
}

/**
 * Reads and checks a scene file (what `POST /__mock/scene` takes), with the one check of a scene.
 * @throws UsageError naming the file and the scene's first problem, by its path.
 */
export function readScene(file: string, read: (file: string) => string = (f) => readFileSync(f, 'utf8')) {
  const json = readJsonFile(
    '--scene',
    file,
    read,
    'a scene, what POST /__mock/scene takes (https://github.com/iacm/iacm/blob/main/docs/testing-with-the-mock.md#scenes)',
  );
  try {
    return checkData('scene', json).source.scene;
  } catch (error) {
    throw new UsageError(`--scene: ${quote(file)} is not a valid scene: ${(error as Error).message}`);
  }
}

/**
 * Reads and checks a scenario file (what `POST /__mock/scenario` takes), with the one check of a
 * scenario; answers the scenario as the file holds it (the mock's `scenario` option takes it).
 * @throws UsageError naming the file and the scenario's first problem, by its path.
 */
export function readScenario(
  file: string,
  read: (file: string) => string = (f) => readFileSync(f, 'utf8'),
): Scenario {
  const json = readJsonFile(
    '--scenario',
    file,
    read,
    'a scenario, what POST /__mock/scenario takes (https://github.com/iacm/iacm/blob/main/docs/testing-with-the-mock.md#scenarios)',
  );
  try {
    checkData('scenario', json);
    return json as Scenario;
  } catch (error) {
    throw new UsageError(`--scenario: ${quote(file)} is not a valid scenario: ${(error as Error).message}`);
  }
}

/**
 * Parses and checks the command line of `iacm-mock`.
 * @param argv the arguments after the script.
 * @param read reads a `--state` file (tests pass their own).
 * @throws UsageError for any bad flag, value or file.
 */
export function parseCommandLine(
  argv: string[],
  read?: (file: string) => string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): CliCommand {
  let values: Record<string, string | boolean | string[] | undefined>;
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
        scene: { type: 'string' },
        scenario: { type: 'string' },
        'keep-state-keys': { type: 'boolean' },
        delay: { type: 'string' },
        'rate-limit': { type: 'boolean' },
        quiet: { type: 'boolean' },
        'log-format': { type: 'string' },
        'control-token': { type: 'string' },
        'no-control': { type: 'boolean' },
        'trust-proxy': { type: 'boolean' },
        'allowed-host': { type: 'string', multiple: true },
        'journal-limit': { type: 'string' },
        'max-sessions': { type: 'string' },
        'session-idle': { type: 'string' },
        clock: { type: 'string' },
        'journal-max-bytes': { type: 'string' },
        'budget-bytes': { type: 'string' },
        'session-budget-bytes': { type: 'string' },
        'headers-timeout': { type: 'string' },
        'request-timeout': { type: 'string' },
        'keep-alive-timeout': { type: 'string' },
        'idle-timeout': { type: 'string' },
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
  const sceneFile = str('scene');
  const scenarioFile = str('scenario');
  const seedText = str('seed');
  const given = SIZE_FLAGS.filter(([, flag]) => str(flag) !== undefined).map(([, flag]) => `--${flag}`);
  if (
    scenarioFile !== undefined &&
    (sceneFile !== undefined || stateFile !== undefined || given.length > 0)
  ) {
    const flags = [
      ...(sceneFile !== undefined ? ['--scene'] : []),
      ...(stateFile !== undefined ? ['--state'] : []),
      ...given,
    ].join(', ');
    throw new UsageError(
      `--scenario cannot be combined with ${flags}: the scenario's scene says what the data holds (drop ${flags}, or --scenario)`,
    );
  }
  if (sceneFile !== undefined && (stateFile !== undefined || given.length > 0)) {
    const flags = [...(stateFile !== undefined ? ['--state'] : []), ...given].join(', ');
    throw new UsageError(
      `--scene cannot be combined with ${flags}: the scene says what the data holds (drop ${flags}, or --scene)`,
    );
  }
  if (stateFile !== undefined && (seedText !== undefined || given.length > 0)) {
    const flags = [...(seedText !== undefined ? ['--seed'] : []), ...given].join(', ');
    throw new UsageError(
      `--state cannot be combined with ${flags}: the snapshot holds the data (drop ${flags}, or --state)`,
    );
  }

  let seed: number | string = DEFAULT_SEED;
  if (seedText !== undefined) {
    if (seedText.length < SEED_TEXT_LENGTH.min || seedText.length > SEED_TEXT_LENGTH.max)
      throw new UsageError(
        `--seed expects a number or a text of ${SEED_TEXT_LENGTH.min} to ${SEED_TEXT_LENGTH.max} characters, received ${quote(seedText)}`,
      );
    seed = /^\d+$/.test(seedText) && Number.isSafeInteger(Number(seedText)) ? Number(seedText) : seedText;
  }

  const sizes: SeedSizes = { ...DEFAULT_SIZES };
  for (const [key, flag] of SIZE_FLAGS) {
    const value = str(flag);
    if (value !== undefined)
      sizes[key] = wholeNumber(flag, value, SIZE_RANGES[key].min, SIZE_RANGES[key].max);
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
  const delayMs =
    delayText === undefined
      ? undefined
      : wholeNumber('delay', delayText, FAULT_DELAY_RANGE.min, FAULT_DELAY_RANGE.max);

  const logFormat = str('log-format') ?? 'text';
  if (logFormat !== 'text' && logFormat !== 'json')
    throw new UsageError(`--log-format expects text or json, received ${quote(logFormat)}`);

  const noControl = values['no-control'] === true;
  const controlToken = str('control-token') ?? (env.IACM_MOCK_CONTROL_TOKEN || undefined);
  if (controlToken !== undefined) {
    if (noControl)
      throw new UsageError(
        '--control-token cannot be combined with --no-control: with no control plane, no token is needed',
      );
    if (controlToken.length < 16 || controlToken.length > 512 || /[^\x21-\x7e]/.test(controlToken))
      throw new UsageError(
        `--control-token (or IACM_MOCK_CONTROL_TOKEN) expects 16 to 512 visible ASCII characters without spaces, received ${controlToken.length} characters`,
      );
  }
  const allowedHosts = (values['allowed-host'] as string[] | undefined) ?? [];
  for (const name of allowedHosts) {
    if (name === '' || name.length > 253 || /[^a-zA-Z0-9.\-[\]:]/.test(name))
      throw new UsageError(
        `--allowed-host expects a host name or address (no port, no scheme), received ${quote(name)}`,
      );
  }
  const sessions: NonNullable<ServeOptions['sessions']> = {};
  const maxSessions = str('max-sessions');
  if (maxSessions !== undefined)
    sessions.max = wholeNumber('max-sessions', maxSessions, SESSION_RANGES.max.min, SESSION_RANGES.max.max);
  const sessionIdle = str('session-idle');
  if (sessionIdle !== undefined)
    sessions.idleMs = wholeNumber(
      'session-idle',
      sessionIdle,
      SESSION_RANGES.idleMs.min,
      SESSION_RANGES.idleMs.max,
    );
  const clock = str('clock') ?? 'real';
  if (clock !== 'real' && clock !== 'manual')
    throw new UsageError(`--clock expects real or manual, received ${quote(clock)}`);
  const journalText = str('journal-limit');
  const journalLimit =
    journalText === undefined
      ? undefined
      : wholeNumber('journal-limit', journalText, JOURNAL_RANGES.limit.min, JOURNAL_RANGES.limit.max);
  const journalBytesText = str('journal-max-bytes');
  const journalMaxBytes =
    journalBytesText === undefined
      ? undefined
      : wholeNumber(
          'journal-max-bytes',
          journalBytesText,
          JOURNAL_RANGES.maxBytes.min,
          JOURNAL_RANGES.maxBytes.max,
        );
  const budget: { bytes?: number; sessionBytes?: number } = {};
  for (const [flag, key] of [
    ['budget-bytes', 'bytes'],
    ['session-budget-bytes', 'sessionBytes'],
  ] as const) {
    const text = str(flag);
    if (text !== undefined)
      budget[key] = wholeNumber(flag, text, BUDGET_RANGES[key].min, BUDGET_RANGES[key].max);
  }
  const timeouts: ServeOptions['timeouts'] = {};
  for (const [flag, key] of TIMEOUT_FLAGS) {
    const text = str(flag);
    if (text !== undefined)
      timeouts[key] = wholeNumber(flag, text, SERVER_TIMEOUT_RANGE.min, SERVER_TIMEOUT_RANGE.max);
  }
  const loopback = isLoopbackHost(host);

  const keys = accessKey !== undefined && secretKey !== undefined ? { accessKey, secretKey } : undefined;
  const scene = sceneFile === undefined ? undefined : { file: sceneFile, scene: readScene(sceneFile, read) };
  const scenario =
    scenarioFile === undefined
      ? undefined
      : { file: scenarioFile, scenario: readScenario(scenarioFile, read) };
  let state: ServeOptions['state'];
  if (stateFile !== undefined) {
    const snapshot = readSnapshot(stateFile, read);
    // The snapshot's own key pairs stay, unless both keys are given for its primary account.
    const primary = snapshot.accounts[0];
    if (primary && keys) primary.account = { ...primary.account, ...keys };
    state = { file: stateFile, snapshot };
  }
  // Off loopback, the demo keys (the same in every mock) would let anyone in: random pairs instead
  // (a snapshot's too, unless --keep-state-keys); given keys still win for the primary account.
  const primaryKeys = keys ?? (state || !loopback ? undefined : { ...DEMO_KEYS });
  const keepStateKeys = values['keep-state-keys'] === true;

  return {
    kind: 'serve',
    options: {
      port,
      host,
      seed,
      sizes,
      ...(state ? { state } : {}),
      ...(scene ? { scene } : {}),
      ...(scenario ? { scenario } : {}),
      ...(primaryKeys ? { primaryKeys } : {}),
      ...(keepStateKeys ? { keepStateKeys: true as const } : {}),
      ...(delayMs !== undefined ? { delayMs } : {}),
      rateLimit: values['rate-limit'] === true,
      quiet: values.quiet === true,
      logFormat,
      ...(controlToken !== undefined ? { controlToken } : {}),
      noControl,
      trustProxy: values['trust-proxy'] === true,
      allowedHosts,
      ...(Object.keys(sessions).length > 0 ? { sessions } : {}),
      ...(clock === 'manual' ? { manualClock: true } : {}),
      ...(journalLimit !== undefined ? { journalLimit } : {}),
      ...(journalMaxBytes !== undefined ? { journalMaxBytes } : {}),
      ...(Object.keys(budget).length > 0 ? { budget } : {}),
      timeouts,
    },
  };
}
