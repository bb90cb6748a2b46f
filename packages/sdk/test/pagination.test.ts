/**
 * The paging core without a server (issue 20, finding 12): `APIPromise` starts its call once and
 * lazily, `toArray` takes exactly `limit` items (0 sends nothing; a negative, fractional or missing
 * limit is an `IacmError` naming `limit`), and each paging style asks for exactly the pages it should,
 * stopping at a short page, the `total`, an empty page or a null continuation token.
 */
import { DEFAULT_PAGE_SIZE } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { IacmError } from '../src/core/errors.js';
import { APIPromise, PAGINATORS, type PageCall, PagePromise } from '../src/core/pagination.js';
import type { CallInput, WithResponse } from '../src/core/transport.js';

const response = new Response(null, { status: 200 });

/** A fake answer. */
function answer<T>(data: T): WithResponse<T> {
  return { data, response, requestId: 'req-1' };
}

/** A call recording its inputs, answering `pages[i]` to the i-th request (the last one again after). */
function recorder<P>(pages: P[]) {
  const inputs: CallInput[] = [];
  const call: PageCall = async (input) => {
    inputs.push(structuredClone(input));
    return answer(pages[Math.min(inputs.length - 1, pages.length - 1)]);
  };
  return { inputs, call };
}

/** A page promise over arrays of numbers: `pages` in turn, then the end. */
function numbers(pages: number[][]) {
  let calls = 0;
  const fetchPage = (index: number) => async () => {
    calls++;
    return answer(pages[index] as number[]);
  };
  const promise = new PagePromise<number[], number>(
    fetchPage(0),
    (page) => page,
    (_page, index) => (index + 1 < pages.length ? fetchPage(index + 1) : undefined),
  );
  return { promise, calls: () => calls };
}

const LIMIT_MESSAGE =
  'toArray: limit expects a whole number, 0 or more (the most items to collect, so that a large ' +
  'account cannot exhaust memory), received ';

describe('APIPromise', () => {
  it('starts its call on first use only, once, whatever reads it', async () => {
    let calls = 0;
    const promise = new APIPromise(async () => {
      calls++;
      return answer({ n: 1 });
    });
    expect(calls).toBe(0);
    expect(await promise).toEqual({ n: 1 });
    expect(await promise.then((v) => v.n)).toBe(1);
    expect(await promise.withResponse()).toEqual({ data: { n: 1 }, response, requestId: 'req-1' });
    let finallyRan = false;
    expect(await promise.finally(() => (finallyRan = true))).toEqual({ n: 1 });
    expect(finallyRan).toBe(true);
    expect(calls).toBe(1);
  });

  it('hands a failure to then, catch and finally, and chains plain promises', async () => {
    const failure = new IacmError('boom');
    const promise = new APIPromise<number>(async () => {
      throw failure;
    });
    expect(await promise.catch((error) => error)).toBe(failure);
    expect(await promise.then(undefined, (error) => `handled ${(error as Error).message}`)).toBe(
      'handled boom',
    );
    let finallyRan = false;
    await expect(promise.finally(() => (finallyRan = true))).rejects.toBe(failure);
    expect(finallyRan).toBe(true);
    const chained = promise.catch(() => 0);
    expect(chained).not.toBeInstanceOf(APIPromise);
    expect(chained).toBeInstanceOf(Promise);
    await chained;
  });
});

