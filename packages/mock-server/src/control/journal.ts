/** Control routes: `GET` and `DELETE /__mock/journal`, and the check of a listing's `limit`. @module */
import { checkRange } from '../errors/ranges.js';
import { JOURNAL_RANGES } from '../pipeline/journal.js';
import { type ControlRoute, controlRoute, ok } from './route.js';

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

/** The number a query's `limit` text says (as `Number` reads it), or the text itself when it says none. */
function queryNumber(text: string | string[] | undefined): unknown {
  if (typeof text !== 'string') return text;
  const value = Number(text);
  return Number.isNaN(value) ? text : value;
}

/** The journal routes. */
export const journalRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'GET',
    path: '/__mock/journal',
    summary: 'the last requests (?limit=N), credentials redacted',
    handler: ({ deps, query }) => ok(deps.journal.list(journalListingLimit(queryNumber(query.limit)))),
  }),
  controlRoute({
    method: 'DELETE',
    path: '/__mock/journal',
    summary: 'empty the journal',
    handler: ({ plane }) => {
      plane.clearJournal();
      return ok(undefined, 204);
    },
  }),
];
