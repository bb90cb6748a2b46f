/**
 * The endpoint table's `pagination` field is what the SDK pages by: every endpoint whose entry names
 * a paging style is iterable through its SDK method, and the requests the SDK sends follow that
 * style (read from the table here, not from the method).
 */
import type { IacmClient } from '@iacm/sdk';
import {
  type EndpointName,
  type Endpoints,
  endpointList,
  matchPath,
  type PaginationKind,
} from '@iacm/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from './helpers.js';

/** Endpoints whose table entry names a paging style. */
type PagedName = { [K in EndpointName]: Endpoints[K]['pagination'] extends 'none' ? never : K }[EndpointName];

/** More pages than any call below needs with the seeded data. */
const MAX_PAGES = 50;

/** What the SDK sent for one page. */
interface Sent {
  query: URLSearchParams;
  body: Record<string, unknown>;
}

/** How to call each paged endpoint with pages small enough that the seeded data fills several. */
const calls: Record<
  PagedName,
  (client: IacmClient, ids: { workspace: string }) => { pages(): AsyncIterable<unknown> }
> = {
  'workspaces.search': (c) => c.workspaces.search({ pageSize: 7 }),
  'workspaces.runs.search': (c, { workspace }) => c.workspaces.runs.search(workspace, { pageSize: 1 }),
  'guardrails.search': (c) => c.guardrails.search({ pageSize: 2 }),
  'iacExplorer.stacks': (c) => c.iacExplorer.stacks({ pageSize: 4 }),
  'iacExplorer.backends': (c) => c.iacExplorer.backends({ pageSize: 2 }),
  'iacExplorer.modules': (c) => c.iacExplorer.modules({ pageSize: 2 }),
  'eventCenter.query': (c) => c.eventCenter.query({ size: 150 }),
};

/** Checks that the requests of an iteration and the pages it read follow one paging style. */
const followsStyle: Record<Exclude<PaginationKind, 'none'>, (sent: Sent[], pages: unknown[]) => void> = {
  page: (sent, pages) => {
    const size = Number(sent[0]?.query.get('pageSize'));
    sent.forEach((request, index) => {
      expect(Number(request.query.get('page') ?? 0)).toBe(index);
      expect(request.query.get('pageSize')).toBe(String(size));
      expect(request.body).not.toHaveProperty('page');
      expect(request.body).not.toHaveProperty('pageSize');
    });
    const lengths = pages.map((page) => (page as unknown[]).length);
    expect(lengths.slice(0, -1).every((length) => length === size)).toBe(true);
    expect(lengths.at(-1)).toBeLessThan(size);
  },
  offset: (sent, pages) => {
    sent.forEach((request, index) => {
      expect(request.query.get('page')).toBeNull();
      expect(request.body.page ?? 0).toBe(index);
    });
    const size = Number(sent[0]?.body.pageSize);
    const total = (pages[0] as { total: number }).total;
    expect(pages).toHaveLength(Math.ceil(total / size));
  },
  continuation: (sent, pages) => {
    expect(sent[0]?.body).not.toHaveProperty('continuationToken');
    sent.slice(1).forEach((request, index) => {
      const previous = pages[index] as { continuationToken?: string | null };
      expect(request.body.continuationToken).toBe(previous.continuationToken);
    });
    expect((pages.at(-1) as { continuationToken?: string | null }).continuationToken ?? null).toBeNull();
  },
};

let env: Awaited<ReturnType<typeof startMock>>;
const sent: Array<{ method: string; path: string } & Sent> = [];
beforeAll(async () => {
  env = await startMock();
});
afterAll(() => env.close());

function recordingClient(): IacmClient {
  return env.client({
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const text = await request.clone().text();
      sent.push({
        method: request.method,
        path: url.pathname,
        query: url.searchParams,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      });
      return fetch(request);
    },
  });
}

describe('paging follows the endpoint table', () => {
  const paged = endpointList.filter((endpoint) => endpoint.pagination !== 'none');

  it('has a call for every endpoint with a paging style', () => {
    expect(Object.keys(calls).sort()).toEqual(paged.map((endpoint) => endpoint.name).sort());
  });

  it.each(paged.map((endpoint) => [endpoint.name, endpoint.pagination, endpoint] as const))(
    '%s is iterable page by page in its table style (%s)',
    async (name, style, endpoint) => {
      const client = recordingClient();
      const workspaces = await client.workspaces.search({ pageSize: 60 });
      let workspace = workspaces[0]?.id as string;
      for (const candidate of workspaces) {
        if ((await client.workspaces.runs.search(candidate.id, { pageSize: 3 })).length === 3) {
          workspace = candidate.id;
          break;
        }
      }
      sent.length = 0;
      const pages: unknown[] = [];
      // A bound, so that an iteration that never ends fails here rather than at the test's timeout.
      for await (const page of calls[name as PagedName](client, { workspace }).pages()) {
        pages.push(page);
        if (pages.length > MAX_PAGES) break;
      }
      expect(pages.length).toBeLessThanOrEqual(MAX_PAGES);
      const requests = sent.filter(
        (request) => request.method === endpoint.method && matchPath(endpoint.path, request.path),
      );
      expect(requests).toHaveLength(pages.length);
      expect(pages.length).toBeGreaterThanOrEqual(2);
      followsStyle[style as Exclude<PaginationKind, 'none'>](requests, pages);
    },
  );
});
