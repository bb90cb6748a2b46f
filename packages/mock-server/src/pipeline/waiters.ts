/**
 * The mock's waiters: `control.waitFor(name, ...)` (the first journal entry of an endpoint that
 * matches) and `control.nextDelivery(...)` (the next webhook delivery attempt), in process and over
 * HTTP as a bounded long poll (`GET /__mock/journal/wait`, `GET /__mock/deliveries/next`).
 *
 * - Bounded: at most {@link WAIT_LIMITS} `maxWaiters` (100) wait at once, both kinds together; the
 *   next is refused with a 409. Their `match`es take at most {@link WAIT_LIMITS} `maxMatchBytes`
 *   (16 MiB) together by the heap's measure (`matchHeapBytes`); past it the next is a 409 too, its
 *   room given back when a wait settles, times out, is cancelled, or the mock is reset or ends. Each
 *   lists at most 10 of what arrived while it waited.
 * - Told, never scanning: the journal tells the store of each entry it writes (`Journal.listen`) and
 *   the webhook hub of each attempt (`onAttempt`); each waiter looks at each new item once. Only
 *   `since: 'start'` (or a request id) reads the journal once, when the wait begins: one entry at a
 *   time (`Journal.recordedSince`), an entry of another endpoint never parsed (but for the first
 *   {@link WAIT_LIMITS} `listed`, to name them), each dropped once looked at. A wait keeps nothing
 *   parsed while it is pending: only the lines it lists and, once it is answered, the call it answers.
 * - Charged: a pending wait's `match` bytes are charged to the mock's memory budget (its `waits`
 *   ledger) when the wait begins, after its own bounds, and released when it settles; past the
 *   budget the wait is a 409 `budget_exceeded` and nothing of it is kept.
 * - Real time: timeouts run on the timers this module captured when it was imported, so
 *   `vi.useFakeTimers()` in a test does not freeze them.
 * - Reset and close reject every waiter ({@link Waiters.rejectAll}); reset as part of `journal`.
 *
 * @module
 */

import type { EndpointName, ErrorCode, RunStatus, WorkspaceRun } from '@iacm/sdk/contract';
import type { RunStatusChange } from '../domain/simulate.js';
import type { DeliveryAttempt, IntegrationView } from '../domain/webhooks.js';
import type { NumberRange } from '../errors/ranges.js';
import { HttpError } from '../errors.js';
import { clip } from '../http/objects.js';
import { realClearTimeout, realSetTimeout } from '../http/real-timers.js';
import { KEPT_ITEM_BYTES, type Ledger, unboundedLedger } from '../store/budget.js';
import { codeFor } from './faults.js';
import type { Journal, JournalEntry, JournalRecord } from './journal.js';
import { type JournalCall, toCall } from './journal-calls.js';
import {
  checkKeptBytes,
  explainMiss,
  type MatchMiss,
  matchHeapBytes,
  missLine,
  type OneOffMatch,
  requestMatches,
} from './request-match.js';

/** The bounds and defaults of waits. */
export const WAIT_LIMITS = Object.freeze({
  /** Waits pending at once, `waitFor` and `nextDelivery` together (a further one is a 409). */
  maxWaiters: 100,
  /**
   * Bytes the pending waits' `match`es take together by the heap's measure (`matchHeapBytes`: two a
   * character of the JSON text, 64 a value), 16 MiB: a further wait whose `match` would pass it is a
   * 409 (`checkKeptBytes`), and nothing of it is kept. A `nextDelivery` has no `match` and takes none.
   * A quarter of the faults' and the one-off answers' budgets (`MATCH_LIMITS.maxTotalBytes`): a wait
   * is pending only until it settles (10 minutes at most), a `match` is a few members (a kilobyte
   * holds thousands of them), yet 100 of 1 MiB each of small values would take about 2 GB of heap.
   */
  maxMatchBytes: 16 * 1024 * 1024,
  /** How long a wait lasts when no `timeout` is given, milliseconds (in process and over HTTP). */
  defaultTimeoutMs: 5_000,
  /** How many of the items that arrived a timeout's message lists (it counts them all). */
  listed: 10,
});

