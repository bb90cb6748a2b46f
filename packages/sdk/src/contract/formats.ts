/**
 * Checks of the contract's string formats by character codes, and fast paths for the schemas that
 * every item of an answer repeats (timestamps, record ids, URLs, open enumerations, backend
 * configurations): a page of 25 workspaces spent about half of its validation in them. Internal:
 * not exported from `@iacm/sdk/contract` (`schemas.ts` does not list this module).
 *
 * @module
 */
import * as z from 'zod/mini';

/**
 * Gives `schema` a fast path for the values it surely accepts: `accept(value)` returns what zod
 * would make of `value` when it can tell cheaply that the schema accepts it, or {@link SLOW}
 * otherwise; then zod's own parser runs. What is accepted or refused, and every issue and message,
 * stay zod's: `accept` must only ever answer for values the schema accepts, with the same output (the
 * contract's tests compare each fast path with the plain schema on tables of cases). The schema's
 * definition is untouched, so its JSON Schema, `strictSchema` and `z.compile` read it as before.
 *
 * It replaces the schema's `_zod.run` (what zod calls for a value, from a parent or `safeParse`), as
 * `z.compile` does; a clone (`withMeta`, `z.clone`) has zod's own run again, so this is applied
 * last. Used on the schemas that every item of an answer repeats (timestamps, ids, URLs, open
 * enumerations, backend configurations): about 50 µs of the 100 µs a page of 25 workspaces took.
 */
export function withFastPath<T extends z.ZodMiniType>(schema: T, accept: (value: unknown) => unknown): T {
  const run = schema._zod.run;
  schema._zod.run = (payload, ctx) => {
    const value = accept(payload.value);
    if (value === SLOW) return run(payload, ctx);
    payload.value = value;
    return payload;
  };
  return schema;
}

/** What a fast path ({@link withFastPath}) answers when it cannot tell: zod's own parser decides. */
export const SLOW: unique symbol = Symbol('slow');

/** The decimal number of `value[from, to)`, or NaN when a character there is not a digit. */
function digitsAt(value: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}

/**
 * Whether the calendar part of an ISO timestamp names a real instant (rejects `2024-02-30`, hour
 * 25, second 60...): arithmetic on the digits, no `Date` per value (it is on every timestamp of
 * every answer the SDK validates). The same verdict as `new Date(x).toISOString() === x`, which a
 * property test checks.
 */
export function isRealInstant(value: string): boolean {
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 7);
  const day = digitsAt(value, 8, 10);
  const hour = digitsAt(value, 11, 13);
  const minute = digitsAt(value, 14, 16);
  const second = digitsAt(value, 17, 19);
  if (!(month >= 1 && month <= 12 && day >= 1 && hour <= 23 && minute <= 59 && second <= 59)) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days =
    month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return day <= days;
}

/**
 * Whether `value` is an ISO instant as the timestamp patterns write it, with `fraction` digits after
 * the seconds, that names a real instant: `TIMESTAMP_PATTERN` (or
 * `NANO_TIMESTAMP_PATTERN`) and {@link isRealInstant} in one pass over the characters.
 */
export function isInstant(value: unknown, fraction: number): value is string {
  if (typeof value !== 'string' || value.length !== 21 + fraction) return false;
  // `-` at 4 and 7, `T` at 10, `:` at 13 and 16, `.` at 19, `Z` last; digits everywhere else.
  if (
    value.charCodeAt(4) !== 45 ||
    value.charCodeAt(7) !== 45 ||
    value.charCodeAt(10) !== 84 ||
    value.charCodeAt(13) !== 58 ||
    value.charCodeAt(16) !== 58 ||
    value.charCodeAt(19) !== 46 ||
    value.charCodeAt(20 + fraction) !== 90
  )
    return false;
  // isRealInstant reads every other group; a group with a non-digit is NaN there, and fails.
  return !Number.isNaN(digitsAt(value, 0, 4)) && !Number.isNaN(digitsAt(value, 20, 20 + fraction))
    ? isRealInstant(value)
    : false;
}

/**
 * An `http` or `https` URL that `new URL()` surely parses, and that `z.url()` returns unchanged (no
 * space, tab or line break to trim or strip): a host of ASCII labels (letters, digits, inner single
 * hyphens: no `xn--` label, whose punycode could be invalid), the last starting with a letter (a
 * last label of digits would be read as an IPv4 address, and could be out of range), no port, no
 * user, and a path of unreserved characters, `/` and `%` only. Other URLs go through `z.url()`
 * itself. Linear: each character can be matched one way only.
 */
const PLAIN_WEB_URL =
  /^https?:\/\/(?:[a-z0-9]+(?:-[a-z0-9]+)*\.)*[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:\/[a-z0-9._~%/-]*)?$/i;

/**
 * `z.url()` (any URL `new URL()` parses, as zod checks it) with a fast path for the plain web URLs
 * answers carry ({@link PLAIN_WEB_URL}): `z.url()` parses each value, about 1 µs a URL.
 */
export function webUrl(): z.ZodMiniURL {
  return withFastPath(z.url(), (value) =>
    typeof value === 'string' && PLAIN_WEB_URL.test(value) ? value : SLOW,
  );
}

/**
 * A JSON object of any members (`Record<string, unknown>`): `z.record(z.string(), z.unknown())`
 * with a fast path for an object of the plain `Object` prototype without symbol keys, which it
 * copies as zod does (own enumerable members, `__proto__` left out) without running a schema for
 * each key and each value.
 */
export function unknownRecord(): z.ZodMiniRecord<z.ZodMiniString, z.ZodMiniUnknown> {
  return withFastPath(z.record(z.string(), z.unknown()), (value) => {
    if (typeof value !== 'object' || value === null) return SLOW;
    if (Object.getPrototypeOf(value) !== Object.prototype || value.constructor !== Object) return SLOW;
    if (Object.getOwnPropertySymbols(value).length > 0) return SLOW;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (key !== '__proto__') copy[key] = (value as Record<string, unknown>)[key];
    }
    return copy;
  });
}

/** Whether `value` is a 24-hex record id (`OBJECT_ID_PATTERN` of `primitives.ts`), by character codes. */
export function isObjectId(value: unknown): value is string {
  if (typeof value !== 'string' || value.length !== 24) return false;
  for (let i = 0; i < 24; i++) {
    const c = value.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) return false;
  }
  return true;
}

/** A whole number of at least 0 (a count, a size): the schema of the contract's counting members. */
export function count(): z.ZodMiniNumber<number> {
  return z.number().check(z.int()).check(z.gte(0));
}
