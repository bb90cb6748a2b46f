/**
 * `@iacm/sdk`: the typed client of the IaC management service API.
 *
 * The API contract (schemas and the endpoint table) is exported from `@iacm/sdk/contract`.
 *
 * @packageDocumentation
 */

/** The version of this package. */
export const VERSION = '0.0.0';
