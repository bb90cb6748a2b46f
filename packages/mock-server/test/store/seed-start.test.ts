/**
 * What the start of a large seed is made of, kept exact while it was made cheaper (issue 25): the
 * seeded event log's order made without a sort, the radix sort of event times, the timestamp text,
 * the random stream's saved state, and free text over attribute lists worked out on first search.
 * (The seeded data itself is pinned byte for byte by `test/seed-hashes.test.ts`.)
 */
import type { EventAttribute } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { EventColumns, SEED_HEADROOM } from '../../src/store/event-columns.js';
import { EventLog } from '../../src/store/event-log.js';
import { Random } from '../../src/store/random.js';
import { sortUint32 } from '../../src/store/seed/events.js';
import { iso } from '../../src/store/seed/helpers.js';
import { generateLazyState, generateState } from '../../src/store/seed.js';
import { inAnswerOrder } from '../helpers.js';

const T0 = Date.parse('2025-12-31T00:00:00.000Z');

/** A log of `n` events added through the seed's sink, with the given times (ids from `i`). */
function seededLog(times: readonly number[]): EventLog {
  const log = new EventLog();
  const sink = log.seeder(times.length);
  const codes = new Int32Array(7);
  codes[0] = sink.code('account', 'acc');
  codes[1] = sink.code('integrationId', 'int-1');
  codes[2] = sink.code('eventType', 'mutation');
  codes[3] = sink.code('providerType', 'aws');
  codes[5] = sink.code('assetType', 'aws_s3_bucket');
  codes[6] = sink.code('mutationType', 'update');
  const lists = [
    sink.list(Object.freeze([Object.freeze({ key: 'actor', value: 'Dana@Example.com' })])),
    sink.list(Object.freeze([Object.freeze({ key: 'field', value: 'tags' })])),
  ];
  const words = new Uint32Array(6);
  times.forEach((time, i) => {
    // Ids whose order differs from the insertion order: (i * 7) % n, so ties need the ids.
    words[0] = (i * 7) % times.length;
    words[3] = i;
    codes[4] = sink.code('assetId', `bucket-${i % 3}`);
    sink.add(words, codes, time, lists[i % 2] as number);
  });
  log.seal();
  return log;
}

describe('a seeded event log’s order', () => {
  // Newest first with runs of equal times (ties are ordered by id ascending in the answer).
  const newestFirst = Array.from({ length: 200 }, (_, i) => T0 - Math.floor(i / 4) * 1000);

  it('is the order a log of the same events as objects gets by sorting, ties in time included', async () => {
    const seeded = seededLog(newestFirst);
    const objects = new EventLog([...seeded.values()]);
    const a = await seeded.search({}, { size: 200 }, []);
    const b = await objects.search({}, { size: 200 }, []);
    expect(a.page.map((e) => e.id)).toEqual(b.page.map((e) => e.id));
    // The answer's order: newest first, ties by id ascending.
    const expected = inAnswerOrder([...seeded.values()]);
    expect(a.page.map((e) => e.id)).toEqual(expected.map((e) => e.id));
  });

  it('is the same when the events did not come newest first (the log sorts them)', async () => {
    const shuffled = newestFirst.map((_, i) => newestFirst[(i * 37) % newestFirst.length] as number);
    const seeded = seededLog(shuffled);
    const objects = new EventLog([...seeded.values()]);
    const a = await seeded.search({}, { size: 200 }, []);
    const b = await objects.search({}, { size: 200 }, []);
    expect(a.page.map((e) => e.id)).toEqual(b.page.map((e) => e.id));
    const window = await seeded.search({ start: T0 - 5000, end: T0 - 2000 }, { size: 200 }, []);
    expect(window.page).toHaveLength(16);
  });

  it('finds free text in attribute lists coded while seeding, also after a compaction', async () => {
    const log = seededLog(newestFirst);
    const hits = await log.search({ needle: 'dana@example' }, { size: 200 }, []);
    expect(hits.page).toHaveLength(100);
    expect(
      hits.page.every((e) => (e.event.attributes as EventAttribute[])[0]?.value === 'Dana@Example.com'),
    ).toBe(true);
    for (let i = 0; i < 150; i++) log.deleteOldest();
    const later = await log.search({ needle: 'tags' }, { size: 200 }, []);
    expect(later.page).toHaveLength(25);
  });
});

