/**
 * The rows of what the mock saw: the journal, and the waits for a request or a delivery. Rows of the
 * control table (`../table.ts`); `../declare.ts` says what a row holds.
 *
 * @module
 */
import type { EndpointName, WorkspaceRun } from '@iacm/sdk/contract';
import type { DeliveryAttempt } from '../../domain/webhooks.js';
import type { JournalEntry } from '../../pipeline/journal.js';
import type { JournalCall } from '../../pipeline/journal-calls.js';
import type { NextDeliveryOptions, WaitForOptions, WaitForRunOptions } from '../../pipeline/waiters.js';
import { answers, type ControlTransport, capability } from '../declare.js';
import { JournalListingQuery } from '../journal.js';
import { type LiveFeed, type LiveFeedOptions, LiveFeedQuery } from '../live.js';
import {
  CancelWaitsBody,
  checkNextDelivery,
  checkWaitFor,
  checkWaitForRun,
  JournalWaitQuery,
  NextDeliveryQuery,
} from '../waits.js';

/** The rows of what the mock saw: the journal, and the waits for a request or a delivery. */
export const JOURNAL_ROWS = {
  /** The last requests, oldest first (at most `limit`: 0 to the most the journal keeps). */
  journal: capability<(limit?: number) => JournalEntry[]>()({
    route: {
      method: 'GET',
      path: '/__mock/journal',
      summary:
        'the last requests (?limit=N; ?endpoint=workspaces.search: that endpoint only), credentials redacted',
      query: JournalListingQuery,
    },
    call: {
      sync: true,
      params: ['limit'],
      args: (limit) => ({ query: { limit } }),
      docs: 'control.journal(n)',
    },
    // With ?endpoint=, the route answers `calls(name)`'s entries (the `calls` row goes through it).
    answer: answers<JournalEntry[] | JournalCall[]>(),
    docs: { about: 'the last requests (bounded by `journalLimit`, 500), credentials redacted' },
    writes: [],
    option: {
      option: 'journalLimit',
      flag: '--journal-limit <n>',
    },
  }),
  /**
   * The journal's entries of endpoint `name`, oldest first, typed from the endpoint table: `params`,
   * `query` and `body` as the route stage validated them, `status`, `requestId`, `accountId`
   * (`GET /__mock/journal?endpoint=name`). An unknown name is a 400 listing the closest names.
   */
  calls: capability<<N extends EndpointName>(name: N) => JournalCall<N>[]>()({
    via: 'journal',
    call: {
      sync: true,
      params: ['name'],
      // Always sent: a missing or wrong name is a 400 naming `query.endpoint` and the closest names.
      args: (name) => ({ query: { endpoint: String(name) } }),
    },
    docs: {
      about:
        "that endpoint's entries as `{ endpoint, requestId, params, query, body, status, ... }`, oldest first, in process and over HTTP (typed); an unknown name → 400 naming the closest",
      request: '`GET /__mock/journal?endpoint=workspaces.search`',
    },
    writes: [],
  }),
  /**
   * One poll of what the mock saw after the caller's cursors: the journal entries after `since` (at
   * most `limit`, of `endpoint` only when given), the delivery attempts after `deliveriesSince`, the
   * sessions and the clock (`GET /__mock/live/feed`, what the live page at `/__mock/live` polls).
   * Keeps nothing per caller; its own polls are not journalled.
   */
  live: capability<(options?: LiveFeedOptions) => LiveFeed>()({
    route: {
      method: 'GET',
      path: '/__mock/live/feed',
      summary:
        'what is new since a cursor: journal entries (?since=start|<request id>, ?endpoint=), delivery attempts (?deliveriesSince=), sessions and the clock; ?limit=1..200; not journalled',
      query: LiveFeedQuery,
      journalled: false,
    },
    call: {
      sync: true,
      params: ['options'],
      args: (options = {}) => ({
        query: {
          since: options.since,
          deliveriesSince: options.deliveriesSince,
          limit: options.limit,
          endpoint: options.endpoint,
        },
      }),
      docs: 'control.live(options)',
    },
    docs: {
      about:
        'one poll of the [live page](#the-live-page): `{ now, journal: { entries, cursor, restarted, more }, deliveries: { attempts, cursor, restarted, more }, sessions }` after the cursors, at most `limit` (1 to 200, default 50) of each; stateless, not journalled',
      request: '`GET /__mock/live/feed?since=&deliveriesSince=&limit=&endpoint=`',
    },
    writes: [],
  }),
  /** Empties the journal. */
  clearJournal: capability<() => void>()({
    route: { method: 'DELETE', path: '/__mock/journal', summary: 'empty the journal', status: 204 },
    call: { sync: true, args: () => ({}) },
    resetStage: 'journal',
    docs: { about: 'empty the journal' },
    writes: ['journal'],
  }),
  /**
   * Resolves with the first call of endpoint `name` that `options.match` selects (partial body,
   * partial query, account: as `respond` matches), recorded after `options.since` (default `'now'`,
   * the moment of the call; `'start'`: any the journal still keeps; a request id or an entry: after
   * that request's entry), typed as `calls(name)` types it. Rejects (an `HttpError`) after
   * `options.timeout` ms (default 5,000; real time, whatever fake timers do) with 408 listing the
   * first 10 requests that did arrive and their count; 409 past 100 pending waits, on `reset()` and on
   * `cancelWaits()`. `GET`/`POST /__mock/journal/wait` over HTTP (at most 30 s).
   */
  waitFor: capability<
    <N extends EndpointName>(name: N, options?: WaitForOptions<N>) => Promise<JournalCall<N>>
  >()({
    route: {
      method: 'POST',
      path: '/__mock/journal/wait',
      summary: 'long poll as GET, with { endpoint, match: { body, query, accountId }, since, timeout }',
      body: (raw: unknown, transport: ControlTransport) => checkWaitFor(raw, transport),
    },
    call: {
      sync: false,
      params: ['name', 'options'],
      args: (name, options = {}) => ({ body: { ...options, endpoint: name } }),
      docs: 'control.waitFor(name, options)',
    },
    docs: {
      about: 'long poll: the first matching call ([Waits](#waits)); 408 listing what arrived',
      request: '`POST /__mock/journal/wait` `{ endpoint, match, since, timeout }`',
    },
    writes: ['waits'],
  }),
  /** `GET /__mock/journal/wait`: the long poll of `waitFor`, its inputs in the query. */
  waitForQuery: capability()({
    route: {
      method: 'GET',
      path: '/__mock/journal/wait',
      summary:
        'long poll: the first call of ?endpoint= (&accountId=) recorded after ?since= (now, start, a request id); ?timeout= ms, at most 30000; 408 listing what arrived',
      query: JournalWaitQuery,
    },
    answer: answers<JournalCall>(),
    docs: {
      about: 'long poll as `POST`, its inputs in the query (at most 30 s)',
      request: '`GET /__mock/journal/wait?endpoint=&since=&timeout=&accountId=`',
      call: 'the `GET` form of `control.waitFor`',
    },
    writes: ['waits'],
  }),
  /**
   * Resolves with the next webhook delivery attempt (of `options.kind`: `Drift`, ... or `test`; to
   * `integrationId` or `nickname`), made after the call (`since: 'start'`: one the attempt log holds
   * counts). Rejects as `waitFor` does. `GET` and `POST /__mock/deliveries/next` over HTTP.
   */
  nextDelivery: capability<(options?: NextDeliveryOptions) => Promise<DeliveryAttempt>>()({
    route: {
      method: 'POST',
      path: '/__mock/deliveries/next',
      summary: 'long poll as GET, with { kind, integrationId, nickname, since, timeout }',
      body: (raw: unknown, transport: ControlTransport) => checkNextDelivery(raw, transport),
    },
    call: {
      sync: false,
      params: ['options'],
      args: (options = {}) => ({ body: options }),
      docs: 'control.nextDelivery(options)',
    },
    docs: {
      about: 'long poll: the next webhook delivery attempt ([Waits](#waits))',
      request: '`POST /__mock/deliveries/next` `{ kind, integrationId, nickname, since, timeout }`',
    },
    writes: ['waits'],
  }),
  /** `GET /__mock/deliveries/next`: the long poll of `nextDelivery`, its inputs in the query. */
  nextDeliveryQuery: capability()({
    route: {
      method: 'GET',
      path: '/__mock/deliveries/next',
      summary:
        'long poll: the next webhook delivery attempt (?kind=Drift, ?integrationId=, ?nickname=, ?since=start); ?timeout= ms, at most 30000',
      query: NextDeliveryQuery,
    },
    answer: answers<DeliveryAttempt>(),
    docs: {
      about: 'long poll as `POST`, its inputs in the query (at most 30 s)',
      request: '`GET /__mock/deliveries/next?kind=Drift&integrationId=&nickname=&since=&timeout=`',
      call: 'the `GET` form of `control.nextDelivery`',
    },
    writes: ['waits'],
  }),
  /**
   * Resolves with a run of workspace `workspaceId` once it takes `options.status` (a run status, or
   * any of a list): the run of `options.runId`, or whichever is the workspace's latest. A run that has
   * the status already answers at once; a timed run (`simulateRun` with `timing`) takes its statuses
   * as the mock's clock reaches its steps. With `runId`, a run that ends in another status rejects at
   * once (409). Rejects as `waitFor` does on timeout (408 listing the statuses taken meanwhile), 404
   * for an unknown workspace. `POST /__mock/runs/wait` over HTTP (at most 30 s).
   */
  waitForRun: capability<(workspaceId: string, options: WaitForRunOptions) => Promise<WorkspaceRun>>()({
    route: {
      method: 'POST',
      path: '/__mock/runs/wait',
      summary: "long poll: a workspace's run taking a status, { workspaceId, status, runId, timeout }",
      body: (raw: unknown, transport: ControlTransport) => checkWaitForRun(raw, transport),
    },
    call: {
      sync: false,
      params: ['workspaceId', 'options'],
      args: (workspaceId, options) => ({ body: { ...options, workspaceId } }),
      docs: 'control.waitForRun(id, options)',
    },
    docs: {
      about: "long poll: a workspace's run taking a status ([Waits](#waits)); 408 listing the statuses taken",
      request: '`POST /__mock/runs/wait` `{ workspaceId, status, runId, timeout }`',
    },
    writes: ['waits'],
  }),
  /**
   * Rejects every pending `waitFor`, `waitForRun` and `nextDelivery` (409 saying they were cancelled); answers how
   * many; `reason` is said in their message (default: that `cancelWaits()` was called). `reset()` and
   * a standalone server's `close()` do this; with MSW, call it in `afterAll`.
   */
  cancelWaits: capability<(reason?: string) => number>()({
    route: {
      method: 'POST',
      path: '/__mock/waits/cancel',
      summary: 'reject every pending wait (409 naming the reason): { reason? }; answers { cancelled }',
      body: CancelWaitsBody,
    },
    call: {
      sync: true,
      params: ['reason'],
      args: (reason) => ({ body: { reason } }),
      result: (answer: { cancelled: number }) => answer.cancelled,
    },
    resetStage: 'journal',
    docs: {
      about:
        "reject every pending wait (409 naming the reason); answers `{ cancelled }` (in process, the count); `reset()` and a standalone server's `close()` do it",
    },
    writes: ['waits'],
  }),
} as const;
