/**
 * A collection's sorted indexes: a query by several keys answers exactly what sorting the records
 * would, after any mix of inserts, updates and deletes; at most MAX_COMPOSITE_INDEXES indexes of
 * several keys are kept, and a sort whose index was dropped still answers right; the change log
 * tells which records changed, or that it no longer remembers.
 */
import { describe, expect, it } from 'vitest';
import {
  BUILD_CHUNK,
  CHANGE_LOG_LENGTH,
  Collection,
  MAX_COMPOSITE_INDEXES,
} from '../../src/query/collection.js';
import { comparator } from '../../src/query/compare.js';
import { SEARCH_FIELDS, TextIndex, textPredicate } from '../../src/query/text.js';
import { Random } from '../../src/store/random.js';
import { countTurns } from '../helpers.js';

type W = { id: string; ci: string | undefined; version: number; repo: string };
const FIELDS = { ci: (w: W) => w.ci, version: (w: W) => w.version, repo: (w: W) => w.repo } as const;
type Field = keyof typeof FIELDS;

function record(random: Random, id: string): W {
  return {
    id,
    ci: random.int(0, 4) === 0 ? undefined : `ci-${random.int(0, 3)}`,
    version: random.int(0, 5),
    repo: `repo-${random.int(0, 9)}`,
  };
}

/** What a query must answer: the records sorted by the keys, then id, filtered, paged. */
function expected(
  records: Iterable<W>,
  sort: Array<{ field: Field; order: 1 | -1 }>,
  filter: (w: W) => boolean,
) {
  const compare = comparator(sort.map((k) => ({ get: FIELDS[k.field], order: k.order })));
  return [...records].filter(filter).sort(compare);
}

describe('a collection sorted by several keys', () => {
  it('answers as a full sort would, through inserts, updates and deletes', () => {
    const random = new Random('collection-test');
    const collection = new Collection<W>(
      FIELDS,
      Array.from({ length: 300 }, (_, i) => record(random, `w${String(i).padStart(4, '0')}`)),
    );
    const sorts: Array<Array<{ field: Field; order: 1 | -1 }>> = [
      [
        { field: 'ci', order: 1 },
        { field: 'version', order: -1 },
        { field: 'repo', order: 1 },
      ],
      [
        { field: 'repo', order: -1 },
        { field: 'ci', order: -1 },
      ],
      [{ field: 'version', order: 1 }],
    ];
    const filter = (w: W) => w.repo !== 'repo-3';
    let next = 300;
    for (let round = 0; round < 40; round++) {
      for (const sort of sorts) {
        const want = expected(collection.values(), sort, filter);
        const offset = random.int(0, 20);
        const page = collection.query({ sort, filter, offset, limit: 25 });
        expect(page.map((w) => w.id)).toEqual(want.slice(offset, offset + 25).map((w) => w.id));
      }
      // A few changes of every kind between the queries.
      const ids = [...collection.values()].map((w) => w.id);
      collection.update({ ...record(random, ids[random.int(0, ids.length - 1)] as string) });
      collection.delete(ids[random.int(0, ids.length - 1)] as string);
      collection.insert(record(random, `n${next++}`));
      collection.insert(record(random, ids[random.int(0, ids.length - 1)] as string));
    }
  });

  it(`keeps at most ${MAX_COMPOSITE_INDEXES} indexes of several keys, and still answers a sort whose index was dropped`, () => {
    const random = new Random('collection-lru');
    const collection = new Collection<W>(
      FIELDS,
      Array.from({ length: 50 }, (_, i) => record(random, `w${i}`)),
    );
    const fields: Field[] = ['ci', 'version', 'repo'];
    const sorts: Array<Array<{ field: Field; order: 1 | -1 }>> = [];
    for (const a of fields)
      for (const b of fields)
        for (const orderA of [1, -1] as const)
          for (const orderB of [1, -1] as const)
            if (a !== b)
              sorts.push([
                { field: a, order: orderA },
                { field: b, order: orderB },
              ]);
    expect(sorts.length).toBeGreaterThan(MAX_COMPOSITE_INDEXES);
    for (let pass = 0; pass < 2; pass++) {
      for (const sort of sorts) {
        const page = collection.query({ sort, offset: 0, limit: 100 });
        expect(page.map((w) => w.id)).toEqual(
          expected(collection.values(), sort, () => true).map((w) => w.id),
        );
      }
      collection.insert(record(random, `p${pass}`));
    }
  });
});

