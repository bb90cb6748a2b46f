import { describe, expect, it } from 'vitest';
import type { MockRequest, MockResponse } from '../../src/http/message.js';
import {
  DEFAULT_JOURNAL_BODY_BYTES,
  DEFAULT_JOURNAL_LIMIT,
  DEFAULT_JOURNAL_MAX_BYTES,
  entryBytes,
  JOURNAL_BYTES_PER_CHAR,
  JOURNAL_ENTRY_OVERHEAD_BYTES,
  JOURNAL_STRING_OVERHEAD_BYTES,
  Journal,
  type JournalBody,
  NOT_JSON,
  NOT_KEPT,
  NOT_READ,
  tooLargeToKeep,
} from '../../src/pipeline/journal.js';
import { record } from '../helpers.js';

const ok: MockResponse = { status: 200, headers: {}, body: undefined };

/** Records one request with `body`, answered `response` (200), and returns the journal's entry for it. */
function recordOne(
  journal: Journal,
  body: JournalBody | (() => unknown),
  response: MockResponse = ok,
  request?: MockRequest,
) {
  record(journal, request ?? { method: 'POST', path: '/p' }, response, journal.nextRequestId(), 0, 0, body);
  return journal.list(1)[0];
}

/** The bytes one entry with this body takes in a journal (measured in a journal of its own). */
function bytesOf(body: JournalBody | (() => unknown), request?: MockRequest): number {
  const journal = new Journal();
  recordOne(journal, body, ok, request);
  return journal.bytes;
}

