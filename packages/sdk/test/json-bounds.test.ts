/**
 * The bounded pre-walk of parsed JSON (issue 13, M6): one iterative, linear walk that stops at the
 * first bound a value breaks and says where, which bound and what came.
 */
import { checkJsonBounds, DEFAULT_JSON_BOUNDS, FieldIssue } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';

/** Arrays nested `levels` deep, parsed (JSON.parse itself copes with any depth). */
function nested(levels: number): unknown {
  return JSON.parse('['.repeat(levels) + ']'.repeat(levels));
}

describe('checkJsonBounds', () => {
  it('passes every value within the defaults, and documents them', () => {
    expect(DEFAULT_JSON_BOUNDS).toEqual({
      maxDepth: 64,
      maxArrayLength: 10_000,
      maxMembers: 10_000,
      maxNodes: 1_000_000,
    });
    for (const value of [null, 0, 'x', true, [], {}, { filters: { labels: ['a', 'b'] } }, nested(64)]) {
      expect(checkJsonBounds(value)).toBeUndefined();
    }
    expect(checkJsonBounds(new Array(10_000).fill(0))).toBeUndefined();
  });

  it('a 200,000-deep array: no stack overflow, the path and the limit of the 65th level', () => {
    const problem = checkJsonBounds({ a: { b: nested(200_000) } });
    expect(problem).toEqual({
      location: 'body',
      path: `a.b${'[0]'.repeat(62)}`,
      message: `body.a.b${'[0]'.repeat(62)}: expected at most 64 levels of nesting, received more than 64 levels`,
      expected: 'at most 64 levels of nesting',
      received: 'more than 64 levels',
      bound: 'maxDepth',
      limit: 64,
    });
    // What a caller answers with: a 400 validation_failed whose issues are [problem], in the documented shape.
    expect(FieldIssue.safeParse(problem).success).toBe(true);
  });

  it('counts objects as levels too, and names hostile keys as they are', () => {
    let deep: unknown = null;
    for (let i = 0; i < 100; i++) deep = JSON.parse(`{"__proto__":${JSON.stringify(deep)}}`);
    const problem = checkJsonBounds(deep, { maxDepth: 3 });
    expect(problem?.path).toBe('__proto__.__proto__.__proto__');
    expect(problem?.bound).toBe('maxDepth');
  });

  it('an array over the limit: its path, the limit and its length, before any item is looked at', () => {
    const value = { filters: { labels: new Array(20_000).fill(nested(100)) } };
    expect(checkJsonBounds(value)).toMatchObject({
      path: 'filters.labels',
      message: 'body.filters.labels: expected at most 10000 items, received an array of 20000 items',
      expected: 'at most 10000 items',
      received: 'an array of 20000 items',
      bound: 'maxArrayLength',
      limit: 10_000,
    });
    expect(checkJsonBounds([[1, 2, 3]], { maxArrayLength: 2 })?.path).toBe('[0]');
  });

  it('an object with too many members, and too many values in all', () => {
    const wide = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i]));
    expect(checkJsonBounds({ x: wide }, { maxMembers: 10 })).toMatchObject({
      path: 'x',
      received: 'an object of 11 members',
      bound: 'maxMembers',
    });
    const many = Array.from({ length: 100 }, () => [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(checkJsonBounds(many, { maxNodes: 1_101 })).toBeUndefined();
    expect(checkJsonBounds(many, { maxNodes: 1_100 })).toMatchObject({
      path: '',
      message: 'body: expected at most 1100 values in all, received more than 1100 values',
      bound: 'maxNodes',
      limit: 1_100,
    });
  });

  it('reports the first problem in document order, and the location asked for', () => {
    const value = { a: [1, 2, 3], b: nested(10) };
    expect(checkJsonBounds(value, { maxArrayLength: 2, maxDepth: 3, location: 'query' })).toMatchObject({
      location: 'query',
      path: 'a',
      message: 'query.a: expected at most 2 items, received an array of 3 items',
    });
  });

  it('Infinity turns a bound off; a bound that is not a whole number is a TypeError naming it', () => {
    const off = Number.POSITIVE_INFINITY;
    expect(
      checkJsonBounds(nested(100_000), {
        maxDepth: off,
        maxArrayLength: off,
        maxMembers: off,
        maxNodes: off,
      }),
    ).toBeUndefined();
    for (const bad of [-1, 1.5, Number.NaN]) {
      expect(() => checkJsonBounds({}, { maxDepth: bad })).toThrow(/maxDepth/);
    }
  });

  it('cuts long keys in the path, and stops on a cyclic hand-built value', () => {
    const key = 'k'.repeat(10_000);
    const problem = checkJsonBounds({ [key]: [1, 2] }, { maxArrayLength: 1 });
    expect(problem?.path).toBe(`${'k'.repeat(60)}…`);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(checkJsonBounds(cyclic)?.bound).toBe('maxDepth');
  });
});
