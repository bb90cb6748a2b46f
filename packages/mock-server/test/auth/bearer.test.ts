/** One reading of `Authorization: Bearer <token>`, for the API's tokens and the control plane's. */
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { bearerToken } from '../../src/auth/bearer.js';

describe('bearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER   abc', 'abc'],
    ['  Bearer abc  ', 'abc'],
  ])('reads %j as %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each([undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b', 'Bearerabc'])(
    'refuses %j',
    (header) => {
      expect(bearerToken(header)).toBeUndefined();
    },
  );

  it('the control plane reads its token as the API reads a login token (any case, spaces around)', async () => {
    const core = new MockCore({
      controlToken: 'ctl-token',
      sizes: { accounts: 1, workspaces: 1, events: 0 },
    });
    const get = (authorization: string) =>
      core.handle({ method: 'GET', path: '/__mock/accounts', headers: { authorization } });
    expect((await get('  bearer   ctl-token ')).status).toBe(200);
    expect((await get('Bearer ctl-token extra')).status).toBe(403);
  });
});
