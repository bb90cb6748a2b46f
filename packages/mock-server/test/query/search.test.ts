/**
 * The query engine behind every search (`query/search.ts`): any-of matching, filters with `$or`,
 * empty lists that add no constraint, predicates combined, projection and small-list paging. The
 * endpoints' behaviour is tested through the API in test/semantics/; these pin each rule on its own.
 */
import { describe, expect, it } from 'vitest';
import {
  addsNoConstraint,
  allOf,
  anyOf,
  type FilterSpec,
  filterPredicate,
  pageOf,
  project,
} from '../../src/query/search.js';

interface Workspace {
  id: string;
  name: string;
  status: string;
  labels: string[];
  provider?: string;
}

const records: Workspace[] = [
  { id: 'w1', name: 'prod-eu', status: 'active', labels: ['team:core', 'tier:1'], provider: 'aws' },
  { id: 'w2', name: 'prod-us', status: 'locked', labels: ['team:edge'], provider: 'gcp' },
  { id: 'w3', name: 'dev', status: 'active', labels: [] },
];

const spec: FilterSpec<Workspace> = {
  status: (w, wanted: string[]) => anyOf(w.status, wanted),
  labels: (w, wanted: string[]) => anyOf(w.labels, wanted),
  provider: (w, wanted: string[]) => anyOf(w.provider, wanted),
};

/** The ids of the records a filters object keeps (all of them when it builds no predicate). */
function ids(filters: Parameters<typeof filterPredicate<Workspace>>[1]): string[] {
  const predicate = filterPredicate(spec, filters);
  return records.filter((r) => (predicate ? predicate(r) : true)).map((r) => r.id);
}

describe('anyOf', () => {
  it('matches a value in the wanted list, or a list with a value in it', () => {
    expect(anyOf('active', ['locked', 'active'])).toBe(true);
    expect(anyOf('active', ['locked'])).toBe(false);
    expect(anyOf(['a', 'b'], ['c', 'b'])).toBe(true);
    expect(anyOf(['a', 'b'], ['c'])).toBe(false);
    expect(anyOf([], ['a'])).toBe(false);
    expect(anyOf('a', [])).toBe(false);
  });

  it('never matches a missing value', () => {
    expect(anyOf(undefined, ['undefined'])).toBe(false);
    expect(anyOf(null, ['null'])).toBe(false);
  });

  it('compares whole values, not substrings', () => {
    expect(anyOf('active', ['act'])).toBe(false);
    expect(anyOf(['team:core'], ['team'])).toBe(false);
  });
});

describe('addsNoConstraint', () => {
  it('is true for an absent member and an empty list only', () => {
    expect(addsNoConstraint(undefined)).toBe(true);
    expect(addsNoConstraint([])).toBe(true);
    expect(addsNoConstraint(['a'])).toBe(false);
    expect(addsNoConstraint(null)).toBe(false);
    expect(addsNoConstraint('')).toBe(false);
    expect(addsNoConstraint({})).toBe(false);
    expect(addsNoConstraint({ length: 0 })).toBe(false);
  });
});

