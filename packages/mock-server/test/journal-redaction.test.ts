/**
 * The journal keeps no credential, whatever its name's spelling or depth, and keeps what a test
 * reads back: filters, cursors, flags (issue 13, L10).
 */
import { REDACTED } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { setup } from './helpers.js';

describe('journal redaction', () => {
  it('redacts credential headers, query parameters and body members by pattern, at any depth', async () => {
    const ctx = await setup();
    await ctx.call('POST', '/v2/workspaces/search', {
      headers: {
        'X-Auth-Token': 'hdr-auth-token',
        'Api-Key': 'hdr-api-key',
        'X-Session-Id': 'hdr-session',
        'Idempotency-Key': 'idem-1',
      },
      query: { client_secret: 'q-secret', pageSize: '5' },
      body: {
        filters: { name: 'kept' },
        apiKey: 'body-api-key',
        nested: [{ deeper: { clientSecret: 'body-client-secret', refreshToken: 'body-refresh' } }],
        keyword: 'kept-keyword',
        continuationToken: 'kept-cursor',
      },
    });
    const [entry] = ctx.core.control.journal(1);
    const text = JSON.stringify(entry);
    for (const secret of [
      'hdr-auth-token',
      'hdr-api-key',
      'hdr-session',
      'q-secret',
      'body-api-key',
      'body-client-secret',
      'body-refresh',
      ctx.token,
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(entry?.headers).toMatchObject({
      authorization: REDACTED,
      'x-auth-token': REDACTED,
      'api-key': REDACTED,
      'x-session-id': REDACTED,
      'idempotency-key': 'idem-1',
    });
    expect(entry?.query).toEqual({ client_secret: REDACTED, pageSize: '5' });
    expect(entry?.body).toEqual({
      filters: { name: 'kept' },
      apiKey: REDACTED,
      nested: [{ deeper: { clientSecret: REDACTED, refreshToken: REDACTED } }],
      keyword: 'kept-keyword',
      continuationToken: 'kept-cursor',
    });
  });

  it('journals a request with a prototype-named query parameter as an ordinary parameter', async () => {
    const ctx = await setup();
    const res = await ctx.core.handle({
      method: 'GET',
      path: '/v2/health',
      query: new URLSearchParams('__proto__=a&constructor=b&apiKey=c'),
    });
    expect(res.status).toBe(400);
    const [entry] = ctx.core.control.journal(1);
    expect(Object.entries(entry?.query ?? {})).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
      ['apiKey', REDACTED],
    ]);
  });
});
