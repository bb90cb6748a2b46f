/**
 * The one memory budget (`store/budget.ts`): charges by store, refusals that change nothing and name
 * the store, the budget, what it holds and the option; a session's share counted against the mock's;
 * the option's ranges and the Node adapter's heap share.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BUDGET_RANGES,
  BUDGET_STORE_NAMES,
  BUDGET_STORES,
  DEFAULT_BUDGET_BYTES,
  defaultBudgetBytes,
  HEAP_BYTES,
  heapBytes,
  heapShareBudget,
  heapSizeLimit,
  jsonTextHeapBytes,
  MemoryBudget,
  textBytes,
  toBudgetOptions,
  unboundedLedger,
} from '../../src/store/budget.js';
import { refusal } from '../helpers.js';

const MiB = 1024 * 1024;

describe('MemoryBudget', () => {
  it('charges and releases by store, and refuses a charge past the limit without changing anything', () => {
    const budget = new MemoryBudget(10 * MiB);
    const faults = budget.ledger('faults');
    const journal = budget.ledger('journal');
    faults.charge(4 * MiB);
    journal.charge(5 * MiB);
    expect(budget.used).toBe(9 * MiB);
    const error = refusal(() => faults.charge(2 * MiB));
    expect(error.status).toBe(409);
    expect(error.code).toBe('budget_exceeded');
    expect(error.message).toBe(
      "faults (the endpoint faults) would take 2.0 MiB more, past the mock's memory budget of 10.0 MiB (budget.bytes), which holds 9.0 MiB (journal 5.0 MiB, faults 4.0 MiB); nothing was changed: DELETE /__mock/faults, or raise budget.bytes",
    );
    expect(budget.used).toBe(9 * MiB);
    expect(faults.held).toBe(4 * MiB);
    expect(faults.tryCharge(2 * MiB)).toBe(false);
    expect(faults.tryCharge(MiB)).toBe(true);
    expect(budget.view().stores).toMatchObject({ faults: 5 * MiB, journal: 5 * MiB, data: 0 });
    faults.release(100 * MiB); // never more than it holds
    expect(faults.held).toBe(0);
    expect(budget.used).toBe(5 * MiB);
    journal.releaseAll();
    expect(budget.view()).toEqual({
      limit: 10 * MiB,
      used: 0,
      option: 'budget.bytes',
      stores: Object.fromEntries(BUDGET_STORE_NAMES.map((name) => [name, 0])),
      sessions: 0,
    });
  });

  it('charges whatever the budget says when forced (data a reset puts back), and set() replaces what a ledger holds', () => {
    const budget = new MemoryBudget(MiB);
    const data = budget.ledger('data');
    data.set(2 * MiB, true);
    expect(budget.used).toBe(2 * MiB);
    // Over the budget: a growth is refused, a shrink always passes.
    expect(refusal(() => data.set(3 * MiB)).code).toBe('budget_exceeded');
    expect(data.held).toBe(2 * MiB);
    data.set(MiB / 2);
    expect(budget.used).toBe(MiB / 2);
  });

  it("counts a session's share against the mock's too, and gives it all back when the session closes", () => {
    const mock = new MemoryBudget(10 * MiB);
    const journal = mock.ledger('journal');
    journal.charge(7 * MiB);
    const session = mock.child(4 * MiB, 'this session');
    const faults = session.ledger('faults');
    faults.charge(2 * MiB);
    expect(mock.used).toBe(9 * MiB);
    expect(mock.view()).toMatchObject({
      used: 9 * MiB,
      sessions: 2 * MiB,
      stores: { journal: 7 * MiB, faults: 0 },
    });
    expect(session.view()).toMatchObject({
      limit: 4 * MiB,
      used: 2 * MiB,
      option: 'budget.sessionBytes',
      mock: { limit: 10 * MiB, used: 9 * MiB },
    });
    // Within the session's share, past the mock's: the mock's budget refuses, and names its option.
    const error = refusal(() => faults.charge(1.5 * MiB));
    expect(error.message).toMatch(
      /past the mock's memory budget of 10\.0 MiB \(budget\.bytes\).*\(journal 7\.0 MiB, sessions 2\.0 MiB\)/,
    );
    // Past the session's share: the session's refuses.
    journal.release(7 * MiB);
    expect(refusal(() => faults.charge(3 * MiB)).message).toMatch(
      /past this session's memory budget of 4\.0 MiB \(budget\.sessionBytes\).*or raise budget\.sessionBytes$/,
    );
    session.close();
    expect(mock.used).toBe(0);
    expect(mock.view().sessions).toBe(0);
    expect(session.used).toBe(0);
  });

  it('makes a sibling ledger: the same store of the same budget, holding its own charges', () => {
    const budget = new MemoryBudget(1000);
    const ledger = budget.ledger('data');
    ledger.charge(300);
    const hold = ledger.sibling();
    hold.charge(200);
    expect([ledger.held, hold.held, budget.view().stores.data]).toEqual([300, 200, 500]);
    hold.releaseAll();
    expect([ledger.held, budget.view().stores.data]).toEqual([300, 300]);
    expect(refusal(() => hold.charge(800)).code).toBe('budget_exceeded');
  });

  it("knows what a store holds in the whole mock, and ignores a release that comes after a session's end", () => {
    const mock = new MemoryBudget(1000);
    const one = mock.child(500, 'one session');
    const two = mock.child(500, 'another session');
    const own = mock.ledger('requests');
    const inOne = one.ledger('requests');
    const inTwo = two.ledger('requests');
    expect(inTwo.heldInMock).toBe(0);
    inOne.charge(100);
    expect([inTwo.heldInMock, own.heldInMock, inTwo.held]).toEqual([100, 100, 0]);
    own.charge(30);
    expect(inOne.heldInMock).toBe(130);
    one.close();
    expect(inTwo.heldInMock).toBe(30);
    // A request of the ended session answered late: its release changes nothing anywhere.
    inOne.release(100);
    expect([mock.view().used, mock.view().sessions, inTwo.heldInMock]).toEqual([30, 0, 30]);
  });

  it("makes the evicting stores drop their oldest for a refusing store's charge, the mock's and its sessions'", () => {
    const mock = new MemoryBudget(10 * MiB);
    const entries: number[] = [];
    const journal = mock.ledger('journal');
    journal.evictWith((need) => {
      let freed = 0;
      while (entries.length > 0 && freed < need) {
        const oldest = entries.shift() as number;
        journal.release(oldest);
        freed += oldest;
      }
    });
    for (let i = 0; i < 6; i++) {
      journal.charge(MiB);
      entries.push(MiB);
    }
    const session = mock.child(8 * MiB, 'this session');
    const attempts = session.ledger('attempts');
    let kept = 3 * MiB;
    attempts.charge(kept);
    attempts.evictWith((need) => {
      const freed = Math.min(need, kept);
      kept -= freed;
      attempts.release(freed);
    });
    expect(mock.used).toBe(9 * MiB);
    // 4 MiB of faults: the mock's journal drops its oldest three entries first.
    const faults = mock.ledger('faults');
    faults.charge(4 * MiB);
    expect(entries).toHaveLength(3);
    expect(mock.used).toBe(10 * MiB);
    // 5 MiB more: the mock's journal gives all it has, then the session's attempts the rest.
    faults.charge(5 * MiB);
    expect(entries).toHaveLength(0);
    expect(kept).toBe(MiB);
    // An evicting store's own charge makes nobody drop anything: it is refused.
    expect(attempts.tryCharge(MiB)).toBe(false);
    expect(kept).toBe(MiB);
    faults.charge(MiB);
    expect(kept).toBe(0);
    // Nothing left to drop: a refusing charge is refused.
    expect(refusal(() => faults.charge(MiB)).code).toBe('budget_exceeded');
    expect(mock.view().stores.faults).toBe(10 * MiB);
  });

  it('has an unbounded ledger for a store made alone', () => {
    const ledger = unboundedLedger('oneOff');
    ledger.charge(2 ** 50);
    expect(ledger.held).toBe(2 ** 50);
  });

  it('names, for every store, what it keeps, whether it refuses or evicts, and how to make room', () => {
    expect(BUDGET_STORE_NAMES).toEqual(Object.keys(BUDGET_STORES));
    const evicting = BUDGET_STORE_NAMES.filter((name) => BUDGET_STORES[name].full === 'evicts');
    expect(evicting).toEqual(['journal', 'events', 'attempts']);
  });
});

describe("a JSON text's measure before it is parsed", () => {
  const { string, perCharacter, object, array, perItem, perMember } = HEAP_BYTES;
  const text = (t: string) => string + perCharacter * t.length;

  it('counts each container and slot twice (the parsed value and its checked copy), and the text', () => {
    const one = '{"a":[1,2]}';
    expect(jsonTextHeapBytes(one)).toBe(text(one) + 2 * (object + array + perItem + perMember));
    // Several of each: every occurrence counted, not only the first.
    const many = '[{"a":1},{"b":2},{"c":[3,4,5]}]';
    expect(jsonTextHeapBytes(many)).toBe(
      text(many) + 2 * (3 * object + 2 * array + 4 * perItem + 3 * perMember),
    );
    expect(jsonTextHeapBytes('"plain"')).toBe(text('"plain"'));
  });

  it('grows with the count of small values, whatever the characters around them', () => {
    const empties = `[${new Array(1000).fill('{}').join(',')}]`;
    expect(jsonTextHeapBytes(empties)).toBe(text(empties) + 2 * (1000 * object + array + 999 * perItem));
  });
});

describe('the budget option', () => {
  it('defaults to half the heap limit (256 MiB where it is not known) and a quarter of it per session; a given bytes sets the session default too', () => {
    expect(toBudgetOptions(undefined, DEFAULT_BUDGET_BYTES)).toEqual({
      bytes: DEFAULT_BUDGET_BYTES,
      sessionBytes: DEFAULT_BUDGET_BYTES / 4,
    });
    // Where the runtime tells the heap limit (Node here), the default is half of it.
    const limit = heapSizeLimit();
    expect(limit).toBeGreaterThan(0);
    expect(defaultBudgetBytes()).toBe(heapShareBudget(limit as number));
    expect(toBudgetOptions(undefined).bytes).toBe(defaultBudgetBytes());
    expect(toBudgetOptions({ bytes: 64 * MiB })).toEqual({ bytes: 64 * MiB, sessionBytes: 16 * MiB });
    expect(toBudgetOptions({ sessionBytes: 0 }, 8 * MiB)).toEqual({ bytes: 8 * MiB, sessionBytes: 0 });
  });

  it('refuses a member out of its range, or a session share larger than the budget, naming it', () => {
    expect(() => toBudgetOptions({ bytes: 1000 })).toThrow(
      `MockOptions budget.bytes: expected an integer from ${BUDGET_RANGES.bytes.min} to ${BUDGET_RANGES.bytes.max} (bytes), received 1000`,
    );
    expect(() => toBudgetOptions({ bytes: 2 * MiB, sessionBytes: 3 * MiB })).toThrow(
      `MockOptions budget.sessionBytes: expected at most budget.bytes (${2 * MiB}), received ${3 * MiB}`,
    );
    expect(() => toBudgetOptions({ other: 1 } as never)).toThrow(/unknown member/);
  });

  it('gives the Node adapter half the heap limit, within the range', () => {
    expect(heapShareBudget(4096 * MiB)).toBe(2048 * MiB);
    expect(heapShareBudget(1)).toBe(BUDGET_RANGES.bytes.min);
    expect(heapShareBudget(2 ** 60)).toBe(BUDGET_RANGES.bytes.max);
  });
});

describe('the heap measure', () => {
  it('charges strings by character, containers by member, and nothing for literals', () => {
    expect(heapBytes('abc')).toBe(HEAP_BYTES.string + 3 * HEAP_BYTES.perCharacter);
    expect(heapBytes([1, null, true])).toBe(HEAP_BYTES.array + 3 * HEAP_BYTES.perItem + HEAP_BYTES.number);
    expect(heapBytes({ a: 'b' })).toBe(
      HEAP_BYTES.object + HEAP_BYTES.perMember + 2 * (HEAP_BYTES.string + HEAP_BYTES.perCharacter),
    );
    // Many empty objects take far more than their text: the measure counts them.
    const empties = Array.from({ length: 1000 }, () => ({}));
    expect(heapBytes(empties)).toBeGreaterThan(20 * JSON.stringify(empties).length);
    expect(textBytes(undefined)).toBe(0);
    expect(textBytes('xy')).toBe(HEAP_BYTES.string + 4);
  });
});

describe('the budget at its edges', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('says sizes in bytes, KiB and MiB, lists at most the four largest stores that hold something', () => {
    const budget = new MemoryBudget(MiB);
    expect(refusal(() => budget.ledger('oneOff').charge(MiB + 1)).message).toMatch(
      /would take 1\.0 MiB more, past the mock's memory budget of 1\.0 MiB \(budget\.bytes\), which holds 0 bytes; nothing/,
    );
    const stores = ['journal', 'faults', 'oneOff', 'waits', 'timedRuns'] as const;
    stores.forEach((store, i) => {
      budget.ledger(store).charge(1000 + 100 * i);
    });
    const emptied = budget.ledger('scenario');
    emptied.charge(5000);
    emptied.release(5000);
    const message = refusal(() => budget.ledger('data').charge(MiB - 1023)).message;
    expect(message).toContain('would take 1023.0 KiB more');
    expect(message).toContain(
      'which holds 5.9 KiB (timedRuns 1.4 KiB, waits 1.3 KiB, oneOff 1.2 KiB, faults 1.1 KiB);',
    );
    expect(message).not.toContain('scenario');
    expect(refusal(() => new MemoryBudget(MiB).ledger('data').charge(MiB + 1000)).message).toContain(
      'would take 1.0 MiB more',
    );
    const tiny = new MemoryBudget(1024);
    tiny.ledger('faults').charge(1000);
    expect(refusal(() => tiny.ledger('faults').charge(100)).message).toContain('would take 100 bytes more');
    expect(refusal(() => tiny.ledger('faults').charge(100)).message).toContain(
      'which holds 1000 bytes (faults 1000 bytes)',
    );
  });

  it('never refuses a release or a nothing, even over the limit (data a reset forced back)', () => {
    const budget = new MemoryBudget(MiB);
    const data = budget.ledger('data');
    data.charge(2 * MiB, true);
    expect(data.fits(0)).toBe(true);
    expect(data.fits(1)).toBe(false);
    expect(data.tryCharge(0)).toBe(true);
    data.charge(-5);
    expect(data.held).toBe(2 * MiB);
    data.release(MiB);
    expect(budget.used).toBe(MiB);
    data.release(-5);
    expect(budget.used).toBe(MiB);
  });

  it('asks only as many evicting stores as the room needs, its own before its sessions', () => {
    const mock = new MemoryBudget(10 * MiB);
    const calls: string[] = [];
    const evicting = (name: string, ledger: ReturnType<MemoryBudget['ledger']>) => {
      ledger.evictWith((need) => {
        calls.push(`${name} ${need}`);
        ledger.release(need);
      });
    };
    const journal = mock.ledger('journal');
    journal.charge(4 * MiB);
    evicting('journal', journal);
    const attempts = mock.ledger('attempts');
    attempts.charge(4 * MiB);
    evicting('attempts', attempts);
    const session = mock.child(10 * MiB, 'this session');
    const sessionJournal = session.ledger('journal');
    sessionJournal.charge(2 * MiB);
    evicting('session', sessionJournal);
    const faults = mock.ledger('faults');
    faults.charge(MiB);
    expect(calls).toEqual([`journal ${MiB}`]);
    // 4 MiB more: the journal gives the 3 it has left, the attempt log the last one.
    faults.charge(4 * MiB);
    expect(calls.slice(1)).toEqual([`journal ${4 * MiB}`, `attempts ${MiB}`]);
    // 5 MiB more: the journal has nothing, the attempt log gives its 3, the session its 2.
    faults.charge(5 * MiB);
    expect(calls.slice(3)).toEqual([`journal ${5 * MiB}`, `attempts ${5 * MiB}`, `session ${2 * MiB}`]);
    expect(mock.view().stores.faults).toBe(10 * MiB);
    faults.releaseAll();
    // A session whose share is full asks its own stores only.
    const small = mock.child(MiB, 'this session');
    const own = small.ledger('journal');
    own.charge(MiB / 2);
    evicting('small', own);
    small.ledger('faults').charge(MiB);
    expect(calls.at(-1)).toBe(`small ${MiB / 2}`);
    session.close();
    small.close();
    expect(mock.used).toBe(0);
    faults.charge(MiB);
    // A budget without a parent closes to nothing.
    mock.close();
    expect(mock.used).toBe(0);
    expect(mock.view().stores.faults).toBe(0);
  });

  it('takes a session share as large as the budget, not larger', () => {
    expect(toBudgetOptions({ bytes: 2 * MiB, sessionBytes: 2 * MiB })).toEqual({
      bytes: 2 * MiB,
      sessionBytes: 2 * MiB,
    });
  });

  it('reads the heap limit only when the runtime gives a positive finite number, else 256 MiB', () => {
    const runtime = process as unknown as { getBuiltinModule: (id: string) => unknown };
    const answer = (stats: unknown) =>
      vi.spyOn(runtime, 'getBuiltinModule').mockImplementation(() => ({ getHeapStatistics: () => stats }));
    for (const limit of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '4096', undefined]) {
      answer({ heap_size_limit: limit });
      expect(heapSizeLimit(), String(limit)).toBeUndefined();
      expect(defaultBudgetBytes()).toBe(DEFAULT_BUDGET_BYTES);
      vi.restoreAllMocks();
    }
    answer({ heap_size_limit: 1024 * MiB });
    expect(heapSizeLimit()).toBe(1024 * MiB);
    expect(defaultBudgetBytes()).toBe(512 * MiB);
    vi.restoreAllMocks();
    vi.spyOn(runtime, 'getBuiltinModule').mockImplementation(() => ({}));
    expect(heapSizeLimit()).toBeUndefined();
    vi.restoreAllMocks();
    vi.spyOn(runtime, 'getBuiltinModule').mockImplementation(() => ({
      getHeapStatistics: () => {
        throw new Error('not here');
      },
    }));
    expect(heapSizeLimit()).toBeUndefined();
  });

  it('charges member names by their length', () => {
    expect(heapBytes({ abcd: null })).toBe(
      HEAP_BYTES.object + HEAP_BYTES.perMember + HEAP_BYTES.string + 4 * HEAP_BYTES.perCharacter,
    );
  });
});
