/**
 * Values whose measures add up to exactly a budget, for the tests of the kept-bytes budgets (faults,
 * one-off answers, waits): heavy values of many small parts (the findings' kind, costly by the heap's
 * measure) while they fit, then padding text, then one padding of what is left.
 */
import { expect } from 'vitest';
import { matchHeapBytes } from '../../src/pipeline/request-match.js';

/** How a budget is filled: its measure, the heavy value, the padding and its largest length. */
export interface Filling<T> {
  /** What a value takes of the budget. */
  readonly measure: (value: T) => number;
  /** A value of many small parts. */
  readonly heavy: T;
  /** A value of `k` characters of text. */
  readonly padded: (k: number) => T;
  /** The longest padding one value may hold. */
  readonly padMax: number;
  /** How many heavy values at most (default: as many as fit). */
  readonly heavyAtMost?: number;
}

/** Values whose measures add up to exactly `bytes` (checked). */
export function filling<T>(bytes: number, how: Filling<T>): T[] {
  const heavyBytes = how.measure(how.heavy);
  const base = how.measure(how.padded(0));
  const padMax = how.measure(how.padded(how.padMax));
  const out: T[] = [];
  let left = bytes;
  let heavies = 0;
  while (left >= heavyBytes + padMax + base && heavies < (how.heavyAtMost ?? Number.POSITIVE_INFINITY)) {
    out.push(how.heavy);
    left -= heavyBytes;
    heavies += 1;
  }
  while (left >= padMax + base) {
    out.push(how.padded(how.padMax));
    left -= padMax;
  }
  // What is left is even (every measure is) and at least `base`.
  out.push(how.padded((left - base) / 2));
  expect(out.reduce((sum, value) => sum + how.measure(value), 0)).toBe(bytes);
  return out;
}

/** A `match` of a fault, a one-off answer or a wait. */
export type Match = { body?: Record<string, unknown>; query?: Record<string, unknown>; accountId?: string };

/**
 * A large `match` (400,000 characters of text, within a control body over HTTP): 800 KB by the heap's
 * measure. (A `match` of many small values, heavier still by the measure, cannot be made any more: its
 * arrays hold at most `MATCH_LIMITS.maxArrayItems` items together, and its members are the endpoint's.)
 */
export const heavyMatch: Match = { body: { searchValue: 'h'.repeat(400_000) } };

/** A `match` of `k` characters of text (`searchValue`), and the request it selects. */
export const paddedMatch = (k: number): Match => ({ body: { searchValue: 'x'.repeat(k) } });

/** The `match`es whose heap measures add up to exactly `bytes` (each within a control body over HTTP). */
export const matchesFilling = (bytes: number): Match[] =>
  filling(bytes, { measure: matchHeapBytes, heavy: heavyMatch, padded: paddedMatch, padMax: 200_000 });
