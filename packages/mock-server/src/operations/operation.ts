/**
 * What an operation is: a function from a validated request (the caller's account, the inputs the
 * route stage validated, the mock's services) to the success body. One file per API group exports
 * its operations typed `satisfies Operations<'group'>`, so an endpoint added to the contract without
 * an operation, or an operation without an endpoint, fails to compile.
 *
 * @module
 */
import {
  DEFAULT_PAGE_SIZE,
  type EndpointName,
  type Event,
  endpoints,
  explorerPage,
} from '@iacm/sdk/contract';
import type { AccountLimits } from '../domain/caps.js';
import type { EventRecorder } from '../domain/events.js';
import type { AccountStore } from '../store/store.js';

/** What a handler gets: the caller's account, the validated inputs, and the mock's services. */
export interface HandlerContext {
  /** The caller's account (undefined only for endpoints without auth). */
  account: AccountStore | undefined;
  /** Validated path parameters. */
  params: Record<string, string>;
  /** Validated query parameters. */
  query: Record<string, unknown>;
  /** Validated body (`{}` when an optional body was absent). */
  body: unknown;
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
  login(accessKey: string, secretKey: string): Promise<unknown>;
  /** Encodes an event-center continuation token for a query and the last event of a page. */
  encodeCursor(queryHash: string, last: Event): Promise<string>;
  /** Decodes a continuation token; throws 400 when it was altered or belongs to another query. */
  decodeCursor(token: string, queryHash: string): Promise<{ timestamp: string; id: string }>;
  /** Records events (API mutations leave mutation events). */
  events: EventRecorder;
  /** The per-account caps (`domain/caps.ts`). */
  limits(): AccountLimits;
}

/** A handler: returns the success body (or undefined for 204). */
export type Handler = (ctx: HandlerContext) => unknown | Promise<unknown>;

/** The API group of an endpoint name: the part before the first dot (`workspaces.runs.search` -> `workspaces`). */
export type GroupOf<N extends string> = N extends `${infer G}.${string}` ? G : N;

/** The API groups of the contract's endpoint table. */
export type EndpointGroup = GroupOf<EndpointName>;

/** The endpoint names of one API group. */
export type EndpointsOf<G extends EndpointGroup> = Extract<EndpointName, G | `${G}.${string}`>;

/** The operations of one API group: exactly one per endpoint of the group. */
export type Operations<G extends EndpointGroup> = Record<EndpointsOf<G>, Handler>;

/** The caller's account; only endpoints with `auth: true` get here, so it is always there. */
export function accountOf(ctx: HandlerContext): AccountStore {
  if (!ctx.account) throw new Error('handler needs an account');
  return ctx.account;
}

/** An endpoint whose items come in windows of an offset and a limit (page or offset paging). */
export type WindowedEndpoint = {
  [N in EndpointName]: (typeof endpoints)[N]['pagination'] extends 'page' | 'offset' ? N : never;
}[EndpointName];

/**
 * The offset and limit of a paged request, read the way the endpoint table's `pagination` says (the
 * same field drives the SDK's paging and the OpenAPI document): `page` from `?page` and `?pageSize`,
 * `offset` from the body's `page` and `pageSize` (`explorerPage`).
 */
export function pageWindow(name: WindowedEndpoint, ctx: HandlerContext): { offset: number; limit: number } {
  if (endpoints[name].pagination === 'offset') {
    const { page, pageSize } = explorerPage(ctx.body as Parameters<typeof explorerPage>[0]);
    return { offset: page * pageSize, limit: pageSize };
  }
  const page = (ctx.query.page as number | undefined) ?? 0;
  const pageSize = (ctx.query.pageSize as number | undefined) ?? DEFAULT_PAGE_SIZE;
  return { offset: page * pageSize, limit: pageSize };
}
