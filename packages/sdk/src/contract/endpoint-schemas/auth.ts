/**
 * The schemas (and summaries) of the `auth` group's endpoints: `auth.login` and `health`. Their
 * routes are in `../routes.ts`; `../endpoints.ts` joins both into the endpoint table.
 *
 * @module
 */
import { HealthResponse, LoginBody, LoginResponse } from '../auth.js';
import { NoQuery } from '../primitives.js';

// With every group, so that the client has it once a group is loaded (`load.ts`).
export { responseSchemaFor } from '../primitives.js';

/** The `auth` group's summaries and schemas, by endpoint name. */
export const authSchemas = {
  'auth.login': {
    summary: 'Exchange an access key and secret key for a bearer token.',
    params: undefined,
    query: NoQuery,
    body: LoginBody,
    response: LoginResponse,
  },
  health: {
    summary: 'Check that the service is up (204, no body).',
    params: undefined,
    query: NoQuery,
    body: undefined,
    response: HealthResponse,
  },
} as const;
