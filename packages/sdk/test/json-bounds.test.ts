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

/** `count` objects of one member each, in an array: 1 + count + count values. */
function smallObjects(count: number): unknown {
  return Array.from({ length: count }, (_, i) => ({ k: i }));
}

describe('checkJsonBounds at the exact limits (issue 20, finding 12)', () => {
  it('counts every object member toward maxNodes: a body of many small objects hits the node bound', () => {
    // 1 array + 100 objects + 100 member values = 201 values.
    expect(checkJsonBounds(smallObjects(100), { maxNodes: 201 })).toBeUndefined();
    expect(checkJsonBounds(smallObjects(100), { maxNodes: 200 })).toEqual({
      location: 'body',
      path: '',
      message: 'body: expected at most 200 values in all, received more than 200 values',
      expected: 'at most 200 values in all',
      received: 'more than 200 values',
      bound: 'maxNodes',
      limit: 200,
    });
    // Objects alone, no array: 1 + 3 members, then 1 + 3 + 2 nested members.
    expect(checkJsonBounds({ a: 1, b: 2, c: 3 }, { maxNodes: 4 })).toBeUndefined();
    expect(checkJsonBounds({ a: 1, b: 2, c: 3 }, { maxNodes: 3 })?.bound).toBe('maxNodes');
    expect(checkJsonBounds({ a: { x: 1, y: 2 }, b: 2, c: 3 }, { maxNodes: 6 })).toBeUndefined();
    expect(checkJsonBounds({ a: { x: 1, y: 2 }, b: 2, c: 3 }, { maxNodes: 5 })?.bound).toBe('maxNodes');
    // The shape of issue 20's login bodies: arrays of empty objects, each object one value.
    const empties = JSON.parse(`[${new Array(1_000).fill('[{},{},{}]').join(',')}]`);
    expect(checkJsonBounds(empties, { maxNodes: 4_001 })).toBeUndefined();
    expect(checkJsonBounds(empties, { maxNodes: 4_000 })?.bound).toBe('maxNodes');
  });

  it('maxNodes: the limit passes, one more fails; 0 refuses even a lone value, 1 takes it', () => {
    expect(checkJsonBounds([1, 2, 3], { maxNodes: 4 })).toBeUndefined();
    expect(checkJsonBounds([1, 2, 3], { maxNodes: 3 })?.bound).toBe('maxNodes');
    expect(checkJsonBounds(7, { maxNodes: 1 })).toBeUndefined();
    expect(checkJsonBounds({}, { maxNodes: 1 })).toBeUndefined();
    expect(checkJsonBounds([], { maxNodes: 1 })).toBeUndefined();
    expect(checkJsonBounds(7, { maxNodes: 0 })).toEqual({
      location: 'body',
      path: '',
      message: 'body: expected at most 0 values in all, received more than 0 values',
      expected: 'at most 0 values in all',
      received: 'more than 0 values',
      bound: 'maxNodes',
      limit: 0,
    });
    expect(checkJsonBounds(null, { maxNodes: 0 })?.bound).toBe('maxNodes');
  });

  it('maxArrayLength: the limit passes, one more fails naming the array; 0 takes only empty arrays', () => {
    expect(checkJsonBounds({ a: [1, 2, 3] }, { maxArrayLength: 3 })).toBeUndefined();
    expect(checkJsonBounds({ a: [1, 2, 3] }, { maxArrayLength: 2 })).toEqual({
      location: 'body',
      path: 'a',
      message: 'body.a: expected at most 2 items, received an array of 3 items',
      expected: 'at most 2 items',
      received: 'an array of 3 items',
      bound: 'maxArrayLength',
      limit: 2,
    });
    expect(checkJsonBounds({ a: [] }, { maxArrayLength: 0 })).toBeUndefined();
    expect(checkJsonBounds([1], { maxArrayLength: 0 })).toMatchObject({
      path: '',
      message: 'body: expected at most 0 items, received an array of 1 items',
    });
    // Objects are not arrays: their members are bounded by maxMembers only.
    expect(checkJsonBounds({ a: 1, b: 2 }, { maxArrayLength: 0 })).toBeUndefined();
  });

  it('maxMembers: the limit passes, one more fails naming the object; 0 takes only {}', () => {
    expect(checkJsonBounds([{ a: 1, b: 2 }], { maxMembers: 2 })).toBeUndefined();
    expect(checkJsonBounds([{ a: 1, b: 2 }], { maxMembers: 1 })).toEqual({
      location: 'body',
      path: '[0]',
      message: 'body.[0]: expected at most 1 members, received an object of 2 members',
      expected: 'at most 1 members',
      received: 'an object of 2 members',
      bound: 'maxMembers',
      limit: 1,
    });
    expect(checkJsonBounds({}, { maxMembers: 0 })).toBeUndefined();
    expect(checkJsonBounds({ a: 1 }, { maxMembers: 0 })?.bound).toBe('maxMembers');
    // Arrays are not objects: their items are bounded by maxArrayLength only.
    expect(checkJsonBounds([1, 2], { maxMembers: 0 })).toBeUndefined();
  });

  it('maxDepth: {} and [] are one level, so maxDepth 1 takes them and no container inside them', () => {
    expect(checkJsonBounds({}, { maxDepth: 1 })).toBeUndefined();
    expect(checkJsonBounds([], { maxDepth: 1 })).toBeUndefined();
    expect(checkJsonBounds({ a: 1, b: 'x', c: null }, { maxDepth: 1 })).toBeUndefined();
    expect(checkJsonBounds([1, 'x', null, true], { maxDepth: 1 })).toBeUndefined();
    expect(checkJsonBounds({ a: 1, b: {} }, { maxDepth: 1 })).toEqual({
      location: 'body',
      path: 'b',
      message: 'body.b: expected at most 1 levels of nesting, received more than 1 levels',
      expected: 'at most 1 levels of nesting',
      received: 'more than 1 levels',
      bound: 'maxDepth',
      limit: 1,
    });
    expect(checkJsonBounds([1, []], { maxDepth: 1 })?.path).toBe('[1]');
    // The limit passes, one more level fails.
    expect(checkJsonBounds(nested(5), { maxDepth: 5 })).toBeUndefined();
    expect(checkJsonBounds(nested(6), { maxDepth: 5 })).toMatchObject({
      path: '[0][0][0][0][0]',
      bound: 'maxDepth',
    });
    expect(checkJsonBounds({ a: { b: {} } }, { maxDepth: 3 })).toBeUndefined();
    expect(checkJsonBounds({ a: { b: { c: {} } } }, { maxDepth: 3 })?.path).toBe('a.b.c');
  });

  it('maxDepth 0 takes a lone value (no nesting at all) and refuses any array or object', () => {
    for (const value of [0, 'x', null, true]) expect(checkJsonBounds(value, { maxDepth: 0 })).toBeUndefined();
    expect(checkJsonBounds({}, { maxDepth: 0 })).toEqual({
      location: 'body',
      path: '',
      message: 'body: expected at most 0 levels of nesting, received more than 0 levels',
      expected: 'at most 0 levels of nesting',
      received: 'more than 0 levels',
      bound: 'maxDepth',
      limit: 0,
    });
    expect(checkJsonBounds([], { maxDepth: 0 })?.bound).toBe('maxDepth');
  });

  it('walks every container: a problem in the last member, or behind the first, is found', () => {
    expect(checkJsonBounds({ a: 1, b: 2, c: [1, 2, 3] }, { maxArrayLength: 2 })?.path).toBe('c');
    expect(checkJsonBounds([[1], [2, 3, 4]], { maxArrayLength: 2 })?.path).toBe('[1]');
    expect(checkJsonBounds([[[1, 2, 3]], [1]], { maxArrayLength: 2 })?.path).toBe('[0][0]');
    expect(checkJsonBounds({ a: { b: [1, 2, 3] }, c: [] }, { maxArrayLength: 2 })?.path).toBe('a.b');
    // Siblings are walked in document order, depth first: the first problem in the text is reported.
    expect(checkJsonBounds({ a: { x: [1, 2, 3] }, b: [1, 2, 3] }, { maxArrayLength: 2 })?.path).toBe('a.x');
  });

  it('writes paths of indexes and keys, keys cut after 60 characters', () => {
    expect(checkJsonBounds({ l: [{ deep: [1, 2, 3] }] }, { maxArrayLength: 2 })?.path).toBe('l[0].deep');
    expect(checkJsonBounds([[{ deep: [1, 2, 3] }]], { maxArrayLength: 2 })?.path).toBe('[0][0].deep');
    expect(checkJsonBounds([{ a: { b: {} } }], { maxDepth: 3 })?.path).toBe('[0].a.b');
    const exactly = 'k'.repeat(60);
    expect(checkJsonBounds({ [exactly]: [1, 2] }, { maxArrayLength: 1 })?.path).toBe(exactly);
    expect(checkJsonBounds({ [`${exactly}x`]: [1, 2] }, { maxArrayLength: 1 })?.path).toBe(`${exactly}…`);
    expect(checkJsonBounds({ a: { [`${exactly}x`]: {} } }, { maxDepth: 2 })?.path).toBe(`a.${exactly}…`);
  });

  it('takes the defaults for omitted bounds and 400 documents, and the location asked for', () => {
    expect(checkJsonBounds(new Array(10_001).fill(0))).toMatchObject({
      bound: 'maxArrayLength',
      limit: 10_000,
    });
    const wide = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`k${i}`, 0]));
    expect(checkJsonBounds(wide)).toMatchObject({ bound: 'maxMembers', limit: 10_000 });
    expect(checkJsonBounds(Object.fromEntries(Object.entries(wide).slice(1)))).toBeUndefined();
    expect(checkJsonBounds(nested(65))).toMatchObject({ bound: 'maxDepth', limit: 64 });
    // 1 root + 9,999 root items (99 arrays and 9,900 numbers) + 99 × 10,000 items = 1,000,000 values.
    const million: unknown[] = [
      ...Array.from({ length: 99 }, () => new Array(10_000).fill(0)),
      ...new Array(9_900).fill(0),
    ];
    expect(checkJsonBounds(million)).toBeUndefined();
    million.push(0);
    expect(checkJsonBounds(million)).toMatchObject({ bound: 'maxNodes', limit: 1_000_000 });
    expect(checkJsonBounds([1, 2], { maxArrayLength: 1, location: 'query' })?.message).toBe(
      'query: expected at most 1 items, received an array of 2 items',
    );
    expect(checkJsonBounds([1, 2], { maxArrayLength: 1 })?.location).toBe('body');
  });

  it('refuses a bound that is not a whole number 0 or more, naming it; Infinity is no bound', () => {
    for (const name of ['maxDepth', 'maxArrayLength', 'maxMembers', 'maxNodes'] as const) {
      for (const bad of [-1, 0.5, Number.NaN, Number.NEGATIVE_INFINITY, 2 ** 53]) {
        // Whatever the value (a primitive, an array, an object), the bounds are checked first.
        expect(() => checkJsonBounds([], { [name]: bad })).toThrow(
          new TypeError(`checkJsonBounds: ${name} must be a whole number, 0 or more, or Infinity`),
        );
      }
      expect(checkJsonBounds(nested(3), { [name]: Number.POSITIVE_INFINITY })).toBeUndefined();
    }
  });
});
