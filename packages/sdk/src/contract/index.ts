/**
 * The iacm API contract: zod schemas for every resource, request and answer of the IaC management
 * service API, and the endpoint table that the SDK and the mock server are both built from.
 *
 * Request schemas are strict (unknown members and values are refused); response schemas are
 * tolerant (unknown members and enum values pass, wrong types of known members fail).
 *
 * It also holds the HTTP rules the mock server and the webhook receiver share (`http.ts`): header
 * reading, the JSON media type, and reading a body within a size limit.
 *
 * @packageDocumentation
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
export * from './json-bounds.js';
export * from './limits.js';
export * from './primitives.js';
export * from './redaction.js';
export * from './retry-after.js';
export * from './webhooks.js';
export * from './workspaces.js';
