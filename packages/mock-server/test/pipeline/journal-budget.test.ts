/**
 * The journal charges the memory budget (its `journal` ledger) and, past it, drops its own oldest
 * entries: it never refuses a request. Counted, never timed.
 */
import { describe, expect, it } from 'vitest';
import type { MockResponse } from '../../src/http/message.js';
import { Journal } from '../../src/pipeline/journal.js';
import { MemoryBudget } from '../../src/store/budget.js';

const ok: MockResponse = { status: 200, headers: {}, body: undefined };

/** Records one request of a body of `size` characters (every entry of one size takes the same bytes). */
function recordOne(journal: Journal, size = 100): void {
  journal.record({ method: 'POST', path: '/p', query: {}, headers: {} }, ok, journal.nextRequestId(), 0, 0, {
    value: { text: 'x'.repeat(size) },
  });
}

/** The bytes one entry of `size` takes (measured in a journal of its own). */
function entryOf(size = 100): number {
  const journal = new Journal();
  recordOne(journal, size);
  return journal.bytes;
}

describe('the journal in the memory budget', () => {
  it('charges each kept entry, and past the budget drops its own oldest (never throws)', () => {
    const one = entryOf();
    const budget = new MemoryBudget(Math.floor(3.5 * one));
    const ledger = budget.ledger('journal');
    const journal = new Journal({}, ledger);
    for (let i = 0; i < 10; i++) {
      expect(() => recordOne(journal)).not.toThrow();
      expect(journal.bytes).toBe(ledger.held);
      expect(budget.used).toBe(ledger.held);
      expect(budget.used).toBeLessThanOrEqual(budget.limit);
    }
    expect(journal.size).toBe(3);
    // The newest kept, the oldest dropped.
    expect(journal.list().map((e) => e.id)).toEqual(['req_0000000008', 'req_0000000009', 'req_0000000010']);
    expect(journal.held).toBe(3);
    expect(budget.view().stores.journal).toBe(3 * one);
  });

  it('drops its oldest when another store takes the budget, and keeps its own bounds first', () => {
    const one = entryOf();
    const budget = new MemoryBudget(10 * one);
    const ledger = budget.ledger('journal');
    const other = budget.ledger('faults');
    // Its own count bound (5) holds as before, within the budget.
    const journal = new Journal({ limit: 5 }, ledger);
    for (let i = 0; i < 7; i++) recordOne(journal);
    expect(journal.size).toBe(5);
    expect(ledger.held).toBe(5 * one);
    journal.clear();
    for (let i = 0; i < 3; i++) recordOne(journal);
    // Another store takes all but half an entry's room: the next entry evicts the oldest to fit.
    other.charge(budget.limit - budget.used - Math.floor(0.5 * one));
    recordOne(journal);
    expect(journal.size).toBe(3);
    expect(journal.list().map((e) => e.id)).toEqual(['req_0000000009', 'req_0000000010', 'req_0000000011']);
    expect(ledger.held).toBe(3 * one);
    expect(budget.used).toBeLessThanOrEqual(budget.limit);
  });

  it('does not keep an entry larger than the whole budget, and drops nothing for it', () => {
    const one = entryOf();
    const budget = new MemoryBudget(3 * one);
    const ledger = budget.ledger('journal');
    const journal = new Journal({}, ledger);
    recordOne(journal);
    recordOne(journal);
    const before = { size: journal.size, bytes: journal.bytes, held: ledger.held };
    recordOne(journal, 10_000);
    expect({ size: journal.size, bytes: journal.bytes, held: ledger.held }).toEqual(before);
    expect(journal.unkept).toBe(1);
    // Its own maxBytes bound is counted the same way.
    const small = new Journal({ maxBytes: one - 1 }, budget.ledger('journal'));
    recordOne(small);
    expect(small.size).toBe(0);
    expect(small.unkept).toBe(1);
  });

  it("in a session's share: an entry that fits the session but not the mock evicts to fit both", () => {
    const one = entryOf();
    const mock = new MemoryBudget(6 * one);
    const session = mock.child(5 * one, 'session ses_1');
    const ledger = session.ledger('journal');
    const journal = new Journal({}, ledger);
    for (let i = 0; i < 3; i++) recordOne(journal);
    // The mock's other stores leave room for 4 entries in all: the session has room for 5.
    mock.ledger('data').charge(2 * one);
    recordOne(journal);
    recordOne(journal);
    expect(journal.size).toBe(4);
    expect(mock.used).toBeLessThanOrEqual(mock.limit);
    expect(session.used).toBe(4 * one);
    expect(journal.list().at(-1)?.id).toBe('req_0000000005');
  });

  it('gives every byte back on clear and reset', () => {
    const budget = new MemoryBudget(1024 * 1024);
    const ledger = budget.ledger('journal');
    const journal = new Journal({}, ledger);
    for (let i = 0; i < 5; i++) recordOne(journal);
    expect(ledger.held).toBeGreaterThan(0);
    journal.clear();
    expect(ledger.held).toBe(0);
    expect(budget.used).toBe(0);
    for (let i = 0; i < 5; i++) recordOne(journal);
    journal.reset();
    expect(ledger.held).toBe(0);
    expect(budget.used).toBe(0);
    expect(journal.size).toBe(0);
  });

  it('lists the entries after a request id one at a time, found without parsing', () => {
    const journal = new Journal();
    for (let i = 0; i < 5; i++) recordOne(journal);
    const after = journal.recordedSince('req_0000000003');
    expect(after && [...after].map((r) => r.read().id)).toEqual(['req_0000000004', 'req_0000000005']);
    expect(journal.recordedSince('req_0000000099')).toBeUndefined();
    expect([...(journal.recordedSince('start') ?? [])]).toHaveLength(5);
  });
});
