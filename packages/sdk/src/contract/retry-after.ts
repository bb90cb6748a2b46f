/**
 * How long an answer asks to wait: the one reader of `Retry-After` and `retry-after-ms`, shared by
 * the SDK (retrying a request, `RateLimitError.retryAfter`) and the mock server (retrying a webhook
 * delivery).
 *
 * @module
 */

/**
 * The longest `Retry-After` or `retry-after-ms` value read, characters (spaces around it aside): a
 * longer value is ignored, as if absent.
 */
export const MAX_RETRY_AFTER_LENGTH = 64;

/** A decimal number: digits, with an optional fraction. */
const DECIMAL = /^\d+(\.\d+)?$/;

/** A month's name, as each of the three forms of an HTTP date writes it (RFC 9110 §5.6.7). */
const MONTH = /jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec/i;

/**
 * How long an answer asks to wait, milliseconds, or `undefined` when it does not say:
 *
 * 1. `retry-after-ms`: decimal milliseconds (`1500`, `250.5`);
 * 2. else `Retry-After`: decimal seconds (`120`, `0.5`), or an HTTP date (`Wed, 21 Oct 2015
 *    07:28:00 GMT`), which is compared with `now` (a date passed is `0`).
 *
 * A value is read with the spaces around it trimmed; one longer than {@link MAX_RETRY_AFTER_LENGTH}
 * characters, negative, or neither a decimal number nor a date that names its month (`soon`,
 * `-1`, `1e3`, `2026-01-15`) is ignored. An unreadable `retry-after-ms` falls back to `Retry-After`.
 * @param headers the answer's headers, names in lower case (`Object.fromEntries(response.headers)`).
 * @param now the current time, epoch milliseconds, for an HTTP date (wall time: the date is the
 *   server's).
 * @example parseRetryAfter({ 'retry-after': '2' }, Date.now()) // 2000
 */
export function parseRetryAfter(
  headers: Readonly<Record<string, string | undefined>>,
  now: number,
): number | undefined {
  const ms = headerValue(headers['retry-after-ms']);
  if (ms !== undefined && DECIMAL.test(ms)) return Number(ms);
  const value = headerValue(headers['retry-after']);
  if (value === undefined) return undefined;
  if (DECIMAL.test(value)) return Number(value) * 1000;
  // Every HTTP date names its month: `-1` or `soon 5` are not dates (though `Date.parse` reads them).
  const date = MONTH.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A header's value trimmed, or `undefined` when it is absent, empty or too long to read. */
function headerValue(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text && text.length <= MAX_RETRY_AFTER_LENGTH ? text : undefined;
}
