/**
 * Version ordering, the one comparator behind every sort on a version field (workspaces'
 * `terraformVersion`, which sorts `iacTypeVersion`; stacks' and modules' `version`).
 *
 * A **version** is, with nothing before or after it:
 *
 * - an optional `v` or `V`;
 * - one or more release numbers (ASCII digits) separated by `.`;
 * - optionally `-` and a pre-release: one or more identifiers separated by `.`, each a non-empty run
 *   of ASCII letters, digits and `-`;
 * - optionally `+` and build metadata: one or more such identifiers separated by `.` (ignored).
 *
 * Versions compare as semver orders them, extended to any number of release numbers: release
 * numbers numerically, left to right, a missing number counting as 0 (`1.2` = `1.2.0`); then a
 * version with a pre-release comes before the same release without one; pre-releases compare
 * identifier by identifier (two numeric identifiers numerically, a numeric one before an
 * alphanumeric one, two alphanumeric ones by their ASCII code units), and when one list of
 * identifiers is a prefix of the other, the shorter comes first. Build metadata is ignored. Leading
 * zeros of numbers are ignored. Versions that compare equal (`1.2`, `v1.2.0`, `1.2.0+build.7`) tie.
 *
 * Every other string (`latest`, `~> 3.0`, `1.x`, ``) is **not a version** and sorts after all
 * versions, among the others by plain code-unit order. A missing value (absent or null) is not a
 * string; sorts place missing values last in both directions, as for every field.
 *
 * The order is computed once per string as a **sort key**: a string whose plain code-unit order is
 * the version order, so sorted indexes ({@link Collection}) keep working on plain comparisons. The
 * parser is a single left-to-right scan; no regular expression is built from the data.
 *
 * @module
 */

import { Memo } from './memo.js';

/** Marker after the release numbers of a version with a pre-release (sorts before {@link RELEASE}). */
const PRE_RELEASE = '!';
/** Marker after the release numbers of a version without a pre-release. */
const RELEASE = '"';
/**
 * Starts a numeric pre-release identifier: before every character an identifier can hold, so a numeric
 * identifier sorts before an alphanumeric one, which starts with its own first character.
 */
const NUMERIC = '#';
/** Ends an alphanumeric pre-release identifier: before every character an identifier can hold. */
const END_OF_IDENTIFIER = '!';
/** Starts the key of a version (sorts before {@link NOT_A_VERSION}). */
const VERSION = '0';
/** Starts the key of a string that is not a version; the string follows unchanged. */
const NOT_A_VERSION = '1';

const isDigit = (code: number) => code >= 48 && code <= 57;
const isIdentifierChar = (code: number) =>
  isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 45;

/**
 * A number's key: the count of digits of its length, its length, then its digits (leading zeros
 * dropped; zero has no digits left), so that plain string order is numeric order for numbers of any
 * size. Every key starts with a character from `B` up, after the markers.
 */
function numberKey(digits: string): string {
  let start = 0;
  while (digits.charCodeAt(start) === 48) start++; // '0'; past the end, NaN
  const value = digits.slice(start);
  const length = String(value.length);
  return String.fromCharCode(65 + length.length) + length + value;
}

/** The key of the number 0 (of `0`, `00`, ...): length 0, no digits. */
const ZERO = 'B0';

/** Splits `text` on `.` into identifiers; undefined when one is empty or holds another character. */
function identifiers(text: string): string[] | undefined {
  const parts = text.split('.');
  for (const part of parts) {
    if (part.length === 0) return undefined;
    for (let i = 0; i < part.length; i++) if (!isIdentifierChar(part.charCodeAt(i))) return undefined;
  }
  return parts;
}

/** The key of a version, or undefined when `text` is not a version. */
function versionKey(text: string): string | undefined {
  let at = text.charCodeAt(0) === 118 || text.charCodeAt(0) === 86 ? 1 : 0;
  let key = VERSION;
  for (;;) {
    const start = at;
    while (isDigit(text.charCodeAt(at))) at++; // past the end, NaN
    if (at === start) return undefined;
    key += numberKey(text.slice(start, at));
    if (text.charCodeAt(at) !== 46) break; // '.'
    at++;
  }
  // Trailing zero numbers change nothing (1.2 = 1.2.0). Only zero's key ends with ZERO (other numbers'
  // keys end with a digit that follows their length).
  while (key.endsWith(ZERO)) key = key.slice(0, key.length - ZERO.length);
  let pre: string[] | undefined;
  const plus = text.indexOf('+', at);
  const end = plus === -1 ? text.length : plus;
  if (at < end) {
    if (text.charCodeAt(at) !== 45) return undefined; // '-'
    pre = identifiers(text.slice(at + 1, end));
    if (!pre) return undefined;
  }
  if (end < text.length && !identifiers(text.slice(end + 1))) return undefined;
  if (!pre) return key + RELEASE;
  key += PRE_RELEASE;
  for (const id of pre) {
    let numeric = true;
    for (let i = 0; i < id.length && numeric; i++) numeric = isDigit(id.charCodeAt(i));
    key += numeric ? NUMERIC + numberKey(id) : id + END_OF_IDENTIFIER;
  }
  return key;
}

/** How many sort keys {@link versionSortKey} keeps, and for values of what length (a version is short). */
export const VERSION_KEY_BOUNDS = Object.freeze({ maxEntries: 10_000, maxKeyLength: 256 });

/** The sort keys of the last values seen (see {@link VERSION_KEY_BOUNDS}). */
const keys = new Memo<string>(VERSION_KEY_BOUNDS);

const keyOf = (value: string): string => versionKey(value) ?? NOT_A_VERSION + value;

/** How many sort keys {@link versionSortKey} holds now (for the test of its bound). */
export function versionKeysKept(): number {
  return keys.size;
}

/**
 * The sort key of a version field's value: a string whose plain code-unit order is the version
 * order described in this module (versions first, in version order; then the strings that are not
 * versions, in plain order). Undefined for a missing value (absent, null, or not a string), which
 * sorts last like every missing value.
 */
export function versionSortKey(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return keys.get(value, keyOf);
}

/** Whether a string is a version in the sense of this module. */
export function isVersion(value: string): boolean {
  return versionKey(value) !== undefined;
}

/**
 * Compares two values of a version field in ascending version order: negative when `a` sorts first,
 * 0 when they tie. Missing values (not strings) sort after everything.
 */
export function compareVersions(a: unknown, b: unknown): number {
  const x = versionSortKey(a);
  const y = versionSortKey(b);
  if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
  return x < y ? -1 : x > y ? 1 : 0;
}
