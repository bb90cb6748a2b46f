/**
 * The pending waits charge the memory budget (its `waits` ledger, by their `match`'s bytes): past it
 * a new wait is a 409 `budget_exceeded` and nothing of it is kept; its bytes come back when it
 * settles, times out, is cancelled or the mock is reset. A wait from `since: 'start'` reads the
 * journal one entry at a time and keeps nothing it parsed (finding 1). Counted, never timed.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Journal } from '../../src/pipeline/journal.js';
import type { OneOffMatch } from '../../src/pipeline/request-match.js';
import { matchHeapBytes } from '../../src/pipeline/request-match.js';
import { type CheckedWaitFor, WAIT_LIMITS, Waiters } from '../../src/pipeline/waiters.js';
import { KEPT_ITEM_BYTES, MemoryBudget } from '../../src/store/budget.js';
import { rejection } from '../helpers.js';

/** A `match` of `workspaces.search` of about `size` characters. */
function matchOf(size: number, value = 'x'): OneOffMatch {
  return { body: { searchValue: value.repeat(size) } } as OneOffMatch;
}

/** A wait for `workspaces.search`. */
function wait(match: OneOffMatch | undefined, options: Partial<CheckedWaitFor> = {}): CheckedWaitFor {
  return { endpoint: 'workspaces.search', match, since: 'now', timeoutMs: 60_000, ...options };
}

/** A journal telling `waiters` of each entry. */
function journalFor(waiters: Waiters): Journal {
  const journal = new Journal({ limit: 10_000 });
  journal.listen((endpoint, read) => waiters.journalled(endpoint, read));
  return journal;
}

/** Records a validated `workspaces.search` whose body's `searchValue` is `value`. */
function search(journal: Journal, value: string): void {
  journal.record(
    { method: 'POST', path: '/v2/workspaces/search', query: {}, headers: {} },
    { status: 200, headers: {}, body: undefined },
    journal.nextRequestId(),
    0,
    1,
    { value: { searchValue: value } },
    {
      endpoint: 'workspaces.search',
      accountId: 'a',
      input: { params: {}, query: {}, body: { searchValue: value } },
    },
  );
}

/** Records a `health` request. */
function health(journal: Journal): void {
  journal.record(
    { method: 'GET', path: '/v2/health', query: {}, headers: {} },
    { status: 200, headers: {}, body: undefined },
    journal.nextRequestId(),
    0,
    1,
    undefined,
    { endpoint: 'health' },
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the pending waits in the memory budget', () => {
  it('refuses a wait past the budget with a 409 naming the store and budget.bytes; nothing is kept', async () => {
    const bytes = matchHeapBytes(matchOf(1000)) + KEPT_ITEM_BYTES;
    const budget = new MemoryBudget(Math.floor(1.5 * bytes));
    const ledger = budget.ledger('waits');
    const waiters = new Waiters(ledger);
    const journal = journalFor(waiters);
    const first = waiters.waitFor(journal, wait(matchOf(1000)));
    expect(waiters.size).toBe(1);
    expect(ledger.held).toBe(bytes);
    const error = await rejection(waiters.waitFor(journal, wait(matchOf(1000, 'y'))));
    expect(error.status).toBe(409);
    expect(error.code).toBe('budget_exceeded');
    expect(error.message).toContain('waits');
    expect(error.message).toContain('budget.bytes');
    expect(waiters.size).toBe(1);
    expect(ledger.held).toBe(bytes);
    // The first still settles as before.
    search(journal, 'x'.repeat(1000));
    await expect(first).resolves.toMatchObject({ endpoint: 'workspaces.search' });
    expect(ledger.held).toBe(0);
    expect(budget.used).toBe(0);
  });

  it("refuses one that fits a session's share but not the mock's budget", async () => {
    const bytes = matchHeapBytes(matchOf(1000)) + KEPT_ITEM_BYTES;
    const mock = new MemoryBudget(10 * bytes);
    const session = mock.child(5 * bytes, 'session ses_1');
    const waiters = new Waiters(session.ledger('waits'));
    mock.ledger('data').charge(Math.floor(9.5 * bytes));
    const error = await rejection(waiters.waitFor(journalFor(waiters), wait(matchOf(1000))));
    expect(error.code).toBe('budget_exceeded');
    expect(error.message).toContain('waits');
    expect(error.message).toContain('budget.bytes');
    expect(waiters.size).toBe(0);
    expect(session.used).toBe(0);
  });

  it('checks its own bounds first, with their own messages', async () => {
    const waiters = new Waiters(new MemoryBudget(Number.POSITIVE_INFINITY).ledger('waits'));
    const journal = journalFor(waiters);
    const pending = Array.from({ length: WAIT_LIMITS.maxWaiters }, () =>
      waiters.waitFor(journal, wait(undefined)).catch((e: unknown) => e),
    );
    const error = await rejection(waiters.waitFor(journal, wait(matchOf(10))));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain(`${WAIT_LIMITS.maxWaiters} waits are pending already`);
    waiters.rejectAll('the test ended');
    await Promise.all(pending);
  });

  it('gives the bytes back when a wait times out, is cancelled, its client goes, or the mock is reset', async () => {
    const budget = new MemoryBudget(1024 * 1024);
    const ledger = budget.ledger('waits');
    const waiters = new Waiters(ledger);
    const journal = journalFor(waiters);
    const bytes = matchHeapBytes(matchOf(100)) + KEPT_ITEM_BYTES;

    const timedOut = waiters.waitFor(journal, wait(matchOf(100), { timeoutMs: 0 }));
    expect(ledger.held).toBe(bytes);
    expect((await rejection(timedOut)).status).toBe(408);
    expect(ledger.held).toBe(0);

    const cancelled = waiters.waitFor(journal, wait(matchOf(100)));
    expect(ledger.held).toBe(bytes);
    expect(waiters.rejectAll('the test cancelled it')).toBe(1);
    expect((await rejection(cancelled)).status).toBe(409);
    expect(ledger.held).toBe(0);

    const client = new AbortController();
    const gone = waiters.waitFor(journal, wait(matchOf(100)), client.signal);
    expect(ledger.held).toBe(bytes);
    client.abort();
    await rejection(gone);
    expect(ledger.held).toBe(0);

    const reset = waiters.waitFor(journal, wait(matchOf(100)));
    waiters.waitFor(journal, wait(matchOf(100, 'z'))).catch(() => undefined);
    expect(ledger.held).toBe(2 * bytes);
    waiters.reset();
    await rejection(reset);
    expect(ledger.held).toBe(0);

    // Answered at once from what the journal keeps: nothing stays charged.
    search(journal, 'x'.repeat(100));
    await expect(waiters.waitFor(journal, wait(matchOf(100), { since: 'start' }))).resolves.toMatchObject({
      body: { searchValue: 'x'.repeat(100) },
    });
    expect(ledger.held).toBe(0);
    expect(budget.used).toBe(0);
  });
});

