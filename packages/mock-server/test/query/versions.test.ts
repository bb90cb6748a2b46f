import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  isVersion,
  VERSION_KEY_BOUNDS,
  versionKeysKept,
  versionSortKey,
} from '../../src/query/versions.js';

const sorted = (values: string[]) => [...values].sort(compareVersions);

/**
 * An independent reading of the documented order, written the plain way (a regular expression, BigInt
 * numbers, semver's rules step by step), to check the sort keys against.
 */
function reference(a: string, b: string): number {
  const VERSION =
    /^[vV]?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
  const ma = VERSION.exec(a);
  const mb = VERSION.exec(b);
  if (!ma || !mb) {
    if (ma) return -1;
    if (mb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const ra = (ma[1] as string).split('.').map(BigInt);
  const rb = (mb[1] as string).split('.').map(BigInt);
  for (let i = 0; i < Math.max(ra.length, rb.length); i++) {
    const x = ra[i] ?? 0n;
    const y = rb[i] ?? 0n;
    if (x !== y) return x < y ? -1 : 1;
  }
  const pa = ma[2];
  const pb = mb[2];
  if (pa === undefined || pb === undefined) return pa === pb ? 0 : pa === undefined ? 1 : -1;
  const ia = pa.split('.');
  const ib = pb.split('.');
  for (let i = 0; i < Math.min(ia.length, ib.length); i++) {
    const x = ia[i] as string;
    const y = ib[i] as string;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) {
      if (BigInt(x) !== BigInt(y)) return BigInt(x) < BigInt(y) ? -1 : 1;
    } else if (nx !== ny) {
      return nx ? -1 : 1;
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return Math.sign(ia.length - ib.length);
}

describe('version order', () => {
  it('orders release numbers numerically, not as text ("1.9.0" before "1.10.5")', () => {
    expect(sorted(['1.10.5', '1.9.0', '1.11.4', '1.9.8', '0.15.0', '2.0.0'])).toEqual([
      '0.15.0',
      '1.9.0',
      '1.9.8',
      '1.10.5',
      '1.11.4',
      '2.0.0',
    ]);
  });

  it('puts a pre-release before its release, with semver pre-release precedence', () => {
    // The example list of semver 2.0.0, section 11.
    const semver = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
    ];
    expect(sorted([...semver].reverse())).toEqual(semver);
  });

  it('ignores a leading v, build metadata, missing and leading zeros: those versions tie', () => {
    for (const same of ['1.9', '1.9.0', 'v1.9.0', 'V1.9', '1.9.0+build.7', '01.09.00', '1.9.0.0']) {
      expect(compareVersions(same, '1.9.0'), same).toBe(0);
    }
    expect(compareVersions('1.9.0.1', '1.9')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0-rc.01', '1.0.0-rc.1')).toBe(0);
  });

  it('sorts strings that are not versions after all versions, among themselves as plain strings', () => {
    expect(sorted(['~> 3.0', 'latest', '99.0.0', '', '1.x', 'Latest', '0.1'])).toEqual([
      '0.1',
      '99.0.0',
      '',
      '1.x',
      'Latest',
      'latest',
      '~> 3.0',
    ]);
    for (const text of [
      '',
      'v',
      '1.',
      '.1',
      '1..2',
      '1.2-',
      '1.2.3-rc..1',
      '1.2+',
      ' 1.2',
      '1.2 ',
      '1.2.3-é',
    ]) {
      expect(isVersion(text), JSON.stringify(text)).toBe(false);
    }
    // CloudFormation's template version reads as release 2010 with the pre-release "09-09".
    expect(isVersion('2010-09-09')).toBe(true);
    expect(sorted(['2010-09-09', '1.11.4', '2010.0.0'])).toEqual(['1.11.4', '2010-09-09', '2010.0.0']);
  });

  it('leaves missing values missing (they sort last in both directions)', () => {
    expect(versionSortKey(undefined)).toBeUndefined();
    expect(versionSortKey(null)).toBeUndefined();
    expect(compareVersions(undefined, 'latest')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0', null)).toBeLessThan(0);
  });

  it('compares numbers of any size exactly', () => {
    expect(compareVersions('1.99999999999999999999', '1.100000000000000000000')).toBeLessThan(0);
    expect(compareVersions('1.0.0-rc.99999999999999999999', '1.0.0-rc.100000000000000000000')).toBeLessThan(
      0,
    );
  });

  it('reads identifiers made of ASCII letters, digits and hyphens only (the edges of each range)', () => {
    for (const id of ['A', 'Z', 'a', 'z', '0', '9', '-', 'AZaz09-']) {
      expect(isVersion(`1.0.0-${id}`), id).toBe(true);
      expect(isVersion(`1.0.0+${id}`), id).toBe(true);
    }
    for (const id of ['@', '[', '`', '{', '/', ':', '_', ' ']) {
      expect(isVersion(`1.0.0-${id}`), id).toBe(false);
      expect(isVersion(`1.0.0+${id}`), id).toBe(false);
    }
  });

  it('needs a hyphen before a pre-release and a plus before build metadata', () => {
    for (const text of ['1.2rc', '1.2rc1', '1.0.0_rc', '1.0.0~1', '1.2.3.rc']) {
      expect(isVersion(text), text).toBe(false);
    }
    expect(isVersion('1+build.7')).toBe(true);
    expect(compareVersions('1+build.7', '1.0')).toBe(0);
    expect(compareVersions('1-rc+build', '1-rc')).toBe(0);
    expect(compareVersions('1-rc+build', '1')).toBeLessThan(0);
  });

  it('drops every leading zero of a number, inner zeros kept', () => {
    expect(compareVersions('1.010', '1.10')).toBe(0);
    expect(compareVersions('1.0010', '1.10')).toBe(0);
    expect(compareVersions('1.010', '1.1')).toBeGreaterThan(0);
    expect(compareVersions('1.0-rc.010', '1.0-rc.10')).toBe(0);
  });

  it('drops only trailing zero numbers: inner zeros count', () => {
    expect(compareVersions('1.0.1', '1.1')).toBeLessThan(0);
    expect(compareVersions('1.0.0.1', '1.0.1')).toBeLessThan(0);
    expect(compareVersions('0.0.1', '0.1')).toBeLessThan(0);
    expect(compareVersions('0.0', '0')).toBe(0);
    expect(compareVersions('0.0.0-rc', '0-rc')).toBe(0);
    expect(sorted(['1.0.0.1', '1', '0.0.0.1', '1.0.0.0.0', '0'])).toEqual([
      '0',
      '0.0.0.1',
      '1',
      '1.0.0.0.0',
      '1.0.0.1',
    ]);
  });

  it('orders numbers of ten digits and more after shorter ones', () => {
    expect(compareVersions('1.1234567890', '1.999999999')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0-rc.1234567890', '1.0.0-rc.999999999')).toBeGreaterThan(0);
    expect(compareVersions('1234567890', '2')).toBeGreaterThan(0);
  });

  it('ends an alphanumeric identifier before the next one starts ("a.b" before "ab", "a.1" before "a-")', () => {
    expect(compareVersions('1.0.0-a.b', '1.0.0-ab')).toBeLessThan(0);
    expect(compareVersions('1.0.0-a.1', '1.0.0-a-')).toBeLessThan(0);
    expect(compareVersions('1.0.0-a.b', '1.0.0-a.b')).toBe(0);
  });

  it('puts a numeric identifier before every alphanumeric one, whatever its first character', () => {
    for (const alphanumeric of ['-', '-1', '0a', '9z', 'A', 'Z', 'a', 'z']) {
      expect(compareVersions('1.0.0-99', `1.0.0-${alphanumeric}`), alphanumeric).toBeLessThan(0);
      expect(compareVersions('1.0.0-rc.1234567890', `1.0.0-rc.${alphanumeric}`), alphanumeric).toBeLessThan(
        0,
      );
    }
  });

  it('ties two missing values', () => {
    expect(compareVersions(undefined, null)).toBe(0);
    expect(compareVersions(null, null)).toBe(0);
    expect(compareVersions(3, undefined)).toBe(0);
  });

  it('keeps at most 10,000 sort keys, for values of at most 256 characters', () => {
    // The figures of this test's name and of docs/security.md.
    expect(VERSION_KEY_BOUNDS).toEqual({ maxEntries: 10_000, maxKeyLength: 256 });
    const { maxEntries, maxKeyLength } = VERSION_KEY_BOUNDS;
    let most = 0;
    let least = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 2 * maxEntries + 10; i++) {
      versionSortKey(`1.${i}`);
      most = Math.max(most, versionKeysKept());
      least = Math.min(least, versionKeysKept());
    }
    expect([least, most]).toEqual([1, maxEntries]);
    const before = versionKeysKept();
    const long = `1.0.0-${'x'.repeat(maxKeyLength)}`;
    expect(versionSortKey(long)).toBe(versionSortKey(long));
    expect(versionKeysKept()).toBe(before);
    expect(compareVersions(long, '1.0.0')).toBeLessThan(0);
  });

  it('agrees with a plain reading of the rules on random version-like strings', () => {
    const part = fc.constantFrom(
      '0',
      '1',
      '2',
      '9',
      '10',
      '01',
      '123',
      'rc',
      'RC',
      'alpha',
      'beta',
      'a-b',
      'x',
    );
    const text = fc
      .tuple(
        fc.constantFrom('', 'v'),
        fc.array(part, { minLength: 1, maxLength: 4 }),
        fc.option(fc.array(part, { minLength: 1, maxLength: 3 })),
        fc.option(fc.array(part, { minLength: 1, maxLength: 2 })),
        fc.constantFrom('', '', '', ' ', '~> ', '.', '-'),
      )
      .map(
        ([v, release, pre, build, noise]) =>
          `${v}${release.join('.')}${pre ? `-${pre.join('.')}` : ''}${build ? `+${build.join('.')}` : ''}${noise}`,
      );
    fc.assert(
      fc.property(text, text, (a, b) => Math.sign(compareVersions(a, b)) === reference(a, b)),
      { numRuns: 2000 },
    );
  });
});
