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

/**
 * The most values one list of a request may hold: filter values (`filters.labels`, event filter
 * `values`, IaC explorer `screenFilters` lists), guardrail scope and criteria lists. No real query
 * comes near it; a longer list is refused with one issue (`at most 1000 items`) before its items are
 * checked.
 */
export const MAX_REQUEST_LIST_VALUES = 1000;

/**
 * The most structured items one list of a request may hold: event center `filters`, sort keys
 * (`sort`, `sortArr`) and `projection` fields. Each names one of a few dozen fields at most.
 */
export const MAX_REQUEST_LIST_ITEMS = 100;