describe('PagePromise', () => {
  it('is the first page when awaited, and iterates the pages and their items in order', async () => {
    const { promise, calls } = numbers([[1, 2], [3], [4, 5]]);
    expect(await promise).toEqual([1, 2]);
    expect(calls()).toBe(1);
    const pages: number[][] = [];
    for await (const page of promise.pages()) pages.push(page);
    expect(pages).toEqual([[1, 2], [3], [4, 5]]);
    const items: number[] = [];
    for await (const item of promise) items.push(item);
    expect(items).toEqual([1, 2, 3, 4, 5]);
  });

  it('toArray takes exactly `limit` items, fetching only the pages it needs', async () => {
    const cases: Array<[limit: number, items: number[], calls: number]> = [
      [1, [1], 1],
      [2, [1, 2], 1],
      [3, [1, 2, 3], 2],
      [4, [1, 2, 3, 4], 3],
      [5, [1, 2, 3, 4, 5], 3],
      [6, [1, 2, 3, 4, 5], 3],
      [1_000_000, [1, 2, 3, 4, 5], 3],
    ];
    for (const [limit, items, calls] of cases) {
      const paged = numbers([[1, 2], [3], [4, 5]]);
      expect(await paged.promise.toArray({ limit }), `limit ${limit}`).toEqual(items);
      expect(paged.calls(), `limit ${limit}`).toBe(calls);
    }
  });

  it('toArray with limit 0 answers [] without a request', async () => {
    const { promise, calls } = numbers([[1, 2]]);
    expect(await promise.toArray({ limit: 0 })).toEqual([]);
    expect(calls()).toBe(0);
  });

  it('toArray refuses a limit that is not a whole number, 0 or more, naming it, before any request', async () => {
    const cases: Array<[options: unknown, received: string]> = [
      [{ limit: -1 }, '-1'],
      [{ limit: -1_000_000 }, '-1000000'],
      [{ limit: 1.5 }, '1.5'],
      [{ limit: -0.5 }, '-0.5'],
      [{ limit: Number.NaN }, 'NaN'],
      [{ limit: Number.POSITIVE_INFINITY }, 'Infinity'],
      [{ limit: '3' }, 'a value of type string'],
      [{ limit: null }, 'a value of type object'],
      [{}, 'no limit'],
      [undefined, 'no limit'],
      [null, 'no limit'],
    ];
    for (const [options, received] of cases) {
      const { promise, calls } = numbers([[1, 2]]);
      const error = await promise.toArray(options as never).catch((e: unknown) => e);
      expect(error, JSON.stringify(options)).toBeInstanceOf(IacmError);
      expect((error as IacmError).message).toBe(`${LIMIT_MESSAGE}${received}`);
      expect(calls()).toBe(0);
    }
  });
});

describe('PAGINATORS.page', () => {
  const items = (page: number[]) => page;

  it('asks for the next page while a page is full, with page and pageSize in the query', async () => {
    const { inputs, call } = recorder([[1, 2], [3, 4], [5]]);
    const promise = PAGINATORS.page(call, { pageSize: 2, filter: 'x' }, { id: 'w1' }, items);
    expect(await promise.toArray({ limit: 100 })).toEqual([1, 2, 3, 4, 5]);
    expect(inputs).toStrictEqual([
      { params: { id: 'w1' }, query: { page: undefined, pageSize: 2 }, body: { filter: 'x' } },
      { params: { id: 'w1' }, query: { page: 1, pageSize: 2 }, body: { filter: 'x' } },
      { params: { id: 'w1' }, query: { page: 2, pageSize: 2 }, body: { filter: 'x' } },
    ]);
  });

  it('starts at the page asked for, and stops at a short or empty page', async () => {
    const { inputs, call } = recorder([[1, 2], []]);
    const promise = PAGINATORS.page(call, { page: 3, pageSize: 2 }, undefined, items);
    expect(await promise.toArray({ limit: 100 })).toEqual([1, 2]);
    expect(inputs).toStrictEqual([
      { query: { page: 3, pageSize: 2 }, body: {} },
      { query: { page: 4, pageSize: 2 }, body: {} },
    ]);
  });

  it(`uses the default page size (${DEFAULT_PAGE_SIZE}) to tell a full page`, async () => {
    const full = Array.from({ length: DEFAULT_PAGE_SIZE }, (_, i) => i);
    const { inputs, call } = recorder([full, full.slice(1)]);
    expect(await PAGINATORS.page(call, undefined, undefined, items).toArray({ limit: 1000 })).toHaveLength(
      2 * DEFAULT_PAGE_SIZE - 1,
    );
    expect(inputs.map((input) => input.query)).toStrictEqual([
      { page: undefined, pageSize: undefined },
      { page: 1, pageSize: undefined },
    ]);
  });
});

