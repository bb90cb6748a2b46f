/**
 * Every numeric option of a mock is range-checked by the one helper (`errors/ranges.ts`), alone or in
 * a group, with one wording: the option, its range and what came (issue 21: `rateLimit: { limit: 0 }`
 * was once accepted and answered every request 429 with `Retry-After: NaN`).
 */
import { describe, expect, it } from 'vitest';
import { listen } from '../../src/adapters/node.js';
import { SERVER_TIMEOUT_RANGE } from '../../src/adapters/timeouts.js';
import { MockCore } from '../../src/app/mock.js';
import { OPTION_RANGES } from '../../src/app/options.js';
import { expectedOf } from '../../src/errors/ranges.js';

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
