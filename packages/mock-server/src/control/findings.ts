/** Control route: `POST /__mock/stacks/{id}/findings`, a finding on an IaC stack. @module */
import { FindingBody } from '../domain/findings.js';
import { type ControlRoute, controlRoute, ok } from './route.js';

/** The finding route. */
export const findingsRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'POST',
    path: '/__mock/stacks/{id}/findings',
    summary: 'record a finding on an IaC stack',
    body: FindingBody,
    handler: ({ core, params, body }) => ok(core.recordFinding(params.id, body), 201),
  }),
];