/** The range of a wait's `timeout` in process: 0 (look once) to 10 minutes, milliseconds. */
export const WAIT_TIMEOUT_RANGE: NumberRange = Object.freeze({
  min: 0,
  max: 600_000,
  unit: 'milliseconds',
});

/** The range of a wait's `timeout` over HTTP (the long poll): 0 to 30 seconds, milliseconds. */
export const HTTP_WAIT_TIMEOUT_RANGE: NumberRange = Object.freeze({
  min: 0,
  max: 30_000,
  unit: 'milliseconds',
});

/**
 * Where a wait starts: `'now'` (the default: what is recorded after the call), `'start'` (everything
 * the journal still keeps, then what comes), or a request id (`req_0000000007`, or an entry that
 * carries one: a {@link JournalCall} or a {@link JournalEntry}): what the journal recorded after that
 * request's entry.
 */
export type WaitSince = 'now' | 'start' | string | { requestId: string } | { id: string };

/** The options of `control.waitFor(name, options)`. */
export interface WaitForOptions<N extends EndpointName = EndpointName> {
  /**
   * Which calls count: members of the parsed body and query, and the account, as a one-off answer's
   * `match` selects requests (members not given match anything).
   */
  match?: OneOffMatch<N>;
  /** Where to start ({@link WaitSince}); default `'now'`. */
  since?: WaitSince;
  /** How long to wait, milliseconds: 0 to 600,000 (real time, whatever fake timers do). Default 5,000. */
  timeout?: number;
}

/** The options of `control.nextDelivery(options)`. */
export interface NextDeliveryOptions {
  /** The attempt's kind: the payload's `notificationType`, or `test`. Default: any. */
  kind?: DeliveryKind;
  /** Only attempts to this integration (by id). */
  integrationId?: string;
  /** Only attempts to an integration of this nickname. */
  nickname?: string;
  /** `'now'` (the default: an attempt made after the call) or `'start'` (one the attempt log holds counts). */
  since?: 'now' | 'start';
  /** How long to wait, milliseconds: 0 to 600,000 (real time). Default 5,000. */
  timeout?: number;
}

/** The options of `control.waitForRun(workspaceId, options)`. */
export interface WaitForRunOptions {
  /** The status to wait for, or any of a list (`['apply_success', 'apply_error']`). */
  status: RunStatus | readonly RunStatus[];
  /**
   * That run only (`simulateRun`'s answer gives its `runId`, a timed run's before it starts): a run
   * that finishes in another status rejects at once (409). Default: whichever run of the workspace
   * is the latest when it takes the status.
   */
  runId?: string;
  /** How long to wait, milliseconds: 0 to 600,000 (real time, whatever fake timers do). Default 5,000. */
  timeout?: number;
}

/** A checked `waitForRun`: the workspace (the store's id), the statuses, the run, how long. */
export interface CheckedWaitForRun {
  /** The workspace's id: as given when checked (24-hex or a UUID), the store's own once the handler found it. */
  readonly workspaceId: string;
  /** Any of these statuses. */
  readonly statuses: readonly RunStatus[];
  /** That run only, when given. */
  readonly runId: string | undefined;
  /** Milliseconds. */
  readonly timeoutMs: number;
}

/** The statuses a run goes on from (a timed run's steps): any other is where it ends. */
const UNDER_WAY: readonly string[] = ['planning', 'applying'];

/** A checked `waitFor`: the endpoint, what to match, where to start and how long to wait. */
export interface CheckedWaitFor {
  /** The endpoint. */
  readonly endpoint: EndpointName;
  /** Which of its calls (partial body, partial query, account), as `control.respond` matches. */
  readonly match: OneOffMatch | undefined;
  /** `'now'`, `'start'`, or a request id. */
  readonly since: string;
  /** Milliseconds. */
  readonly timeoutMs: number;
}