describe('journal stage', () => {
  it('keeps the last `limit` requests, oldest first, and counts request ids', () => {
    const journal = new Journal(2);
    for (let i = 0; i < 3; i++) {
      const id = journal.nextRequestId();
      record(journal, { method: 'get', path: `/p${i}` }, ok, id, 0, 5, () => undefined);
    }
    expect(journal.list().map((e) => [e.id, e.path, e.method, e.durationMs])).toEqual([
      ['req_0000000002', '/p1', 'GET', 5],
      ['req_0000000003', '/p2', 'GET', 5],
    ]);
    expect(journal.list(1).map((e) => e.path)).toEqual(['/p2']);
    expect(journal.list(0)).toEqual([]);
    // More than it keeps: what it keeps, never a dropped one.
    expect(journal.list(5).map((e) => e.path)).toEqual(['/p1', '/p2']);
  });

  it('redacts credentials in headers, query and body', () => {
    const journal = new Journal(10);
    record(
      journal,
      {
        method: 'POST',
        path: '/v2/login',
        headers: { Authorization: 'Bearer abc', 'X-Other': ['a', 'b'], 'X-Gone': undefined },
        query: { access_token: 'abc', page: '1' },
      },
      ok,
      journal.nextRequestId(),
      0,
      0,
      () => ({ accessKey: 'ak', nested: { secretKey: 'sk' }, name: 'n' }),
    );
    const [entry] = journal.list();
    expect(entry?.headers).toEqual({ authorization: '[redacted]', 'x-other': 'a, b' });
    expect(entry?.query).toEqual({ access_token: '[redacted]', page: '1' });
    expect(entry?.body).toEqual({ accessKey: '[redacted]', nested: { secretKey: '[redacted]' }, name: 'n' });
  });

  it('reads headers given as a Headers object, and writes the entry in its documented shape', () => {
    const journal = new Journal(10);
    record(
      journal,
      {
        method: 'patch',
        path: '/v2/x',
        headers: new Headers({ 'X-Api-Key': 'k-secret', Accept: 'application/json' }),
        query: new URLSearchParams('__proto__=a&tag=1&tag=2'),
      },
      { status: 201, headers: {}, body: undefined },
      'req_x',
      Date.UTC(2026, 0, 2, 3, 4, 5, 6),
      Date.UTC(2026, 0, 2, 3, 4, 5, 6) + 42,
      () => ({ a: [1, 'two', null, true] }),
    );
    const [entry] = journal.list();
    expect(entry).toEqual({
      id: 'req_x',
      time: '2026-01-02T03:04:05.006Z',
      method: 'PATCH',
      path: '/v2/x',
      query: JSON.parse('{"__proto__":"a","tag":["1","2"]}'),
      headers: { accept: 'application/json', 'x-api-key': '[redacted]' },
      body: { a: [1, 'two', null, true] },
      status: 201,
      durationMs: 42,
    });
    expect(entry && 'dropped' in entry).toBe(false);
    // The query is a record without a prototype, as written: `__proto__` is just a parameter's name.
    expect(Object.getPrototypeOf(entry?.query)).toBeNull();
    expect(Object.entries(entry?.query ?? {})).toEqual([
      ['__proto__', 'a'],
      ['tag', ['1', '2']],
    ]);
  });

  it('writes a body that is not JSON as `[not JSON]` and a dropped connection as status 0', () => {
    const journal = new Journal(10);
    record(
      journal,
      { method: 'GET', path: '/' },
      { status: 200, headers: {}, body: undefined, drop: true },
      journal.nextRequestId(),
      10,
      5,
      () => {
        throw new Error('not JSON');
      },
    );
    expect(journal.list()[0]).toMatchObject({ body: '[not JSON]', status: 0, dropped: true, durationMs: 0 });
    expect(NOT_JSON).toBe('[not JSON]');
  });

  it('keeps nothing with a limit of 0; reset empties it and counts ids from 1 again', () => {
    for (const limit of [0, -1]) {
      const off = new Journal(limit);
      record(off, { method: 'GET', path: '/' }, ok, off.nextRequestId(), 0, 0, () => undefined);
      expect(off.enabled).toBe(false);
      expect(off.list()).toEqual([]);
      expect([off.size, off.bytes, off.slots]).toEqual([0, 0, 0]);
    }
    expect(new Journal(1).enabled).toBe(true);
    const journal = new Journal(5);
    record(journal, { method: 'GET', path: '/' }, ok, journal.nextRequestId(), 0, 0, () => undefined);
    journal.clear();
    expect([journal.size, journal.bytes, journal.slots, journal.list().length]).toEqual([0, 0, 0, 0]);
    expect(journal.nextRequestId()).toBe('req_0000000002');
    journal.reset();
    expect(journal.nextRequestId()).toBe('req_0000000001');
  });

  it('writes `[not read]` for a body no stage read, `[not kept]` for one it must not keep', () => {
    const journal = new Journal();
    expect(recordOne(journal, undefined)?.body).toBe('[not read]');
    // The body as the body stage read it (issue 21: a value, no longer a function called on demand).
    const body = { value: { note: 'kept only when allowed' } };
    // Read for a sender who never authenticated: never kept.
    expect(recordOne(journal, NOT_KEPT)?.body).toBe('[not kept]');
    for (const status of [401, 413, 415, 429]) {
      expect(recordOne(journal, body, { status, headers: {}, body: undefined })?.body).toBe('[not kept]');
    }
    expect(recordOne(journal, body, { status: 400, headers: {}, body: undefined })?.body).toEqual({
      note: 'kept only when allowed',
    });
    expect([NOT_READ, NOT_KEPT]).toEqual(['[not read]', '[not kept]']);
  });

  it('parses a listed body each time it is read, and takes a body set like any member', () => {
    const journal = new Journal();
    const entry = recordOne(journal, () => ({ a: [1] }));
    if (!entry) throw new Error('expected an entry');
    const first = entry.body as { a: number[] };
    expect(first).toEqual({ a: [1] });
    expect(entry.body).not.toBe(first);
    expect(Object.getOwnPropertyDescriptor(entry, 'body')?.enumerable).toBe(true);
    expect(Object.keys(entry)).toEqual([
      'id',
      'time',
      'method',
      'path',
      'query',
      'headers',
      'body',
      'status',
      'durationMs',
    ]);
    entry.body = 'changed';
    expect(entry.body).toBe('changed');
    entry.body = 'again';
    expect(JSON.stringify(entry)).toContain('"body":"again"');
    expect(Reflect.deleteProperty(entry, 'body')).toBe(true);
    // The journal keeps what it wrote.
    expect(journal.list(1)[0]?.body).toEqual({ a: [1] });
  });

  it('writes no body for a request without one', () => {
    const journal = new Journal();
    const entry = recordOne(journal, () => undefined);
    expect(entry?.body).toBeUndefined();
  });

  it('writes `[not JSON]` for a hand-built body past the shape bounds, cyclic, or that JSON cannot write', () => {
    const journal = new Journal();
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(recordOne(journal, () => cyclic)?.body).toBe('[not JSON]');
    let deep: unknown = 1;
    for (let i = 0; i < 65; i++) deep = [deep];
    expect(recordOne(journal, () => deep)?.body).toBe('[not JSON]');
    expect(recordOne(journal, () => ({ n: 10n }))?.body).toBe('[not JSON]');
    // Within the bounds: kept.
    let fine: unknown = 1;
    for (let i = 0; i < 64; i++) fine = [fine];
    expect(recordOne(journal, () => fine)?.body).toEqual(fine);
  });

  it('writes a body of more values than its body limit has characters as too large, without writing it', () => {
    const journal = new Journal({ maxBodyBytes: 30_000 });
    // Lists longer than the body stage's 10,000 (a control route such as PUT /__mock/state may allow them).
    const long = new Array(10_001).fill(0);
    expect(recordOne(journal, () => long)?.body).toEqual(long);
    const wide = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [String(i), 0]));
    const wideJournal = new Journal({ maxBodyBytes: 200_000 });
    expect(recordOne(wideJournal, () => wide)?.body).toEqual(wide);
    // 30,000 values are at least 30,000 characters: kept only when the text fits.
    expect(recordOne(journal, () => new Array(29_999).fill(0))?.body).toBe(tooLargeToKeep(59_999));
    expect(recordOne(journal, () => new Array(30_000).fill(0))?.body).toBe(
      '[too large to keep: over 30000 bytes]',
    );
    // One object shared a million times: refused by its count, never written out.
    const shared = { a: 1 };
    expect(recordOne(journal, () => new Array(1_000_000).fill(shared))?.body).toBe(
      '[too large to keep: over 30000 bytes]',
    );
  });

  it('writes a webhook URL with its user name, password and secret query values redacted (L2)', () => {
    const journal = new Journal();
    const entry = recordOne(journal, () => ({
      nickname: 'hook',
      url: 'https://user:pw-very-secret@hooks.example.test/in?token=tok-very-secret&team=a',
    }));
    const text = JSON.stringify(entry);
    expect(text).not.toContain('pw-very-secret');
    expect(text).not.toContain('tok-very-secret');
    const { nickname, url } = (entry?.body ?? {}) as { nickname?: string; url?: string };
    expect(nickname).toBe('hook');
    expect(url).toContain('hooks.example.test/in');
    expect(url).toContain('team=a');
    // Other bodies as they are: no url, a url that is not a string, null, a string.
    for (const body of [{ a: 1 }, { url: 5 }, null, 'text']) {
      expect(recordOne(journal, () => body)?.body).toEqual(body);
    }
    // A URL anywhere in a body is redacted too (issue 34, finding 15).
    expect(recordOne(journal, () => ['https://u:p@x.test/'])?.body).toEqual(['https://[redacted]@x.test/']);
  });
});

