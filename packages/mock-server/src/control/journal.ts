/**
 * Control routes: `GET` and `DELETE /__mock/journal`, and the check of a listing's `limit` (the check
 * of an endpoint name is `pipeline/endpoint-name.ts`'s).
 *
 * @module
 */
import * as z from 'zod';
import { checkRange } from '../errors/ranges.js';
import { JOURNAL_RANGES } from '../pipeline/journal.js';

/**
 * How many entries a journal listing may ask for: 0 to the most the journal keeps
 * (`JOURNAL_RANGES.limit`, the `journalLimit` option's range).
 */
export const JOURNAL_LISTING_RANGE = JOURNAL_RANGES.limit;

/**
 * The `limit` of a journal listing, `GET /__mock/journal?limit=N` and `control.journal(limit)` alike:
 * absent, or within {@link JOURNAL_LISTING_RANGE}; a 400 naming `query.limit`, its range and what
 * came otherwise.
 */
export function journalListingLimit(limit: unknown): number | undefined {
  return limit === undefined ? undefined : checkRange('limit', limit, JOURNAL_LISTING_RANGE, 'query');
}

/** The query of `GET /__mock/journal`: `limit` (checked by {@link journalListingLimit}) and `endpoint`. */
export const JournalListingQuery = z.object({
  // Text over HTTP, a number in process (`control.journal(limit)`): checked by journalListingLimit.
  limit: z.unknown().optional(),
  endpoint: z.string().optional(),
});

/**
 * The number a query parameter's text says (as `Number` reads it: `limit`, a wait's `timeout`), or the
 * text itself when it says none.
 */
export function queryNumber(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  const value = Number(text);
  return Number.isNaN(value) ? text : value;
}
