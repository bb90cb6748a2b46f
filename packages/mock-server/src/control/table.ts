/**
 * The control table: every control capability of the mock, declared once (`control/declare.ts` says
 * what a row holds). From it come the router of `/__mock` (`routes.ts`), the in-process `control.*`
 * methods and their types (`plane.ts`, `ControlPlane`), the landing page's list of control routes,
 * the CLI's help for the flags of the same concepts, and the control-plane tables of
 * `docs/mock-server.md` (generated; a test checks them). Each row's handler is bound in the core
 * (`handlers.ts`). Importable without the core, msw or `node:`.
 *
 * Synchronous in process: the methods whose work is bounded by small constants (reads, faults,
 * one-off answers, the clock, the rate limit, a simulated run, a finding, a dry run). A method that
 * replaces data or may work over user-sized input answers a Promise (`sync: false`): waits,
 * webhook calls, and (see `docs/mock-server.md`, "Synchronous and asynchronous methods") the loads.
 *
 * @module
 */
import { ACTIVITY_ROWS } from './rows/activity.js';
import { DATA_ROWS } from './rows/data.js';
import { INJECTION_ROWS } from './rows/injections.js';
import { JOURNAL_ROWS } from './rows/journal.js';

/** Every control capability, in the order the landing page and the docs list them. */
export const CONTROL_TABLE = {
  ...DATA_ROWS,
  ...JOURNAL_ROWS,
  ...INJECTION_ROWS,
  ...ACTIVITY_ROWS,
} as const;

/** The table's type: what `ControlPlane` and the handlers are typed from. */
export type ControlTableOf = typeof CONTROL_TABLE;
