/**
 * Every numeric option of a mock is range-checked by the one helper (`errors/ranges.ts`), alone or in
 * a group, with one wording: the option, its range and what came (issue 21: `rateLimit: { limit: 0 }`
 * was once accepted and answered every request 429 with `Retry-After: NaN`).
 */
import { describe, expect, it } from 'vitest';
import { MAX_DELAY_MS, parseCommandLine, UsageError } from '../../src/adapters/cli-options.js';
import { listen } from '../../src/adapters/node.js';
import { SERVER_TIMEOUT_RANGE } from '../../src/adapters/timeouts.js';
import { MockCore } from '../../src/app/mock.js';
import { OPTION_RANGES } from '../../src/app/options.js';
import { JOURNAL_LISTING_RANGE } from '../../src/control/journal.js';
import { expectedOf, type NumberRange, receivedOf } from '../../src/errors/ranges.js';
import { FAULT_DELAY_RANGE, FAULT_STATUS_RANGE, FAULT_TIMES_RANGE } from '../../src/pipeline/faults.js';
import { SEED_EXPECTED, SEED_RANGE, SEED_TEXT_LENGTH, SIZE_RANGES } from '../../src/store/seed/limits.js';
import { generateState } from '../../src/store/seed.js';
import { expectError, refusal, rejection, setup } from '../helpers.js';

const tiny = { sizes: { accounts: 1, workspaces: 1, runsPerWorkspace: 0, rules: 0, stacks: 0, events: 0 } };

describe('the options that stand alone', () => {
  for (const [name, range] of Object.entries(OPTION_RANGES)) {
    it(`${name}: takes both ends of ${expectedOf(range)}, refuses past either end naming the option`, () => {
      expect(() => new MockCore({ ...tiny, [name]: range.min })).not.toThrow();
      expect(() => new MockCore({ ...tiny, [name]: range.max })).not.toThrow();
      for (const value of [range.min - 1, range.max + 1, 1.5, Number.NaN]) {
        expect(() => new MockCore({ ...tiny, [name]: value }), `${name} ${value}`).toThrow(
          new RangeError(`MockOptions ${name}: expected ${expectedOf(range)}, received ${value}`),
        );
      }
      expect(() => new MockCore({ ...tiny, [name]: '5' as never })).toThrow(
        new RangeError(`MockOptions ${name}: expected ${expectedOf(range)}, received a value of type string`),
      );
    });
  }

  it('keeps what the options set: a token lives tokenTtlSeconds', async () => {
    const core = new MockCore({ ...tiny, tokenTtlSeconds: 7, clock: () => 1_000_000 });
    const [account] = core.accounts();
    const answer = await core.handle({
      method: 'POST',
      path: '/v2/login',
      headers: { 'content-type': 'application/json' },
      body: { accessKey: account?.accessKey, secretKey: account?.secretKey },
    });
    expect((answer.body as { expiresAt: number }).expiresAt).toBe(1000 + 7);
  });
});

