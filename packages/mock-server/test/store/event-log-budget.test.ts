/**
 * The event log charges the memory budget (issue 34, finding 3): each event inserted at run time is
 * charged `runtimeEventBytes` to the `events` ledger; past the budget (or `retention.eventBytes`) the
 * account's oldest run-time events go first, the seeded ones stay (start data, never charged), and an
 * insert never throws. A label flood keeps the ledger at or under the budget and the log bounded.
 * Counted, never timed.
 */
import type { Event } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { EventRecorder } from '../../src/domain/events.js';
import { setWorkspaceLabels } from '../../src/domain/labels.js';
import { DEFAULT_RETENTION, toRetentionBounds } from '../../src/domain/retention.js';
import { MemoryBudget } from '../../src/store/budget.js';
import { EVENT_COPIES, EventLog, runtimeEventBytes } from '../../src/store/event-log.js';
import { Random } from '../../src/store/random.js';
import { generateState } from '../../src/store/seed.js';
import { Store } from '../../src/store/store.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

/** An event of a labels update at its largest: two 1,024-character values and three short ones. */
function labelEvent(i: number, time = T0 + i * 1000): Event {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    account_id: 'a'.repeat(24),
    integration_id: 'iacm-platform',
    event_timestamp: new Date(time).toISOString(),
    event_type: 'mutation',
    provider_type: 'iacm',
    asset_id: 'w'.repeat(24),
    asset_type: 'iacm_workspace',
    event: {
      mutation_id: `mut-${String(i).padStart(16, '0')}`,
      mutation_type: 'update',
      attributes: [
        { key: 'workspaceId', value: 'w'.repeat(24) },
        { key: 'field', value: 'labels' },
        { key: 'from', value: `${i}-`.padEnd(1024, 'f') },
        { key: 'to', value: `${i}+`.padEnd(1024, 't') },
      ],
    },
  };
}

const ids = (log: EventLog) => [...log.values()].map((e) => e.id);

