import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactBody } from '../../src/http/redact.js';
import { Journal } from '../../src/pipeline/journal.js';
import { isEmptyRecord, redactedHeaders, redactedText } from '../../src/pipeline/journal-text.js';
import { Waiters } from '../../src/pipeline/waiters.js';

describe("the journal's redaction of headers and inputs", () => {
  it('redacts credentials in plain and fetch headers, every time a name comes (names remembered)', () => {
    for (let i = 0; i < 3; i++) {
      expect(
        redactedHeaders({
          Authorization: 'Bearer t0ken',
          'X-Api-Key': 'k-secret',
          Accept: ['a', 'b'],
          skipped: undefined,
        }),
      ).toEqual({ authorization: REDACTED, 'x-api-key': REDACTED, accept: 'a, b' });
      expect(
        redactedHeaders(new Headers({ Cookie: 'session=s3cret', 'X-Api-Key': 'k', 'Content-Type': 'x' })),
      ).toEqual({ cookie: REDACTED, 'x-api-key': REDACTED, 'content-type': 'x' });
    }
    // Two spellings of one name: the last one written, as before.
    expect(redactedHeaders({ 'Content-Type': 'a', 'content-type': 'b' })).toEqual({ 'content-type': 'b' });
    expect(redactedHeaders(undefined)).toEqual({});
  });

  it('writes parameters and queries as JSON.stringify of their redacted copy, {} as it is', () => {
    const values: unknown[] = [
      {},
      Object.create(null),
      { token: 'x', page: 1 },
      { nested: { password: 'p' } },
    ];
    for (const value of values) expect(redactedText(value)).toBe(JSON.stringify(redactBody(value)));
    expect(isEmptyRecord({})).toBe(true);
    expect(isEmptyRecord([])).toBe(false);
    expect(isEmptyRecord(new Date(0))).toBe(false);
    expect(isEmptyRecord({ a: undefined })).toBe(false);
  });

  it('journals a request whose body is {} with {} (validated inputs too), its token redacted', () => {
    const journal = new Journal();
    journal.record(
      {
        method: 'POST',
        path: '/v2/workspaces/search',
        query: Object.create(null),
        headers: { authorization: 'Bearer t0ken' },
      },
      { status: 200, headers: {}, body: [] },
      'req_1',
      0,
      1,
      { value: {} },
      { endpoint: 'workspaces.search', accountId: 'a', input: { params: {}, query: {}, body: {} } },
    );
    const [entry] = journal.list();
    expect(entry?.body).toEqual({});
    expect(entry?.input).toEqual({ validated: true, params: {}, query: {}, body: {} });
    expect(entry?.headers).toEqual({ authorization: REDACTED });
  });
});

describe('a wait on a signal shared by several requests (a connection)', () => {
  it('takes its listener off the signal once it is settled', async () => {
    const journal = new Journal();
    const waiters = new Waiters();
    journal.listen((endpoint, read) => waiters.journalled(endpoint, read));
    const connection = new AbortController();
    for (let i = 0; i < 20; i++) {
      const waiting = waiters.waitFor(
        journal,
        { endpoint: 'health', match: undefined, since: 'now', timeoutMs: 10_000 },
        connection.signal,
      );
      journal.record(
        { method: 'GET', path: '/v2/health', query: {}, headers: {} },
        { status: 200, headers: {}, body: undefined },
        `req_${i}`,
        0,
        1,
        undefined,
        { endpoint: 'health' },
      );
      await expect(waiting).resolves.toMatchObject({ endpoint: 'health' });
    }
    expect(getEventListeners(connection.signal, 'abort')).toHaveLength(0);
  });
});
