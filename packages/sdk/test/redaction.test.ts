/** The one redaction list of the contract, and the SDK's errors that use it. */
import { APIError } from '@iacm/sdk';
import {
  isSecretHeader,
  isSecretMember,
  looksLikeSecretName,
  REDACTED,
  redactBody,
  redactHeaders,
} from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';

describe('the redaction list', () => {
  it('redacts secret headers in any case and keeps the others', () => {
    expect(
      redactHeaders({
        Authorization: 'Bearer t',
        'set-cookie': 's=1',
        'X-Auth-Token': 'x',
        'x-request-id': 'r',
      }),
    ).toEqual({
      Authorization: REDACTED,
      'set-cookie': REDACTED,
      'X-Auth-Token': REDACTED,
      'x-request-id': 'r',
    });
    expect(isSecretHeader('Proxy-Authorization')).toBe(true);
    expect(isSecretHeader('www-authenticate')).toBe(false);
  });

  it('redacts credential members at any depth, by exact name in any case', () => {
    const body = {
      secretKey: 's',
      nested: [{ AccessToken: 't', credentials: { user: 'u' }, keyName: 'kept' }],
      message: 'kept',
    };
    expect(redactBody(body)).toEqual({
      secretKey: REDACTED,
      nested: [{ AccessToken: REDACTED, credentials: REDACTED, keyName: 'kept' }],
      message: 'kept',
    });
    expect(isSecretMember('PASSWORD')).toBe(true);
    expect(isSecretMember('continuationToken')).toBe(false);
  });

  it('tells names that look like a credential by the words they contain', () => {
    for (const name of ['access_token', 'apiKey', 'X-Signature', 'Authorisation', 'clientSecret'])
      expect(looksLikeSecretName(name), name).toBe(true);
    for (const name of ['page', 'pageSize', 'workspaceName'])
      expect(looksLikeSecretName(name), name).toBe(false);
  });

  it("keeps credentials out of an API error's body and headers", () => {
    const error = new APIError(
      'auth.login',
      401,
      { status: 401, code: 'invalid_credentials', message: 'wrong keys', secretKey: 'iacm_sk_1' },
      { 'set-cookie': 'session=abc', 'x-request-id': 'req_1' },
    );
    expect(JSON.stringify(error)).not.toMatch(/iacm_sk_1|session=abc/);
    expect(error.headers['set-cookie']).toBe(REDACTED);
    expect((error.body as Record<string, unknown>).secretKey).toBe(REDACTED);
  });
});
