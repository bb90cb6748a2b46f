/**
 * Schema-free helpers that read the API's bodies and answers, which the SDK's client calls on every
 * call of their endpoints: kept apart from the schema modules (`guardrails.ts`, `iac-explorer.ts`)
 * so that the client does not load those with them (its schemas load per group, on first use).
 *
 * @module
 */
import type { GuardrailCreated, GuardrailCreateResponse } from './guardrails.js';
import { DEFAULT_PAGE_SIZE } from './limits.js';

/**
 * Reads the page and page size an IaC explorer body asks for, aliases included (`pageNumber` for
 * `page`; `tablePageSize` and, on modules, `size` for `pageSize`), with the defaults: page 0, 25 items.
 */
export function explorerPage(body: {
  page?: unknown;
  pageNumber?: unknown;
  pageSize?: unknown;
  tablePageSize?: unknown;
  size?: unknown;
}): { page: number; pageSize: number } {
  const page = (body.page ?? body.pageNumber ?? 0) as number;
  const pageSize = (body.pageSize ?? body.tablePageSize ?? body.size ?? DEFAULT_PAGE_SIZE) as number;
  return { page, pageSize };
}

/** Reads a guardrail create answer in either form as `{ ruleId, notificationId }`. */
export function normalizeGuardrailCreateResponse(response: GuardrailCreateResponse): GuardrailCreated {
  return typeof response === 'string' ? { ruleId: response } : response;
}
