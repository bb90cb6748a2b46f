import type { Endpoints, PaginationKind } from '../contract/endpoints.js';
import { DEFAULT_PAGE_SIZE } from '../contract/limits.js';
import { explorerPage } from '../contract/readers.js';
import { IacmError } from './errors.js';
import type { CallInput, WithResponse } from './transport.js';

/**
 * The promise of one call's answer. Await it for the data; call {@link APIPromise.withResponse} for
 * the data with the raw `Response` and the request id. The request starts at once (in the microtask
 * after the call is made), awaited or not, as a promise's work does: so a test may start a call, then
 * move fake timers (`await vi.advanceTimersByTimeAsync(2000)` for a `Retry-After: 2`), then await it.
 * A paged call iterated in the same expression (`.toArray(...)`, `.pages()`, `for await`) is started
 * by the iteration instead, so `toArray({ limit: 0 })` still sends nothing.
 */
export class APIPromise<T> extends Promise<T> {
  readonly #fetch: () => Promise<WithResponse<T>>;
  #started: Promise<WithResponse<T>> | undefined;
  #held = false;

  /** Wraps a call (it starts in the next microtask, once). */
  constructor(fetch: () => Promise<WithResponse<T>>) {
    // The base promise is a placeholder: every method below reads the call's own promise.
    super((resolve) => resolve(undefined as T));
    this.#fetch = fetch;
    // `then` on the placeholder (a subclass's species) calls the constructor again with an executor:
    // only a call starts itself.
    if (typeof fetch === 'function') {
      queueMicrotask(() => {
        if (this.#held || this.#started) return;
        // Handled here: a call started but never awaited must not end the process with an unhandled
        // rejection; whoever awaits it later still gets its error.
        this.withResponse().catch(() => {});
      });
    }
  }

  /** Keeps the call from starting by itself: an iteration that decides whether to send it does. */
  protected hold(): void {
    this.#held = true;
  }

  /** `then`, `catch` and `finally` return plain promises. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The answer with its raw response: `{ data, response, requestId }`. */
  withResponse(): Promise<WithResponse<T>> {
    this.#started ??= this.#fetch();
    return this.#started;
  }

  /** Like `Promise.prototype.then`; starts the call. */
  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is a promise on purpose.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.withResponse()
      .then((r) => r.data)
      .then(onfulfilled, onrejected);
  }

  /** Like `Promise.prototype.catch`; starts the call. */
  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onrejected);
  }

  /** Like `Promise.prototype.finally`; starts the call. */
  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.withResponse()
      .then((r) => r.data)
      .finally(onfinally);
  }
}

/** How a paged endpoint moves on: the call of the next page after `page`, or undefined at the end. */
export type NextPage<P> = (page: P, pageIndex: number) => (() => Promise<WithResponse<P>>) | undefined;

/** Options of {@link PagePromise.toArray}. */
export interface ToArrayOptions {
  /**
   * The most items to collect: a whole number, 0 or more (0 collects nothing and sends no request).
   * Required, so a large account cannot exhaust memory by accident.
   */
  limit: number;
}

/**
 * The promise of a paged call. Await it for the first page (exactly what the endpoint answers), or
 * iterate it with `for await` over every item across pages; {@link PagePromise.pages} iterates the
 * pages themselves. Every page is fetched with the call's request options, so its `signal` stops
 * an iteration in progress (with an `APIUserAbortError`).
 */
export class PagePromise<P, Item> extends APIPromise<P> implements AsyncIterable<Item> {
  readonly #items: (page: P) => Item[];
  readonly #next: NextPage<P>;

  /** Wraps the first call with how to read items and how to move on. */
  constructor(first: () => Promise<WithResponse<P>>, items: (page: P) => Item[], next: NextPage<P>) {
    super(first);
    this.#items = items;
    this.#next = next;
  }

  /** Every page, in order, starting with the first. */
  pages(): AsyncGenerator<P, void, undefined> {
    this.hold();
    return this.#pages();
  }

  async *#pages(): AsyncGenerator<P, void, undefined> {
    let page = (await this.withResponse()).data;
    for (let index = 0; ; index++) {
      yield page;
      const next = this.#next(page, index);
      if (!next) return;
      page = (await next()).data;
    }
  }

  /** Every item of every page. */
  [Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    this.hold();
    return this.#everyItem();
  }

  async *#everyItem(): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.#pages()) {
      for (const item of this.#items(page)) yield item;
    }
  }

  /**
   * Collects items across pages, at most `limit` of them; stops fetching once it has them. `limit: 0`
   * answers `[]` without a request.
   * @throws IacmError naming `limit` when it is not a whole number, 0 or more (negative, fractional,
   * not a number, or missing), before any request.
   */
  toArray(options: ToArrayOptions): Promise<Item[]> {
    this.hold();
    return this.#toArray(options);
  }

  async #toArray(options: ToArrayOptions): Promise<Item[]> {
    const limit = options?.limit;
    if (!Number.isInteger(limit) || limit < 0) {
      throw new IacmError(
        'toArray: limit expects a whole number, 0 or more (the most items to collect, so that a large ' +
          `account cannot exhaust memory), received ${describeLimit(limit)}`,
      );
    }
    const out: Item[] = [];
    if (limit === 0) return out;
    for await (const item of this.#everyItem()) {
      out.push(item);
      if (out.length >= limit) break;
    }
    return out;
  }
}

