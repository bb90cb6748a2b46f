/**
 * `@iacm/webhook-receiver`: parse and verify webhook deliveries of the IaC management service.
 *
 * @packageDocumentation
 */

/** The version of this package. */
export const VERSION = '0.0.0';