describe("a wait from since: 'start' (finding 1)", () => {
  it('reads the kept entries one at a time, parsing only those of its endpoint', async () => {
    const waiters = new Waiters();
    const journal = journalFor(waiters);
    const others = 200;
    const mine = 50;
    for (let i = 0; i < others; i++) health(journal);
    for (let i = 0; i < mine; i++) search(journal, `s${i}`);
    const list = vi.spyOn(journal, 'list');
    const parse = vi.spyOn(JSON, 'parse');
    const waiting = waiters.waitFor(journal, wait(matchOf(1, 'never'), { since: 'start', timeoutMs: 0 }));
    const parses = parse.mock.calls.length;
    parse.mockRestore();
    expect(list).not.toHaveBeenCalled();
    // The first `listed` entries named (their heads parsed); each of its endpoint's entries read once
    // (its head and its inputs); no other entry parsed at all.
    expect(parses).toBeLessThanOrEqual(WAIT_LIMITS.listed + 2 * mine);
    const error = await rejection(waiting);
    expect(error.status).toBe(408);
    // Every entry is still counted in its message, the first ones listed.
    expect(error.message).toContain(`${others + mine} arrived (the first ${WAIT_LIMITS.listed} listed)`);
    expect(error.message).toContain('req_0000000001 GET /v2/health → 200 (health)');
  });

  it('answers the first match after a request id', async () => {
    const waiters = new Waiters();
    const journal = journalFor(waiters);
    for (let i = 0; i < 5; i++) search(journal, 'same');
    const call = await waiters.waitFor(
      journal,
      wait({ body: { searchValue: 'same' } } as OneOffMatch, { since: 'req_0000000003' }),
    );
    expect(call.requestId).toBe('req_0000000004');
    const error = (() => {
      try {
        void waiters.waitFor(journal, wait(undefined, { since: 'req_0000000099' }));
      } catch (e) {
        return e as { status: number; message: string };
      }
      return undefined;
    })();
    expect(error?.status).toBe(400);
    expect(error?.message).toContain('since: the journal holds no request req_0000000099');
  });

  it('keeps none of what it parsed while it is pending', async (context) => {
    // A counted check of what stays reachable: weak references to what parsing the entries made,
    // counted after a full collection (`gc`, exposed for this test).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    if (typeof gc !== 'function') context.skip();
    const collect = gc as () => void;
    const waiters = new Waiters();
    const journal = journalFor(waiters);
    const entries = 300;
    for (let i = 0; i < entries; i++) search(journal, `s${i}`);
    const made: WeakRef<object>[] = [];
    const original = JSON.parse;
    JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
      const value: unknown = original(text, reviver);
      // What a parsed head or input keeps referenced: its members that are objects (query, headers,
      // params, body), which a read-back entry or call holds.
      if (
        typeof value === 'object' &&
        value !== null &&
        (text.startsWith('["req_') || text.startsWith('{"validated"'))
      ) {
        for (const member of Object.values(value)) {
          if (typeof member === 'object' && member !== null) made.push(new WeakRef(member));
        }
      }
      return value;
    }) as typeof JSON.parse;
    let waiting: Promise<unknown>;
    try {
      waiting = waiters
        .waitFor(journal, wait(matchOf(1, 'never'), { since: 'start' }))
        .catch((e: unknown) => e);
    } finally {
      JSON.parse = original;
    }
    expect(made.length).toBeGreaterThanOrEqual(entries);
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    const alive = made.filter((ref) => ref.deref() !== undefined).length;
    // Bounded by the matches it answers (none here), not by the entries: at most a stray few that a
    // register still held at the collection.
    expect(alive).toBeLessThanOrEqual(5);
    expect(waiters.size).toBe(1);
    waiters.rejectAll('the test ended');
    await waiting;
  });
});
