/** Control routes: `GET` and `DELETE /__mock/journal`. @module */
import { validationError } from '../errors.js';
import { type ControlRoute, controlRoute, ok } from './route.js';

/** The journal routes. */
export const journalRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'GET',
    path: '/__mock/journal',
    summary: 'the last requests (?limit=N), credentials redacted',
    handler: ({ plane, query }) => {
      const limit = query.limit === undefined ? undefined : Number(query.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
        throw validationError([
          { location: 'query', path: 'limit', message: 'query.limit: expected a whole number ≥ 0' },
        ]);
      }
      return ok(plane.journal(limit));
    },
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