/** The kinds of delivery a `nextDelivery` may wait for: a notification type, or `test`. */
export type DeliveryKind = 'Drift' | 'UnmanagedResource' | 'GhostResource' | 'InsightDetected' | 'test';

/** A checked `nextDelivery`. */
export interface CheckedNextDelivery {
  /** The attempt's kind (any when absent). */
  readonly kind: DeliveryKind | undefined;
  /** The integration's id (any when absent). */
  readonly integrationId: string | undefined;
  /** The integration's nickname (any when absent). */
  readonly nickname: string | undefined;
  /** `'now'` (the next attempt made) or `'start'` (the attempt log too). */
  readonly since: 'now' | 'start';
  /** Milliseconds. */
  readonly timeoutMs: number;
}

/** One pending wait: what it accepts, what it has seen, how it settles. */
interface Waiter<T> {
  /** `waitFor('guardrails.create')`, as messages name the wait. */
  readonly label: string;
  /** Whether the item is the one waited for. */
  readonly accepts: (item: T) => boolean;
  /**
   * The item in one line, for a timeout's message, as a function (called only while fewer than
   * {@link WAIT_LIMITS} `listed` are listed: the line may need the item parsed); `undefined` for an
   * item not worth listing (nor counting).
   */
  readonly describe: (item: T) => (() => string) | undefined;
  readonly resolve: (item: T) => void;
  readonly reject: (error: Error) => void;
  /** The first items that arrived (at most {@link WAIT_LIMITS} `listed`). */
  readonly arrived: string[];
  /** What a timeout's message adds after what arrived (the nearest miss), if anything. */
  readonly footer?: (() => string | undefined) | undefined;
  /** How many arrived in all. */
  count: number;
  /** What its `match` takes of {@link WAIT_LIMITS} `maxMatchBytes` while it is pending. */
  readonly bytes: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Removes the wait's listener from its client's signal once settled (a standalone server's signal
   * lives as long as the connection, and serves every request on it).
   */
  unlisten: (() => void) | undefined;
}

/** An entry as a journal waiter sees it: the entry, and (for its endpoint) the typed call, read once. */
interface Recorded {
  readonly endpoint: string | undefined;
  readonly entry: () => JournalEntry;
  readonly call: () => JournalCall;
}

/** A delivery attempt and its integration, as a delivery waiter sees it. */
interface Attempted {
  readonly attempt: DeliveryAttempt;
  readonly integration: Pick<IntegrationView, 'id' | 'nickname'> | undefined;
}

/** Reads `read()` once, when first asked. */
function once<T>(read: () => T): () => T {
  let done = false;
  let value: T | undefined;
  return () => {
    if (!done) {
      value = read();
      done = true;
    }
    return value as T;
  };
}

/** A journal entry in one line: `req_0000000003 POST /v2/guardrails → 400 (guardrails.create)`. */
function entryLine(entry: JournalEntry): string {
  const endpoint = entry.endpoint === undefined ? '' : ` (${entry.endpoint})`;
  return `${entry.id} ${entry.method} ${clip(entry.path, 80)} → ${entry.status}${endpoint}`;
}

/** A delivery attempt in one line: `dlv_000002 Drift → int_1 (ops) 503 retrying`. */
function attemptLine({ attempt, integration }: Attempted): string {
  const name = integration ? ` (${clip(integration.nickname, 40)})` : '';
  return `${attempt.id} ${attempt.kind} → ${attempt.integrationId}${name} ${attempt.status} ${attempt.outcome}`;
}

/** The journal's records as a journal waiter sees them: each read (and its call made) at most once. */
function* recorded(records: Iterable<JournalRecord>): Generator<Recorded> {
  for (const { endpoint, read } of records) {
    const entry = once(read);
    yield { endpoint, entry, call: once(() => toCall(entry())) };
  }
}

