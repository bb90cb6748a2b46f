/** Control route: `POST /__mock/stacks/{id}/findings`, a finding on an IaC stack. @module */
import { FindingBody, type FindingInput } from '../domain/findings.js';
import { type ControlRoute, ok } from './route.js';

/** The finding route. */
export const findingsRoutes: readonly ControlRoute[] = [
  {
    method: 'POST',
    path: '/__mock/stacks/{id}/findings',
    summary: 'record a finding on an IaC stack',
    body: FindingBody,
    handler: ({ plane, params, body }) =>
      ok(plane.recordFinding(params.id as string, body as FindingInput), 201),
  },
];
