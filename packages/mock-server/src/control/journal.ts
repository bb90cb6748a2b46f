/**
 * Control routes: `GET` and `DELETE /__mock/journal`, the check of a listing's `limit`, and of the
 * endpoint name a listing (`?endpoint=`) or `control.calls(name)` filters by.
 *
 * @module
 */
import { type EndpointName, endpointList, endpoints, type IssueLocation } from '@iacm/sdk/contract';
import * as z from 'zod';
import { checkRange } from '../errors/ranges.js';
import { validationError } from '../errors.js';
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

/** How many close names the 400 of an unknown endpoint name suggests. */
const CLOSE_NAMES = 3;

/** How many characters of an unknown name are compared with the endpoint names (and shown). */
const COMPARED_CHARS = 64;

/**
 * The endpoint name a journal filter names (`?endpoint=`, `control.calls(name)`): one of the
 * contract's endpoint table; else a 400 naming `endpoint`, what came, and the (at most 3) closest
 * names. The comparison reads at most 64 characters of what came (no regular expression).
 */
export function checkEndpointName(name: unknown, location: IssueLocation = 'query'): EndpointName {
  if (typeof name === 'string' && Object.hasOwn(endpoints, name)) return name as EndpointName;
  const text = typeof name === 'string' ? name.slice(0, COMPARED_CHARS) : undefined;
  const received =
    text === undefined
      ? typeof name
      : JSON.stringify(text) + ((name as string).length > COMPARED_CHARS ? '…' : '');
  const close = text === undefined ? [] : closestNames(text);
  const hint = close.length > 0 ? `; the closest: ${close.join(', ')}` : '';
  throw validationError([
    {
      location,
      path: 'endpoint',
      message: `endpoint: expected an endpoint name of the contract (as workspaces.search), received ${received}${hint}`,
      expected: 'an endpoint name of the contract',
      received,
    },
  ]);
}

/** The endpoint names nearest to `text` by edit distance, nearest first (ties in table order). */
function closestNames(text: string): string[] {
  return endpointList
    .map((definition) => ({ name: definition.name, distance: editDistance(text, definition.name) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, CLOSE_NAMES)
    .map((entry) => entry.name);
}

/** Levenshtein distance (two rows; both texts are short: a name of the table, 64 characters at most). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** The query of `GET /__mock/journal`: `limit` (checked by {@link journalListingLimit}) and `endpoint`. */
export const JournalListingQuery = z.object({
  limit: z.union([z.string(), z.array(z.string())]).optional(),
  endpoint: z.string().optional(),
});

/**
 * The number a query parameter's text says (as `Number` reads it: `limit`, a wait's `timeout`), or the
 * text itself when it says none.
 */
export function queryNumber(text: string | string[] | undefined): unknown {
  if (typeof text !== 'string') return text;
  const value = Number(text);
  return Number.isNaN(value) ? text : value;
}

/** The journal routes. */
export const journalRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'GET',
    path: '/__mock/journal',
    summary:
      'the last requests (?limit=N; ?endpoint=workspaces.search: that endpoint only), credentials redacted',
    query: JournalListingQuery,
    handler: ({ deps, query }) =>
      ok(
        deps.journal.list(
          journalListingLimit(queryNumber(query.limit)),
          query.endpoint === undefined ? undefined : checkEndpointName(query.endpoint),
        ),
      ),
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
