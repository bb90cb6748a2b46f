/**
 * The event log's walk in chunks: it gives the event loop turns, stops when the request's signal
 * aborts, and answers from one state when events arrive during a pause. (Its answers are checked
 * against the reference model in `test/semantics/event-center/`.)
 */
import type { Event } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.js';
import { generateLazyState, generateState } from '../../src/store/seed.js';
import { countTurns, inAnswerOrder } from '../helpers.js';

function event(i: number, time: number, assetType = 'aws_s3_bucket'): Event {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    account_id: 'a',
    integration_id: 'int-1',
    event_timestamp: new Date(time).toISOString(),
    event_type: 'mutation',
    provider_type: 'aws',
    asset_id: `arn:aws:s3:::bucket-${i % 7}`,
    asset_type: assetType,
    event: { mutation_id: `m-${i}`, mutation_type: 'update', attributes: [] },
  };
}

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const events = (n: number) => Array.from({ length: n }, (_, i) => event(i, T0 + Math.floor(i / 3) * 1000));

describe('the event log walks in chunks', () => {
  it('lets other work run between chunks, and answers as an unchunked walk does', async () => {
    const all = events(400);
    const chunked = new EventLog(all, { chunk: 16 });
    const whole = new EventLog(all, { chunk: 1_000_000 });
    const counter = countTurns();
    const facets = [{ field: 'assetId' as const, size: 3 }];
    const a = await chunked.search({ needle: 'bucket-3' }, { size: 5 }, facets);
    const turns = counter.stop();
    const b = await whole.search({ needle: 'bucket-3' }, { size: 5 }, facets);
    expect(a).toEqual(b);
    expect(a.facets[0]).toEqual({ size: 1, values: [{ value: 'arn:aws:s3:::bucket-3', count: 57 }] });
    expect(a.page.map((e) => e.id)).toEqual(b.page.map((e) => e.id));
    // 400 positions in chunks of 16: the event loop ran between them.
    expect(turns).toBeGreaterThan(0);
  });

  it('stops when the signal aborts, with the signal’s reason', async () => {
    const log = new EventLog(events(400), { chunk: 8 });
    const controller = new AbortController();
    const search = log.search({}, { size: 1 }, [{ field: 'assetType', size: 1 }], controller.signal);
    controller.abort(new Error('client gone'));
    await expect(search).rejects.toThrow('client gone');
  });

  it('answers from one state when an event arrives during a pause (the walk starts again)', async () => {
    const log = new EventLog(events(300), { chunk: 10 });
    const search = log.search({}, { size: 2 }, [{ field: 'assetType', size: 5 }]);
    // Arrives while the walk is paused: the answer counts it, or not, but never half.
    log.insert(event(1000, T0 + 10_000_000, 'aws_iam_role'));
    const result = await search;
    expect(result.facets[0]?.values).toEqual([
      { value: 'aws_s3_bucket', count: 300 },
      { value: 'aws_iam_role', count: 1 },
    ]);
    expect(result.page[0]?.id).toBe(event(1000, 0).id);
  });

  it('keeps its order through removals of the oldest events and the compaction that follows', async () => {
    const log = new EventLog(events(3000), { chunk: 100 });
    for (let i = 0; i < 2500; i++) log.deleteOldest();
    log.insert(event(5000, T0 - 1));
    expect(log.size).toBe(501);
    expect(log.oldest()?.id).toBe(event(5000, 0).id);
    const result = await log.search({}, { size: 501 }, [{ field: 'assetType', size: 1 }]);
    const times = result.page.map((e) => e.event_timestamp);
    expect(times).toEqual([...times].sort().reverse());
    expect(result.facets[0]?.size).toBe(1);
    expect(result.more).toBe(false);
    expect([...log.values()].length).toBe(501);
  });
});

describe('a seeded event log (columns only)', () => {
  it('reads back the generator’s events, also after removing the oldest and compacting', async () => {
    const sizes = { workspaces: 20, events: 3000, accounts: 1 };
    const eager = generateState({ seed: 5, sizes }).accounts[0]?.events ?? [];
    const log = generateLazyState({ seed: 5, sizes }).events[0] as EventLog;
    expect(JSON.stringify([...log.values()])).toBe(JSON.stringify(eager));
    // Newest first, ties by id: the order the event center answers in.
    const ordered = inAnswerOrder(eager);
    for (let i = 0; i < 2900; i++) log.deleteOldest();
    const kept = new Set(ordered.slice(0, 100).map((e) => e.id));
    expect(JSON.stringify([...log.values()])).toBe(JSON.stringify(eager.filter((e) => kept.has(e.id))));
    const page = await log.search({}, { size: 100 }, []);
    expect(JSON.stringify(page.page)).toBe(JSON.stringify(ordered.slice(0, 100)));
  });
});

describe('a forked log shares its columns until either changes (copy on write)', () => {
  const ids = (log: EventLog) => [...log.values()].map((e) => e.id);
  const searchIds = async (log: EventLog, needle?: string) =>
    (await log.search(needle ? { needle } : {}, { size: 50 }, [])).page.map((e) => e.id);

  it('keeps an insert or a removal in either log out of the other', async () => {
    const original = new EventLog(events(30));
    const fork = original.fork();
    const other = original.fork();
    expect(ids(fork)).toEqual(ids(original));

    fork.insert(event(900, T0 + 3_600_000, 'aws_lambda_function'));
    expect(fork.size).toBe(31);
    expect(original.size).toBe(30);
    expect(other.size).toBe(30);
    expect(await searchIds(fork, 'lambda')).toHaveLength(1);
    expect(await searchIds(original, 'lambda')).toEqual([]);
    expect(await searchIds(other, 'lambda')).toEqual([]);

    const first = original.oldest()?.id;
    expect(original.deleteOldest()?.id).toBe(first);
    expect(original.size).toBe(29);
    expect(original.oldest()?.id).not.toBe(first);
    expect(fork.oldest()?.id).toBe(first);
    expect(other.oldest()?.id).toBe(first);
    expect(await searchIds(other)).toEqual(await searchIds(new EventLog(events(30))));
  });

  it('forks a seeded (columnar) log, whose events are made from the columns', async () => {
    const { events: logs } = generateLazyState({ seed: 3, sizes: { workspaces: 6, events: 40 } });
    const seeded = logs[0] as EventLog;
    const before = ids(seeded);
    const fork = seeded.fork();
    fork.insert(event(901, T0, 'aws_sqs_queue'));
    for (let i = 0; i < 5; i++) fork.deleteOldest();
    expect(ids(seeded)).toEqual(before);
    expect(fork.size).toBe(before.length - 4);
    expect(await searchIds(seeded, 'aws_sqs_queue')).toEqual([]);
  });
});
