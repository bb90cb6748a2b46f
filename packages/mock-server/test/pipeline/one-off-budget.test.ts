/**
 * The one-off answers charge the memory budget (its `oneOff` ledger): past it a new answer is a 409
 * `budget_exceeded` and nothing changes; an answer's bytes come back at its last use, on clear and on
 * reset. Their listing parses nothing until a body is read. Counted, never timed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkOneOff, ONE_OFF_LIMITS, OneOffBook, OneOffStage } from '../../src/pipeline/one-off.js';
import { KEPT_ITEM_BYTES, MemoryBudget } from '../../src/store/budget.js';
import { refusal } from '../helpers.js';

/** An unchecked answer of `health` with a body of `size` characters. */
function answer(size = 1000, extra: Record<string, unknown> = {}) {
  return checkOneOff({
    endpoint: 'health',
    validate: false,
    status: 200,
    body: { text: 'x'.repeat(size) },
    ...extra,
  });
}

const input = { query: {}, body: undefined };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the one-off answers in the memory budget', () => {
  it('refuses an answer past the budget with a 409 naming the store and budget.bytes; nothing changes', () => {
    const one = answer().bytes + KEPT_ITEM_BYTES;
    const budget = new MemoryBudget(Math.floor(2.5 * one));
    const ledger = budget.ledger('oneOff');
    const book = new OneOffBook(ledger);
    book.add(answer());
    book.add(answer());
    expect(ledger.held).toBe(2 * one);
    const before = { size: book.size, bytes: book.bytes, list: JSON.stringify(book.list()) };
    const error = refusal(() => book.add(answer()));
    expect(error.status).toBe(409);
    expect(error.code).toBe('budget_exceeded');
    expect(error.message).toContain('oneOff');
    expect(error.message).toContain('budget.bytes');
    expect({ size: book.size, bytes: book.bytes, list: JSON.stringify(book.list()) }).toEqual(before);
    expect(ledger.held).toBe(2 * one);
    // No id was used by the refused one.
    book.clear();
    expect(book.add(answer()).id).toBe('answer_3');
  });

  it("refuses one that fits a session's share but not the mock's budget", () => {
    const one = answer().bytes + KEPT_ITEM_BYTES;
    const mock = new MemoryBudget(10 * one);
    const session = mock.child(5 * one, 'session ses_1');
    const stage = new OneOffStage({ open: true, token: undefined }, session.ledger('oneOff'));
    mock.ledger('data').charge(Math.floor(9.5 * one));
    const error = refusal(() => stage.book.add(answer()));
    expect(error.code).toBe('budget_exceeded');
    expect(error.message).toContain('oneOff');
    expect(error.message).toContain('budget.bytes');
    expect(stage.book.size).toBe(0);
    expect(session.used).toBe(0);
  });

  it('checks its own bounds first, with their own messages', () => {
    const book = new OneOffBook(new MemoryBudget(Number.POSITIVE_INFINITY).ledger('oneOff'));
    const small = checkOneOff({ endpoint: 'health', validate: false, status: 200 });
    for (let i = 0; i < ONE_OFF_LIMITS.maxAnswers; i++) book.add(small);
    const error = refusal(() => book.add(small));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain(`${ONE_OFF_LIMITS.maxAnswers} one-off answers are waiting already`);
  });

  it('gives the bytes back at an answer’s last use, on clear and on reset', () => {
    const budget = new MemoryBudget(1024 * 1024);
    const ledger = budget.ledger('oneOff');
    const stage = new OneOffStage({ open: true, token: undefined }, ledger);
    const { book } = stage;
    book.add(answer(1000, { times: 2 }));
    const one = ledger.held;
    expect(one).toBe(answer().bytes + KEPT_ITEM_BYTES);
    expect(book.take('health', undefined, input, 'r1')?.status).toBe(200);
    expect(ledger.held).toBe(one);
    expect(book.take('health', undefined, input, 'r2')?.status).toBe(200);
    expect(ledger.held).toBe(0);
    book.add(answer());
    book.add(answer());
    book.clear();
    expect(ledger.held).toBe(0);
    book.add(answer());
    stage.reset();
    expect(ledger.held).toBe(0);
    expect(budget.used).toBe(0);
    expect(book.bytes).toBe(0);
  });
});

describe('the one-off answers’ listing (finding 7)', () => {
  it('parses no kept body to list them: each body when it is read, one at a time', () => {
    const book = new OneOffBook();
    const count = 50;
    for (let i = 0; i < count; i++) {
      book.add(answer(100 + i, { match: { accountId: `acc_${i}` } }));
    }
    const parse = vi.spyOn(JSON, 'parse');
    const clone = vi.spyOn(globalThis, 'structuredClone');
    const list = book.list();
    expect(list).toHaveLength(count);
    expect(parse).not.toHaveBeenCalled();
    expect(clone).not.toHaveBeenCalled();
    // One body read: one parse.
    expect((list[7]?.body as { text: string } | undefined)?.text).toHaveLength(107);
    expect(parse).toHaveBeenCalledTimes(1);
    // Written as JSON (what GET /__mock/responses sends): each body parsed once, as it is written.
    parse.mockClear();
    const text = JSON.stringify(list);
    expect(parse).toHaveBeenCalledTimes(count);
    parse.mockRestore();
    clone.mockRestore();
    // The same answer as before: every member, the body and the match as kept.
    const written = JSON.parse(text) as Array<Record<string, unknown>>;
    expect(written[3]).toEqual({
      id: 'answer_4',
      endpoint: 'health',
      status: 200,
      body: { text: 'x'.repeat(103) },
      match: { accountId: 'acc_3' },
      validate: false,
      times: 1,
      remaining: 1,
    });
    // A listed member can be set, and a read never changes what is kept.
    const [first] = book.list();
    if (!first) throw new Error('expected an answer');
    (first.body as { text: string }).text = 'changed';
    (first.match as { accountId: string }).accountId = 'changed';
    first.body = { replaced: true };
    expect(first.body).toEqual({ replaced: true });
    expect(book.list()[0]?.body).toEqual({ text: 'x'.repeat(100) });
    expect(book.list()[0]?.match).toEqual({ accountId: 'acc_0' });
  });
});
