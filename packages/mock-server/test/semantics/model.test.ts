/**
 * The reference model encodes the written decisions of issue 14 (`docs/api-semantics.md`): checked
 * here on the docs' own examples, so that a property failure points at the engine, not the model.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../../../tests/support/fuzz.js';
import { VERSIONS } from './arbitraries.js';
import { anyOf, compareVersions, matchesText, needleOf, sortRecords } from './model.js';

/** Sorts strings by the version order (a stable sort, so equal versions keep their order). */
const byVersion = (values: string[]) => [...values].sort(compareVersions);

describe('the model: versions sort as versions (decision 2)', () => {
  it('compares numeric segments as numbers: 1.9.0 before 1.10.5', () => {
    expect(byVersion(['1.10.5', '1.9.0', '0.15.4', '2'])).toEqual(['0.15.4', '1.9.0', '1.10.5', '2']);
  });

  it('ignores a leading v and build metadata; a missing segment is 0; leading zeros do not count', () => {
    for (const same of ['v1.10.5', '1.10.5+build.7', '1.10.5.0', '1.010.5']) {
      expect(compareVersions(same, '1.10.5'), same).toBe(0);
    }
    expect(compareVersions('1.10', '1.10.0')).toBe(0);
  });

  it('puts a pre-release before its release, in semver order', () => {
    const semverExample = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
    ];
    expect(byVersion([...semverExample].reverse())).toEqual(semverExample);
    expect(byVersion(['1.10.5-alpha', '1.10.5-1', '1.10.5-rc.10', '1.10.5-rc.2'])).toEqual([
      '1.10.5-1',
      '1.10.5-alpha',
      '1.10.5-rc.2',
      '1.10.5-rc.10',
    ]);
  });

  it('puts strings that are not versions after every version, among themselves as plain strings', () => {
    expect(byVersion(['latest', '~> 3.0', '99.0.0', 'Latest', '>= 1.2', '', '1.10.x', '0.1'])).toEqual([
      '0.1',
      '99.0.0',
      '',
      '1.10.x',
      '>= 1.2',
      'Latest',
      'latest',
      '~> 3.0',
    ]);
  });

  it('is a total preorder (antisymmetric, transitive), so sorting by it is well defined', () => {
    const version = fc.constantFrom(
      ...VERSIONS,
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-beta.11',
      '10',
      'v2.0',
    );
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        expect(Math.sign(compareVersions(a, b)) === -Math.sign(compareVersions(b, a))).toBe(true);
        if (compareVersions(a, b) <= 0 && compareVersions(b, c) <= 0) {
          expect(compareVersions(a, c)).toBeLessThanOrEqual(0);
        }
      }),
      { numRuns: fuzzRuns(500), seed: fuzzSeed(1440) },
    );
  });

  it('sorts missing values last in both directions, descending reversing the version order', () => {
    const records = [
      { id: 'a', v: '1.9.0' },
      { id: 'b' },
      { id: 'c', v: 'latest' },
      { id: 'd', v: '1.10.0' },
    ];
    const order = (direction: 1 | -1) =>
      sortRecords(records, [{ path: 'v', kind: 'version', order: direction }], (x, y) =>
        x.id < y.id ? -1 : 1,
      ).map((r) => r.id);
    expect(order(1)).toEqual(['a', 'd', 'c', 'b']);
    expect(order(-1)).toEqual(['c', 'd', 'a', 'b']);
  });
});

describe('the model: search text (decision 1) and empty lists (decision 5)', () => {
  it('trims, treats a blank text as no filter, and lower-cases with toLowerCase() only', () => {
    expect(needleOf(undefined)).toBeUndefined();
    expect(needleOf(' \t\u00a0')).toBeUndefined();
    expect(needleOf('  API ')).toBe('api');
    expect(matchesText('api', ['Billing', 'net-API-prod'])).toBe(true);
    // No Unicode normalisation, no locale: 'İ' lower-cases to 'i' + a combining dot.
    expect(matchesText('izmir', ['İzmir'])).toBe(false);
    expect(matchesText('zmir', ['İzmir'])).toBe(true);
    expect(matchesText('éclair', ['e\u0301clair'])).toBe(false);
    expect(matchesText('ss', ['Straße'])).toBe(false);
  });

  it('adds no constraint for an empty list', () => {
    expect(anyOf([], 'labels[]')).toBeUndefined();
    expect(anyOf(undefined, 'labels[]')).toBeUndefined();
    expect(anyOf(['prod'], 'labels[]')?.({ labels: ['x', 'prod'] })).toBe(true);
  });
});
