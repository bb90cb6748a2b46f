/**
 * The endpoint faults charge the memory budget (its `faults` ledger): past it a new fault is a 409
 * `budget_exceeded` and nothing changes; a fault's bytes come back at its last use, on clear and on
 * reset. Counted, never timed.
 */
import { describe, expect, it, vi } from 'vitest';
import { FAULT_LIMITS, FaultBook, faultHeapBytes } from '../../src/pipeline/faults.js';
import { KEPT_ITEM_BYTES, MemoryBudget } from '../../src/store/budget.js';
import { refusal } from '../helpers.js';

/** A path fault answering a body of `size` characters. */
function rule(path: string, size = 1000) {
  return { path, status: 500, body: { text: 'x'.repeat(size) } };
}

describe('the faults in the memory budget', () => {
  it('refuses a fault past the budget with a 409 naming the store and budget.bytes; nothing changes', () => {
    const one = faultHeapBytes(rule('/a')) + KEPT_ITEM_BYTES;
    const budget = new MemoryBudget(Math.floor(2.5 * one));
    const ledger = budget.ledger('faults');
    const book = new FaultBook({ ledger });
    book.add(rule('/a'));
    book.add(rule('/b'));
    expect(ledger.held).toBe(2 * one);
    const before = { size: book.size, bytes: book.bytes, list: book.list() };
    const error = refusal(() => book.add(rule('/c')));
    expect(error.status).toBe(409);
    expect(error.code).toBe('budget_exceeded');
    expect(error.message).toContain('faults');
    expect(error.message).toContain('budget.bytes');
    expect({ size: book.size, bytes: book.bytes, list: book.list() }).toEqual(before);
    expect(ledger.held).toBe(2 * one);
    // No id was used by the refused one.
    book.clear();
    expect(book.add(rule('/d')).id).toBe('fault_3');
  });

  it("refuses one that fits a session's share but not the mock's budget", () => {
    const one = faultHeapBytes(rule('/a')) + KEPT_ITEM_BYTES;
    const mock = new MemoryBudget(10 * one);
    const session = mock.child(5 * one, 'session ses_1');
    const ledger = session.ledger('faults');
    const book = new FaultBook({ ledger });
    mock.ledger('data').charge(Math.floor(9.5 * one));
    const error = refusal(() => book.add(rule('/a')));
    expect(error.code).toBe('budget_exceeded');
    expect(error.message).toContain('faults');
    expect(error.message).toContain('budget.bytes');
    expect(book.size).toBe(0);
    expect(ledger.held).toBe(0);
    expect(session.used).toBe(0);
  });

  it('checks its own bounds first, with their own messages', () => {
    const budget = new MemoryBudget(Number.POSITIVE_INFINITY);
    const book = new FaultBook({ ledger: budget.ledger('faults') });
    for (let i = 0; i < FAULT_LIMITS.maxFaults; i++) book.add({ path: `/p${i}`, status: 500 });
    const error = refusal(() => book.add({ path: '/one-more', status: 500 }));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain(`${FAULT_LIMITS.maxFaults} faults are waiting already`);
  });

  it('gives the bytes back at a fault’s last use, on clear and on reset', async () => {
    const budget = new MemoryBudget(1024 * 1024);
    const ledger = budget.ledger('faults');
    const book = new FaultBook({ ledger });
    book.add({ ...rule('/a'), times: 2 });
    const one = ledger.held;
    expect(one).toBe(faultHeapBytes(rule('/a')) + KEPT_ITEM_BYTES);
    expect((await book.apply('GET', '/a', 'r1'))?.status).toBe(500);
    expect(ledger.held).toBe(one);
    expect((await book.apply('GET', '/a', 'r2'))?.status).toBe(500);
    expect(ledger.held).toBe(0);
    expect(budget.used).toBe(0);
    book.add(rule('/a'));
    book.add(rule('/b'));
    book.clear();
    expect(ledger.held).toBe(0);
    book.add(rule('/a'));
    book.reset();
    expect(ledger.held).toBe(0);
    expect(budget.used).toBe(0);
    expect(book.bytes).toBe(0);
  });
});

describe('the faults’ listing (reading is bounded too)', () => {
  it('copies no match and parses no body to list them: each when it is read, one fault at a time', () => {
    const book = new FaultBook();
    const count = 40;
    for (let i = 0; i < count; i++) {
      book.add({
        endpoint: 'workspaces.search',
        status: 503,
        body: { text: 'y'.repeat(100 + i) },
        match: { body: { nested: [{}, {}, { i }] } },
      });
    }
    const parse = vi.spyOn(JSON, 'parse');
    const clone = vi.spyOn(globalThis, 'structuredClone');
    const list = book.list();
    expect(list).toHaveLength(count);
    expect(parse).not.toHaveBeenCalled();
    // One small copy per fault (its id, status, uses), none of a match.
    expect(clone).toHaveBeenCalledTimes(count);
    clone.mockClear();
    // One fault's body and match read: one parse, one copy.
    expect((list[5]?.body as { text: string } | undefined)?.text).toHaveLength(105);
    expect(list[5]?.match).toEqual({ body: { nested: [{}, {}, { i: 5 }] } });
    expect(parse).toHaveBeenCalledTimes(1);
    expect(clone).toHaveBeenCalledTimes(1);
    // Written as JSON (what GET /__mock/faults sends): each read once, as it is written.
    parse.mockClear();
    clone.mockClear();
    const text = JSON.stringify(list);
    expect(parse).toHaveBeenCalledTimes(count);
    expect(clone).toHaveBeenCalledTimes(count);
    parse.mockRestore();
    clone.mockRestore();
    const written = JSON.parse(text) as Array<Record<string, unknown>>;
    expect(written[3]).toMatchObject({
      id: 'fault_4',
      endpoint: 'workspaces.search',
      status: 503,
      body: { text: 'y'.repeat(103) },
      match: { body: { nested: [{}, {}, { i: 3 }] } },
      remaining: 1,
    });
    // A listed copy is the caller's: changing it changes nothing kept.
    (list[0] as { match?: unknown }).match = 'changed';
    expect(book.list()[0]?.match).toEqual({ body: { nested: [{}, {}, { i: 0 }] } });
  });
});
