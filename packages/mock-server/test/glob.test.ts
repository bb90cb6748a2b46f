import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatch as exported } from '../src/domain/evaluate.js';
import { globMatch } from '../src/query/glob.js';

/** A reference matcher, obviously right and quadratic: `match[i][j]` = pattern[..i] matches value[..j]. */
function reference(pattern: string, value: string): boolean {
  let row = Array.from({ length: value.length + 1 }, (_, j) => j === 0);
  for (const c of pattern) {
    const next = new Array<boolean>(value.length + 1).fill(false);
    if (c === '*') {
      next[0] = row[0] as boolean;
      for (let j = 1; j <= value.length; j++) next[j] = (row[j] as boolean) || (next[j - 1] as boolean);
    } else {
      for (let j = 1; j <= value.length; j++) next[j] = (row[j - 1] as boolean) && value[j - 1] === c;
    }
    row = next;
  }
  return row[value.length] as boolean;
}

describe('globMatch', () => {
  it('is the matcher the package exports', () => {
    expect(exported).toBe(globMatch);
  });

  it.each([
    // no star: equality
    ['', '', true],
    ['', 'x', false],
    ['abc', 'abc', true],
    ['abc', 'abd', false],
    ['abc', 'ABC', false],
    // only stars
    ['*', '', true],
    ['*', 'any/thing/with/slashes', true],
    ['***', '', true],
    ['***', 'xyz', true],
    // leading and trailing stars
    ['*.tf', 'main.tf', true],
    ['*.tf', 'main.tf.json', false],
    ['sandbox-*', 'sandbox-', true],
    ['sandbox-*', 'sandbox', false],
    ['*prod*', 'prod', true],
    ['*prod*', 'pro', false],
    // adjacent stars read as one
    ['a**b', 'ab', true],
    ['a**b', 'aXYb', true],
    ['a**b', 'aXY', false],
    // anchored segments must not overlap
    ['a*ab', 'aab', true],
    ['a*ab', 'ab', false],
    ['ab*ba', 'aba', false],
    ['ab*ba', 'abba', true],
    ['aa*aa', 'aaa', false],
    ['aa*aa', 'aaaa', true],
    // middle segments in order, leftmost first, never inside the last segment
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['*b*b*', 'b', false],
    ['*b*b*', 'bb', true],
    ['a*bc*bc', 'abcbc', true],
    ['a*bc*bc', 'abc', false],
    ['*ab*b', 'ab', false],
    ['*ab*b', 'abb', true],
    // slashes and line breaks are ordinary characters for `*`
    ['feature/*', 'feature/a/b', true],
    ['a*b', 'a\nb', true],
    ['a*', 'a\n', true],
    ['a\nb', 'a\nb', true],
    // regex metacharacters are literal
    ['a.c', 'abc', false],
    ['a.c', 'a.c', true],
    ['a+b', 'aab', false],
    ['[ab]', 'a', false],
    ['?', 'a', false],
    ['^main$', '^main$', true],
    ['(x)|y', 'y', false],
    ['a\\*', 'a\\bc', true],
  ])('globMatch(%j, %j) is %s', (pattern, value, expected) => {
    expect(globMatch(pattern, value)).toBe(expected);
    expect(reference(pattern, value)).toBe(expected);
  });

  it('answers pathological inputs that would make a backtracking matcher hang', () => {
    const many = `${'a*'.repeat(5_000)}b`;
    expect(globMatch(many, 'a'.repeat(200_000))).toBe(false);
    expect(globMatch(many, `${'a'.repeat(200_000)}b`)).toBe(true);
    expect(globMatch('*'.repeat(100_000), 'x'.repeat(100_000))).toBe(true);
    expect(globMatch(`*${'a'.repeat(1_000)}b*`, 'a'.repeat(1_000_000))).toBe(false);
    expect(globMatch('*ab*ab*ab*ab*ab*c', 'ab'.repeat(500_000))).toBe(false);
  });

  it('agrees with a dynamic-programming reference on small alphabets', () => {
    const pattern = fc.string({ unit: fc.constantFrom('a', 'b', '*', '\n'), maxLength: 10 });
    const value = fc.string({ unit: fc.constantFrom('a', 'b', '/', '\n'), maxLength: 14 });
    fc.assert(
      fc.property(pattern, value, (p, v) => globMatch(p, v) === reference(p, v)),
      { numRuns: 5_000 },
    );
  });

  it('matches every value against a pattern made from it by turning characters into stars', () => {
    const input = fc
      .string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 16 })
      .chain((v) =>
        fc.tuple(fc.constant(v), fc.array(fc.boolean(), { minLength: v.length, maxLength: v.length })),
      );
    fc.assert(
      fc.property(input, ([v, stars]) => {
        const p = Array.from(v, (c, i) => (stars[i] ? '*' : c)).join('');
        return globMatch(p, v);
      }),
      { numRuns: 2_000 },
    );
  });

  it('answers the same when a pattern comes again, after thousands of others and for long patterns', () => {
    // The matcher keeps the last patterns it split (a bounded cache): answers must not depend on it.
    const long = `${'ab*'.repeat(200)}z`;
    const longValue = `${'ab'.repeat(200)}z`;
    const first = [
      globMatch('team-*-prod', 'team-a-prod'),
      globMatch(long, longValue),
      globMatch(long, 'abz'),
    ];
    expect(first).toEqual([true, true, false]);
    for (let i = 0; i < 3000; i++) expect(globMatch(`p${i}-*`, `p${i}-x`)).toBe(true);
    expect([
      globMatch('team-*-prod', 'team-a-prod'),
      globMatch(long, longValue),
      globMatch(long, 'abz'),
    ]).toEqual(first);
    expect(globMatch('team-*-prod', 'team-a-dev')).toBe(false);
  });
});
