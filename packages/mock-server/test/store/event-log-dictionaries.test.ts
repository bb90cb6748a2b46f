/**
 * The event log's dictionaries shrink when the events that used their values are dropped (issue 20,
 * finding 2): compaction drops the values no kept event uses once they are more than half of a
 * dictionary, and renumbers the rest, so that a bounded number of events takes bounded memory. The
 * answers (pages, facets, filters, free text) stay those of a log made from the kept events alone.
 * The heap bound itself is proven by attack in `test/hostile/caps.test.ts`.
 */
import type { Event, EventAttribute } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { Dictionary } from '../../src/store/dictionary.js';
import { EVENT_FIELDS } from '../../src/store/event-columns.js';
import { EventLog, type EventLog as EventLogType } from '../../src/store/event-log.js';
import { generateLazyState } from '../../src/store/seed.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

/** An API-like event: its own asset id and attribute list (what a labels update records). */
function event(i: number, attributes?: EventAttribute[]): Event {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    account_id: 'a',
    integration_id: i % 2 === 0 ? 'iacm-platform' : `int-${i}`,
    event_timestamp: new Date(T0 + i * 1000).toISOString(),
    event_type: 'mutation',
    provider_type: 'iacm',
    asset_id: `Asset-${i}`,
    asset_type: i % 3 === 0 ? 'iacm_workspace' : `Type-${i}`,
    event: {
      mutation_id: `m-${i}`,
      mutation_type: 'update',
      attributes: attributes ?? [
        { key: 'from', value: `Labels-${i - 1}` },
        { key: 'to', value: `Labels-${i}` },
      ],
    },
  };
}

/** Every answer the log gives that depends on its dictionaries, for comparing two logs. */
async function answers(log: EventLogType) {
  const facets = EVENT_FIELDS.map((field) => ({ field, size: 100 }));
  return {
    all: await log.search({}, { size: 150 }, facets),
    text: await log.search({ needle: 'labels-19' }, { size: 150 }, facets),
    type: await log.search({ needle: 'type-1' }, { size: 150 }, []),
    asset: await log.search(
      { filters: [{ field: 'assetId', values: ['Asset-1990', 'Asset-5', 'Asset-1999'] }] },
      { size: 150 },
      [],
    ),
    valueSearch: await log.search({}, { size: 1 }, [
      { field: 'assetType', size: 100, valueNeedle: 'type-19' },
    ]),
    values: [...log.values()],
  };
}

