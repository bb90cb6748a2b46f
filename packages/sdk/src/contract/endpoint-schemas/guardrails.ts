/**
 * The schemas (and summaries) of the `guardrails` group's endpoints. Their routes are in
 * `../routes.ts`; `../endpoints.ts` joins both into the endpoint table.
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

// With every group, so that the client has it once a group is loaded (`load.ts`).
export { responseSchemaFor } from '../primitives.js';

/** The `guardrails` group's summaries and schemas, by endpoint name. */
export const guardrailsSchemas = {
  'guardrails.search': {
    summary: 'List guardrail rules by filter.',
    params: undefined,
    query: PageQuery,
    body: GuardrailSearchBody,
    response: GuardrailSearchResponse,
  },
  'guardrails.create': {
    summary: 'Create a guardrail rule and its notification configuration.',
    params: undefined,
    query: NoQuery,
    body: GuardrailCreateBody,
    response: GuardrailCreateResponse,
  },
  'guardrails.update': {
    summary: 'Update a guardrail rule.',
    params: GuardrailPathParams,
    query: NoQuery,
    body: GuardrailUpdateBody,
    response: GuardrailUpdateResponse,
  },
  'guardrails.delete': {
    summary: 'Delete a guardrail rule and its notification configuration.',
    params: GuardrailPathParams,
    query: NoQuery,
    body: undefined,
    response: GuardrailDeleteResponse,
  },
} as const;
