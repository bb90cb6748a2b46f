/**
 * The authenticate stage: on routes that need it, the bearer token of `Authorization` names the
 * caller's account, or the request ends with 401 and a `WWW-Authenticate` challenge. Tokens are
 * issued and checked by login (`auth/login.ts`).
 *
 * @module
 */

import { readHeader } from '@iacm/sdk/contract';
import { bearerToken } from '../auth/bearer.js';
import type { Login } from '../auth/login.js';
import { HttpError } from '../errors.js';
import type { MockRequest } from '../http/message.js';
import type { AccountStore } from '../store/store.js';

/**
 * The caller's account when the request's bearer token was verified before and still holds (no
 * waiting, nothing made); `undefined` otherwise, for {@link authenticate} to decide and say why.
 */
export function knownCaller(
  headers: MockRequest['headers'],
  login: Login,
  accounts: ReadonlyMap<string, AccountStore>,
  nowMs: number,
): AccountStore | undefined {
  const header = readHeader(headers, 'authorization');
  const token = header === undefined ? undefined : bearerToken(header);
  const claims = token === undefined ? undefined : login.verifiedClaims(token, nowMs);
  return claims === undefined ? undefined : accounts.get(claims.sub);
}

/** The caller's account for a request's bearer token; throws 401 otherwise. */
export async function authenticate(
  headers: MockRequest['headers'],
  login: Login,
  accounts: ReadonlyMap<string, AccountStore>,
  nowMs: number,
): Promise<AccountStore> {
  const header = readHeader(headers, 'authorization');
  if (header === undefined) {
    throw new HttpError(
      401,
      'unauthorized',
      'missing Authorization header; send "Authorization: Bearer <token>" with a token from POST /v2/login',
      { headers: { 'www-authenticate': 'Bearer' } },
    );
  }
  const token = bearerToken(header);
  if (token === undefined) {
    throw new HttpError(401, 'unauthorized', 'malformed Authorization header; expected "Bearer <token>"', {
      headers: { 'www-authenticate': 'Bearer error="invalid_request"' },
    });
  }
  const result = await login.verify(token, nowMs);
  if ('problem' in result) {
    const expired = result.problem === 'expired';
    throw new HttpError(
      401,
      expired ? 'token_expired' : 'unauthorized',
      expired
        ? 'the bearer token has expired; log in again with POST /v2/login'
        : 'the bearer token is not valid (malformed or not signed by this server); log in with POST /v2/login',
      { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } },
    );
  }
  const account = accounts.get(result.claims.sub);
  if (!account) {
    throw new HttpError(
      401,
      'unauthorized',
      'the bearer token names an account this server does not have (was the state reset?)',
      { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } },
    );
  }
  return account;
}
