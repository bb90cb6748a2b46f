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
export const SERVICE_RATE_LIMIT: Readonly<{ limit: number; windowSeconds: number }> =
  /* @__PURE__ */ Object.freeze({
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

/**
 * The most characters of one value in a guardrail rule's `scope` lists and `criteria` lists (workspace,
 * repository, branch and label patterns, policies, regions, asset types, tag names and values), and of a
 * `requiredValues` tag name: 256, the longest tag value AWS and Azure take and longer than any name
 * those lists hold. A longer value is a 400 naming it. Specific resources take
 * {@link MAX_RESOURCE_ADDRESS_LENGTH}.
 */
export const MAX_RULE_VALUE_LENGTH = 256;

/** The most characters of one of a resource rule's `specificResources`: 2,048, the longest AWS ARN. */
export const MAX_RESOURCE_ADDRESS_LENGTH = 2048;

/** The most labels a workspace holds (`PUT /v2/workspaces/{id}/labels` replaces them all). */
export const MAX_WORKSPACE_LABELS = 50;

/** The most characters of one workspace label (at least 1). */
export const MAX_LABEL_LENGTH = 128;

/** Maximum `pageSize` of the search endpoints (the spec documents none; see `docs/api-semantics.md`). */
export const MAX_PAGE_SIZE = 500;
/** Default `pageSize` of the search endpoints. */
export const DEFAULT_PAGE_SIZE = 25;

/**
 * At most this many issues are listed in one answer or error (`validation_failed`,
 * `RequestValidationError`): past it, one last issue with `omitted` counts the rest. The webhook
 * receiver's `invalid_payload` lists at most as many, and stops validating there.
 */
export const MAX_LISTED_ISSUES = 100;