describe('sortUint32', () => {
  it('sorts as a comparison sort does, over the whole 32-bit range and with repeats', () => {
    const rng = new Random('sort');
    for (const n of [0, 1, 2, 17, 5000]) {
      const values = new Uint32Array(n);
      for (let i = 0; i < n; i++) values[i] = i % 5 === 0 ? 0xffffffff : Math.floor(rng.next() * 2 ** 32);
      if (n > 2) values[1] = 0;
      const expected = Array.from(values).sort((a, b) => a - b);
      sortUint32(values);
      expect(Array.from(values)).toEqual(expected);
    }
  });
});

describe('iso', () => {
  it('writes exactly what Date#toISOString writes', () => {
    const rng = new Random('iso');
    const samples = [0, 1, 999, 1000, 59_999, 86_399_999, 86_400_000, Date.parse('2024-02-29T23:59:59.999Z')];
    for (let i = 0; i < 2000; i++) samples.push(Math.floor(rng.next() * 4_102_444_800_000) + rng.next());
    for (const value of samples) expect(iso(value)).toBe(new Date(Math.trunc(value)).toISOString());
  });
});

describe('Random', () => {
  it('continues where a saved state stood, from state() or saveState()', () => {
    const rng = new Random('state');
    for (let i = 0; i < 5; i++) rng.next();
    const saved = new Int32Array(4);
    rng.saveState(saved, 0);
    const fromWords = Random.fromState(Array.from(saved, (w) => w >>> 0) as [number, number, number, number]);
    const fromState = Random.fromState(rng.state());
    const next = Array.from({ length: 8 }, () => rng.next());
    expect(Array.from({ length: 8 }, () => fromWords.next())).toEqual(next);
    expect(Array.from({ length: 8 }, () => fromState.next())).toEqual(next);
  });

  it('draws the sequence it always drew (sfc32)', () => {
    const rng = new Random(1);
    expect(Array.from({ length: 4 }, () => Math.floor(rng.next() * 2 ** 32))).toEqual(PINNED_DRAWS);
  });
});

describe('a lazily stored seed', () => {
  it('gives the events and runs the whole generator gives, at a size with many runs and events', async () => {
    const sizes = { workspaces: 300, events: 20_000, accounts: 1 };
    const eager = generateState({ seed: 'start', sizes }).accounts[0];
    const lazy = generateLazyState({ seed: 'start', sizes });
    const log = lazy.events[0] as EventLog;
    expect(JSON.stringify([...log.values()])).toBe(JSON.stringify(eager?.events));
    const source = lazy.runs[0];
    const runs = source ? source.workspaceIds.flatMap((_, i) => source.replay(i)) : [];
    expect(JSON.stringify(runs)).toBe(JSON.stringify(eager?.runs));
  });
});

/** The first four draws of `new Random(1)`, as 32-bit words (taken before the generator changed). */
const PINNED_DRAWS = [3677170491, 3139100382, 503688047, 2932965291];

describe('a seeded event log’s room for later events', () => {
  it('keeps a sixteenth more (at least 1,024): the writes after a seed do not copy every column', () => {
    const columns = new EventColumns();
    const n = 32_768;
    const sink = columns.sink(n);
    const codes = new Int32Array(7);
    codes[0] = sink.code('account', 'acc');
    codes[2] = sink.code('eventType', 'mutation');
    const list = sink.list(Object.freeze([Object.freeze({ key: 'field', value: 'tags' })]));
    const words = new Uint32Array(6);
    for (let i = 0; i < n; i++) {
      words[3] = i;
      sink.add(words, codes, T0 - i * 1000, list);
    }
    const seededTimes = columns.times;
    const first = columns.event(0);
    const room = Math.ceil(n * SEED_HEADROOM);
    expect(room).toBe(2048);
    for (let i = 0; i < room; i++) columns.append({ ...first, id: `later-${i}` });
    // The same backing arrays: nothing was copied for the later events.
    expect(columns.times).toBe(seededTimes);
    columns.append({ ...first, id: 'one-more' });
    expect(columns.times).not.toBe(seededTimes);
    expect(columns.slots).toBe(n + room + 1);
  });
});