describe('filterPredicate', () => {
  it('builds no predicate when nothing filters', () => {
    expect(filterPredicate(spec, undefined)).toBeUndefined();
    expect(filterPredicate(spec, {})).toBeUndefined();
    expect(filterPredicate(spec, { status: [], labels: undefined })).toBeUndefined();
    expect(filterPredicate(spec, { $or: {} })).toBeUndefined();
    expect(filterPredicate(spec, { $or: { status: [], labels: [] } })).toBeUndefined();
  });

  it('matches any of the values within a member, and every member', () => {
    expect(ids({ status: ['active'] })).toEqual(['w1', 'w3']);
    expect(ids({ status: ['active', 'locked'] })).toEqual(['w1', 'w2', 'w3']);
    expect(ids({ status: ['active'], labels: ['tier:1'] })).toEqual(['w1']);
    expect(ids({ status: ['locked'], labels: ['tier:1'] })).toEqual([]);
    expect(ids({ provider: ['aws', 'gcp'] })).toEqual(['w1', 'w2']);
  });

  it('leaves out members that add no constraint', () => {
    expect(ids({ status: ['locked'], labels: [] })).toEqual(['w2']);
    expect(ids({ status: [], labels: ['team:edge'] })).toEqual(['w2']);
  });

  it('needs one member of a non-empty $or to match, on top of the other members', () => {
    expect(ids({ $or: { status: ['locked'], labels: ['tier:1'] } })).toEqual(['w1', 'w2']);
    expect(ids({ $or: { status: ['locked'] } })).toEqual(['w2']);
    expect(ids({ provider: ['aws'], $or: { status: ['locked'], labels: ['tier:1'] } })).toEqual(['w1']);
    expect(ids({ status: ['active'], $or: { provider: ['gcp'] } })).toEqual([]);
  });

  it('reads an $or whose members are all empty as no $or', () => {
    expect(ids({ status: ['active'], $or: { labels: [] } })).toEqual(['w1', 'w3']);
    expect(ids({ $or: { labels: [], status: ['locked'] } })).toEqual(['w2']);
  });

  it('throws for a member the spec does not know (a bug in the operation, not the request)', () => {
    expect(() => filterPredicate(spec, { colour: ['red'] })).toThrow('no filter spec for colour');
    expect(() => filterPredicate(spec, { $or: { colour: ['red'] } })).toThrow('no filter spec for colour');
    expect(filterPredicate(spec, { colour: [] })).toBeUndefined();
  });

  it('hands each member its own value', () => {
    const seen: unknown[] = [];
    const spying: FilterSpec<Workspace> = {
      a: (_, value: unknown) => {
        seen.push(['a', value]);
        return true;
      },
      b: (_, value: unknown) => {
        seen.push(['b', value]);
        return true;
      },
    };
    const predicate = filterPredicate(spying, { a: ['x'], $or: { b: ['y'] } });
    expect(predicate?.(records[0] as Workspace)).toBe(true);
    expect(seen).toEqual([
      ['a', ['x']],
      ['b', ['y']],
    ]);
  });
});

describe('allOf', () => {
  const even = (n: number) => n % 2 === 0;
  const positive = (n: number) => n > 0;
  const small = (n: number) => n < 10;

  it('is undefined when every predicate is absent', () => {
    expect(allOf<number>()).toBeUndefined();
    expect(allOf<number>(undefined, undefined)).toBeUndefined();
  });

  it('is the one present predicate itself', () => {
    expect(allOf(undefined, even, undefined)).toBe(even);
  });

  it('needs every present predicate to hold', () => {
    const both = allOf(even, undefined, positive, small);
    expect([-2, 1, 2, 4, 12].filter((n) => both?.(n))).toEqual([2, 4]);
    const two = allOf(even, positive);
    expect(two?.(-2)).toBe(false);
    expect(two?.(3)).toBe(false);
    expect(two?.(2)).toBe(true);
  });
});

describe('project', () => {
  const record = records[0] as Workspace;

  it('returns the record whole without a projection, or with an empty one', () => {
    expect(project(record, undefined)).toBe(record);
    expect(project(record, [])).toBe(record);
  });

  it('keeps the named members, plus id', () => {
    expect(project(record, ['name'])).toEqual({ id: 'w1', name: 'prod-eu' });
    expect(project(record, ['name', 'labels'])).toEqual({
      id: 'w1',
      name: 'prod-eu',
      labels: ['team:core', 'tier:1'],
    });
    expect(project(record, ['id'])).toEqual({ id: 'w1' });
  });

  it('leaves out names the record does not have (no member set to undefined)', () => {
    const projected = project(records[2] as Workspace, ['provider', 'status', 'nothing']);
    expect(projected).toEqual({ id: 'w3', status: 'active' });
    expect(Object.keys(projected)).toEqual(['id', 'status']);
  });
});

describe('pageOf', () => {
  const byNumber = (a: number, b: number) => a - b;

  it('sorts, then returns `limit` records from `offset`', () => {
    expect(pageOf([5, 3, 9, 1, 7], byNumber, 0, 2)).toEqual([1, 3]);
    expect(pageOf([5, 3, 9, 1, 7], byNumber, 2, 2)).toEqual([5, 7]);
    expect(pageOf([5, 3, 9, 1, 7], byNumber, 4, 2)).toEqual([9]);
    expect(pageOf([5, 3, 9, 1, 7], byNumber, 5, 2)).toEqual([]);
    expect(pageOf([5, 3, 9, 1, 7], byNumber, 1, 0)).toEqual([]);
  });
});
