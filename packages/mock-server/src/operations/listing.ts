/**
 * Searching a small set (a workspace's runs, the guardrail rules): filter, sort per request, page,
 * project.
 *
 * @module
 */
import { sortKeys } from '@iacm/sdk/contract';
import { comparator, type SortKey, type SortValue } from '../query/compare.js';
import { allOf, type FilterSpec, filterPredicate, pageOf, project } from '../query/search.js';
import { textPredicate } from '../query/text.js';
import { type EndpointQuery, pageWindow, type QueryPagedEndpoint } from './operation.js';

/** A comparator over the request's sort keys (or `fallback`), reading fields with `getters`. */
export function sortWith<T extends { id: string }>(
  getters: Record<string, (r: T) => SortValue>,
  sort: Parameters<typeof sortKeys>[0],
  fallback: [string, 1 | -1],
): (a: T, b: T) => number {
  const keys = sortKeys(sort);
  const chosen = keys.length > 0 ? keys : [fallback];
  return comparator(
    chosen.map(([field, order]): SortKey<T> => ({ get: getters[field] as (r: T) => SortValue, order })),
  );
}

/** A search over a small set (a workspace's runs, the rules): filter, sort per request, page, project. */
export function searchList<T extends { id: string }>(
  name: QueryPagedEndpoint,
  ctx: { query: EndpointQuery<QueryPagedEndpoint> },
  records: Iterable<T>,
  body: {
    filters?: Parameters<typeof filterPredicate>[1];
    searchValue?: string | undefined;
    sort?: Parameters<typeof sortKeys>[0];
    projection?: readonly string[] | undefined;
  },
  spec: {
    filters: FilterSpec<T>;
    text: (record: T) => ReadonlyArray<string | undefined | null>;
    sorts: Record<string, (record: T) => SortValue>;
    fallback: [string, 1 | -1];
  },
): Array<Pick<T, 'id'> & Partial<T>> {
  const filter = allOf(
    filterPredicate(spec.filters, body.filters),
    textPredicate<T>(body.searchValue, spec.text),
  );
  const matches = [...records].filter((r) => !filter || filter(r));
  const { offset, limit } = pageWindow(name, ctx);
  return pageOf(matches, sortWith(spec.sorts, body.sort, spec.fallback), offset, limit).map((r) =>
    project(r, body.projection),
  );
}