describe('the change log', () => {
  it('tells the ids changed since a version, and undefined once it no longer reaches back', () => {
    const collection = new Collection<W>(FIELDS, []);
    const random = new Random('change-log');
    collection.insert(record(random, 'a'));
    const v1 = collection.version;
    collection.insert(record(random, 'b'));
    collection.update(record(random, 'a'));
    collection.delete('b');
    expect(collection.changedSince(v1)).toEqual(['b', 'a', 'b']);
    expect(collection.changedSince(collection.version)).toEqual([]);
    for (let i = 0; i < CHANGE_LOG_LENGTH; i++) collection.update(record(random, 'a'));
    expect(collection.changedSince(v1)).toBeUndefined();
    expect(collection.changedSince(collection.version - 1)).toEqual(['a']);
    expect(collection.changedSince(collection.version + 1)).toBeUndefined();
  });
});

describe('indexes of many records are built in chunks', () => {
  const sort = [
    { field: 'ci' as const, order: 1 as const },
    { field: 'version' as const, order: -1 as const },
  ];
  const many = (seed: string, count: number) => {
    const random = new Random(seed);
    return new Collection<W>(
      FIELDS,
      Array.from({ length: count }, (_, i) => record(random, `w${i}`)),
    );
  };

  it('gives the event loop turns while it builds, and the query then answers from the index', async () => {
    const collection = many('chunks', 3 * BUILD_CHUNK + 17);
    const counter = countTurns();
    await collection.prepare(sort);
    const turns = counter.stop();
    expect(turns).toBeGreaterThan(3);
    const page = collection.query({ sort, offset: 1000, limit: 50 });
    expect(page.map((w) => w.id)).toEqual(
      expected(collection.values(), sort, () => true)
        .slice(1000, 1050)
        .map((w) => w.id),
    );
  });

  it('answers right when the collection changes during the build', async () => {
    const collection = many('changes', 2 * BUILD_CHUNK + 5);
    const random = new Random('changes-during');
    const building = collection.prepare(sort);
    // Changes while the build gives turns.
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      collection.insert(record(random, `late${i}`));
      collection.delete(`w${i}`);
    }
    await building;
    const page = collection.query({ sort, offset: 0, limit: 100 });
    expect(page.map((w) => w.id)).toEqual(
      expected(collection.values(), sort, () => true)
        .slice(0, 100)
        .map((w) => w.id),
    );
  });

  it('stops with the signal’s reason when the client has gone', async () => {
    const collection = many('abort', 2 * BUILD_CHUNK);
    const controller = new AbortController();
    const building = collection.prepare(sort, controller.signal);
    controller.abort(new Error('client gone'));
    await expect(building).rejects.toThrow('client gone');
  });

  it('makes a text index whole in chunks too, patched for what changed meanwhile', async () => {
    type N = { id: string; workspaceName: string; repo: string; labels: string[] };
    const texts = new Collection<N>(
      { name: (w: N) => w.workspaceName },
      Array.from({ length: 20_000 }, (_, i) => ({
        id: `w${i}`,
        workspaceName: `ws-${i}`,
        repo: 'acme/r',
        labels: [],
      })),
    );
    const fields = (w: N) => SEARCH_FIELDS.workspaces(w as never);
    const index = new TextIndex(texts, fields);
    const counter = countTurns();
    const preparing = index.prepare();
    await new Promise((resolve) => setImmediate(resolve));
    texts.update({ id: 'w3', workspaceName: 'changed-while-building', repo: 'acme/r', labels: [] });
    await preparing;
    const turns = counter.stop();
    expect(turns).toBeGreaterThan(1);
    for (const text of ['changed-while', 'ws-3', 'ws-19999']) {
      const plain = textPredicate(text, fields);
      const indexed = index.predicate(text);
      const found = [...texts.values()].filter((w) => indexed?.(w)).map((w) => w.id);
      expect(found, text).toEqual([...texts.values()].filter((w) => plain?.(w)).map((w) => w.id));
    }
    expect(index.wholeBuilds).toBe(1);
  });
});
