/**
 * Documented ranges of every number a caller sets (issue 20, finding 7): the range helper
 * (`errors/ranges.ts`), the clock (`POST /__mock/clock {"now": 9e15}` made every answer a 500 until
 * the clock resumed), and the rate limit (`limit: 0` answered every request 429 with
 * `Retry-After: NaN`).
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MockCore } from '../../src/app/mock.js';
import {
  checkOptionRange,
  checkRange,
  expectedOf,
  isInRange,
  optionGroupSchema,
  rangeSchema,
  resolveOptionGroup,
} from '../../src/errors/ranges.js';
import { parseOr400 } from '../../src/errors.js';
import { MAX_CLOCK_MS, MIN_CLOCK_MS, MovableClock } from '../../src/pipeline/clock.js';
import { expectError, refusal, setup } from '../helpers.js';

const EXTREMES = [1e308, -1e308, 9e15, 2 ** 53, -(2 ** 53), 1.5, -1, Number.MIN_VALUE];

describe('the range helper', () => {
  const range = { min: 1, max: 10, unit: 'seconds' };

  it('accepts finite numbers within [min, max] (integers unless told), both ends included', () => {
    expect([1, 10, 5].map((v) => isInRange(v, range))).toEqual([true, true, true]);
    for (const value of [0, 11, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '5', null, undefined, [5]])
      expect(isInRange(value, range)).toBe(false);
    expect(isInRange(1.5, { ...range, integer: false })).toBe(true);
    expect(isInRange(-0, { min: 0, max: 1 })).toBe(true);
    expect(expectedOf(range)).toBe('an integer from 1 to 10 (seconds)');
    expect(expectedOf({ min: 0, max: 1, integer: false })).toBe('a number from 0 to 1');
  });

  it('refuses a control value with a 400 naming the field, the range and what came', () => {
    const error = refusal(() => checkRange('windowSeconds', 1e308, range));
    expect([error.status, error.code, error.message]).toEqual([
      400,
      'validation_failed',
      'body.windowSeconds: expected an integer from 1 to 10 (seconds), received number 1e+308',
    ]);
    expect(error.issues).toEqual([
      {
        location: 'body',
        path: 'windowSeconds',
        message: error.message,
        expected: 'an integer from 1 to 10 (seconds)',
        received: 'number 1e+308',
      },
    ]);
    expect(refusal(() => checkRange('n', -0, range)).message).toMatch(/received number -0$/);
    expect(refusal(() => checkRange('n', 'x'.repeat(10_000), range)).message).toMatch(
      /received a string of 10000 characters$/,
    );
    expect(checkRange('n', 7, range)).toBe(7);
  });

  it('refuses an option with a RangeError naming the option, the range and what came', () => {
    expect(() => checkOptionRange('MockOptions x.n', 0, range)).toThrow(
      new RangeError('MockOptions x.n: expected an integer from 1 to 10 (seconds), received 0'),
    );
    expect(() => checkOptionRange('o', '5', range)).toThrow(/received a value of type string$/);
    expect(() => checkOptionRange('o', null, range)).toThrow(/received a value of type null$/);
  });

  it('makes one issue per bad member as a schema, whatever is wrong with it', () => {
    const schema = z.strictObject({ n: rangeSchema(range) });
    for (const value of [...EXTREMES, 0, '5', null, [], {}]) {
      const error = refusal(() => parseOr400(schema, { n: value }));
      expect(error.issues, String(value)).toHaveLength(1);
      expect(error.message).toMatch(/^body\.n: expected an integer from 1 to 10 \(seconds\), received /);
    }
    expect(parseOr400(schema, { n: 10 })).toEqual({ n: 10 });
  });

  it('resolves an option group: defaults for what is not given, each member checked, unknown ones refused', () => {
    const group = { ranges: { a: range, b: { min: 0, max: 5 } }, defaults: { a: 2, b: 0 } };
    expect(resolveOptionGroup(group, undefined, 'G')).toEqual({ a: 2, b: 0 });
    expect(resolveOptionGroup(group, { b: 5, a: undefined }, 'G')).toEqual({ a: 2, b: 5 });
    expect(() => resolveOptionGroup(group, { b: 6 }, 'G')).toThrow(
      'G.b: expected an integer from 0 to 5, received 6',
    );
    expect(() => resolveOptionGroup(group, { c: 1 }, 'G', 'bound')).toThrow(
      'G.c: unknown bound; expected a, b',
    );
    expect(() => resolveOptionGroup(group, 3, 'G')).toThrow('G: expected an object with some of a, b');
    const schema = optionGroupSchema(group);
    expect(schema.safeParse({ a: 11 }).success).toBe(false);
    expect(schema.safeParse({ c: 1 }).success).toBe(false);
    expect(schema.parse({ b: 0 })).toEqual({ b: 0 });
  });
});

/** The API answers after a control call: none may be a 500. */
async function apiStatuses(ctx: Awaited<ReturnType<typeof setup>>): Promise<number[]> {
  const [primary] = ctx.core.accounts();
  const login = await ctx.call('POST', '/v2/login', {
    token: null,
    body: { accessKey: primary?.accessKey, secretKey: primary?.secretKey },
  });
  const token = (login.body as { accessToken?: string }).accessToken ?? 'none';
  return [
    (await ctx.call('GET', '/v2/health', { token: null })).status,
    login.status,
    (await ctx.call('POST', '/v2/workspaces/search', { token, body: {} })).status,
    (await ctx.call('POST', '/v2/event-center', { token, body: {} })).status,
    (await ctx.call('GET', '/__mock/clock', { token: null })).status,
    (await ctx.call('GET', '/__mock/journal', { token: null })).status,
  ];
}

