/**
 * The control plane's routes, derived from the control table (`table.ts`) bound to its handlers
 * (`handlers.ts`), in the order the landing page lists them.
 *
 * @module
 */
import { controlRoutesOf } from './bind.js';
import { type ControlTable, controlRows } from './declare.js';
import { CONTROL_HANDLERS } from './handlers.js';
import type { ControlRoute } from './route.js';
import { CONTROL_TABLE } from './table.js';

/** Every route of the control plane. */
export const CONTROL_ROUTES: readonly ControlRoute[] = Object.freeze(
  controlRoutesOf(CONTROL_TABLE, CONTROL_HANDLERS),
);

/** A control route as the landing page lists it: `METHOD /path` with `{id}` for a parameter. */
export interface ControlRouteListing {
  /** `POST /__mock/workspaces/{id}/runs`. */
  route: string;
  /** What it does. */
  summary: string;
}

/** The routes of a control table (default: the mock's) as the landing page lists them, in table order. */
export function controlRouteListing(table: ControlTable = CONTROL_TABLE): ControlRouteListing[] {
  return controlRows(table).flatMap(([, row]) =>
    row.route ? [{ route: `${row.route.method} ${row.route.path}`, summary: row.route.summary }] : [],
  );
}