/** The logged attempts as a delivery waiter sees them, each with its integration. */
function* attemptedFrom(logged: {
  attempts: readonly DeliveryAttempt[];
  integrations: readonly IntegrationView[];
}): Generator<Attempted> {
  const byId = new Map(logged.integrations.map((i) => [i.id, i]));
  for (const attempt of logged.attempts) yield { attempt, integration: byId.get(attempt.integrationId) };
}

/** The pending waits of a mock, bounded ({@link WAIT_LIMITS}), and what tells them. */
export class Waiters {
  readonly #calls = new Set<Waiter<Recorded>>();
  readonly #deliveries = new Set<Waiter<Attempted>>();
  readonly #runs = new Set<Waiter<RunStatusChange>>();
  /** What the pending waits' `match`es take together by the heap's measure, bytes. */
  #bytes = 0;
  /** The budget's `waits` ledger: the pending waits' `match` bytes. */
  readonly #ledger: Ledger;

  /**
   * The mock's waits, their `match` bytes charged to `ledger` (the memory budget's `waits` ledger;
   * default one without a limit, for waiters made alone).
   */
  constructor(ledger: Ledger = unboundedLedger('waits')) {
    this.#ledger = ledger;
  }

  /** How many waits are pending. */
  get size(): number {
    return this.#calls.size + this.#deliveries.size + this.#runs.size;
  }

