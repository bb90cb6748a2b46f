/**
 * The API's timestamp text of epoch milliseconds (`iso`, query/dates.ts), which the seed writes for
 * millions of records and the journal for every request: exactly `Date#toISOString`, with a bounded
 * cache of day prefixes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../../../tests/support/fuzz.js';
import { ISO_DAYS_KEPT, iso, isoDaysKept } from '../../src/query/dates.js';

const FIRST = Date.parse('0000-01-01T00:00:00.000Z');
const LAST = Date.parse('9999-12-31T23:59:59.999Z');

describe('iso', () => {
  it('is Date#toISOString for every instant, years of four digits or not, fractions included', () => {
    const edges = [
      0,
      -1,
      1,
      86_399_999,
      86_400_000,
      FIRST,
      FIRST - 1,
      LAST,
      LAST + 1,
      8.64e15,
      -8.64e15,
      1.5,
      -1.5,
    ];
    for (const ms of edges) expect(iso(ms), String(ms)).toBe(new Date(ms).toISOString());
    fc.assert(
      fc.property(fc.double({ min: -8.64e15, max: 8.64e15, noNaN: true }), (ms) => {
        expect(iso(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: fuzzRuns(2000), seed: fuzzSeed(2611) },
    );
  });

  it('throws as Date#toISOString does for an instant that is none', () => {
    expect(() => iso(Number.NaN)).toThrow(RangeError);
    expect(() => iso(8.64e15 + 1)).toThrow(RangeError);
  });

  it(`keeps the prefixes of at most ${ISO_DAYS_KEPT} days, whatever days come`, () => {
    for (let day = 0; day < ISO_DAYS_KEPT * 2 + 10; day++) {
      expect(iso(day * 86_400_000 + 123)).toBe(new Date(day * 86_400_000 + 123).toISOString());
      expect(isoDaysKept()).toBeLessThanOrEqual(ISO_DAYS_KEPT);
    }
  });
});
