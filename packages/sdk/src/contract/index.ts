/**
 * The iacm API contract: zod schemas for every resource, request and answer of the IaC management
 * service API, and the endpoint table that the SDK and the mock server are both built from.
 *
 * Request schemas are strict (unknown members and values are refused); response schemas are
 * tolerant (unknown members and enum values pass, wrong types of known members fail). To check your
 * own fixtures, `strictSchema` derives the strict form of any of them (`strict.ts`).
 *
 * It also holds the HTTP rules the mock server and the webhook receiver share (`http.ts`): header
 * reading, the JSON media type, and reading a body within a size limit.
 *
 * @packageDocumentation
 */
export * from './schemas.js';
export * from './strict.js';