describe('journal accounting: what an entry costs is what it is counted as (issue 20, finding 1)', () => {
  it('documents its defaults and what it counts', () => {
    expect(DEFAULT_JOURNAL_LIMIT).toBe(500);
    expect(DEFAULT_JOURNAL_MAX_BYTES).toBe(16_777_216);
    expect(DEFAULT_JOURNAL_BODY_BYTES).toBe(65_536);
    expect(JOURNAL_BYTES_PER_CHAR).toBe(2);
    expect(JOURNAL_STRING_OVERHEAD_BYTES).toBe(32);
    expect(JOURNAL_ENTRY_OVERHEAD_BYTES).toBe(128);
    expect(tooLargeToKeep(123)).toBe('[too large to keep: about 123 bytes]');
  });

  it('counts an entry as two bytes per character of its texts, 32 per text and 128 per entry', () => {
    expect(entryBytes('ab', undefined)).toBe(128 + 32 + 4);
    expect(entryBytes('ab', 'xyz')).toBe(128 + 32 + 4 + 32 + 6);
    expect(entryBytes('', '')).toBe(128 + 32 + 32);
  });

  it('counts a body by its JSON text, whatever its shape: 1,000 empty objects cost their 3,001 characters', () => {
    const none = bytesOf(() => undefined);
    const empties = new Array(1_000).fill({});
    // `[{},{},...]`: 2 brackets, 1,000 × 2 braces, 999 commas; one more text of 32 bytes.
    expect(bytesOf(() => empties) - none).toBe(32 + 2 * 3_001);
    expect(bytesOf(() => ({ t: 'y' })) - none).toBe(32 + 2 * '{"t":"y"}'.length);
    // Markers are texts too.
    expect(bytesOf(undefined) - none).toBe(32 + 2 * '"[not read]"'.length);
    // The rest of the entry: its path, headers and query as text.
    expect(
      bytesOf(undefined, { method: 'GET', path: '/abc' }) - bytesOf(undefined, { method: 'GET', path: '/a' }),
    ).toBe(4);
  });

  it('keeps a body of exactly its body limit, and writes the size of one character more', () => {
    const journal = new Journal({ maxBodyBytes: 20 });
    // `{"t":"…"}` is 8 characters around the text.
    expect(recordOne(journal, () => ({ t: 'y'.repeat(12) }))?.body).toEqual({ t: 'y'.repeat(12) });
    expect(recordOne(journal, () => ({ t: 'y'.repeat(13) }))?.body).toBe(
      '[too large to keep: about 21 bytes]',
    );
    // The limit is of the text kept: after redaction (a long secret shrinks to `[redacted]`).
    const redacted = new Journal({ maxBodyBytes: '{"secretKey":"[redacted]"}'.length });
    expect(recordOne(redacted, () => ({ secretKey: 'z'.repeat(100) }))?.body).toEqual({
      secretKey: '[redacted]',
    });
  });

  it('keeps bodies up to 64 KiB of JSON text by default', () => {
    const journal = new Journal();
    const fits = 'y'.repeat(DEFAULT_JOURNAL_BODY_BYTES - 8);
    expect(recordOne(journal, () => ({ t: fits }))?.body).toEqual({ t: fits });
    expect(recordOne(journal, () => ({ t: `${fits}y` }))?.body).toBe(
      tooLargeToKeep(DEFAULT_JOURNAL_BODY_BYTES + 1),
    );
  });

  it('keeps an entry of exactly its byte bound, and drops none for an entry over it', () => {
    const one = bytesOf(() => ({ n: 1 }));
    const exact = new Journal({ maxBytes: one });
    recordOne(exact, () => ({ n: 1 }));
    expect([exact.size, exact.bytes]).toEqual([1, one]);
    const under = new Journal({ maxBytes: one - 1 });
    recordOne(under, () => ({ n: 1 }));
    expect([under.size, under.bytes]).toEqual([0, 0]);
    // An entry larger than the whole bound is not kept, and pushes nothing out.
    const small = new Journal({ maxBytes: one });
    recordOne(small, () => ({ n: 1 }));
    recordOne(small, () => ({ n: 'longer than the bound' }));
    expect(small.list().map((e) => e.body)).toEqual([{ n: 1 }]);
    expect(small.bytes).toBe(one);
  });

  it('drops the oldest entries past its byte bound, counting exactly what it keeps', () => {
    const one = bytesOf(() => ({ n: 1 }));
    const journal = new Journal({ maxBytes: 2 * one });
    for (let i = 1; i <= 3; i++) recordOne(journal, () => ({ n: i }));
    expect(journal.list().map((e) => e.body)).toEqual([{ n: 2 }, { n: 3 }]);
    expect(journal.bytes).toBe(2 * one);
    const tighter = new Journal({ maxBytes: 2 * one - 1 });
    for (let i = 1; i <= 3; i++) recordOne(tighter, () => ({ n: i }));
    expect(tighter.list().map((e) => e.body)).toEqual([{ n: 3 }]);
    expect(tighter.bytes).toBe(one);
  });

  it('keeps 500 entries and 16 MiB by default', () => {
    const journal = new Journal();
    for (let i = 0; i < DEFAULT_JOURNAL_LIMIT + 1; i++) recordOne(journal, () => i);
    expect(journal.size).toBe(DEFAULT_JOURNAL_LIMIT);
    expect(journal.list()[0]?.body).toBe(1);
    const big = new Journal({ limit: 1_000 });
    const text = 'y'.repeat(DEFAULT_JOURNAL_BODY_BYTES - 8);
    const each = bytesOf(() => ({ t: text }));
    for (let i = 0; i < 200; i++) recordOne(big, () => ({ t: text }));
    expect(big.size).toBe(Math.floor(DEFAULT_JOURNAL_MAX_BYTES / each));
    expect(big.bytes).toBeLessThanOrEqual(DEFAULT_JOURNAL_MAX_BYTES);
  });

  it('releases a dropped entry at once: it holds only what it keeps, in at most twice as many slots', () => {
    const journal = new Journal(2);
    const slots: number[] = [];
    for (let i = 0; i < 8; i++) {
      recordOne(journal, () => i);
      slots.push(journal.slots);
      expect(journal.held).toBe(journal.size);
      expect(journal.slots).toBeLessThanOrEqual(2 * journal.size);
    }
    // The emptied slots are cut off as soon as they outnumber the kept entries.
    expect(slots).toEqual([1, 2, 3, 4, 2, 3, 4, 2]);
    const many = new Journal(10);
    for (let i = 0; i < 10_000; i++) recordOne(many, () => i);
    expect([many.size, many.held]).toEqual([10, 10]);
    expect(many.slots).toBeLessThanOrEqual(20);
    expect(many.list().map((e) => e.body)).toEqual(Array.from({ length: 10 }, (_, i) => 9_990 + i));
  });
});
