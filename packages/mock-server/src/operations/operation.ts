/**
 * What an operation is, typed from the contract's endpoint table: `Handler<N>` takes endpoint `N`'s
 * path, query and body as its schemas parsed them (`EndpointParams`, `EndpointQuery`,
 * `EndpointBody`: the schemas' output types) with the caller's account and the mock's services, and
 * answers `N`'s success body (`EndpointAnswer`: what its answer schema accepts; `undefined` for 204).
 * One file per API group exports its operations `satisfies Operations<'group'>`, so an endpoint
 * added to the contract without an operation, an operation without an endpoint, or an operation
 * answering the wrong shape fails to compile. Also here: paging windows read from the table.
 *
 * @module
 */
import {
  DEFAULT_PAGE_SIZE,
  type EndpointName,
  type Endpoints,
  type Event,
  endpoints,
  explorerPage,
} from '@iacm/sdk/contract';
import type * as z from 'zod';
import type { LoginAnswer } from '../auth/login.js';
import type { AccountLimits } from '../domain/caps.js';
import type { EventRecorder } from '../domain/events.js';
import type { Ledger } from '../store/budget.js';
import type { AccountStore } from '../store/store.js';
import type { CursorPosition, EventQuery } from './event-cursor.js';

/** The path parameters of endpoint `N` as its `params` schema parsed them (none: an empty record). */
export type EndpointParams<N extends EndpointName> = Endpoints[N]['params'] extends z.core.$ZodType
  ? z.output<Endpoints[N]['params']>
  : Record<string, never>;

/** The query of endpoint `N` as its `query` schema parsed it (`page`/`pageSize` as numbers). */
export type EndpointQuery<N extends EndpointName> = Endpoints[N]['query'] extends z.core.$ZodType
  ? z.output<Endpoints[N]['query']>
  : never;

/**
 * The body of endpoint `N` as its `body` schema parsed it (an absent optional body is parsed as
 * `{}`); `undefined` for an endpoint that takes none.
 */
export type EndpointBody<N extends EndpointName> = Endpoints[N]['body'] extends z.core.$ZodType
  ? z.output<Endpoints[N]['body']>
  : undefined;

/** A member name of an object type other than an index signature's `string` or `number`. */
type KnownKey<K> = string extends K ? never : number extends K ? never : K;

/**
 * A tolerant answer schema's type with its objects closed: the index signature a tolerant object
 * takes further members with is dropped wherever an object has named members (a record keeps its
 * own), so an answer is checked against the documented members only, and the mock's records (named
 * interfaces, which carry no index signature) are answers as they are.
 */
type Closed<T> = T extends readonly (infer E)[]
  ? Closed<E>[]
  : T extends object
    ? [keyof { [K in keyof T as KnownKey<K>]: 1 }] extends [never]
      ? { [K in keyof T]: Closed<T[K]> }
      : { [K in keyof T as KnownKey<K>]: Closed<T[K]> }
    : T;

/**
 * An item of a search whose body may name a `projection`: `id` always, every other member only when
 * named (the answer the contract's `responseSchemaFor` reads).
 */
export type ProjectedItem<T> = T extends { id: infer Id } ? { id: Id } & Partial<T> : Partial<T>;

/**
 * What endpoint `N` answers on success: a value its `response` schema accepts (the schema's input
 * type, its objects closed to their documented members); with `projection`, items lack the members
 * the body did not name; `undefined` for a 204 endpoint.
 */
export type EndpointAnswer<N extends EndpointName> = Endpoints[N]['successStatus'] extends 204
  ? undefined
  : Endpoints[N]['projection'] extends true
    ? Closed<z.input<Endpoints[N]['response']>> extends ReadonlyArray<infer Item>
      ? Array<ProjectedItem<Item>>
      : never
    : Closed<z.input<Endpoints[N]['response']>>;

/**
 * What the handler of endpoint `N` gets: the caller's account, that endpoint's inputs as the route
 * stage parsed them with its schemas, and the mock's services.
 */
export interface HandlerContext<N extends EndpointName> {
  /** The caller's account (undefined only for endpoints without auth). */
  account: AccountStore | undefined;
  /** The path parameters, parsed by the endpoint's `params` schema. */
  params: EndpointParams<N>;
  /** The query, parsed by the endpoint's `query` schema. */
  query: EndpointQuery<N>;
  /** The body, parsed by the endpoint's `body` schema (`{}` when an optional body was absent). */
  body: EndpointBody<N>;
  /** The mock's services. */
  services: HandlerServices;
  /**
   * Aborts when the client has gone: long operations check it between chunks of work and stop
   * (throwing its reason), so an abandoned request stops costing CPU.
   */
  signal?: AbortSignal | undefined;
}

