/**
 * The declarations of the `auth` group's endpoints (`auth.login` and `health`): for each, its route
 * facts (method, path, statuses, paging, retry safety, authentication), its summary and its params,
 * query, body and response schemas, in one place. `../endpoints.ts` makes the endpoint table of
 * every group's declarations; `pnpm contract:routes` writes their route facts (schema-free) into
 * `../routes.generated.ts`, the routes a client sends with, and their schemas into
 * `./auth.schemas.generated.ts`, which a client that validates loads on the group's first call
 * (`load.ts`).
 *
 * @module
 */
import { HealthResponse, LoginBody, LoginResponse } from '../auth.js';
import { NoQuery } from '../primitives.js';
import type { EndpointDeclarations } from './declaration.js';

/** The `auth` group's endpoints, by name, in the endpoint table's order. */
export const authEndpoints = {
  'auth.login': {
    method: 'POST',
    path: '/v2/login',
    summary: 'Exchange an access key and secret key for a bearer token.',
    params: undefined,
    query: NoQuery,
    body: LoginBody,
    bodyRequired: true,
    response: LoginResponse,
    successStatus: 200,
    retrySafe: true,
    auth: false,
    pagination: 'none',
    projection: false,
  },
  health: {
    method: 'GET',
    path: '/v2/health',
    summary: 'Check that the service is up (204, no body).',
    params: undefined,
    query: NoQuery,
    body: undefined,
    bodyRequired: false,
    response: HealthResponse,
    successStatus: 204,
    retrySafe: true,
    auth: false,
    pagination: 'none',
    projection: false,
  },
} as const satisfies EndpointDeclarations;