describe('the clock stays within what the API can write (finding 7)', () => {
  it('refuses an instant outside 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z with a 400, and every route keeps answering', async () => {
    const ctx = await setup({ sizes: { workspaces: 5, events: 20 } });
    const before = (await ctx.call('GET', '/__mock/clock', { token: null })).body;
    for (const now of [9e15, 8.64e15, 1e308, -1, -1e308, MAX_CLOCK_MS + 1, 2 ** 53, 1.5]) {
      const res = await ctx.call('POST', '/__mock/clock', { token: null, body: { now } });
      const error = expectError(res, 400, 'validation_failed');
      expect(error.issues?.map((i) => i.path)).toEqual(['now']);
      expect(error.message).toContain('1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z');
      expect((await ctx.call('GET', '/__mock/clock', { token: null })).body).toEqual(before);
    }
    for (const now of ['0000-01-01T00:00:00Z', '1969-12-31T23:59:59.999Z']) {
      const res = await ctx.call('POST', '/__mock/clock', { token: null, body: { now } });
      expect(expectError(res, 400, 'validation_failed').message).toMatch(/^body\.now: expected an instant/);
    }
    expect(refusal(() => ctx.core.control.clock.set(9e15)).status).toBe(400);
    expect((await apiStatuses(ctx)).filter((s) => s >= 500)).toEqual([]);
  });

  it('takes both ends of the range, and every route answers there', async () => {
    const ctx = await setup({ sizes: { workspaces: 5, events: 20 } });
    // As JSON text: `-0` is a number JSON can carry (and `JSON.stringify` would write as `0`).
    for (const now of [`${MIN_CLOCK_MS}`, `${MAX_CLOCK_MS}`, '"9999-12-31T23:59:59.999Z"', '-0']) {
      const res = await ctx.call('POST', '/__mock/clock', { token: null, rawBody: `{"now":${now}}` });
      expect(res.status).toBe(200);
      expect((await apiStatuses(ctx)).filter((s) => s >= 500)).toEqual([]);
    }
    expect((await ctx.call('GET', '/__mock/clock', { token: null })).body).toEqual({
      now: '1970-01-01T00:00:00.000Z',
    });
  });

  it('refuses a move that would leave the range, changing nothing', async () => {
    const ctx = await setup({ sizes: { workspaces: 5, events: 20 } });
    await ctx.call('POST', '/__mock/clock', { token: null, body: { now: '9999-06-01T00:00:00.000Z' } });
    const tenYears = 315_360_000_000;
    const far = await ctx.call('POST', '/__mock/clock', { token: null, body: { advanceMs: tenYears } });
    expect(expectError(far, 400, 'validation_failed').message).toBe(
      `body.advanceMs: expected a move that keeps the clock within an instant from 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (epoch milliseconds 0 to ${MAX_CLOCK_MS}), received number ${tenYears}, which would move the clock from 9999-06-01T00:00:00.000Z to +010009-05-29T00:00:00.000Z`,
    );
    const huge = await ctx.call('POST', '/__mock/clock', { token: null, body: { advanceMs: 1e308 } });
    expect(expectError(huge, 400, 'validation_failed').issues).toHaveLength(1);
    // `now` and `advanceMs` together are checked together: a 400 leaves the clock where it was.
    const both = await ctx.call('POST', '/__mock/clock', {
      token: null,
      body: { now: '2026-01-01T00:00:00.000Z', advanceMs: -tenYears * 6 },
    });
    expectError(both, 400, 'validation_failed');
    expect((await ctx.call('GET', '/__mock/clock', { token: null })).body).toEqual({
      now: '9999-06-01T00:00:00.000Z',
    });
    // `resume` with a move out of range is refused before the clock resumes.
    const resumed = await ctx.call('POST', '/__mock/clock', {
      token: null,
      body: { resume: true, advanceMs: 1e308 },
    });
    expectError(resumed, 400, 'validation_failed');
    expect((await ctx.call('GET', '/__mock/clock', { token: null })).body).toEqual({
      now: '9999-06-01T00:00:00.000Z',
    });
    expect(() => ctx.core.control.clock.advance(tenYears)).toThrow(/advanceMs/);
    expect((await apiStatuses(ctx)).filter((s) => s >= 500)).toEqual([]);
  });

  it('stops a running clock at the ends of its range', () => {
    let base = MAX_CLOCK_MS - 10;
    const clock = new MovableClock(() => base);
    base += 1000;
    expect(clock.now()).toBe(MAX_CLOCK_MS);
    base = -5000;
    expect(clock.now()).toBe(MIN_CLOCK_MS);
    clock.advance(10_000);
    expect(clock.now()).toBe(10_000);
    base = -4000;
    expect(clock.now()).toBe(11_000);
  });
});

