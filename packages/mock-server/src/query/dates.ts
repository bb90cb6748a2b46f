/**
 * Date comparison, the same on every endpoint: run filters `createdAt` and `updatedAt` (at or after),
 * the event center's `startTime` and `endTime` (both inclusive), and sorts on timestamp fields.
 *
 * Every timestamp the API accepts or answers has one form, ISO 8601 in UTC with exactly three
 * fractional digits (`2024-05-01T12:00:00.000Z`, the contract's `Timestamp`), so comparing the strings
 * code unit by code unit is comparing the instants. Records loaded through the control plane are
 * checked against the same schema.
 *
 * @module
 */

/** Whether the timestamp `value` is at or after `bound` (inclusive). */
export function atOrAfter(value: string | undefined | null, bound: string): boolean {
  return typeof value === 'string' && value >= bound;
}

/** Whether the timestamp `value` is at or before `bound` (inclusive). */
export function atOrBefore(value: string | undefined | null, bound: string): boolean {
  return typeof value === 'string' && value <= bound;
}

/** One day in milliseconds. */
const DAY = 86_400_000;

/** Epoch milliseconds of 0000-01-01T00:00:00.000Z and of 9999-12-31T23:59:59.999Z: the years of four digits. */
const ISO_FIRST = -62_167_219_200_000;
const ISO_LAST = 253_402_300_799_999;

/**
 * Per day (epoch ms / one day), the character codes of its `YYYY-MM-DDT` prefix: at most
 * {@link ISO_DAYS_KEPT} days (a clock a test moves day by day, or the seed's 90 days of history), then
 * emptied.
 */
const ISO_DAYS = new Map<number, Uint16Array>();

/** The most days {@link ISO_DAYS} keeps. */
export const ISO_DAYS_KEPT = 4096;

/** How many days {@link iso} keeps the prefix of now (tests). */
export function isoDaysKept(): number {
  return ISO_DAYS.size;
}

/**
 * The API's timestamp form of epoch milliseconds: exactly `new Date(ms).toISOString()` (the date
 * part comes from it, once per day), built about three times as fast, which matters for millions of
 * records. One `String.fromCharCode` call with the 24 codes as arguments makes only the string
 * (through `apply` and an array, it allocated about ten times as much).
 */
export function iso(value: number): string {
  const ms = Math.trunc(value);
  // Outside years 0000 to 9999 (or not a number) the text has another form, or there is none.
  if (!(ms >= ISO_FIRST && ms <= ISO_LAST)) return new Date(value).toISOString();
  const day = Math.floor(ms / DAY);
  let p = ISO_DAYS.get(day);
  if (p === undefined) {
    if (ISO_DAYS.size >= ISO_DAYS_KEPT) ISO_DAYS.clear();
    p = Uint16Array.from(new Date(day * DAY).toISOString().slice(0, 11), (c) => c.charCodeAt(0));
    ISO_DAYS.set(day, p);
  }
  let rest = ms - day * DAY;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  const minute = rest % 60;
  const hour = (rest - minute) / 60;
  return String.fromCharCode(
    p[0] as number,
    p[1] as number,
    p[2] as number,
    p[3] as number,
    p[4] as number,
    p[5] as number,
    p[6] as number,
    p[7] as number,
    p[8] as number,
    p[9] as number,
    p[10] as number,
    48 + ((hour / 10) | 0),
    48 + (hour % 10),
    58,
    48 + ((minute / 10) | 0),
    48 + (minute % 10),
    58,
    48 + ((second / 10) | 0),
    48 + (second % 10),
    46,
    48 + ((milli / 100) | 0),
    48 + (((milli / 10) | 0) % 10),
    48 + (milli % 10),
    90,
  );
}
