/**
 * Control route: `GET /__mock/live/feed`, what the live page (`/__mock/live`) polls: the journal
 * entries and the delivery attempts after the caller's cursors, the sessions and the mock's clock, in
 * one bounded answer. Stateless: the cursors are the caller's (a request id, an attempt id), read
 * over the journal and the attempt log as they are, so the mock keeps nothing per viewer.
 *
 * @module
 */
import * as z from 'zod';
import type { DeliveryAttempt } from '../domain/webhooks.js';
import { checkRange, type NumberRange } from '../errors/ranges.js';
import { validationError } from '../errors.js';
import { checkEndpointName } from '../pipeline/endpoint-name.js';
import type { JournalEntry } from '../pipeline/journal.js';
import { queryNumber } from './journal.js';
import type { ControlDeps, CoreView, SessionView } from './route.js';

/** How many journal entries, and how many delivery attempts, one poll answers at most: 1 to 200, default 50. */
export const LIVE_FEED_LIMIT: NumberRange = Object.freeze({ min: 1, max: 200, unit: 'entries' });

/** The `limit` of a poll when none is given. */
export const DEFAULT_LIVE_FEED_LIMIT = 50;

/**
 * The query of `GET /__mock/live/feed` as sent (each member checked by {@link checkLiveQuery}, which
 * names the field of a bad one); a member it does not know is a 400 naming it.
 */
export const LiveFeedQuery = z.strictObject({
  since: z.unknown().optional(),
  deliveriesSince: z.unknown().optional(),
  limit: z.unknown().optional(),
  endpoint: z.unknown().optional(),
});

/** The options of a poll (`control.live(options)`, the query of `GET /__mock/live/feed`). */
export interface LiveFeedOptions {
  /** The journal's cursor: `'start'` (default) or the `cursor` a poll answered (a request id). */
  since?: string;
  /** The delivery attempts' cursor: `'start'` (default) or the `cursor` a poll answered (an attempt id). */
  deliveriesSince?: string;
  /** How many entries, and how many attempts, at most: 1 to 200 (`LIVE_FEED_LIMIT`), default 50. */
  limit?: number;
  /** Only the journal entries of this endpoint (`workspaces.search`), or `'control'` for the control plane. */
  endpoint?: string;
}

/** A poll's query, checked. */
interface CheckedLiveQuery {
  since: string;
  after: number;
  limit: number;
  endpoint: string | undefined;
}

/** Whether `text` is `prefix` and then exactly `digits` decimal digits (no regular expression). */
function isNumberedId(text: string, prefix: string, digits: number): boolean {
  if (!text.startsWith(prefix) || text.length !== prefix.length + digits) return false;
  for (let i = prefix.length; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** A 400 naming `query.<field>`, what was expected and what came (its first 64 characters). */
function badQuery(field: string, expected: string, value: unknown): never {
  const received =
    typeof value === 'string'
      ? JSON.stringify(value.slice(0, 64)) + (value.length > 64 ? '…' : '')
      : Array.isArray(value)
        ? 'the parameter given more than once'
        : typeof value;
  throw validationError([
    {
      location: 'query',
      path: field,
      message: `query.${field}: expected ${expected}, received ${received}`,
      expected,
      received,
    },
  ]);
}

/**
 * Checks a poll's query: `since` `'start'` or a request id (`req_` and 10 digits), `deliveriesSince`
 * `'start'` or an attempt id (`dlv_` and 6 digits or more), `limit` within {@link LIVE_FEED_LIMIT},
 * `endpoint` an endpoint name of the contract or `'control'`; a 400 naming the field otherwise.
 */
export function checkLiveQuery(query: Readonly<Record<string, unknown>>): CheckedLiveQuery {
  const since = query.since ?? 'start';
  if (typeof since !== 'string' || (since !== 'start' && !isNumberedId(since, 'req_', 10))) {
    badQuery('since', "'start' or a request id (req_0000000042), the cursor a poll answered", since);
  }
  const deliveries = query.deliveriesSince ?? 'start';
  let after = 0;
  if (deliveries !== 'start') {
    const ok =
      typeof deliveries === 'string' &&
      deliveries.length <= 24 &&
      isNumberedId(deliveries, 'dlv_', deliveries.length - 4) &&
      deliveries.length >= 10;
    if (!ok) {
      badQuery(
        'deliveriesSince',
        "'start' or a delivery attempt id (dlv_000042), the cursor a poll answered",
        deliveries,
      );
    }
    after = Number(deliveries.slice(4));
  }
  const limit =
    query.limit === undefined
      ? DEFAULT_LIVE_FEED_LIMIT
      : checkRange('limit', queryNumber(query.limit), LIVE_FEED_LIMIT, 'query');
  const endpoint =
    query.endpoint === undefined || query.endpoint === 'control'
      ? (query.endpoint as 'control' | undefined)
      : checkEndpointName(query.endpoint, 'query');
  return { since, after, limit, endpoint };
}

/** What one poll of the live feed answers (`GET /__mock/live/feed`, `control.live(options)`). */
export interface LiveFeed {
  /** The mock's clock (ISO 8601), as `GET /__mock/clock` answers it. */
  now: string;
  /** The journal entries after the cursor. */
  journal: {
    /** At most `limit`, oldest first, credentials redacted as `GET /__mock/journal` lists them. */
    entries: JournalEntry[];
    /** The `since` of the next poll. */
    cursor: string;
    /** The journal held no entry of `since` (dropped for a bound, or a reset): `entries` start from the oldest kept. */
    restarted: boolean;
    /** More entries are waiting: poll again at once with `cursor`. */
    more: boolean;
  };
  /** The delivery attempts after the cursor. */
  deliveries: {
    /** At most `limit`, oldest first, headers redacted as `GET /__mock/deliveries` lists them. */
    attempts: DeliveryAttempt[];
    /** The `deliveriesSince` of the next poll. */
    cursor: string;
    /** `deliveriesSince` is past the last attempt made (a reset): `attempts` start from the oldest kept. */
    restarted: boolean;
    /** More attempts are waiting. */
    more: boolean;
  };
  /** The live sessions, oldest first (as `GET /__mock/sessions`); `null` inside a session. */
  sessions: SessionView[] | null;
}

/** Answers one poll: reads the journal and the attempt log after the cursors; keeps nothing. */
export function liveFeed(
  core: CoreView,
  deps: ControlDeps,
  query: Readonly<Record<string, unknown>>,
): LiveFeed {
  const { since, after, limit, endpoint } = checkLiveQuery(query);
  const journal = deps.journal.poll(since, limit, endpoint);
  const deliveries = core.webhooks.attemptsAfter(after, limit);
  const lastAttempt = deliveries.attempts.at(-1);
  const deliveriesCursor =
    lastAttempt !== undefined
      ? lastAttempt.id
      : deliveries.restarted || after === 0
        ? 'start'
        : String(query.deliveriesSince);
  return {
    now: new Date(core.clock.now()).toISOString(),
    journal,
    deliveries: { ...deliveries, cursor: deliveriesCursor },
    sessions: deps.sessions ? deps.sessions.list() : null,
  };
}
