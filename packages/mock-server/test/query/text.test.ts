import type { Event } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { CHANGE_LOG_LENGTH, Collection } from '../../src/query/collection.js';
import {
  EVENT_TEXT_FIELDS,
  isInternalId,
  searchNeedle,
  TEXT_CHUNK_CHARS,
  TextIndex,
  textPredicate,
} from '../../src/query/text.js';
import { EventLog } from '../../src/store/event-log.js';

/**
 * A text source over `values()` that remembers no changes (each new version reads everything again),
 * as a collection does once its change log has moved on.
 */
function sourceOf<R extends { id: string | number }>(values: () => R[], version = 1) {
  return {
    version,
    values,
    get: (id: string) => values().find((r) => String(r.id) === id),
    changedSince: () => undefined,
  };
}

describe('free-text search', () => {
  it('trims the text, treats a blank one as no filter, and lower-cases with toLowerCase()', () => {
    expect(searchNeedle('  Prod\t\n')).toBe('prod');
    expect(searchNeedle('\u00a0\u2003Prod\u3000')).toBe('prod');
    for (const blank of ['', '   ', '\t\n', '\u00a0', undefined, null])
      expect(searchNeedle(blank)).toBeUndefined();
    expect(textPredicate('   ', (s: string) => [s])).toBeUndefined();
  });

  it('matches a case-insensitive substring of any field, without locale rules or normalisation', () => {
    const match = textPredicate('  NET ', (r: { a: string; b?: string }) => [r.a, r.b]);
    expect(match?.({ a: 'core-network' })).toBe(true);
    expect(match?.({ a: 'x', b: 'Subnets' })).toBe(true);
    expect(match?.({ a: 'n-e-t' })).toBe(false);
    // toLowerCase() maps the Turkish dotted capital I to "i" + combining dot, whatever the locale.
    expect(textPredicate('i', (s: string) => [s])?.('İstanbul')).toBe(true);
    // No normalisation: a precomposed é does not match e + combining acute accent.
    expect(textPredicate('\u00e9', (s: string) => [s])?.('cafe\u0301')).toBe(false);
    // Pattern characters are literal.
    expect(textPredicate('a*', (s: string) => [s])?.('abc')).toBe(false);
  });

  it('knows internal ids: 24-hex object ids and UUIDs, either case', () => {
    expect(isInternalId('68fcd19666b53eb2c86d6919')).toBe(true);
    expect(isInternalId('68FCD19666B53EB2C86D6919')).toBe(true);
    expect(isInternalId('729779f2-43f0-4e62-ba56-8342c86d69ba')).toBe(true);
    for (const text of [
      '10600300926',
      'arn:aws:s3:::acme-logs',
      'int-aws-prod-1',
      '68fcd19666b53eb2c86d691',
    ]) {
      expect(isInternalId(text), text).toBe(false);
    }
  });

  it('knows an internal id only as the whole text: an id inside longer text is not one (free text searches it)', () => {
    const hex = '68fcd19666b53eb2c86d6919';
    const uuid = '729779f2-43f0-4e62-ba56-8342c86d69ba';
    for (const id of [hex, uuid]) {
      for (const text of [
        `x${id}`,
        `${id}x`,
        ` ${id}`,
        `${id} `,
        `${id}\n`,
        `\n${id}`,
        `see ${id} here`,
        `${id}${id}`,
      ])
        expect(isInternalId(text), JSON.stringify(text)).toBe(false);
    }
    // One hex digit more or less around a 24-hex id, or a UUID with a longer group, is not an id either.
    expect(isInternalId(`${hex}0`)).toBe(false);
    expect(isInternalId(`0${hex}`)).toBe(false);
    expect(isInternalId(`${uuid}0`)).toBe(false);
    expect(isInternalId(`0${uuid}`)).toBe(false);
  });

  it('searches an event value that merely holds an internal id, before or after other text', async () => {
    const hex = '68fcd19666b53eb2c86d6919';
    const uuid = '729779f2-43f0-4e62-ba56-8342c86d69ba';
    const values = [`rule-${hex}`, `${hex}-copy`, `stack ${uuid}`, `${uuid}/main`, `${hex}0`];
    const events: Event[] = values.map((value, i) => ({
      id: `00000000-0000-4000-8000-00000000000${i}`,
      account_id: 'a',
      integration_id: 'int-aws-prod-1',
      event_timestamp: '2026-01-01T00:00:00.000Z',
      event_type: 'guardrails_violation',
      provider_type: 'aws',
      asset_id: `asset-${i}`,
      asset_type: 'iacm_workspace',
      event: { mutation_id: 'm', mutation_type: 'update', attributes: [{ key: 'note', value }] },
    }));
    const log = new EventLog(events);
    const found = async (text: string) =>
      (await log.search({ needle: searchNeedle(text) }, { size: 10 }, [])).page.map((e) => e.asset_id);
    expect(await found(hex)).toEqual(['asset-0', 'asset-1', 'asset-4']);
    expect(await found(uuid)).toEqual(['asset-2', 'asset-3']);
    expect(await found('rule-')).toEqual(['asset-0']);
    expect(await found('-copy')).toEqual(['asset-1']);
    expect(await found('/main')).toEqual(['asset-3']);
  });

  it('never searches an event value that is an internal id', async () => {
    const event: Event = {
      id: '00000000-0000-4000-8000-000000000000',
      account_id: 'a',
      integration_id: 'int-aws-prod-1',
      event_timestamp: '2026-01-01T00:00:00.000Z',
      event_type: 'guardrails_violation',
      provider_type: 'aws',
      asset_id: '68fcd19666b53eb2c86d6919',
      asset_type: 'iacm_workspace',
      event: {
        mutation_id: 'm',
        mutation_type: 'update',
        attributes: [
          { key: 'ruleId', value: '68debceb2f9b18c9c86d6913' },
          { key: 'stackId', value: '729779f2-43f0-4e62-ba56-8342c86d69ba' },
          { key: 'ruleName', value: 'No public buckets' },
          { key: 'runId', value: '869' },
        ],
      },
    };
    const log = new EventLog([event]);
    const finds = async (text: string) =>
      (await log.search({ needle: searchNeedle(text) }, { size: 10 }, [])).page.length === 1;
    for (const text of ['guardrails_violation', 'IACM_WORKSPACE', 'public bucket', '869']) {
      expect(await finds(text), text).toBe(true);
    }
    // Parts of the asset id, the rule id and the stack id (internal ids), and the integration and
    // provider (not searched fields) never match.
    for (const text of ['68fcd196', 'c9c86d6913', '729779f2', '8342c86d69ba', 'int-aws', 'aws']) {
      expect(await finds(text), text).toBe(false);
    }
    expect(EVENT_TEXT_FIELDS).toEqual(['eventType', 'assetType', 'assetId']);
  });

  it('matches through a text index exactly as without, reading the records again only after a change', () => {
    type R = { id: string; a: string; b: string | null };
    const fields = (r: R) => [r.a, r.b];
    let reads = 0;
    const counted = (r: R) => {
      reads++;
      return fields(r);
    };
    let records: R[] = [
      { id: '1', a: 'Core-NET', b: 'Σίσυφος' },
      { id: '2', a: 'xa', b: 'by' },
      { id: '3', a: 'İstanbul', b: null },
      { id: '4', a: 'net-net-net', b: 'NET' },
      { id: '5', a: '', b: '' },
    ];
    const source = sourceOf(() => records);
    const index = new TextIndex(source, counted);
    const texts = ['net', 'xa', 'ς', 'σί', 'i', 'by', 'zz', ' CORE ', 'a\u0000b', 'yİ', 'bul'];
    for (const text of texts) {
      const plain = textPredicate(text, fields);
      const indexed = index.predicate(text);
      for (const record of records) expect(indexed?.(record), `${text} in ${record.a}`).toBe(plain?.(record));
    }
    // Each record was read once to build the index, and once more for the one search holding U+0000
    // (compared text by text).
    expect(reads).toBe(2 * records.length);
    // Across two texts, or two records, never matches (both are joined with U+0000).
    expect(index.predicate('a\u0000b')?.(records[1] as R)).toBe(false);
    expect(index.predicate('bynet')?.(records[1] as R)).toBe(false);
    expect(index.predicate('y\u0000i')?.(records[1] as R)).toBe(false);
    expect(index.predicate('   ')).toBeUndefined();
    // A new version is read again; the same version is not.
    reads = 0;
    records = [{ id: '6', a: 'Fresh', b: null }];
    index.predicate('fresh');
    expect(reads).toBe(0);
    source.version = 2;
    expect(index.predicate('fresh')?.(records[0] as R)).toBe(true);
    expect(reads).toBe(1);
  });

  it('keeps the text in strings of at most `chunkChars` characters, separators included; a longer record alone', () => {
    type R = { id: string; texts: Array<string | null> };
    const records: R[] = [
      { id: 'a', texts: ['aaa'] }, // 3 characters and a separator: 4
      { id: 'b', texts: ['bb'] }, // 3: the first string is full at 7
      { id: 'c', texts: ['c'] }, // 2: a new string
      { id: 'd', texts: ['dddd', null, 'DDD'] }, // 9 (two texts and their separator): longer than 7, alone
      { id: 'e', texts: ['eeeee'] }, // 6
    ];
    const source = sourceOf(() => records);
    const index = new TextIndex(source, (r: R) => r.texts, 7);
    expect(index.chunkLengths()).toEqual([7, 2, 9, 6]);
    // Each record is found once, in its own string, whichever string it is in, at its very start too.
    const found = (text: string) => records.filter((r) => index.predicate(text)?.(r)).map((r) => r.id);
    expect(found('aaa')).toEqual(['a']);
    expect(found('bb')).toEqual(['b']);
    expect(found('b')).toEqual(['b']);
    expect(found('c')).toEqual(['c']);
    expect(found('dddd')).toEqual(['d']);
    expect(found('ddd')).toEqual(['d']);
    expect(found('e')).toEqual(['e']);
    expect(found('a')).toEqual(['a']);
    expect(found('zz')).toEqual([]);
    // A first record longer than the most starts the first string; the strings follow the records' order.
    const long = new TextIndex(
      sourceOf(() => [records[3] as R, records[0] as R]),
      (r: R) => r.texts,
      7,
    );
    expect(long.chunkLengths()).toEqual([9, 4]);
    const one = new TextIndex(
      sourceOf(() => records.slice(0, 2)),
      (r: R) => r.texts,
      7,
    );
    expect(one.chunkLengths()).toEqual([7]);
    // Every record in one string when they fit; none: one empty string.
    expect(new TextIndex(source, (r: R) => r.texts).chunkLengths()).toEqual([24]);
    expect(
      new TextIndex(
        sourceOf((): R[] => []),
        (r: R) => r.texts,
      ).chunkLengths(),
    ).toEqual([0]);
  });

  it('makes the strings again only when the version changes, a version of NaN included', () => {
    let records = [{ id: 'a', t: 'one' }];
    const source = sourceOf(() => records, Number.NaN);
    let reads = 0;
    const index = new TextIndex(source, (r: { id: string; t: string }) => {
      reads++;
      return [r.t];
    });
    expect(index.chunkLengths()).toEqual([4]);
    records = [{ id: 'a', t: 'three' }];
    // NaN is never the version the strings were made from: made again on every use.
    expect(index.chunkLengths()).toEqual([6]);
    expect(reads).toBe(2);
    source.version = 5;
    index.chunkLengths();
    records = [{ id: 'a', t: 'x' }];
    expect(index.chunkLengths()).toEqual([6]);
    expect(reads).toBe(3);
  });

  it('splits a large text into chunks and still finds each record once, at every boundary', () => {
    type R = { id: string; text: string };
    // 3,000 records of 6,000 characters: more than one 16 MiB chunk.
    const records: R[] = Array.from({ length: 3000 }, (_, id) => ({
      id: String(id),
      text: `${'x'.repeat(5990)}-${String(id).padStart(4, '0')}-`,
    }));
    const index = new TextIndex(
      sourceOf(() => records),
      (r: R) => [r.text],
    );
    for (const id of [0, 1, 2794, 2795, 2796, 2999]) {
      const predicate = index.predicate(`-${String(id).padStart(4, '0')}-`);
      expect(records.filter((r) => predicate?.(r)).map((r) => r.id)).toEqual([String(id)]);
    }
    const everyRecord = index.predicate('xx');
    expect(records.filter((r) => everyRecord?.(r)).length).toBe(3000);
  });

  it('keeps up with writes by making again only the strings of the records changed', () => {
    type W = { id: string; name: string; labels: string[] };
    const fields = (w: W) => [w.name, ...w.labels];
    const workspaces = new Collection<W>(
      { name: (w) => w.name },
      Array.from({ length: 1000 }, (_, i) => ({ id: `w${i}`, name: `ws-${i}`, labels: [] })),
    );
    let reads = 0;
    const index = new TextIndex(
      workspaces,
      (w: W) => {
        reads++;
        return fields(w);
      },
      TEXT_CHUNK_CHARS,
      100,
    );
    const found = (text: string) =>
      [...workspaces.values()].filter((w) => index.predicate(text)?.(w)).map((w) => w.id);
    expect(found('ws-999')).toEqual(['w999']);
    expect(index.chunkLengths()).toHaveLength(10);
    reads = 0;
    // An update, a delete, an insert (then one more, updated again before the next search).
    workspaces.update({ id: 'w5', name: 'renamed', labels: ['Payments'] });
    workspaces.delete('w6');
    workspaces.insert({ id: 'n1', name: 'brand-new', labels: [] });
    workspaces.insert({ id: 'n2', name: 'second', labels: [] });
    workspaces.update({ id: 'n2', name: 'second-again', labels: [] });
    expect(found('payments')).toEqual(['w5']);
    expect(found('ws-5')).toEqual(
      ['w50', 'w51', 'w52', 'w53', 'w54', 'w55', 'w56', 'w57', 'w58', 'w59', 'w500'].concat(
        Array.from({ length: 99 }, (_, i) => `w${501 + i}`),
      ),
    );
    expect(found('ws-6')).not.toContain('w6');
    expect(found('brand')).toEqual(['n1']);
    expect(found('second-again')).toEqual(['n2']);
    // Only the first chunk (w0 to w99, changed twice) and the new last one were read again, not all 1,000.
    expect(reads).toBeLessThanOrEqual(100 + 2);
    expect(index.wholeBuilds).toBe(1);
    // The same answers as a search record by record, for a range of texts.
    for (const text of ['ws-1', '-99', 'renamed', 'new', 'again', 'zz', 'ws-6']) {
      const plain = textPredicate(text, fields);
      expect(found(text), text).toEqual([...workspaces.values()].filter((w) => plain?.(w)).map((w) => w.id));
    }
  });

  it('is made again whole when the changes are more than the collection remembers', () => {
    const workspaces = new Collection<{ id: string; name: string }>({ name: (w) => w.name }, [
      { id: 'a', name: 'alpha' },
    ]);
    const index = new TextIndex(workspaces, (w) => [w.name]);
    const first = workspaces.get('a');
    expect(first && index.predicate('alpha')?.(first)).toBe(true);
    for (let i = 0; i <= CHANGE_LOG_LENGTH; i++) workspaces.update({ id: 'a', name: `alpha-${i}` });
    const now = workspaces.get('a');
    expect(now && index.predicate(`alpha-${CHANGE_LOG_LENGTH}`)?.(now)).toBe(true);
    expect(index.wholeBuilds).toBe(2);
  });
});
