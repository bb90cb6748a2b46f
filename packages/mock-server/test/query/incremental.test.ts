/**
 * The incremental paths of the query engine (issue 25): whatever they skip, they answer what the
 * plain path answers. A collection query given the matches of a search (`among`) answers what a walk
 * of the index answers; an update that keeps a record's sort values keeps its place; an index built
 * in chunks while the collection changes is caught up at its end (or built again when too much
 * changed); a text index patched after writes finds what a fresh one finds, reading only the records
 * that changed.
 */
import { describe, expect, it } from 'vitest';
import { BUILD_CHUNK, CHANGE_LOG_LENGTH, Collection } from '../../src/query/collection.js';
import { comparator } from '../../src/query/compare.js';
import { TEXT_CHUNK_CHARS, TextIndex, textPredicate } from '../../src/query/text.js';
import { Random } from '../../src/store/random.js';

type W = { id: string; ci: string | undefined; version: number; name: string; labels: string[] };
type Sort = Array<{ field: 'ci' | 'version' | 'name'; order: 1 | -1 }>;

/** Sort fields that count how often they are read. */
function countedFields() {
  const reads = { count: 0 };
  const counted =
    <V>(get: (w: W) => V) =>
    (w: W): V => {
      reads.count++;
      return get(w);
    };
  const fields = {
    ci: counted((w) => w.ci),
    version: counted((w) => w.version),
    name: counted((w) => w.name),
  };
  return { reads, fields };
}

function record(random: Random, id: string): W {
  return {
    id,
    ci: random.int(0, 4) === 0 ? undefined : `ci-${random.int(0, 3)}`,
    version: random.int(0, 5),
    name: `ws-${random.int(0, 999)}`,
    labels: random.int(0, 2) === 0 ? [] : [`team-${random.int(0, 9)}`],
  };
}

const PLAIN = {
  ci: (w: W) => w.ci,
  version: (w: W) => w.version,
  name: (w: W) => w.name,
};

/** The records sorted by the keys, then id (what every query must answer, before paging). */
function sorted(records: Iterable<W>, sort: Sort, filter: (w: W) => boolean = () => true): W[] {
  const compare = comparator(sort.map((k) => ({ get: PLAIN[k.field], order: k.order })));
  return [...records].filter(filter).sort(compare);
}

const ids = (records: readonly W[]) => records.map((w) => w.id);
const textOf = (w: W) => [w.name, ...w.labels];

describe('a query given the matches of a search (`among`)', () => {
  it('answers what the walk of the index answers, for any number of matches, filters and pages', () => {
    const random = new Random('among');
    const collection = new Collection<W>(
      PLAIN,
      Array.from({ length: 2000 }, (_, i) => record(random, `w${i}`)),
    );
    const sorts: Sort[] = [
      [{ field: 'name', order: 1 }],
      [
        { field: 'ci', order: 1 },
        { field: 'version', order: -1 },
        { field: 'name', order: 1 },
      ],
    ];
    const texts = new TextIndex(collection, textOf);
    // From no match to every record: ws-1234 (none), a name (a few), a team (a tenth), ws- (all).
    const searches = ['zz-nothing', 'ws-7', 'ws-12', 'team-3', 'team', 'ws-'];
    for (let round = 0; round < 3; round++) {
      for (const search of searches) {
        const among = texts.matches(search) as ReadonlySet<W>;
        for (const sort of sorts) {
          for (const [offset, limit] of [
            [0, 25],
            [10, 100],
            [1990, 100],
          ] as const) {
            const extra = (w: W) => w.version !== 2;
            const filter = (w: W) => among.has(w) && extra(w);
            const walked = collection.query({ sort, filter, offset, limit });
            const page = collection.query({ sort, filter, offset, limit, among });
            expect(ids(page), `${search} ${offset}`).toEqual(ids(walked));
            expect(ids(page)).toEqual(
              ids(sorted(collection.values(), sort, filter).slice(offset, offset + limit)),
            );
          }
        }
      }
      // Between rounds, writes (the matches are taken again after them).
      for (let i = 0; i < 50; i++) {
        collection.update({ ...record(random, `w${random.int(0, 1999)}`) });
      }
    }
  });

  it('leaves out a match that is no longer stored as it was', () => {
    const random = new Random('among-stale');
    const collection = new Collection<W>(
      PLAIN,
      Array.from({ length: 100 }, (_, i) => record(random, `w${i}`)),
    );
    const old = collection.get('w5') as W;
    const gone = collection.get('w6') as W;
    collection.update({ ...old, name: 'renamed' });
    collection.delete('w6');
    const among = new Set([old, gone]);
    expect(
      collection.query({
        sort: [{ field: 'name', order: 1 }],
        offset: 0,
        limit: 10,
        among,
        filter: (w) => among.has(w),
      }),
    ).toEqual([]);
  });
});