/** What came as `toArray`'s limit, for its error: the number, `no limit`, or its type. */
function describeLimit(limit: unknown): string {
  if (typeof limit === 'number') return String(limit);
  return limit === undefined ? 'no limit' : `a value of type ${typeof limit}`;
}

/** The name of an endpoint whose results come in pages (its table entry's `pagination` is not `none`). */
export type PagedEndpointName = {
  [K in keyof Endpoints]: Endpoints[K]['pagination'] extends 'none' ? never : K;
}[keyof Endpoints];

/** A paging style of the endpoint table, other than `none`. */
export type PagingStyle = Exclude<PaginationKind, 'none'>;

/** One request of a paged endpoint (the endpoint and the request options are already bound). */
export type PageCall = (input: CallInput) => Promise<WithResponse<unknown>>;

/**
 * How one paging style moves through the pages of a call: from the method's parameters (the body
 * members plus, for `page`, the `page`/`pageSize` query parameters), its path parameters and how
 * to read a page's items.
 */
type Paginator = <P, Item>(
  call: PageCall,
  params: object | undefined,
  path: Record<string, string> | undefined,
  items: (page: P) => Item[],
) => PagePromise<P, Item>;

/**
 * The paging styles of the endpoint table's `pagination` field, as the SDK follows them (the
 * OpenAPI document describes the same styles from the same field):
 * - `page`: `page`/`pageSize` query parameters; the next page is asked for while a page is full;
 * - `offset`: `page`/`pageSize` body members (IaC explorer); it goes on until the answer's `total`;
 * - `continuation`: the answer's `continuationToken` is sent back with the same body until it is null.
 */
export const PAGINATORS: Readonly<Record<PagingStyle, Paginator>> = {
  page: <P, Item>(
    call: PageCall,
    params: object | undefined,
    path: Record<string, string> | undefined,
    items: (page: P) => Item[],
  ) => {
    const { page, pageSize, ...body } = (params ?? {}) as {
      page?: number;
      pageSize?: number;
    } & Record<string, unknown>;
    const size = pageSize ?? DEFAULT_PAGE_SIZE;
    const at = (p: number | undefined) => () =>
      call({ ...(path ? { params: path } : {}), query: { page: p, pageSize }, body }) as Promise<
        WithResponse<P>
      >;
    const start = page ?? 0;
    return new PagePromise<P, Item>(at(page), items, (answer, index) =>
      items(answer).length < size ? undefined : at(start + index + 1),
    );
  },
  offset: <P, Item>(
    call: PageCall,
    params: object | undefined,
    path: Record<string, string> | undefined,
    items: (page: P) => Item[],
  ) => {
    const body = (params ?? {}) as Record<string, unknown>;
    const withPath = path ? { params: path } : {};
    const { page: first, pageSize: size } = explorerPage(body);
    const at = (p: number) => () => {
      const { pageNumber: _n, ...rest } = body;
      return call({ ...withPath, body: { ...rest, page: p } }) as Promise<WithResponse<P>>;
    };
    return new PagePromise<P, Item>(
      () => call({ ...withPath, body }) as Promise<WithResponse<P>>,
      items,
      (answer, index) => {
        const next = first + index + 1;
        const total = (answer as { total: number }).total;
        return items(answer).length === 0 || next * size >= total ? undefined : at(next);
      },
    );
  },
  continuation: <P, Item>(
    call: PageCall,
    params: object | undefined,
    path: Record<string, string> | undefined,
    items: (page: P) => Item[],
  ) => {
    const body = (params ?? {}) as { continuationToken?: string | null | undefined };
    const withPath = path ? { params: path } : {};
    const at = (token: string | null | undefined) => () =>
      call({ ...withPath, body: token ? { ...body, continuationToken: token } : body }) as Promise<
        WithResponse<P>
      >;
    return new PagePromise<P, Item>(at(body.continuationToken), items, (answer) => {
      const token = (answer as { continuationToken?: string | null }).continuationToken;
      return token ? at(token) : undefined;
    });
  },
};
