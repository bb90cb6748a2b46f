import { describe, expect, it } from 'vitest';
import { Login, VERIFIED_TOKEN_CACHE_SIZE } from '../../src/auth/login.js';
import { generateState } from '../../src/store/seed.js';
import { Store } from '../../src/store/store.js';

const T0 = Date.UTC(2026, 0, 15, 12);

describe('the verified-token cache of login', () => {
  const store = new Store(
    generateState({
      seed: 1,
      sizes: {
        accounts: 1,
        workspaces: 1,
        events: 1,
        rules: 0,
        stacks: 0,
        runsPerWorkspace: 0,
        integrations: 1,
      },
    }),
  );
  const [account] = store.accounts.values();
  if (!account) throw new Error('no account');
  const { accessKey, secretKey } = account.account;
  let n = 0;
  const issue = async (login: Login, now = T0) =>
    (await login.login(store.accounts.values(), accessKey, secretKey, now, () => `t${++n}`)).accessToken;

  it('answers a token seen before from the cache, and still expires it on the mock clock', async () => {
    const login = new Login('k'.repeat(32), 60);
    const token = await issue(login);
    expect(await login.verify(token, T0)).toMatchObject({ claims: { sub: account.account.id } });
    expect(await login.verify(token, T0 + 30_000)).toMatchObject({ claims: { sub: account.account.id } });
    expect(await login.verify(token, T0 + 60_000)).toEqual({ problem: 'expired' });
    // Back in time (a test moved the clock back): valid again, as without the cache.
    expect(await login.verify(token, T0)).toMatchObject({ claims: { sub: account.account.id } });
  });

  it('never caches a refused token: a tampered one is refused every time', async () => {
    const login = new Login('k'.repeat(32), 60);
    const token = await issue(login);
    const [h, p, s] = token.split('.') as [string, string, string];
    const tampered = `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`;
    for (let i = 0; i < 3; i++) expect(await login.verify(tampered, T0)).toEqual({ problem: 'signature' });
    const other = new Login('z'.repeat(32), 60);
    await login.verify(token, T0);
    expect(await other.verify(token, T0)).toEqual({ problem: 'signature' });
  });

  it('stays bounded: the least recently used token is verified again after the cache is full', async () => {
    const login = new Login('k'.repeat(32), 3600);
    const first = await issue(login);
    await login.verify(first, T0);
    for (let i = 0; i < VERIFIED_TOKEN_CACHE_SIZE; i++) await login.verify(await issue(login), T0);
    // Still valid (verified again by signature), just not from the cache.
    expect(await login.verify(first, T0)).toMatchObject({ claims: { sub: account.account.id } });
  }, 60_000);
});