describe('the rate limit has a documented range (finding 7)', () => {
  it('refuses a limit out of range in the options, naming it', () => {
    for (const limit of [0, -1, 1.5, 1e308, 1_000_001]) {
      expect(
        () => new MockCore({ sizes: { workspaces: 3 }, rateLimit: { limit, windowSeconds: 60 } }),
      ).toThrow(
        new RegExp(
          `^MockOptions rateLimit\\.limit: expected an integer from 1 to 1000000 \\(requests\\), received ${String(limit).replace('.', '\\.').replace('+', '\\+')}$`,
        ),
      );
    }
    expect(
      () => new MockCore({ sizes: { workspaces: 3 }, rateLimit: { limit: 5, windowSeconds: 0 } }),
    ).toThrow(
      /^MockOptions rateLimit\.windowSeconds: expected an integer from 1 to 86400 \(seconds\), received 0$/,
    );
    expect(
      () =>
        new MockCore({
          sizes: { workspaces: 3 },
          rateLimit: { limit: 5, windowSeconds: 60, burst: 2 } as never,
        }),
    ).toThrow(/rateLimit\.burst: unknown member/);
  });

  it('refuses control.setRateLimit out of range with a 400, keeping the setting it had', async () => {
    const ctx = await setup({ sizes: { workspaces: 5 } });
    for (const setting of [
      { limit: 0, windowSeconds: 60 },
      { limit: 5, windowSeconds: 1e308 },
      { limit: 5, windowSeconds: 60, burst: 2 },
      'on',
    ]) {
      const error = refusal(() => ctx.core.control.setRateLimit(setting as never));
      expect([error.status, error.code]).toEqual([400, 'validation_failed']);
    }
    expect(refusal(() => ctx.core.control.setRateLimit({ limit: 0, windowSeconds: 60 })).message).toBe(
      'body.limit: expected an integer from 1 to 1000000 (requests), received number 0',
    );
    for (let i = 0; i < 5; i++) expect((await ctx.call('GET', '/v2/health')).status).toBe(204);
  });

  it('refuses POST /__mock/rate-limit out of range with one issue naming the member', async () => {
    const ctx = await setup({ sizes: { workspaces: 5 } });
    for (const [body, field] of [
      [{ enabled: true, limit: 0 }, 'limit'],
      [{ enabled: true, limit: 1e308 }, 'limit'],
      [{ enabled: true, windowSeconds: 2 ** 53 }, 'windowSeconds'],
      [{ enabled: true, windowSeconds: 0.5 }, 'windowSeconds'],
    ] as const) {
      const error = expectError(
        await ctx.call('POST', '/__mock/rate-limit', { token: null, body }),
        400,
        'validation_failed',
      );
      expect(error.issues?.map((i) => i.path)).toEqual([field]);
    }
    const health = await ctx.call('GET', '/v2/health');
    expect([health.status, health.headers['retry-after']]).toEqual([204, undefined]);
  });
});
