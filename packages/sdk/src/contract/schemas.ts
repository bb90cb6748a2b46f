/**
 * The contract without the strict derivation (`strict.ts`): what the OpenAPI builder walks to name
 * its components (`openapi/schemas.ts` iterates every export). Kept apart so that a bundle importing
 * the contract for its schemas does not keep `strictSchema` (tsup keeps every export of a namespace
 * it iterates). `index.ts` is this plus `strict.ts`.
 *
 * @module
 */
export * from './auth.js';
export * from './delivery-policy.js';
export * from './endpoints.js';
export * from './enums.js';
export * from './errors.js';
export * from './event-center.js';
export * from './guardrails.js';
export * from './http.js';
export * from './iac-explorer.js';
export * from './issue-wording.js';
export * from './json-bounds.js';
export * from './limits.js';
export * from './primitives.js';
export * from './readers.js';
export * from './redaction.js';
export * from './retry-after.js';
export * from './webhooks.js';
export * from './workspaces.js';
