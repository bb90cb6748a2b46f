/**
 * The include/exclude lists of guardrail scopes and plan evaluations (`listMatches`, `scopeCovers`), and
 * the bound on the split patterns the glob matcher keeps. The matcher itself: test/glob.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  globMatch,
  listMatches,
  type ScopeLists,
  SPLIT_PATTERN_BOUNDS,
  scopeCovers,
  splitPatternsKept,
} from '../../src/query/glob.js';

const list = (include: string[], exclude: string[] = []) => ({ include, exclude });

describe('listMatches', () => {
  it('includes everything with an empty include, and nothing that an exclude pattern matches', () => {
    expect(listMatches(list([]), ['anything'])).toBe(true);
    expect(listMatches(list([], ['dev-*']), ['prod-1'])).toBe(true);
    expect(listMatches(list([], ['dev-*']), ['dev-1'])).toBe(false);
  });

  it('with an include list, matches a value that an include pattern matches and no exclude pattern', () => {
    expect(listMatches(list(['prod-*', 'stage']), ['prod-eu'])).toBe(true);
    expect(listMatches(list(['prod-*', 'stage']), ['stage'])).toBe(true);
    expect(listMatches(list(['prod-*', 'stage']), ['dev-eu'])).toBe(false);
    expect(listMatches(list(['prod-*'], ['*-eu']), ['prod-eu']), 'exclude wins').toBe(false);
    expect(listMatches(list(['prod-*'], ['*-eu']), ['prod-us'])).toBe(true);
  });

  it('with several values: any value included, and no value excluded', () => {
    expect(listMatches(list(['team:*']), ['tier:1', 'team:core'])).toBe(true);
    expect(listMatches(list(['team:*']), ['tier:1', 'tier:2'])).toBe(false);
    expect(listMatches(list(['team:*'], ['legacy']), ['team:core', 'legacy'])).toBe(false);
    expect(listMatches(list([], ['legacy']), ['team:core', 'tier:1'])).toBe(true);
    expect(listMatches(list([], ['legacy']), ['team:core', 'legacy'])).toBe(false);
  });

  it('with no values, matches only when include is empty (whatever exclude says)', () => {
    expect(listMatches(list([]), [])).toBe(true);
    expect(listMatches(list([], ['*']), [])).toBe(true);
    expect(listMatches(list(['*']), [])).toBe(false);
  });

  it('reads a missing list, include or exclude (malformed data) as empty', () => {
    expect(listMatches(undefined, ['x'])).toBe(true);
    expect(listMatches(undefined, [])).toBe(true);
    const malformed = (value: object) => value as { include: string[]; exclude: string[] };
    expect(listMatches(malformed({}), ['x'])).toBe(true);
    expect(listMatches(malformed({}), [])).toBe(true);
    expect(listMatches(malformed({ exclude: ['x'] }), ['x'])).toBe(false);
    expect(listMatches(malformed({ exclude: ['x'] }), ['y'])).toBe(true);
    expect(listMatches(malformed({ include: ['x'] }), ['x'])).toBe(true);
    expect(listMatches(malformed({ include: ['x'] }), ['y'])).toBe(false);
  });
});

describe('scopeCovers', () => {
  const subject = {
    workspaceName: 'prod-eu',
    repository: 'acme/infra',
    labels: ['team:core', 'tier:1'],
    branch: 'main',
  };

  it('covers everything with a missing scope or missing members', () => {
    expect(scopeCovers(null, subject)).toBe(true);
    expect(scopeCovers(undefined, subject)).toBe(true);
    expect(scopeCovers({}, subject)).toBe(true);
    expect(scopeCovers({}, { ...subject, labels: [] })).toBe(true);
  });

  it('reads a member without include or exclude (malformed data) as empty lists', () => {
    const malformed = {
      workspaces: {},
      repositories: { include: ['acme/*'] },
      branches: { exclude: ['release-*'] },
    } as unknown as ScopeLists;
    expect(scopeCovers(malformed, subject)).toBe(true);
    expect(scopeCovers(malformed, { ...subject, repository: 'other/infra' })).toBe(false);
    expect(scopeCovers(malformed, { ...subject, branch: 'release-2' })).toBe(false);
  });

  it('needs every member to match: workspaces, repositories, branches and labels', () => {
    const scope: ScopeLists = {
      workspaces: list(['prod-*']),
      repositories: list(['acme/*']),
      branches: list(['main']),
      labels: list(['team:*']),
    };
    expect(scopeCovers(scope, subject)).toBe(true);
    expect(scopeCovers(scope, { ...subject, workspaceName: 'dev-eu' })).toBe(false);
    expect(scopeCovers(scope, { ...subject, repository: 'other/infra' })).toBe(false);
    expect(scopeCovers(scope, { ...subject, branch: 'feature/x' })).toBe(false);
    expect(scopeCovers(scope, { ...subject, labels: ['tier:1'] })).toBe(false);
    expect(scopeCovers(scope, { ...subject, labels: [] })).toBe(false);
  });

  it('checks each member against its own subject field', () => {
    expect(scopeCovers({ workspaces: list(['prod-eu']) }, subject)).toBe(true);
    expect(scopeCovers({ workspaces: list(['acme/infra']) }, subject)).toBe(false);
    expect(scopeCovers({ repositories: list(['acme/infra']) }, subject)).toBe(true);
    expect(scopeCovers({ repositories: list(['prod-eu']) }, subject)).toBe(false);
    expect(scopeCovers({ branches: list(['main']) }, subject)).toBe(true);
    expect(scopeCovers({ branches: list(['prod-eu']) }, subject)).toBe(false);
    expect(scopeCovers({ labels: list(['tier:1']) }, subject)).toBe(true);
    expect(scopeCovers({ labels: list(['main']) }, subject)).toBe(false);
  });

  it('does not check branches for a subject without one (a workspace has no branch)', () => {
    const { branch: _, ...workspace } = subject;
    expect(scopeCovers({ branches: list(['release/*']) }, workspace)).toBe(true);
    expect(scopeCovers({ branches: list(['release/*']) }, subject)).toBe(false);
    expect(scopeCovers({ branches: list(['release/*']) }, { ...subject, branch: 'release/1' })).toBe(true);
  });

  it('excludes a subject when an exclude pattern of any member matches', () => {
    expect(scopeCovers({ workspaces: list([], ['prod-*']) }, subject)).toBe(false);
    expect(scopeCovers({ labels: list([], ['tier:1']) }, subject)).toBe(false);
    expect(scopeCovers({ labels: list([], ['tier:2']) }, subject)).toBe(true);
  });
});

describe('the split patterns globMatch keeps', () => {
  const { maxEntries, maxKeyLength } = SPLIT_PATTERN_BOUNDS;

  it('are at most 1,024, whatever patterns come (full, it starts afresh)', () => {
    // The figures of this test's names and of docs/security.md.
    expect(SPLIT_PATTERN_BOUNDS).toEqual({ maxEntries: 1024, maxKeyLength: 256 });
    let most = 0;
    let least = Number.POSITIVE_INFINITY;
    let matched = 0;
    for (let i = 0; i < 3 * maxEntries; i++) {
      if (globMatch(`bound-${i}-*`, `bound-${i}-x`)) matched++;
      most = Math.max(most, splitPatternsKept());
      least = Math.min(least, splitPatternsKept());
    }
    expect([matched, least, most]).toEqual([3 * maxEntries, 1, maxEntries]);
  });

  it('are patterns of at most 256 characters: a longer one is split on each use', () => {
    const longest = `${'x'.repeat(maxKeyLength - 1)}*`;
    const tooLong = `${'y'.repeat(maxKeyLength)}*`;
    const before = splitPatternsKept();
    expect(globMatch(tooLong, `${'y'.repeat(maxKeyLength)}!`)).toBe(true);
    expect(splitPatternsKept()).toBe(before);
    expect(globMatch(longest, `${'x'.repeat(maxKeyLength - 1)}!`)).toBe(true);
    expect(splitPatternsKept()).toBe(before === maxEntries ? 1 : before + 1);
  });
});