describe('the event log and the memory budget', () => {
  it('charges each run-time event its measure (three times its heap measure), not the start data', () => {
    const budget = new MemoryBudget(Number.POSITIVE_INFINITY);
    const ledger = budget.ledger('events');
    const log = new EventLog([labelEvent(0), labelEvent(1)], { ledger });
    expect(ledger.held).toBe(0);
    const added = labelEvent(2);
    expect(log.insert(added)).toBe(0);
    // At least two bytes a character of its JSON text: twice its strings at two bytes a character.
    expect(runtimeEventBytes(added)).toBeGreaterThanOrEqual(EVENT_COPIES * JSON.stringify(added).length);
    expect(ledger.held).toBe(runtimeEventBytes(added));
    expect(log.chargedBytes).toBe(ledger.held);
    expect(budget.view().stores.events).toBe(ledger.held);
  });

  it('evicts the oldest run-time events to make room, keeps the newest and never throws', () => {
    const per = runtimeEventBytes(labelEvent(0));
    const budget = new MemoryBudget(per * 5 + per / 2);
    const ledger = budget.ledger('events');
    const seeded = [labelEvent(-2), labelEvent(-1)];
    const log = new EventLog(seeded, { ledger });
    const dropped: number[] = [];
    for (let i = 0; i < 20; i++) dropped.push(log.insert(labelEvent(i)));
    // Five fit; each later one drops the oldest run-time event, never a seeded one.
    expect(dropped).toEqual([0, 0, 0, 0, 0, ...Array.from({ length: 15 }, () => 1)]);
    expect(log.size).toBe(2 + 5);
    expect(ids(log).sort()).toEqual(
      [...seeded, ...[15, 16, 17, 18, 19].map((i) => labelEvent(i))].map((e) => e.id).sort(),
    );
    expect(ledger.held).toBe(5 * per);
    expect(ledger.held).toBeLessThanOrEqual(budget.limit);
  });

  it('keeps what it holds and drops the new event when dropping every run-time event would not make room', () => {
    const per = runtimeEventBytes(labelEvent(0));
    const budget = new MemoryBudget(per * 4);
    const events = budget.ledger('events');
    const log = new EventLog([], { ledger: events });
    expect(log.insert(labelEvent(0))).toBe(0);
    // Another store holds most of the rest: dropping the log's one event would not make room.
    budget.ledger('data').charge(Math.floor(per * 2.5));
    const big = labelEvent(1);
    big.event.attributes = [
      ...big.event.attributes,
      { key: 'more', value: 'm'.repeat(1024) },
      { key: 'again', value: 'a'.repeat(1024) },
    ];
    expect(runtimeEventBytes(big)).toBeGreaterThan(per * 1.5);
    const before = ids(log);
    expect(log.insert(big)).toBe(1);
    expect(ids(log)).toEqual(before);
    expect(events.held).toBe(per);
    // An event larger than the whole budget is never kept either.
    const huge = labelEvent(2);
    huge.event.attributes = Array.from({ length: 50 }, (_, k) => ({ key: `k${k}`, value: 'x'.repeat(1024) }));
    expect(runtimeEventBytes(huge)).toBeGreaterThan(budget.limit);
    expect(log.insert(huge)).toBe(1);
    expect(ids(log)).toEqual(before);
  });

  it('bounds the run-time events by maxBytes (retention.eventBytes) too, below the budget', () => {
    const per = runtimeEventBytes(labelEvent(0));
    const budget = new MemoryBudget(per * 100);
    const ledger = budget.ledger('events');
    const log = new EventLog([], { ledger, maxBytes: () => per * 3 });
    for (let i = 0; i < 10; i++) log.insert(labelEvent(i));
    expect(log.size).toBe(3);
    expect(ledger.held).toBe(3 * per);
    // `eventBytes` 0: no run-time event is kept at all.
    const none = new EventLog([], { ledger: budget.ledger('events'), maxBytes: 0 });
    expect(none.insert(labelEvent(0))).toBe(1);
    expect(none.size).toBe(0);
  });

  it('bounds the mock’s events together when every account’s log shares its one ledger', () => {
    const per = runtimeEventBytes(labelEvent(0));
    const ledger = new MemoryBudget(Number.POSITIVE_INFINITY).ledger('events');
    const a = new EventLog([], { ledger, maxBytes: per * 4 });
    const b = new EventLog([], { ledger, maxBytes: per * 4 });
    for (let i = 0; i < 3; i++) a.insert(labelEvent(i));
    for (let i = 0; i < 3; i++) b.insert(labelEvent(10 + i));
    // b drops its own oldest for room (a's are not its to drop).
    expect(a.size + b.size).toBe(4);
    expect(a.size).toBe(3);
    expect(ledger.held).toBe(4 * per);
  });

  it('gives the charge back when an event goes: the count bound, a release of the log, a move to another ledger', () => {
    const per = runtimeEventBytes(labelEvent(0));
    const budget = new MemoryBudget(Number.POSITIVE_INFINITY);
    const ledger = budget.ledger('events');
    const log = new EventLog([labelEvent(-1, T0 - 10_000)], { ledger });
    for (let i = 0; i < 3; i++) log.insert(labelEvent(i));
    expect(ledger.held).toBe(3 * per);
    // The oldest is the seeded one: its removal gives back nothing.
    expect(log.deleteOldest()?.id).toBe(labelEvent(-1).id);
    expect(ledger.held).toBe(3 * per);
    log.deleteOldest();
    expect(ledger.held).toBe(2 * per);
    const other = budget.ledger('events');
    log.chargeTo(other);
    expect([ledger.held, other.held]).toEqual([0, 2 * per]);
    log.releaseCharges();
    expect(other.held).toBe(0);
    expect(log.size).toBe(2);
    expect(budget.used).toBe(0);
  });

  it('finding 3: a label flood at the default eventsPerAccount stops growing once the budget is full', () => {
    const store = new Store(generateState({ seed: 7, sizes: { accounts: 1, workspaces: 3, events: 10 } }));
    const account = [...store.accounts.values()][0];
    if (!account) throw new Error('no account');
    const limit = 1024 * 1024;
    const budget = new MemoryBudget(limit);
    const ledger = budget.ledger('events');
    const retention = toRetentionBounds({});
    expect(retention.eventsPerAccount).toBe(DEFAULT_RETENTION.eventsPerAccount);
    account.events.chargeTo(ledger, () => retention.eventBytes);
    const random = new Random('runtime:7');
    let now = T0;
    const events = new EventRecorder(
      () => random,
      () => now,
      () => {},
      () => retention,
    );
    const services = { now: () => now, events };
    let workspace = [...account.workspaces.values()][0];
    if (!workspace) throw new Error('no workspace');
    const sizes: number[] = [];
    for (let n = 0; n < 1500; n++) {
      now += 1000;
      const labels = Array.from({ length: 50 }, (_, k) => `${n}-${k}-`.padEnd(128, 'L'));
      workspace = setWorkspaceLabels(account, workspace, labels, services);
      expect(ledger.held).toBeLessThanOrEqual(limit);
      if (n % 250 === 249) sizes.push(account.events.size);
    }
    // Full after a few hundred updates; from then on the log holds the same number of events.
    const perEvent = runtimeEventBytes([...account.events.values()].at(-1) as Event);
    const fit = Math.floor(limit / perEvent);
    expect(sizes.at(-1)).toBeLessThanOrEqual(10 + fit);
    expect(new Set(sizes.slice(1)).size).toBe(1);
    expect(ledger.held).toBeGreaterThan(limit - 2 * perEvent);
  });
});