/** Services the core offers to handlers. */
export interface HandlerServices {
  /** The current time, epoch milliseconds (the injectable clock). */
  now(): number;
  /** A new unique 24-hex record id. */
  newId(): string;
  /** Logs in with a key pair; answers the login body or throws 401. */
  login(accessKey: string, secretKey: string): Promise<LoginAnswer>;
  /** Encodes an event-center continuation token for a query and the last event of a page (`EventCursor`). */
  encodeCursor(query: EventQuery, last: Event): Promise<string>;
  /** Decodes a continuation token; throws 400 when it was altered or belongs to another query (`EventCursor`). */
  decodeCursor(token: string, query: EventQuery): Promise<CursorPosition>;
  /** Records events (API mutations leave mutation events). */
  events: EventRecorder;
  /** The per-account caps (`domain/caps.ts`). */
  limits(): AccountLimits;
  /**
   * The data's ledger in the mock's memory budget (`store/budget.ts`): what a handler adds to the
   * records is charged to it before it is stored (a 409 `budget_exceeded` past the budget).
   */
  readonly records: Ledger;
}

/**
 * The handler of endpoint `N`: from that endpoint's parsed inputs to its success body (`undefined`
 * for a 204 endpoint), typed from the contract's endpoint table, so a wrong answer does not compile.
 */
export type Handler<N extends EndpointName> = (
  ctx: HandlerContext<N>,
) => EndpointAnswer<N> | Promise<EndpointAnswer<N>>;

/** The API group of an endpoint name: the part before the first dot (`workspaces.runs.search` -> `workspaces`). */
export type GroupOf<N extends string> = N extends `${infer G}.${string}` ? G : N;

/** The API groups of the contract's endpoint table. */
export type EndpointGroup = GroupOf<EndpointName>;

/** The endpoint names of one API group. */
export type EndpointsOf<G extends EndpointGroup> = Extract<EndpointName, G | `${G}.${string}`>;

/** The operations of one API group: exactly one per endpoint of the group, each typed for its endpoint. */
export type Operations<G extends EndpointGroup> = { [N in EndpointsOf<G>]: Handler<N> };

/** The caller's account; only endpoints with `auth: true` get here, so it is always there. */
export function accountOf(ctx: Pick<HandlerContext<EndpointName>, 'account'>): AccountStore {
  if (!ctx.account) throw new Error('handler needs an account');
  return ctx.account;
}

/** An endpoint paged by `?page` and `?pageSize` (the endpoint table's `pagination: 'page'`). */
export type QueryPagedEndpoint = {
  [N in EndpointName]: Endpoints[N]['pagination'] extends 'page' ? N : never;
}[EndpointName];

/** An endpoint paged by its body's `page` and `pageSize` (the endpoint table's `pagination: 'offset'`). */
export type BodyPagedEndpoint = {
  [N in EndpointName]: Endpoints[N]['pagination'] extends 'offset' ? N : never;
}[EndpointName];

/** An endpoint whose items come in windows of an offset and a limit (page or offset paging). */
export type WindowedEndpoint = QueryPagedEndpoint | BodyPagedEndpoint;

/** A window of items: how many to skip, how many to answer. */
export interface PageWindow {
  /** Items skipped. */
  offset: number;
  /** Items answered at most. */
  limit: number;
}

/**
 * The offset and limit of a paged request, read the way the endpoint table's `pagination` says (the
 * same field drives the SDK's paging and the OpenAPI document): `page` from `?page` and `?pageSize`,
 * `offset` from the body's `page` and `pageSize` (`explorerPage`).
 */
export function pageWindow(
  name: QueryPagedEndpoint,
  ctx: { query: EndpointQuery<QueryPagedEndpoint> },
): PageWindow;
export function pageWindow(
  name: BodyPagedEndpoint,
  ctx: { body: Parameters<typeof explorerPage>[0] },
): PageWindow;
export function pageWindow(
  name: WindowedEndpoint,
  ctx: { query?: EndpointQuery<QueryPagedEndpoint>; body?: Parameters<typeof explorerPage>[0] },
): PageWindow {
  if (endpoints[name].pagination === 'offset') {
    const { page, pageSize } = explorerPage(ctx.body ?? {});
    return { offset: page * pageSize, limit: pageSize };
  }
  const page = ctx.query?.page ?? 0;
  const pageSize = ctx.query?.pageSize ?? DEFAULT_PAGE_SIZE;
  return { offset: page * pageSize, limit: pageSize };
}
