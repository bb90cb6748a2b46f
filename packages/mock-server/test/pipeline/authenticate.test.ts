import { describe, expect, it } from 'vitest';
import { Login } from '../../src/auth/login.js';
import { authenticate } from '../../src/pipeline/authenticate.js';
import { generateState } from '../../src/store/seed.js';
import { Store } from '../../src/store/store.js';
import { rejection } from '../helpers.js';

const store = new Store(generateState({ seed: 7, sizes: { workspaces: 1, events: 1, stacks: 1 } }));
const [account] = [...store.accounts.values()];
if (!account) throw new Error('expected an account');
const login = new Login('s'.repeat(64), 60);

describe('login and the authenticate stage', () => {
  it('issues a token for a key pair that authenticates as its account until it expires', async () => {
    const { accessKey, secretKey } = account.account;
    const answer = await login.login(store.accounts.values(), accessKey, secretKey, 1_000_000, () => 'j');
    expect(answer).toMatchObject({ tokenType: 'Bearer', expiresAt: 1000 + 60 });
    const headers = { Authorization: `Bearer ${answer.accessToken}` };
    expect(await authenticate(headers, login, store.accounts, 1_000_000)).toBe(account);
    const expired = await rejection(authenticate(headers, login, store.accounts, 1_060_000));
    expect([expired.status, expired.code]).toEqual([401, 'token_expired']);
  });

  it('refuses a wrong key pair with 401 invalid_credentials, naming no key', async () => {
    const error = await rejection(login.login(store.accounts.values(), 'nope', 'wrong', 0, () => 'j'));
    expect([error.status, error.code]).toEqual([401, 'invalid_credentials']);
    expect(error.message).not.toContain('nope');
  });

  it('answers each missing or bad Authorization with 401 and its challenge', async () => {
    const missing = await rejection(authenticate({}, login, store.accounts, 0));
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    const malformed = await rejection(authenticate({ authorization: 'Basic x' }, login, store.accounts, 0));
    expect(malformed.headers['www-authenticate']).toBe('Bearer error="invalid_request"');
    const forged = await rejection(authenticate({ authorization: 'Bearer a.b.c' }, login, store.accounts, 0));
    expect([forged.code, forged.headers['www-authenticate']]).toEqual([
      'unauthorized',
      'Bearer error="invalid_token"',
    ]);
    const other = new Login('o'.repeat(64));
    const { accessKey, secretKey } = account.account;
    const foreign = await other.login(store.accounts.values(), accessKey, secretKey, 0, () => 'j');
    const error = await rejection(
      authenticate({ authorization: `Bearer ${foreign.accessToken}` }, login, store.accounts, 0),
    );
    expect(error.code).toBe('unauthorized');
  });
});
