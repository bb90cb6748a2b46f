import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/pipeline/journal.js';

const ok = { status: 200, headers: {}, body: undefined };

describe('journal stage', () => {
  it('keeps the last `limit` requests, oldest first, and counts request ids', () => {
    const journal = new Journal(2);
    for (let i = 0; i < 3; i++) {
      const id = journal.nextRequestId();
      journal.record({ method: 'get', path: `/p${i}` }, ok, id, 0, 5, () => undefined);
    }
    expect(journal.list().map((e) => [e.id, e.path, e.method, e.durationMs])).toEqual([
      ['req_0000000002', '/p1', 'GET', 5],
      ['req_0000000003', '/p2', 'GET', 5],
    ]);
    expect(journal.list(1).map((e) => e.path)).toEqual(['/p2']);
  });

  it('redacts credentials in headers, query and body', () => {
    const journal = new Journal(10);
    journal.record(
      {
        method: 'POST',
        path: '/v2/login',
        headers: { Authorization: 'Bearer abc', 'X-Other': ['a', 'b'] },
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

  it('writes a body that is not JSON as `[not JSON]` and a dropped connection as status 0', () => {
    const journal = new Journal(10);
    journal.record(
      { method: 'GET', path: '/' },
      { status: 0, headers: {}, body: undefined, drop: true },
      journal.nextRequestId(),
      0,
      0,
      () => {
        throw new Error('not JSON');
      },
    );
    expect(journal.list()[0]).toMatchObject({ body: '[not JSON]', status: 0, dropped: true });
  });

  it('keeps nothing with a limit of 0; reset empties it and counts ids from 1 again', () => {
    const off = new Journal(0);
    off.record({ method: 'GET', path: '/' }, ok, off.nextRequestId(), 0, 0, () => undefined);
    expect(off.enabled).toBe(false);
    expect(off.list()).toEqual([]);
    const journal = new Journal(5);
    journal.record({ method: 'GET', path: '/' }, ok, journal.nextRequestId(), 0, 0, () => undefined);
    journal.clear();
    expect(journal.nextRequestId()).toBe('req_0000000002');
    journal.reset();
    expect(journal.nextRequestId()).toBe('req_0000000001');
  });
});