describe('the option groups', () => {
  const cases: Array<[string, object, string]> = [
    [
      'rateLimit',
      { rateLimit: { limit: 0, windowSeconds: 60 } },
      'MockOptions rateLimit.limit: expected an integer from 1 to 1000000 (requests), received 0',
    ],
    [
      'loginThrottle',
      { loginThrottle: { maxKeys: 0 } },
      'MockOptions loginThrottle.maxKeys: expected an integer from 1 to 1000000 (access keys), received 0',
    ],
    [
      'deliveryPolicy',
      { deliveryPolicy: { attempts: 0 } },
      'MockOptions deliveryPolicy.attempts: expected an integer from 1 to 10',
    ],
    [
      'retention',
      { retention: { outboxPerAccount: 0 } },
      'MockOptions retention.outboxPerAccount: expected an integer from 1 to',
    ],
    [
      'limits',
      { limits: { rulesPerAccount: -1 } },
      'MockOptions limits.rulesPerAccount: expected an integer from',
    ],
  ];
  for (const [group, options, message] of cases) {
    it(`${group}: a member out of range is a RangeError naming it, its range and what came`, () => {
      let thrown: unknown;
      try {
        new MockCore({ ...tiny, ...options });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(RangeError);
      expect((thrown as Error).message.startsWith(message), (thrown as Error).message).toBe(true);
    });
  }

  it('names an unknown member of a group', () => {
    expect(() => new MockCore({ ...tiny, loginThrottle: { maxFailure: 3 } as never })).toThrow(
      'MockOptions loginThrottle.maxFailure: unknown member; expected maxFailures, windowSeconds, maxKeys',
    );
  });
});

describe("listen's timeouts", () => {
  for (const name of [
    'headersTimeoutMs',
    'requestTimeoutMs',
    'keepAliveTimeoutMs',
    'idleTimeoutMs',
  ] as const) {
    it(`${name}: refused out of ${expectedOf(SERVER_TIMEOUT_RANGE)} before anything is bound`, async () => {
      for (const value of [0, SERVER_TIMEOUT_RANGE.max + 1, -5]) {
        await expect(listen({ port: 0, ...tiny, [name]: value })).rejects.toThrow(
          new RangeError(
            `ListenOptions ${name}: expected ${expectedOf(SERVER_TIMEOUT_RANGE)}, received ${value}`,
          ),
        );
      }
    });
  }

  it('takes a timeout at either end of its range', async () => {
    for (const value of [SERVER_TIMEOUT_RANGE.min, SERVER_TIMEOUT_RANGE.max]) {
      const server = await listen({ port: 0, ...tiny, keepAliveTimeoutMs: value });
      await server.close();
    }
  });
});

/** A core with two small accounts (what `setup` needs) and an HTTP-like caller. */
const small = { sizes: { accounts: 2, workspaces: 2, runsPerWorkspace: 0, rules: 0, stacks: 0, events: 0 } };

/** The command-line flag of each seed size. */
const SIZE_FLAG: Record<keyof typeof SIZE_RANGES, string> = {
  accounts: 'accounts',
  workspaces: 'workspaces',
  runsPerWorkspace: 'runs-per-workspace',
  rules: 'rules',
  stacks: 'stacks',
  events: 'events',
  integrations: 'integrations',
};

/** The `UsageError` message `parseCommandLine` throws for `argv`. */
function usage(argv: string[]): string {
  try {
    parseCommandLine(argv, () => '');
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`expected a UsageError for ${argv.join(' ')}`);
}

describe('seed sizes: one range each (SIZE_RANGES), for the option, control.seed, POST /__mock/seed, a snapshot, the CLI and generateState', () => {
  for (const [name, range] of Object.entries(SIZE_RANGES) as [keyof typeof SIZE_RANGES, NumberRange][]) {
    it(`${name}: ${expectedOf(range)} everywhere, refused past either end naming it`, async () => {
      const m = await setup(small);
      const snapshot = await m.core.control.getState();
      for (const value of [range.min - 1, range.max + 1]) {
        const expected = `expected ${expectedOf(range)}`;
        expect(() => new MockCore({ ...tiny, sizes: { ...tiny.sizes, [name]: value } })).toThrow(
          new RangeError(`MockOptions sizes.${name}: ${expected}, received ${value}`),
        );
        expect(() => generateState({ sizes: { [name]: value } })).toThrow(
          new RangeError(`generateState sizes.${name}: ${expected}, received ${value}`),
        );
        const body = `body.sizes.${name}: ${expected}, received number ${value}`;
        expect((await rejection(m.core.control.seed(1, { [name]: value }))).message).toBe(body);
        const http = await m.call('POST', '/__mock/seed', {
          token: null,
          body: { seed: 1, sizes: { [name]: value } },
        });
        expect(expectError(http, 400, 'validation_failed').message).toBe(body);
        // A snapshot's problems are named under `state`, as a scene's under `scene`.
        const state = body.replace(/^body\./, 'state.');
        const bad = { ...snapshot, sizes: { ...snapshot.sizes, [name]: value } };
        expect((await rejection(m.core.control.setState(bad))).message).toBe(state);
        const put = await m.call('PUT', '/__mock/state', { token: null, body: bad });
        expect(expectError(put, 400, 'validation_failed').message).toBe(state);
        expect(usage([`--${SIZE_FLAG[name]}=${value}`])).toBe(
          `--${SIZE_FLAG[name]} expects a whole number from ${range.min} to ${range.max}, received "${value}"`,
        );
      }
      // Nothing was generated or loaded: the mock still has its small data.
      expect((await m.core.control.getState()).sizes).toEqual(snapshot.sizes);
    });
  }

  it('takes the lowest end of every range as an option and in control.seed, and a fraction nowhere', async () => {
    const lowest = Object.fromEntries(Object.entries(SIZE_RANGES).map(([k, r]) => [k, r.min]));
    expect((await new MockCore({ sizes: lowest }).control.getState()).sizes).toEqual(lowest);
    const m = await setup(small);
    await m.core.control.seed(3, lowest);
    expect((await m.core.control.getState()).sizes).toEqual(lowest);
    expect(() => new MockCore({ sizes: { events: 1.5 } })).toThrow(
      new RangeError(`MockOptions sizes.events: expected ${expectedOf(SIZE_RANGES.events)}, received 1.5`),
    );
    expect((await rejection(m.core.control.seed(1, { events: 1.5 }))).message).toBe(
      `body.sizes.events: expected ${expectedOf(SIZE_RANGES.events)}, received number 1.5`,
    );
  });

  it('refuses what the option once took and the route did not: integrations 0, accounts 0, an unknown size', () => {
    expect(() => new MockCore({ sizes: { integrations: 0 } })).toThrow(
      new RangeError('MockOptions sizes.integrations: expected an integer from 1 to 1000, received 0'),
    );
    expect(() => new MockCore({ sizes: { accounts: 0 } })).toThrow(
      new RangeError('MockOptions sizes.accounts: expected an integer from 1 to 50, received 0'),
    );
    expect(() => new MockCore({ sizes: { workspace: 3 } as never })).toThrow(
      'MockOptions sizes.workspace: unknown size; expected accounts, workspaces, runsPerWorkspace, rules, stacks, events, integrations',
    );
  });

  it('keeps the memory budget over the sizes together, each within its range', async () => {
    const big = {
      workspaces: SIZE_RANGES.workspaces.max,
      runsPerWorkspace: SIZE_RANGES.runsPerWorkspace.max,
    };
    expect(() => new MockCore({ sizes: big })).toThrow(/^MockOptions sizes: these sizes would take about/);
    const m = await setup(small);
    const error = await rejection(m.core.control.seed(1, big));
    expect(error.issues?.map((issue) => issue.path)).toEqual(['sizes']);
  });
});

describe('the seed: one definition (SEED_RANGE, SEED_TEXT_LENGTH) for the option, control.seed, POST /__mock/seed and a snapshot', () => {
  const longest = 'x'.repeat(SEED_TEXT_LENGTH.max);

  it('takes a safe integer at either end and a text of 1 to 200 characters', async () => {
    for (const seed of [SEED_RANGE.min, SEED_RANGE.max, -1, 'a', longest]) {
      expect((await new MockCore({ ...tiny, seed }).control.getState()).seed).toBe(seed);
    }
    const m = await setup(small);
    await m.core.control.seed(SEED_RANGE.max, small.sizes);
    const state = await m.core.control.getState();
    expect(state.seed).toBe(SEED_RANGE.max);
    await m.core.control.setState(state);
  });

  it('refuses NaN, Infinity, a fraction, an unsafe integer, an empty or too long text, naming the seed and what a seed may be', async () => {
    expect(SEED_EXPECTED).toBe(
      'an integer from -9007199254740991 to 9007199254740991, or a text of 1 to 200 characters',
    );
    const m = await setup(small);
    const snapshot = await m.core.control.getState();
    const cases: Array<[unknown, string, string]> = [
      [Number.NaN, 'NaN', 'number NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity', 'number Infinity'],
      [1.5, '1.5', 'number 1.5'],
      [2 ** 53, '9007199254740992', 'number 9007199254740992'],
      ['', 'a text of 0 characters', '""'],
      [`${longest}x`, 'a text of 201 characters', 'a string of 201 characters'],
    ];
    for (const [seed, option, body] of cases) {
      expect(() => new MockCore({ ...tiny, seed: seed as never }), String(seed)).toThrow(
        new RangeError(`MockOptions seed: expected ${SEED_EXPECTED}, received ${option}`),
      );
      const message = `body.seed: expected ${SEED_EXPECTED}, received ${body}`;
      expect((await rejection(m.core.control.seed(seed as never))).message).toBe(message);
      const inState = message.replace(/^body\./, 'state.');
      expect((await rejection(m.core.control.setState({ ...snapshot, seed } as never))).message).toBe(
        inState,
      );
      if (typeof seed === 'number' && !Number.isFinite(seed)) continue; // JSON has no NaN or Infinity
      const http = await m.call('POST', '/__mock/seed', { token: null, body: { seed } });
      expect(expectError(http, 400, 'validation_failed').message).toBe(message);
      const put = await m.call('PUT', '/__mock/state', { token: null, body: { ...snapshot, seed } });
      expect(expectError(put, 400, 'validation_failed').message).toBe(inState);
    }
  });

  it('--seed takes a text of the same length', () => {
    expect(usage(['--seed', `${longest}x`])).toMatch(
      /^--seed expects a number or a text of 1 to 200 characters/,
    );
    expect(parseCommandLine(['--seed', longest])).toMatchObject({ options: { seed: longest } });
  });
});

describe('fault bodies: times, status and delayMs each within its named range', () => {
  const cases: Array<[string, NumberRange, number[]]> = [
    ['times', FAULT_TIMES_RANGE, [0, FAULT_TIMES_RANGE.max + 1]],
    ['status', FAULT_STATUS_RANGE, [199, 600]],
    ['delayMs', FAULT_DELAY_RANGE, [-1, FAULT_DELAY_RANGE.max + 1]],
  ];
  for (const [member, range, values] of cases) {
    it(`${member}: ${expectedOf(range)}, in control.addFault and POST /__mock/faults alike`, async () => {
      const m = await setup(small);
      for (const value of [...values, 1.5]) {
        const message = `body.${member}: expected ${expectedOf(range)}, received number ${value}`;
        const rule = { path: '/v2/health', body: {}, [member]: value };
        expect(refusal(() => m.core.control.addFault(rule as never)).message).toBe(message);
        const http = await m.call('POST', '/__mock/faults', { token: null, body: rule });
        expect(expectError(http, 400, 'validation_failed').message).toBe(message);
      }
      expect(m.core.control.faults()).toEqual([]);
      m.core.control.addFault({ path: '/v2/health', body: {}, [member]: range.min });
      m.core.control.addFault({ path: '/v2/health', body: {}, [member]: range.max });
      expect(m.core.control.faults()).toHaveLength(2);
    });
  }

  it('the delay option and --delay take the same range as a fault delay', () => {
    expect(OPTION_RANGES.delayMs).toBe(FAULT_DELAY_RANGE);
    expect(MAX_DELAY_MS).toBe(FAULT_DELAY_RANGE.max);
    expect(usage(['--delay', String(FAULT_DELAY_RANGE.max + 1)])).toBe(
      `--delay expects a whole number from ${FAULT_DELAY_RANGE.min} to ${FAULT_DELAY_RANGE.max}, received "${FAULT_DELAY_RANGE.max + 1}"`,
    );
  });
});

describe("the journal listing's limit: one range, in control.journal and GET /__mock/journal?limit alike", () => {
  const expected = `expected ${expectedOf(JOURNAL_LISTING_RANGE)}`;

  it('is the journalLimit range: 0 to the most the journal keeps', () => {
    expect(expectedOf(JOURNAL_LISTING_RANGE)).toBe('an integer from 0 to 1000000 (requests)');
    expect(JOURNAL_LISTING_RANGE).toBe(OPTION_RANGES.journalLimit);
  });

  it('refuses -1, 1.5, NaN and 1e12 in process with a 400 naming query.limit', async () => {
    const m = await setup(small);
    for (const value of [-1, 1.5, Number.NaN, 1e12, JOURNAL_LISTING_RANGE.max + 1]) {
      const error = refusal(() => m.core.control.journal(value));
      expect([error.status, error.code, error.message]).toEqual([
        400,
        'validation_failed',
        `query.limit: ${expected}, received ${receivedOf(value)}`,
      ]);
      expect(error.issues?.map((issue) => [issue.location, issue.path])).toEqual([['query', 'limit']]);
    }
    expect(m.core.control.journal(0)).toEqual([]);
    expect(m.core.control.journal(JOURNAL_LISTING_RANGE.max).length).toBeGreaterThan(0);
  });

  it('refuses the same over HTTP, with the same message', async () => {
    const m = await setup(small);
    const cases: Array<[string, string]> = [
      ['-1', 'number -1'],
      ['1.5', 'number 1.5'],
      ['1e12', 'number 1000000000000'],
      ['abc', '"abc"'],
      [String(JOURNAL_LISTING_RANGE.max + 1), 'number 1000001'],
    ];
    for (const [text, received] of cases) {
      const res = await m.call('GET', '/__mock/journal', { token: null, query: { limit: text } });
      expect(expectError(res, 400, 'validation_failed').message).toBe(
        `query.limit: ${expected}, received ${received}`,
      );
    }
    const one = await m.call('GET', '/__mock/journal', { token: null, query: { limit: '1' } });
    expect([one.status, (one.body as unknown[]).length]).toEqual([200, 1]);
  });
});
