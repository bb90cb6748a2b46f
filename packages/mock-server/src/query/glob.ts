/**
 * The one glob matcher of the mock server: scope patterns of guardrail rules (seeded and evaluated),
 * change addresses of plan evaluations, and the control plane's path patterns all match through it.
 */

import { Memo } from './memo.js';

/**
 * Matches `value` against a glob `pattern`, whole-string and case-sensitive. `*` matches any run of
 * characters, the empty run, `/` and line breaks included; every other character, regex
 * metacharacters included, matches only itself.
 *
 * No regular expression is built: the pattern is split on `*`, the first segment must start the
 * value and the last must end it, and the middle segments are found left to right, each at its
 * leftmost place after the previous one (leftmost is always right when `*` is the only wildcard).
 * Each part of the value is searched once, so the work grows with the pattern's length plus the
 * value's length, not their product: a pattern from user input cannot make it slow.
 *
 * @example globMatch('feature/*', 'feature/a/b') // true
 * @example globMatch('prod-?', 'prod-1') // false: `?` is literal
 */
export function globMatch(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const segments = splitPatterns.get(pattern, split);
  const first = segments[0] as string;
  const last = segments[segments.length - 1] as string;
  // The first and last segments are anchored and must not overlap.
  if (first.length + last.length > value.length) return false;
  if (!value.startsWith(first) || !value.endsWith(last)) return false;
  let at = first.length;
  const end = value.length - last.length;
  for (let i = 1; i < segments.length - 1; i++) {
    const segment = segments[i] as string;
    // An empty segment (from `**`) is found where the search stands.
    const found = value.indexOf(segment, at);
    if (found < 0 || found + segment.length > end) return false;
    at = found + segment.length;
  }
  return true;
}

/**
 * How many split patterns {@link globMatch} keeps, and of what length: the seed's and a few rules'
 * worth, small whatever rules are made (docs/security.md, "Split glob patterns").
 */
export const SPLIT_PATTERN_BOUNDS = Object.freeze({ maxEntries: 1024, maxKeyLength: 256 });

/** Patterns split on `*`, for the last patterns seen (see {@link SPLIT_PATTERN_BOUNDS}). */
const splitPatterns = new Memo<readonly string[]>(SPLIT_PATTERN_BOUNDS);

const split = (pattern: string): readonly string[] => pattern.split('*');

/** How many split patterns {@link globMatch} holds now (for the test of its bound). */
export function splitPatternsKept(): number {
  return splitPatterns.size;
}

/** The patterns of a missing list. */
const NONE: readonly string[] = [];

/**
 * Matches a subject against an `{ include, exclude }` list of glob patterns (see {@link globMatch}).
 *
 * - An empty `include` includes everything.
 * - With one value: the value matches when it matches an include pattern (or `include` is empty)
 *   and no exclude pattern. Exclude wins.
 * - With several values (a multi-valued subject such as a workspace's labels): the list matches when
 *   **any** value matches an include pattern (or `include` is empty) and **no** value matches an
 *   exclude pattern. One excluded label is enough to keep a rule away.
 * - With no values (a workspace without labels): the list matches only when `include` is empty.
 *
 * A missing list, `include` or `exclude` (malformed data) reads as an empty list.
 */
export function listMatches(
  list: { readonly include: readonly string[]; readonly exclude: readonly string[] } | undefined,
  values: readonly string[],
): boolean {
  const include = list?.include ?? NONE;
  const exclude = list?.exclude ?? NONE;
  // With no values, nothing matches a pattern: the list matches only when include is empty.
  if (include.length > 0 && !anyMatches(include, values)) return false;
  return !anyMatches(exclude, values);
}

/** Whether some value matches some pattern (plain loops: no arrays or closures per call). */
function anyMatches(patterns: readonly string[], values: readonly string[]): boolean {
  for (const value of values) if (anyPatternMatches(patterns, value)) return true;
  return false;
}

/** Whether some pattern matches `value`. */
function anyPatternMatches(patterns: readonly string[], value: string): boolean {
  for (const pattern of patterns) if (globMatch(pattern, value)) return true;
  return false;
}

/**
 * {@link listMatches} for one value, without the one-element array: the scope check of every rule
 * against every workspace of a seed (100,000 of them) made two such arrays each (132 MB).
 */
function oneMatches(
  list: { readonly include: readonly string[]; readonly exclude: readonly string[] } | undefined,
  value: string,
): boolean {
  const include = list?.include ?? NONE;
  if (include.length > 0 && !anyPatternMatches(include, value)) return false;
  return !anyPatternMatches(list?.exclude ?? NONE, value);
}

/** The four include/exclude lists of a guardrail rule's scope, as {@link scopeCovers} reads them. */
export interface ScopeLists {
  /** Patterns over the workspace's name. */
  workspaces?: { include: string[]; exclude: string[] };
  /** Patterns over the repository, `<org>/<repo>`. */
  repositories?: { include: string[]; exclude: string[] };
  /** Patterns over the run's branch. */
  branches?: { include: string[]; exclude: string[] };
  /** Patterns over the workspace's labels. */
  labels?: { include: string[]; exclude: string[] };
}

/** What a scope is matched against: a workspace, and a run's branch when there is one. */
export interface ScopeSubject {
  /** The workspace's name. */
  workspaceName: string;
  /** The repository, `<org>/<repo>`. */
  repository: string;
  /** The workspace's labels. */
  labels: string[];
  /** The run's branch; when absent, `branches` is not checked (a workspace has no branch of its own). */
  branch?: string;
}

/**
 * Whether a scope covers a subject: each member must match (see {@link listMatches}): `workspaces`
 * against the workspace name, `repositories` against the repository, `branches` against the branch
 * (only when the subject has one), `labels` against the labels. A missing scope member (malformed
 * data) matches everything.
 */
export function scopeCovers(scope: ScopeLists | null | undefined, subject: ScopeSubject): boolean {
  return (
    oneMatches(scope?.workspaces, subject.workspaceName) &&
    oneMatches(scope?.repositories, subject.repository) &&
    (subject.branch === undefined || oneMatches(scope?.branches, subject.branch)) &&
    listMatches(scope?.labels, subject.labels)
  );
}
