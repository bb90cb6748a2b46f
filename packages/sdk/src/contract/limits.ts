/**
 * The service's limits that clients and the mock server share.
 *
 * @module
 */

/**
 * The service's rate limit, as this toolkit models it (the spec shows none): at most `limit` requests
 * per source address in any rolling window of `windowSeconds` seconds; a request over it is answered
 * `429 rate_limited` with `Retry-After`. The mock server enforces it when asked (`--rate-limit`), and
 * the OpenAPI document describes it.
 */
export const SERVICE_RATE_LIMIT: Readonly<{ limit: number; windowSeconds: number }> = Object.freeze({
  limit: 500,
  windowSeconds: 60,
});
