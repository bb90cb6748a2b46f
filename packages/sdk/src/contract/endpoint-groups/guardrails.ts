/**
 * The declarations of the `guardrails` group's endpoints: for each, its route facts (method, path,
 * statuses, paging, retry safety, authentication), its summary and its params, query, body and
 * response schemas, in one place. `../endpoints.ts` makes the endpoint table of every group's
 * declarations; `pnpm contract:routes` writes their route facts (schema-free) into
 * `../routes.generated.ts`, the routes a client sends with, and their schemas into
 * `./guardrails.schemas.generated.ts`, which a client that validates loads on the group's first call
 * (`load.ts`).
 *
 * @module
 */
import {
  GuardrailCreateBody,
  GuardrailCreateResponse,
  GuardrailDeleteResponse,
  GuardrailPathParams,
  GuardrailSearchBody,
  GuardrailSearchResponse,
  GuardrailUpdateBody,
  GuardrailUpdateResponse,
} from '../guardrails.js';
import { NoQuery, PageQuery } from '../primitives.js';
import type { EndpointDeclarations } from './declaration.js';

/** The `guardrails` group's endpoints, by name, in the endpoint table's order. */
export const guardrailsEndpoints = {
  'guardrails.search': {
    method: 'POST',
    path: '/v2/guardrails/search',
    summary: 'List guardrail rules by filter.',
    params: undefined,
    query: PageQuery,
    body: GuardrailSearchBody,
    bodyRequired: false,
    response: GuardrailSearchResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'page',
    projection: true,
  },
  'guardrails.create': {
    method: 'POST',
    path: '/v2/guardrails',
    summary: 'Create a guardrail rule and its notification configuration.',
    params: undefined,
    query: NoQuery,
    body: GuardrailCreateBody,
    bodyRequired: true,
    response: GuardrailCreateResponse,
    successStatus: 200,
    retrySafe: false,
    auth: true,
    pagination: 'none',
    projection: false,
  },
  'guardrails.update': {
    method: 'PATCH',
    path: '/v2/guardrails/{ruleId}',
    summary: 'Update a guardrail rule.',
    params: GuardrailPathParams,
    query: NoQuery,
    body: GuardrailUpdateBody,
    bodyRequired: true,
    response: GuardrailUpdateResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'none',
    projection: false,
  },
  'guardrails.delete': {
    method: 'DELETE',
    path: '/v2/guardrails/{ruleId}',
    summary: 'Delete a guardrail rule and its notification configuration.',
    params: GuardrailPathParams,
    query: NoQuery,
    body: undefined,
    bodyRequired: false,
    response: GuardrailDeleteResponse,
    successStatus: 200,
    retrySafe: true,
    auth: true,
    pagination: 'none',
    projection: false,
  },
} as const satisfies EndpointDeclarations;