describe('an update that keeps the sort values', () => {
  it('keeps the record in its place, and the answers stay those of a full sort', () => {
    const random = new Random('same-values');
    const collection = new Collection<W>(
      PLAIN,
      Array.from({ length: 500 }, (_, i) => record(random, `w${i}`)),
    );
    const sort: Sort = [
      { field: 'ci', order: -1 },
      { field: 'version', order: 1 },
    ];
    collection.query({ sort, offset: 0, limit: 1 });
    for (let i = 0; i < 300; i++) {
      const id = `w${random.int(0, 499)}`;
      const now = collection.get(id) as W;
      // A label change (no sort key moves), and now and then a change of a sort value.
      collection.update(
        i % 5 === 0 ? { ...now, version: random.int(0, 5) } : { ...now, labels: [`label-${i}`] },
      );
    }
    const page = collection.query({ sort, offset: 0, limit: 500 });
    // The same records as stored (the new versions, labels included), in the order of a full sort.
    expect(page).toEqual(sorted(collection.values(), sort));
    for (const w of page) expect(w).toBe(collection.get(w.id));
  });
});

describe('an index built in chunks while the collection changes', () => {
  const sort: Sort = [
    { field: 'ci', order: 1 },
    { field: 'version', order: -1 },
  ];
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('is caught up at the end, without reading every record again', async () => {
    const random = new Random('catch-up');
    const { reads, fields } = countedFields();
    const size = 2 * BUILD_CHUNK + 5;
    const collection = new Collection<W>(
      fields,
      Array.from({ length: size }, (_, i) => record(random, `w${i}`)),
    );
    const building = collection.prepare(sort);
    for (let i = 0; i < 30; i++) {
      await turn();
      collection.insert(record(random, `late${i}`));
      collection.delete(`w${i}`);
      collection.update({ ...(collection.get(`w${100 + i}`) as W), version: random.int(0, 5) });
      collection.update({ ...(collection.get(`w${200 + i}`) as W), labels: ['x'] });
      // Inserted, then changed again, then deleted: in the end, not there.
      collection.insert(record(random, `brief${i}`));
      collection.update({ ...(collection.get(`brief${i}`) as W), version: 9 });
      collection.delete(`brief${i}`);
    }
    await building;
    // The index is there: the query reads no record's values (a build would read them all).
    reads.count = 0;
    const page = collection.query({ sort, offset: 0, limit: size + 100 });
    expect(reads.count).toBe(0);
    expect(ids(page)).toEqual(ids(sorted(collection.values(), sort)));
    for (const w of page) expect(w).toBe(collection.get(w.id));
  });

  it(`is built again when more than ${CHANGE_LOG_LENGTH} records changed meanwhile`, async () => {
    const random = new Random('catch-up-overflow');
    const { reads, fields } = countedFields();
    const size = 2 * BUILD_CHUNK;
    const collection = new Collection<W>(
      fields,
      Array.from({ length: size }, (_, i) => record(random, `w${i}`)),
    );
    const building = collection.prepare(sort);
    await turn();
    for (let i = 0; i < CHANGE_LOG_LENGTH + 50; i++) {
      collection.update({
        ...(collection.get(`w${i}`) as W),
        version: (collection.get(`w${i}`) as W).version + 1,
      });
    }
    reads.count = 0;
    await building;
    // The second build read every record's two values once more.
    expect(reads.count).toBeGreaterThanOrEqual(2 * size);
    reads.count = 0;
    const page = collection.query({ sort, offset: 0, limit: size });
    expect(reads.count).toBe(0);
    expect(ids(page)).toEqual(ids(sorted(collection.values(), sort)));
  });
});

describe('a text index after writes', () => {
  it('finds what a fresh index finds, reading again only the records changed', () => {
    const random = new Random('text-writes');
    const collection = new Collection<W>(
      PLAIN,
      Array.from({ length: 3000 }, (_, i) => record(random, `w${i}`)),
    );
    let reads = 0;
    const patched = new TextIndex(
      collection,
      (w: W) => {
        reads++;
        return textOf(w);
      },
      TEXT_CHUNK_CHARS,
      256,
    );
    const searches = ['ws-1', 'team-4', 'renamed', 'label', 'new-', 'zz'];
    for (const search of searches) patched.matches(search);
    let next = 0;
    for (let round = 0; round < 20; round++) {
      reads = 0;
      const changed = new Set<string>();
      for (let i = 0; i < 1 + random.int(0, 40); i++) {
        const all = [...collection.values()];
        const target = all[random.int(0, all.length - 1)] as W;
        const kind = random.int(0, 3);
        if (kind === 0) collection.update({ ...target, labels: [...target.labels, `label-${round}`] });
        else if (kind === 1) collection.update({ ...target, name: `renamed-${round}-${i}` });
        else if (kind === 2) collection.delete(target.id);
        else collection.insert({ ...record(random, `new-${next}`), name: `new-${next++}` });
        changed.add(kind === 3 ? `new-${next - 1}` : target.id);
      }
      for (const search of searches) {
        const fresh = new TextIndex(collection, textOf).matches(search);
        const found = patched.matches(search) as ReadonlySet<W>;
        const plain = textPredicate(search, textOf) as (w: W) => boolean;
        expect(ids([...found].sort((a, b) => (a.id < b.id ? -1 : 1))), search).toEqual(
          ids([...(fresh as ReadonlySet<W>)].sort((a, b) => (a.id < b.id ? -1 : 1))),
        );
        expect(found.size).toBe([...collection.values()].filter(plain).length);
      }
      // Only the changed records' texts were read again (deleted ones not at all), not their chunks'.
      const stillThere = [...changed].filter((id) => collection.get(id) !== undefined).length;
      expect(reads).toBe(stillThere);
    }
    expect(patched.wholeBuilds).toBe(1);
  });
});