describe('PAGINATORS.offset', () => {
  type Page = { items: number[]; total: number };
  const items = (page: Page) => page.items;

  it('goes on until the answer’s total, the page in the body', async () => {
    const { inputs, call } = recorder<Page>([
      { items: [1, 2], total: 5 },
      { items: [3, 4], total: 5 },
      { items: [5], total: 5 },
      { items: [6], total: 5 },
    ]);
    const promise = PAGINATORS.offset(call, { pageSize: 2, q: 'x' }, { id: 's' }, items);
    expect(await promise.toArray({ limit: 100 })).toEqual([1, 2, 3, 4, 5]);
    expect(inputs).toStrictEqual([
      { params: { id: 's' }, body: { pageSize: 2, q: 'x' } },
      { params: { id: 's' }, body: { pageSize: 2, q: 'x', page: 1 } },
      { params: { id: 's' }, body: { pageSize: 2, q: 'x', page: 2 } },
    ]);
  });

  it('stops when the pages reach the total exactly', async () => {
    const { inputs, call } = recorder<Page>([
      { items: [1, 2], total: 4 },
      { items: [3, 4], total: 4 },
      { items: [5], total: 4 },
    ]);
    expect(await PAGINATORS.offset(call, { pageSize: 2 }, undefined, items).toArray({ limit: 100 })).toEqual([
      1, 2, 3, 4,
    ]);
    expect(inputs).toHaveLength(2);
  });

  it('stops at an empty page, whatever the total says', async () => {
    const { inputs, call } = recorder<Page>([
      { items: [1, 2], total: 100 },
      { items: [], total: 100 },
      { items: [3], total: 100 },
    ]);
    expect(await PAGINATORS.offset(call, { pageSize: 2 }, undefined, items).toArray({ limit: 100 })).toEqual([
      1, 2,
    ]);
    expect(inputs).toHaveLength(2);
  });

  it('starts after the page asked for (pageNumber too, which later pages replace by page)', async () => {
    const { inputs, call } = recorder<Page>([
      { items: [7, 8], total: 10 },
      { items: [9, 10], total: 10 },
    ]);
    const promise = PAGINATORS.offset(call, { pageNumber: 3, pageSize: 2 }, undefined, items);
    expect(await promise.toArray({ limit: 100 })).toEqual([7, 8, 9, 10]);
    expect(inputs).toStrictEqual([
      { body: { pageNumber: 3, pageSize: 2 } },
      { body: { pageSize: 2, page: 4 } },
    ]);
  });

  it(`uses the default page size (${DEFAULT_PAGE_SIZE}) against the total`, async () => {
    const page = Array.from({ length: DEFAULT_PAGE_SIZE }, (_, i) => i);
    const { inputs, call } = recorder<Page>([
      { items: page, total: DEFAULT_PAGE_SIZE + 1 },
      { items: [99], total: DEFAULT_PAGE_SIZE + 1 },
    ]);
    expect(await PAGINATORS.offset(call, undefined, undefined, items).toArray({ limit: 1000 })).toHaveLength(
      DEFAULT_PAGE_SIZE + 1,
    );
    expect(inputs).toStrictEqual([{ body: {} }, { body: { page: 1 } }]);
  });
});

describe('PAGINATORS.continuation', () => {
  type Page = { items: number[]; continuationToken?: string | null };
  const items = (page: Page) => page.items;

  it('sends each answer’s token back with the same body until it is null, empty or absent', async () => {
    for (const end of [null, '', undefined]) {
      const { inputs, call } = recorder<Page>([
        { items: [1], continuationToken: 't1' },
        { items: [2], continuationToken: 't2' },
        { items: [3], ...(end === undefined ? {} : { continuationToken: end }) },
        { items: [4], continuationToken: 't4' },
      ]);
      const promise = PAGINATORS.continuation(call, { size: 1 }, { id: 'a' }, items);
      expect(await promise.toArray({ limit: 100 }), String(end)).toEqual([1, 2, 3]);
      expect(inputs).toStrictEqual([
        { params: { id: 'a' }, body: { size: 1 } },
        { params: { id: 'a' }, body: { size: 1, continuationToken: 't1' } },
        { params: { id: 'a' }, body: { size: 1, continuationToken: 't2' } },
      ]);
    }
  });

  it('starts from a token given, and sends none for an empty or null one', async () => {
    const given = recorder<Page>([{ items: [5], continuationToken: null }]);
    await PAGINATORS.continuation(given.call, { continuationToken: 't0' }, undefined, items).toArray({
      limit: 9,
    });
    expect(given.inputs).toStrictEqual([{ body: { continuationToken: 't0' } }]);
    const none = recorder<Page>([{ items: [5] }]);
    await PAGINATORS.continuation(none.call, undefined, undefined, items).toArray({ limit: 9 });
    expect(none.inputs).toStrictEqual([{ body: {} }]);
  });
});
