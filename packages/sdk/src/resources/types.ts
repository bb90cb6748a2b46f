import type { EventQueryBody } from '../contract/event-center.js';
import type { GuardrailField, GuardrailSearchBody } from '../contract/guardrails.js';
import type { BackendQueryBody, ModuleQueryBody, StackQueryBody } from '../contract/iac-explorer.js';
import type { RunField, RunSearchBody, WorkspaceField, WorkspaceSearchBody } from '../contract/workspaces.js';

/** Paging of the search endpoints: `page` (zero-based, default 0) and `pageSize` (1 to 500, default 25). */
export interface PageParams {
  /** Zero-based page to start at. Default 0. */
  page?: number;
  /** Items per page, 1 to 500. Default 25. */
  pageSize?: number;
}

/**
 * An item as a search with `projection` answers it: only the named members, plus `id`. Without a
 * projection, or with an empty one (the mock answers whole items then), the whole item. With a list
 * whose members are not known when compiling (a `string[]`-like variable), the named members are
 * optional: the type cannot promise them.
 */
export type Projected<T, P> = [P] extends [readonly []]
  ? T
  : [P] extends [readonly (infer K)[]]
    ? number extends (P & readonly unknown[])['length']
      ? Pick<T, 'id' & keyof T> & Partial<Pick<T, Extract<K, keyof T>>>
      : Pick<T, Extract<K, keyof T> | ('id' & keyof T)>
    : T;

/**
 * The parameters of workspace search: the body members (typed filters and sorts), the paging, and
 * `projection`, a list of {@link WorkspaceField} names.
 */
export interface WorkspaceSearchParams<P extends ReadonlyArray<WorkspaceField> | undefined = undefined>
  extends Omit<WorkspaceSearchBody, 'projection'>,
    PageParams {
  /** Only these members of each workspace (plus `id`). */
  projection?: P;
}

/** The parameters of run search: the body members, the paging, and `projection` ({@link RunField} names). */
export interface RunSearchParams<P extends ReadonlyArray<RunField> | undefined = undefined>
  extends Omit<RunSearchBody, 'projection'>,
    PageParams {
  /** Only these members of each run (plus `id`). */
  projection?: P;
}

/**
 * The parameters of guardrail search: the body members, the paging, and `projection`
 * ({@link GuardrailField} names).
 */
export interface GuardrailSearchParams<P extends ReadonlyArray<GuardrailField> | undefined = undefined>
  extends Omit<GuardrailSearchBody, 'projection'>,
    PageParams {
  /** Only these members of each rule (plus `id`). */
  projection?: P;
}

/** The parameters of the stack query (its body). */
export type StackQueryParams = StackQueryBody;
/** The parameters of the backend query (its body). */
export type BackendQueryParams = BackendQueryBody;
/** The parameters of the module query (its body). */
export type ModuleQueryParams = ModuleQueryBody;
/** The parameters of the event query (its body). */
export type EventQueryParams = EventQueryBody;
