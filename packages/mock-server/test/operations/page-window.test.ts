/**
 * `pageWindow` reads a paged request the way the endpoint table's `pagination` says: `page` paging
 * from the query, `offset` paging from the body.
 */
import { DEFAULT_PAGE_SIZE, endpoints } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { pageWindow } from '../../src/operations/operation.js';

/** A request's parsed paging, in the query and in the body at once. */
function context(
  query: { page?: number; pageSize?: number },
  body: { page?: number; pageSize?: number; pageNumber?: number; tablePageSize?: number },
) {
  return { query, body };
}

describe('pageWindow', () => {
  it("reads 'page' paging (workspaces.search) from ?page and ?pageSize, not from the body", () => {
    expect(endpoints['workspaces.search'].pagination).toBe('page');
    const ctx = context({ page: 2, pageSize: 10 }, { page: 5, pageSize: 3 });
    expect(pageWindow('workspaces.search', ctx)).toEqual({ offset: 20, limit: 10 });
    expect(pageWindow('workspaces.search', context({}, { page: 5, pageSize: 3 }))).toEqual({
      offset: 0,
      limit: DEFAULT_PAGE_SIZE,
    });
  });

  it("reads 'offset' paging (iacExplorer.stacks) from the body's page and pageSize, not from the query", () => {
    expect(endpoints['iacExplorer.stacks'].pagination).toBe('offset');
    const ctx = context({ page: 2, pageSize: 10 }, { page: 5, pageSize: 3 });
    expect(pageWindow('iacExplorer.stacks', ctx)).toEqual({ offset: 15, limit: 3 });
    // The body's aliases count too (explorerPage).
    expect(pageWindow('iacExplorer.stacks', context({}, { pageNumber: 1, tablePageSize: 4 }))).toEqual({
      offset: 4,
      limit: 4,
    });
    expect(pageWindow('iacExplorer.stacks', context({ page: 2, pageSize: 10 }, {}))).toEqual({
      offset: 0,
      limit: DEFAULT_PAGE_SIZE,
    });
  });
});
