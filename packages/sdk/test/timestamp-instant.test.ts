import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../../tests/support/fuzz.js';
import { Timestamp } from '../src/contract/primitives.js';

/** The obvious check: a timestamp is real when `Date` gives it back unchanged. */
function oracle(value: string): boolean {
  const ms = `${value.slice(0, 23)}Z`;
  const parsed = new Date(ms);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString() === ms;
}

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
const shaped = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }),
    two(19),
    two(39),
    two(29),
    two(69),
    two(69),
    fc.integer({ min: 0, max: 999 }),
  )
  .map(
    ([y, mo, d, h, mi, s, ms]) =>
      `${String(y).padStart(4, '0')}-${mo}-${d}T${h}:${mi}:${s}.${String(ms).padStart(3, '0')}Z`,
  );

describe('Timestamp: the cheap calendar check', () => {
  it('agrees with Date on every timestamp-shaped string', () => {
    fc.assert(
      fc.property(shaped, (value) => {
        expect(Timestamp.safeParse(value).success).toBe(oracle(value));
      }),
      { numRuns: fuzzRuns(5000), seed: fuzzSeed(2026) },
    );
  });

  it('knows leap years and month lengths', () => {
    expect(Timestamp.safeParse('2024-02-29T00:00:00.000Z').success).toBe(true);
    expect(Timestamp.safeParse('2023-02-29T00:00:00.000Z').success).toBe(false);
    expect(Timestamp.safeParse('1900-02-29T00:00:00.000Z').success).toBe(false);
    expect(Timestamp.safeParse('2000-02-29T00:00:00.000Z').success).toBe(true);
    expect(Timestamp.safeParse('2024-04-31T00:00:00.000Z').success).toBe(false);
    expect(Timestamp.safeParse('2024-12-31T23:59:59.999Z').success).toBe(true);
    expect(Timestamp.safeParse('2024-12-31T24:00:00.000Z').success).toBe(false);
  });
});