describe('the event log releases the values of dropped events (finding 2)', () => {
  it('shrinks every dictionary at compaction, and answers as a log of the kept events', async () => {
    const log = new EventLog();
    for (let i = 0; i < 2000; i++) log.insert(event(i));
    expect(log.distinctValues('attributes')).toBe(2000);
    expect(log.distinctValues('assetId')).toBe(2000);
    // Compaction runs once the holes are more than 1,024 and outnumber the events: at the 1,025th.
    for (let i = 0; i < 1024; i++) log.deleteOldest();
    expect(log.distinctValues('attributes')).toBe(2000);
    log.deleteOldest();
    expect(log.size).toBe(975);
    expect(log.distinctValues('attributes')).toBe(975);
    expect(log.distinctValues('assetId')).toBe(975);
    expect(log.distinctValues('assetType')).toBe(1 + 975 - 325);
    expect(log.distinctValues('integrationId')).toBe(1 + 488);
    expect(await answers(log)).toEqual(await answers(new EventLog([...log.values()])));
    // Holes until the next compaction: the answers are the kept events' all the same.
    for (let i = 0; i < 875; i++) log.deleteOldest();
    expect(log.size).toBe(100);
    const kept = new EventLog([...log.values()]);
    expect(await answers(log)).toEqual(await answers(kept));
    // New events after the rebuild get codes of their own, and are found.
    log.insert(event(5000));
    log.insert(event(5001, event(1999).event.attributes));
    const again = new EventLog([...log.values()]);
    expect(await answers(log)).toEqual(await answers(again));
  });

  it('keeps the dictionaries within twice what the kept events use, however many pass through', () => {
    const log = new EventLog();
    let peak = 0;
    for (let i = 0; i < 20_000; i++) {
      log.insert(event(i));
      if (log.size > 200) log.deleteOldest();
      peak = Math.max(peak, log.distinctValues('attributes'), log.distinctValues('assetId'));
    }
    // At most the kept events' values and those of the holes before a compaction (1,025 at most
    // here): not 20,000.
    expect(peak).toBeLessThanOrEqual(200 + 1025 + 1);
    expect(log.distinctValues('eventType')).toBe(1);
    expect(log.distinctValues('account')).toBe(1);
  });

  it('keeps a dictionary whole while its kept events use more than half of it', () => {
    const log = new EventLog();
    // 3,000 events over 4 asset types: the types stay, only the lists and ids go.
    for (let i = 0; i < 3000; i++) log.insert({ ...event(i), asset_type: `T${i % 4}` });
    // The compaction at the 1,501st removal (the holes outnumber the 1,499 events).
    for (let i = 0; i < 1501; i++) log.deleteOldest();
    expect(log.distinctValues('assetType')).toBe(4);
    expect(log.distinctValues('attributes')).toBe(1499);
  });

  it('renumbers shared (frozen) attribute lists of a seeded log, and reads the seeded events back', async () => {
    const sizes = { workspaces: 10, events: 3000, accounts: 1 };
    const log = generateLazyState({ seed: 9, sizes }).events[0] as EventLog;
    const lists = log.distinctValues('attributes');
    // API events with lists of their own, then drop the seeded events and most API ones.
    for (let i = 0; i < 3000; i++) log.insert(event(100_000 + i));
    for (let i = 0; i < 5500; i++) log.deleteOldest();
    expect(log.size).toBe(500);
    expect(log.distinctValues('attributes')).toBeLessThanOrEqual(lists + 1000);
    const kept = new EventLog([...log.values()]);
    expect(await answers(log)).toEqual(await answers(kept));
  });

  it('renumbers lists shared by identity, so a later event with the same list gets its code', async () => {
    const shared = Object.freeze([{ key: 'kind', value: 'Shared-List' }]) as EventAttribute[];
    const log = new EventLog();
    for (let i = 0; i < 2000; i++) log.insert(event(i, i === 1999 ? shared : undefined));
    // Compaction at the 1,025th removal keeps 975 lists, the shared one renumbered among them.
    for (let i = 0; i < 1990; i++) log.deleteOldest();
    expect(log.distinctValues('attributes')).toBe(975);
    log.insert(event(4000, shared));
    expect(log.distinctValues('attributes')).toBe(975);
    const found = await log.search({ needle: 'shared-list' }, { size: 10 }, []);
    expect(found.page.map((e) => e.id)).toEqual([event(4000).id, event(1999).id]);
    expect(found.page[0]?.event.attributes).toBe(shared);
  });
});

describe('Dictionary.retain', () => {
  const dictionary = (values: string[]) => {
    const d = new Dictionary();
    for (const value of values) d.code(value);
    return d;
  };

  it('keeps the used values in their order, renumbered, when at most half are used', () => {
    const d = dictionary(['a', 'B', 'c', 'D']);
    expect(d.lower(3)).toBe('d');
    const remap = d.retain(Int32Array.from([3, 1, 3]), 3);
    expect([...(remap ?? [])]).toEqual([-1, 0, -1, 1]);
    expect(d.values).toEqual(['B', 'D']);
    expect(d.size).toBe(2);
    expect(d.find('B')).toBe(0);
    expect(d.find('D')).toBe(1);
    expect(d.find('a')).toBeUndefined();
    expect(d.lower(0)).toBe('b');
    expect(d.lower(1)).toBe('d');
    expect([...d.flags(['D', 'a'])]).toEqual([0, 1]);
    // A value seen again gets the next code.
    expect(d.code('a')).toBe(2);
  });

  it('changes nothing while more than half of the values are used', () => {
    const d = dictionary(['a', 'b', 'c']);
    expect(d.retain(Int32Array.from([0, 2, 0]), 3)).toBeUndefined();
    expect(d.values).toEqual(['a', 'b', 'c']);
    expect(d.find('b')).toBe(1);
  });

  it('reads only the first `length` codes', () => {
    const d = dictionary(['a', 'b', 'c', 'd']);
    // The codes past `length` (the end of a truncated column) do not count as used.
    const remap = d.retain(Int32Array.from([1, 0, 2, 3]), 1);
    expect([...(remap ?? [])]).toEqual([-1, 0, -1, -1]);
    expect(d.values).toEqual(['b']);
  });

  it('empties a dictionary no code uses', () => {
    const d = dictionary(['a', 'b']);
    expect([...(d.retain(new Int32Array(0), 0) ?? [])]).toEqual([-1, -1]);
    expect(d.size).toBe(0);
    expect(d.code('b')).toBe(0);
  });
});