  /**
   * Waits for the first entry of `wait.endpoint` that `wait.match` selects, recorded after
   * `wait.since`; resolves with it typed ({@link JournalCall}). Rejects with a 408 naming what did
   * arrive after `wait.timeoutMs`, a 409 past {@link WAIT_LIMITS} `maxWaiters`, when its `match`
   * would take the pending waits' `match`es past {@link WAIT_LIMITS} `maxMatchBytes` (a JSON tree:
   * `checkWaitFor` copies it), or when the journal keeps nothing; a 409 `budget_exceeded` when the
   * memory budget has no room for its `match`; a 400 naming `since` for a request id the journal
   * does not hold (thrown). The entries after `since` are read one at a time, none kept.
   */
  waitFor<N extends EndpointName>(
    journal: Journal,
    wait: CheckedWaitFor,
    signal?: AbortSignal,
  ): Promise<JournalCall<N>> {
    const label = `waitFor('${wait.endpoint}')`;
    if (!journal.enabled) {
      return Promise.reject(
        new HttpError(
          409,
          'conflict',
          `${label}: the journal keeps nothing (journalLimit: 0), so there is nothing to wait for`,
        ),
      );
    }
    // The call of the endpoint that came nearest (the most of the match's values as named; the
    // later of two as near): its line and first difference only, for the timeout's message.
    let nearest: { miss: MatchMiss; line: string } | undefined;
    return this.#wait(
      this.#calls,
      label,
      matchHeapBytes(wait.match),
      wait.timeoutMs,
      // Read one at a time by the wait as it begins, and dropped: no list of them is made or kept.
      wait.since === 'now' ? [] : recorded(recordedSince(journal, wait.since)),
      (item) => {
        if (item.endpoint !== wait.endpoint) return false;
        const call = item.call();
        if (requestMatches(wait.match, call.accountId, call)) return true;
        const miss = explainMiss(wait.match, call.accountId, call);
        if (miss && (nearest === undefined || miss.matched >= nearest.miss.matched)) {
          nearest = { miss, line: entryLine(item.entry()) };
        }
        return false;
      },
      // The control plane's own requests (other waits among them) are not what a test waits for.
      (item) => (item.endpoint === 'control' ? undefined : () => entryLine(item.entry())),
      signal,
      () => nearest && `nearest miss: ${nearest.line}, at ${missLine(nearest.miss)}`,
    ).then((item) => item.call() as JournalCall<N>);
  }

  /**
   * Waits for the next delivery attempt (of `wait.kind`, to an integration of `wait.integrationId`
   * or `wait.nickname`, when given; with `since: 'start'`, one the attempt log holds already counts).
   * Rejects as {@link Waiters.waitFor} does.
   */
  nextDelivery(
    wait: CheckedNextDelivery,
    logged: () => { attempts: DeliveryAttempt[]; integrations: IntegrationView[] },
    signal?: AbortSignal,
  ): Promise<DeliveryAttempt> {
    const label = `nextDelivery(${wait.kind === undefined ? '' : `{ kind: '${wait.kind}' }`})`;
    return this.#wait(
      this.#deliveries,
      label,
      0,
      wait.timeoutMs,
      wait.since === 'start' ? attemptedFrom(logged()) : [],
      ({ attempt, integration }) =>
        (wait.kind === undefined || attempt.kind === wait.kind) &&
        (wait.integrationId === undefined || attempt.integrationId === wait.integrationId) &&
        (wait.nickname === undefined || integration?.nickname === wait.nickname),
      (item) => () => attemptLine(item),
      signal,
    ).then((item) => item.attempt);
  }

  /**
   * Waits for a run of workspace `wait.workspaceId` (`wait.runId` only, when given) to take one of
   * `wait.statuses`; resolves with the run as it was when it took it. `current` is the run as it is
   * now (the given run, or the workspace's latest; its `from` empty): when it has the status already,
   * it is the answer.
   * With `runId`, a run that ends in another status rejects at once with a 409 saying so. Rejects as
   * {@link Waiters.waitFor} does on timeout (408 listing the statuses the runs took, and `hint`).
   */
  waitForRun(
    wait: CheckedWaitForRun,
    current: RunStatusChange | undefined,
    hint: () => string,
    signal?: AbortSignal,
  ): Promise<WorkspaceRun> {
    const wanted = wait.statuses.map((status) => `'${status}'`).join(' or ');
    const run = wait.runId === undefined ? '' : `, runId: '${clip(wait.runId, 40)}'`;
    const label = `waitForRun('${clip(wait.workspaceId, 40)}', { status: ${wanted}${run} })`;
    // The run as it was when it took the status (a later step of the same settle may move it on).
    let taken: WorkspaceRun | undefined;
    return this.#wait(
      this.#runs,
      label,
      0,
      wait.timeoutMs,
      current ? [current] : [],
      (change) => {
        if (change.workspaceId !== wait.workspaceId) return false;
        if (wait.runId !== undefined && change.runId !== wait.runId) return false;
        if (wait.statuses.includes(change.to)) {
          taken = change.run();
          return taken !== undefined;
        }
        if (wait.runId !== undefined && !UNDER_WAY.includes(change.to)) {
          throw new HttpError(
            409,
            'conflict',
            `${label}: run ${clip(change.runId, 40)} ended as '${change.to}', so it will not take ${wanted}`,
          );
        }
        return false;
      },
      (change) =>
        change.workspaceId === wait.workspaceId
          ? () =>
              change.from === ''
                ? `run ${clip(change.runId, 40)} was ${change.to}`
                : `run ${clip(change.runId, 40)} ${change.from} → ${change.to}`
          : undefined,
      signal,
      hint,
    ).then(() => taken as WorkspaceRun);
  }

  /** Tells the run waiters of a status a run just took (the domain's `onRunStatus`). Never throws. */
  runChanged(change: RunStatusChange): void {
    if (this.#runs.size === 0) return;
    this.#offer(this.#runs, change);
  }

  /** Tells the journal's waiters of an entry just written (the journal's listener). Never throws. */
  journalled(endpoint: string | undefined, read: () => JournalEntry): void {
    if (this.#calls.size === 0) return;
    const entry = once(read);
    this.#offer(this.#calls, {
      endpoint,
      entry,
      call: once(() => toCall(entry())),
    });
  }

  /** Tells the delivery waiters of an attempt just recorded (the hub's `onAttempt`). Never throws. */
  attempted(attempt: DeliveryAttempt, integration: IntegrationView): void {
    if (this.#deliveries.size === 0) return;
    this.#offer(this.#deliveries, { attempt, integration });
  }

  /**
   * Rejects every pending wait with a 409 saying `why` (`the mock was reset`); answers how many.
   * `reset()` calls it (as part of `journal`), and so does a standalone server's `close()`.
   */
  rejectAll(why: string): number {
    const count = this.size;
    for (const set of [this.#calls, this.#deliveries, this.#runs] as Set<Waiter<never>>[]) {
      for (const waiter of [...set]) {
        this.#settle(set, waiter);
        waiter.reject(
          new HttpError(
            409,
            'conflict',
            `${waiter.label} was cancelled: ${why}; nothing came that it waited for`,
          ),
        );
      }
    }
    return count;
  }

  /**
   * As {@link Waiters.rejectAll} with "the mock was reset": the `journal` part of `reset()`. Every
   * byte the waits held is given back to the budget.
   */
  reset(): void {
    this.rejectAll('the mock was reset (reset(), POST /__mock/reset)');
    this.#ledger.releaseAll();
  }

  /**
   * Looks at the items already there (`earlier`, read one at a time and not kept), then (when none is
   * accepted) waits for the next ones until `timeoutMs` on a real timer, or until `signal` aborts (a
   * long poll whose client has gone: the wait is taken out at once, so it holds no place among the
   * pending). 409 past the bounds: the count, or `bytes` (what its `match` takes) past the pending
   * waits' `match` budget; then 409 `budget_exceeded` when the memory budget has no room for `bytes`
   * (charged before anything is kept, given back when the wait settles).
   */
  #wait<T>(
    set: Set<Waiter<T>>,
    label: string,
    bytes: number,
    timeoutMs: number,
    earlier: Iterable<T>,
    accepts: (item: T) => boolean,
    describe: (item: T) => (() => string) | undefined,
    signal?: AbortSignal,
    footer?: () => string | undefined,
  ): Promise<T> {
    if (this.size >= WAIT_LIMITS.maxWaiters) {
      return Promise.reject(
        new HttpError(
          409,
          'conflict',
          `${label}: ${WAIT_LIMITS.maxWaiters} waits are pending already, the most the mock keeps; await (or cancel: control.cancelWaits()) some first`,
        ),
      );
    }
    try {
      checkKeptBytes(
        this.#bytes,
        bytes,
        `${label}: the pending waits' matches (this one's: ${bytes} bytes)`,
        "a match's JSON at two bytes a character, its values at 64 bytes each",
        'await them, or cancel them: POST /__mock/waits/cancel, control.cancelWaits()',
        WAIT_LIMITS.maxMatchBytes,
      );
      // The memory budget after the wait's own bounds, before anything of it is kept.
      this.#ledger.charge(bytes + KEPT_ITEM_BYTES);
    } catch (error) {
      return Promise.reject(error);
    }
    let resolve!: (item: T) => void;
    let reject!: (error: Error) => void;
    const settled = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const waiter: Waiter<T> = {
      label,
      accepts,
      describe,
      resolve,
      reject,
      arrived: [],
      footer,
      count: 0,
      bytes,
      timer: undefined,
      unlisten: undefined,
    };
    // `earlier` is read here and referenced by no closure of the wait: nothing of it stays.
    let answered: boolean;
    try {
      answered = this.#lookAll(waiter, earlier);
    } catch (error) {
      this.#ledger.release(bytes + KEPT_ITEM_BYTES);
      return Promise.reject(error);
    }
    if (answered || signal?.aborted) {
      this.#ledger.release(bytes + KEPT_ITEM_BYTES);
      if (!answered) reject(gone(label));
      return settled;
    }
    set.add(waiter);
    this.#bytes += bytes;
    waiter.timer = realSetTimeout(() => {
      this.#settle(set, waiter);
      reject(timedOut(waiter, timeoutMs));
    }, timeoutMs);
    if (signal) {
      const onAbort = () => {
        if (!set.has(waiter)) return;
        this.#settle(set, waiter);
        reject(gone(label));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      waiter.unlisten = () => signal.removeEventListener('abort', onAbort);
    }
    return settled;
  }

  /** Offers `waiter` the items already there, one at a time: whether one was accepted (it is resolved). */
  #lookAll<T>(waiter: Waiter<T>, items: Iterable<T>): boolean {
    for (const item of items) if (this.#look(waiter, item)) return true;
    return false;
  }

  /** Offers an item to every waiter of `set`, each once; those that accept it are settled. */
  #offer<T>(set: Set<Waiter<T>>, item: T): void {
    for (const waiter of [...set]) {
      try {
        if (this.#look(waiter, item)) this.#settle(set, waiter);
      } catch (error) {
        this.#settle(set, waiter);
        waiter.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  /** Whether `waiter` accepts `item` (then it is resolved); else the item is noted as arrived. */
  #look<T>(waiter: Waiter<T>, item: T): boolean {
    if (waiter.accepts(item)) {
      waiter.resolve(item);
      return true;
    }
    const line = waiter.describe(item);
    if (line !== undefined) {
      waiter.count += 1;
      if (waiter.arrived.length < WAIT_LIMITS.listed) waiter.arrived.push(line());
    }
    return false;
  }

  /**
   * Takes a waiter out of its set (giving back the room its `match` took, in the memory budget too)
   * and stops its timer.
   */
  #settle<T>(set: Set<Waiter<T>>, waiter: Waiter<T>): void {
    if (set.delete(waiter)) {
      this.#bytes -= waiter.bytes;
      this.#ledger.release(waiter.bytes + KEPT_ITEM_BYTES);
    }
    if (waiter.timer !== undefined) realClearTimeout(waiter.timer);
    waiter.timer = undefined;
    waiter.unlisten?.();
    waiter.unlisten = undefined;
  }
}

/**
 * The journal's entries after `since` (`'start'`: all it keeps; a request id: those after its
 * entry), to be read one at a time; a 400 naming `since` (thrown) for a request id it does not hold.
 */
function recordedSince(journal: Journal, since: string): Iterable<JournalRecord> {
  const records = journal.recordedSince(since);
  if (records !== undefined) return records;
  throw new HttpError(
    400,
    'validation_failed',
    `since: the journal holds no request ${clip(since, 40)} (dropped past its bounds, cleared, or from before a reset); give 'start', 'now' or the id of a request it holds`,
    {
      issues: [
        {
          location: 'body',
          path: 'since',
          message: `since: the journal holds no request ${clip(since, 40)}`,
          expected: "'start', 'now' or the id of a request the journal holds",
          received: JSON.stringify(clip(since, 40)),
        },
      ],
    },
  );
}

/** The error of a long poll whose client has gone (nobody reads it: the answer is dropped). */
function gone(label: string): HttpError {
  return new HttpError(409, 'conflict', `${label} was cancelled: the client has gone`);
}

/** The 408 of a wait that timed out, listing the first of what did arrive and counting them all. */
function timedOut<T>(waiter: Waiter<T>, timeoutMs: number): HttpError {
  const { arrived, count } = waiter;
  const what =
    count === 0
      ? 'nothing arrived'
      : `${count} arrived${count > arrived.length ? ` (the first ${arrived.length} listed)` : ''}: ${arrived.join('; ')}`;
  // The contract's error table has no 408: its code is the one the faults give a 408 (`codeFor`).
  const footer = waiter.footer?.();
  return new HttpError(
    408,
    codeFor(408) as ErrorCode,
    `${waiter.label}: no match within ${timeoutMs} ms; ${what}${footer === undefined ? '' : `; ${footer}`}`,
  );
}
