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
