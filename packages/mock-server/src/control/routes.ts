/**
 * The control plane's table of routes, assembled from one module per control concept, in the order
 * the landing page lists them.
 *
 * @module
 */
import { accountsRoutes } from './accounts.js';
import { clockRoutes } from './clock.js';
import { faultsRoutes } from './faults.js';
import { findingsRoutes } from './findings.js';
import { guardrailsEvaluateRoutes } from './guardrails-evaluate.js';
import { journalRoutes } from './journal.js';
import { notificationsRoutes } from './notifications.js';
import { rateLimitRoutes } from './rate-limit.js';
import { resetRoutes } from './reset.js';
import { responsesRoutes } from './responses.js';
import type { ControlRoute } from './route.js';
import { runsRoutes } from './runs.js';
import { scenarioRoutes } from './scenario.js';
import { sceneRoutes } from './scene.js';
import { seedRoutes } from './seed.js';
import { sessionsRoutes } from './sessions.js';
import { stateRoutes } from './state.js';
import { waitsRoutes } from './waits.js';
import { webhooksRoutes } from './webhooks.js';

/** Every route of the control plane. */
export const CONTROL_ROUTES: readonly ControlRoute[] = Object.freeze([
  ...accountsRoutes,
  ...resetRoutes,
  ...seedRoutes,
  ...stateRoutes,
  ...sceneRoutes,
  ...scenarioRoutes,
  ...journalRoutes,
  ...waitsRoutes,
  ...faultsRoutes,
  ...responsesRoutes,
  ...rateLimitRoutes,
  ...clockRoutes,
  ...runsRoutes,
  ...guardrailsEvaluateRoutes,
  ...findingsRoutes,
  ...notificationsRoutes,
  ...webhooksRoutes,
  ...sessionsRoutes,
]);

/** A control route as the landing page lists it: `METHOD /path` with `{id}` for a parameter. */
export interface ControlRouteListing {
  /** `POST /__mock/workspaces/{id}/runs`. */
  route: string;
  /** What it does. */
  summary: string;
}

/** The control routes as the landing page lists them, in table order. */
export function controlRouteListing(): ControlRouteListing[] {
  return CONTROL_ROUTES.map((r) => ({
    route: `${r.method} ${r.path}`,
    summary: r.summary,
  }));
}
