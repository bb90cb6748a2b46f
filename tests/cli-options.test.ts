/**
 * The command line of `iacm-mock`: every bad flag or file is one line naming it and what was
 * expected (the CLI prints it and exits 2; tests/cli.test.ts checks that on the real process), sizes
 * are capped so a start cannot exhaust memory, and a snapshot is checked before use.
 */
import { describe, expect, it } from 'vitest';
import {
  DEMO_KEYS,
  estimateSeedBytes,
  parseCommandLine,
  SEED_MEMORY_BUDGET,
  type ServeOptions,
  SIZE_MAXIMA,
  UsageError,
} from '../packages/mock-server/src/adapters/cli-options.js';
import { startNotice } from '../packages/mock-server/src/adapters/progress.js';
import { generateState } from '../packages/mock-server/src/store/seed.js';
import { DEFAULT_SIZES } from '../packages/mock-server/src/store/state.js';

const noFile = (file: string): string => {
  throw Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`), { code: 'ENOENT' });
};

function serve(
  argv: string[],
  read: (file: string) => string = noFile,
  env: Record<string, string> = {},
): ServeOptions {
  const command = parseCommandLine(argv, read, env);
  if (command.kind !== 'serve') throw new Error(`expected a serve command, got ${command.kind}`);
  return command.options;
}

function usageError(argv: string[], read: (file: string) => string = noFile): string {
  try {
    parseCommandLine(argv, read, {});
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const { message } = error as Error;
    return message;
  }
  throw new Error(`${JSON.stringify(argv)} was accepted`);
}

describe('parseCommandLine', () => {
  it('defaults: port 4010 on 127.0.0.1, the default sizes, the demo key pair, a text request log', () => {
    expect(serve([])).toEqual({
      port: 4010,
      host: '127.0.0.1',
      seed: 1,
      sizes: DEFAULT_SIZES,
      primaryKeys: DEMO_KEYS,
      rateLimit: false,
      quiet: false,
      logFormat: 'text',
      noControl: false,
      trustProxy: false,
      allowedHosts: [],
      timeouts: {},
    });
    expect(DEMO_KEYS).toEqual({ accessKey: 'iacm_ak_demo', secretKey: 'iacm_sk_demo' });
  });

  it('reads every flag', () => {
    expect(
      serve([
        '--port=0',
        '--host',
        '::1',
        '--seed',
        'abc',
        '--workspaces',
        '10',
        '--access-key',
        'ak',
        '--secret-key',
        'sk',
        '--delay',
        '5',
        '--rate-limit',
        '--quiet',
        '--log-format',
        'json',
        '--control-token',
        'a-control-token-of-32-characters',
        '--allowed-host',
        'mock.internal',
        '--allowed-host',
        '10.0.0.5',
        '--journal-limit',
        '50',
        '--journal-max-bytes',
        '1000000',
        '--headers-timeout',
        '1000',
        '--request-timeout',
        '2000',
        '--keep-alive-timeout',
        '3000',
        '--idle-timeout',
        '4000',
        '--trust-proxy',
      ]),
    ).toEqual({
      port: 0,
      host: '::1',
      seed: 'abc',
      sizes: { ...DEFAULT_SIZES, workspaces: 10 },
      primaryKeys: { accessKey: 'ak', secretKey: 'sk' },
      delayMs: 5,
      rateLimit: true,
      quiet: true,
      logFormat: 'json',
      controlToken: 'a-control-token-of-32-characters',
      noControl: false,
      trustProxy: true,
      allowedHosts: ['mock.internal', '10.0.0.5'],
      journalLimit: 50,
      journalMaxBytes: 1000000,
      timeouts: {
        headersTimeoutMs: 1000,
        requestTimeoutMs: 2000,
        keepAliveTimeoutMs: 3000,
        idleTimeoutMs: 4000,
      },
    });
    // The token may come from the environment; off loopback there are no demo keys.
    const fromEnv = serve(['--host', '0.0.0.0'], noFile, { IACM_MOCK_CONTROL_TOKEN: 'x'.repeat(16) });
    expect(fromEnv.controlToken).toBe('x'.repeat(16));
    expect(fromEnv.primaryKeys).toBeUndefined();
    expect(serve(['--no-control']).noControl).toBe(true);
    expect(parseCommandLine(['--help'])).toEqual({ kind: 'help' });
    expect(parseCommandLine(['--version'])).toEqual({ kind: 'version' });
  });

  it.each([
    [['--bogus'], /^unknown option '--bogus'; run iacm-mock --help/],
    [['serve'], /^unexpected argument 'serve'/],
    [['--port'], /--port/],
    [['--port', 'abc'], /^--port expects a whole number from 0 to 65535, received "abc"$/],
    [['--port', '65536'], /^--port expects a whole number from 0 to 65535, received "65536"$/],
    [
      ['--workspaces', '1000000000'],
      /^--workspaces expects a whole number from 0 to 100000, received "1000000000"$/,
    ],
    [['--workspaces', '-1'], /--workspaces/],
    [['--events', '1e6'], /^--events expects a whole number from 0 to 1000000, received "1e6"$/],
    [['--accounts', '0'], /^--accounts expects a whole number from 1 to 50/],
    [['--runs-per-workspace', '101'], /^--runs-per-workspace expects a whole number from 0 to 100/],
    [['--rules', '10001'], /^--rules expects/],
    [['--stacks', '100001'], /^--stacks expects/],
    [['--integrations', '0'], /^--integrations expects a whole number from 1 to 1000/],
    [['--delay', '120001'], /^--delay expects a whole number from 0 to 120000/],
    [['--seed', ''], /^--seed expects a number or a text of 1 to 200 characters/],
    [['--access-key', 'a'], /^--access-key needs --secret-key/],
    [['--secret-key', 'a'], /^--secret-key needs --access-key/],
    [['--access-key', '', '--secret-key', 's'], /^--access-key expects a non-empty key/],
    [['--log-format', 'xml'], /^--log-format expects text or json, received "xml"$/],
    [['--host', ''], /^--host expects an address/],
    [
      ['--state', 's.json', '--seed', '2', '--events', '5'],
      /^--state cannot be combined with --seed, --events/,
    ],
  ])('%j: one line naming the flag and what was expected', (argv, message) => {
    const text = usageError(argv);
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
  });

  it('caps the product of the sizes: each flag within its maximum, together over the memory budget', () => {
    const text = usageError(['--workspaces', '100000', '--runs-per-workspace', '100']);
    expect(text).toMatch(
      /^--workspaces, --runs-per-workspace: these sizes would take about \d+\.\d GB of memory; the most is 1\.5 GB/,
    );
    expect(usageError(['--accounts', '50', '--workspaces', '100000'])).toMatch(/^--accounts, --workspaces: /);
    expect(
      usageError(['--events', '1000000', '--workspaces', '100000', '--runs-per-workspace', '20']),
    ).toMatch(/lower --workspaces, --runs-per-workspace, --events or --accounts$/);
  });

  it('accepts the largest documented data set: 100,000 workspaces with 6 runs each and 1,000,000 events', () => {
    expect(serve(['--workspaces', '100000', '--events', '1000000']).sizes).toMatchObject({
      workspaces: 100_000,
      events: 1_000_000,
    });
    // Each maximum alone fits.
    for (const [key, flag] of [
      ['accounts', '--accounts'],
      ['workspaces', '--workspaces'],
      ['runsPerWorkspace', '--runs-per-workspace'],
      ['rules', '--rules'],
      ['stacks', '--stacks'],
      ['events', '--events'],
      ['integrations', '--integrations'],
    ] as const) {
      expect(serve([flag, String(SIZE_MAXIMA[key])]).sizes[key]).toBe(SIZE_MAXIMA[key]);
    }
  });
});

describe('estimateSeedBytes', () => {
  it('puts every size at its maximum far over the budget, and the defaults far under it', () => {
    expect(estimateSeedBytes(SIZE_MAXIMA)).toBeGreaterThan(SEED_MEMORY_BUDGET * 10);
    expect(estimateSeedBytes(DEFAULT_SIZES)).toBeLessThan(SEED_MEMORY_BUDGET / 100);
  });

  it('grows with every size', () => {
    const base = estimateSeedBytes(DEFAULT_SIZES);
    for (const key of ['accounts', 'workspaces', 'runsPerWorkspace', 'rules', 'stacks', 'events'] as const) {
      expect(estimateSeedBytes({ ...DEFAULT_SIZES, [key]: DEFAULT_SIZES[key] * 2 }), key).toBeGreaterThan(
        base,
      );
    }
  });
});

describe('--state', () => {
  const snapshot = () => JSON.stringify(generateState({ seed: 3, sizes: { workspaces: 4, events: 10 } }));

  it('loads a snapshot and keeps its key pairs (no demo keys)', () => {
    const options = serve(['--state', 'snap.json'], () => snapshot());
    expect(options.state?.file).toBe('snap.json');
    expect(options.state?.snapshot.accounts[0]?.workspaces).toHaveLength(4);
    expect(options.primaryKeys).toBeUndefined();
    expect(options.state?.snapshot.accounts[0]?.account.accessKey).not.toBe(DEMO_KEYS.accessKey);
  });

  it('gives the snapshot’s primary account the keys passed with it', () => {
    const options = serve(['--state', 'snap.json', '--access-key', 'ak', '--secret-key', 'sk'], () =>
      snapshot(),
    );
    expect(options.state?.snapshot.accounts[0]?.account).toMatchObject({ accessKey: 'ak', secretKey: 'sk' });
    // Off loopback the mock draws random pairs for a snapshot too: the given pair must win over them.
    expect(options.primaryKeys).toEqual({ accessKey: 'ak', secretKey: 'sk' });
  });

  it('--keep-state-keys: kept only when given (off loopback a snapshot gets random pairs otherwise)', () => {
    const exposed = ['--host', '0.0.0.0', '--state', 'snap.json'];
    const env = { IACM_MOCK_CONTROL_TOKEN: 'x'.repeat(16) };
    expect(serve(exposed, () => snapshot(), env).keepStateKeys).toBeUndefined();
    expect(serve(exposed, () => snapshot(), env).primaryKeys).toBeUndefined();
    expect(serve([...exposed, '--keep-state-keys'], () => snapshot(), env).keepStateKeys).toBe(true);
  });

  it.each([
    [
      '{}',
      /^--state: "bad\.json" is not a snapshot \(expected what GET \/__mock\/state answers\): state\.version: /,
    ],
    ['[1,2]', /^--state: "bad\.json" is not a snapshot .*: state: expected object, received an array$/],
    [
      JSON.stringify({ version: 1, seed: 1, sizes: {}, accounts: [] }),
      /^--state: "bad\.json" is not a snapshot .*accounts: /,
    ],
    [
      '{"version": 1,',
      /^--state: "bad\.json" is not JSON \(.*\); expected a snapshot from GET \/__mock\/state$/,
    ],
  ])('refuses %s in one line naming the file', (content, message) => {
    const text = usageError(['--state', 'bad.json'], () => content);
    expect(text).toMatch(message);
  });

  it('refuses a file it cannot read, naming it', () => {
    expect(usageError(['--state', '/nowhere/state.json'])).toBe(
      '--state: cannot read "/nowhere/state.json": no such file',
    );
  });
});

describe('--max-sessions, --session-idle, --clock', () => {
  it('reads the sessions bounds and the clock', () => {
    const options = serve(['--max-sessions', '4', '--session-idle', '60000', '--clock', 'manual']);
    expect(options.sessions).toEqual({ max: 4, idleMs: 60000 });
    expect(options.manualClock).toBe(true);
    expect(serve([]).sessions).toBeUndefined();
    expect(serve(['--clock', 'real']).manualClock).toBeUndefined();
  });

  it.each([
    [['--max-sessions', '1001'], /^--max-sessions /],
    [['--session-idle', '999'], /^--session-idle /],
    [['--clock', 'fast'], /^--clock expects real or manual, received "fast"$/],
  ])('refuses %j', (argv, message) => {
    expect(usageError(argv)).toMatch(message);
  });
});

describe('--scene', () => {
  const scene = JSON.stringify({ accounts: [{ name: 'Acme', workspaces: [{ name: 'payments-prod' }] }] });

  it('reads and checks a scene file; --seed is the seed of a scene without one', () => {
    const options = serve(['--scene', 'scene.json', '--seed', '5'], () => scene);
    expect(options.scene?.file).toBe('scene.json');
    expect(options.scene?.scene.accounts?.[0]?.workspaces?.[0]?.name).toBe('payments-prod');
    expect(options.seed).toBe(5);
    expect(options.primaryKeys).toEqual(DEMO_KEYS);
  });

  it.each([
    [['--scene', 's.json', '--state', 't.json'], /^--scene cannot be combined with --state: /],
    [['--scene', 's.json', '--workspaces', '5'], /^--scene cannot be combined with --workspaces: /],
  ])('refuses %j', (argv, message) => {
    expect(usageError(argv, () => scene)).toMatch(message);
  });

  it('refuses a bad scene in one line naming the file and the path', () => {
    const bad = JSON.stringify({ accounts: [{ workspaces: [{ name: 'a', runs: [{ status: 'aplied' }] }] }] });
    expect(usageError(['--scene', 'bad.json'], () => bad)).toMatch(
      /^--scene: "bad\.json" is not a valid scene: scene\.accounts\[0\]\.workspaces\[0\]\.runs\[0\]\.status: /,
    );
    expect(usageError(['--scene', 'bad.json'], () => '{')).toMatch(/^--scene: "bad\.json" is not JSON \(/);
    expect(usageError(['--scene', '/nowhere/scene.json'])).toBe(
      '--scene: cannot read "/nowhere/scene.json": no such file',
    );
  });
});

describe('--scenario', () => {
  const scenario = JSON.stringify({
    scene: { accounts: [{ name: 'Acme', workspaces: [{ name: 'payments-prod' }] }] },
    timeline: [{ at: '+5m', simulateRun: { workspace: 'payments-prod' } }],
  });

  it('reads and checks a scenario file, kept as the file holds it', () => {
    const options = serve(['--scenario', 'storm.json', '--seed', '5'], () => scenario);
    expect(options.scenario?.file).toBe('storm.json');
    expect(options.scenario?.scenario).toEqual(JSON.parse(scenario));
    expect(options.seed).toBe(5);
  });

  it.each([
    [['--scenario', 's.json', '--scene', 't.json'], /^--scenario cannot be combined with --scene: /],
    [['--scenario', 's.json', '--state', 't.json'], /^--scenario cannot be combined with --state: /],
    [['--scenario', 's.json', '--stacks', '5'], /^--scenario cannot be combined with --stacks: /],
  ])('refuses %j', (argv, message) => {
    expect(usageError(argv, () => scenario)).toMatch(message);
  });

  it('refuses a bad scenario in one line naming the file and the path', () => {
    const bad = scenario.replace('"workspace":"payments-prod"', '"workspace":"payments"');
    expect(usageError(['--scenario', 'bad.json'], () => bad)).toBe(
      `--scenario: "bad.json" is not a valid scenario: scenario.timeline[0].simulateRun.workspace: expected the name of one of the account's workspaces, received "payments"`,
    );
    expect(usageError(['--scenario', '/nowhere/s.json'])).toBe(
      '--scenario: cannot read "/nowhere/s.json": no such file',
    );
  });
});

describe('startNotice (what is printed before a long start)', () => {
  it('announces large sizes only', () => {
    expect(startNotice(serve([]))).toBeUndefined();
    const notice = startNotice(serve(['--workspaces', '100000', '--events', '1000000']));
    expect(notice?.text).toBe(
      'seeding 100000 workspaces (up to 6 runs each), 1000000 events, 3 accounts ...',
    );
    expect(notice?.json).toMatchObject({ msg: 'seeding', workspaces: 100000, events: 1000000 });
  });

  it('does not announce a small snapshot', () => {
    expect(startNotice(serve(['--state', 's.json'], () => JSON.stringify(generateState())))).toBeUndefined();
  });
});
