/**
 * `@iacm/mock-server`: a stateful in-memory reference server for the IaC management service API.
 *
 * @packageDocumentation
 */

/** The version of this package. */
export const VERSION = '0.0.0';
