/**
 * The one redaction rule: credential names by pattern (header names and JSON members at any depth),
 * and the walker that applies it (issue 13, L10).
 */
import {
  isSecretHeader,
  isSecretMember,
  isSecretName,
  isSecretParameter,
  looksLikeSecretName,
  REDACT_MAX_DEPTH,
  REDACTED,
  REDACTED_TOO_DEEP,
  redactBody,
  redactHeaders,
  SECRET_HEADERS,
  SECRET_MEMBERS,
} from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';

/** Names of credentials, in every spelling a header, a body or a query uses. */
const secretNames = [
  'X-Auth-Token',
  'x-auth-token',
  'Api-Key',
  'X-API-Key',
  'apiKey',
  'APIKey',
  'api_key',
  'apikey',
  'xapikey',
  'clientSecret',
  'client_secret',
  'refreshToken',
  'refresh-token',
  'accessToken',
  'access_token',
  'accesstoken',
  'accessKey',
  'secretKey',
  'privateKey',
  'token',
  'tokens',
  'idToken',
  'password',
  'newPassword',
  'passwordHash',
  'passphrase',
  'credentials',
  'awsCredential',
  'authorization',
  'Proxy-Authorization',
  'Authorisation',
  'auth',
  'basicAuth',
  'Cookie',
  'set-cookie',
  'sessionId',
  'SESSION',
  'X-Hub-Signature-256',
  'signature',
  'jwt',
  'secret',
];

/** Names a journal must keep showing: paging cursors, the `key` of a filter or attribute, and words that only contain a credential word. */
const plainNames = [
  'key',
  'keys',
  'keyName',
  'keyword',
  'keywords',
  'monkey',
  'sortKey',
  'Idempotency-Key',
  'publicKey',
  'continuationToken',
  'nextToken',
  'pageToken',
  'tokenType',
  'expiresAt',
  'author',
  'authorName',
  'WWW-Authenticate',
  'x-request-id',
  'content-type',
  'page',
  'pageSize',
  'workspaceName',
  'status',
];

describe('isSecretName', () => {
  it.each(secretNames)('%s is a credential', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each(plainNames)('%s is not', (name) => {
    expect(isSecretName(name)).toBe(false);
  });

  it('is the one rule: the header, member and name predicates agree, and cover the explicit lists', () => {
    for (const name of [...secretNames, ...plainNames]) {
      expect([isSecretHeader(name), isSecretMember(name), looksLikeSecretName(name)]).toEqual(
        Array(3).fill(isSecretName(name)),
      );
    }
    for (const name of [...SECRET_HEADERS, ...SECRET_MEMBERS]) expect(isSecretName(name), name).toBe(true);
  });

  it('reads a long name in time linear in its length', () => {
    expect(isSecretName(`${'aB-'.repeat(100_000)}Token`)).toBe(true);
    expect(isSecretName('a'.repeat(1_000_000))).toBe(false);
  });
});

describe('isSecretParameter', () => {
  it('also masks any `key` or `token` word of a query parameter: URLs are logged and shared', () => {
    for (const name of ['key', 'KEY', 'sortKey', 'continuationToken', 'my_token', 'apikey', 'access_token'])
      expect(isSecretParameter(name), name).toBe(true);
    for (const name of ['keyword', 'page', 'pageSize', 'sort', 'q', 'monkey'])
      expect(isSecretParameter(name), name).toBe(false);
    for (const name of secretNames) expect(isSecretParameter(name), name).toBe(true);
  });
});

describe('redactHeaders', () => {
  it('redacts every credential header the old list missed', () => {
    expect(
      redactHeaders({
        'X-Auth-Token': 't',
        'Api-Key': 'k',
        'X-Session-Id': 's',
        'Idempotency-Key': 'i',
        'x-request-id': 'r',
      }),
    ).toEqual({
      'X-Auth-Token': REDACTED,
      'Api-Key': REDACTED,
      'X-Session-Id': REDACTED,
      'Idempotency-Key': 'i',
      'x-request-id': 'r',
    });
  });
});

describe('redactBody', () => {
  it('redacts credential members at any depth, keeps flags, filters and cursors', () => {
    const body = {
      apiKey: 'k1',
      integration: { credentials: { basic: { username: 'u', password: 'p' } }, replaceCredentials: true },
      clients: [
        { clientSecret: 's1', name: 'c' },
        { refreshToken: 'r1', tokenType: 'Bearer' },
      ],
      filters: [{ key: 'status', values: ['done'] }],
      attributes: [{ key: 'env', value: 'prod' }],
      keyword: 'drift',
      continuationToken: 'cursor',
      nothing: null,
    };
    expect(redactBody(body)).toEqual({
      apiKey: REDACTED,
      integration: { credentials: REDACTED, replaceCredentials: true },
      clients: [
        { clientSecret: REDACTED, name: 'c' },
        { refreshToken: REDACTED, tokenType: 'Bearer' },
      ],
      filters: [{ key: 'status', values: ['done'] }],
      attributes: [{ key: 'env', value: 'prod' }],
      keyword: 'drift',
      continuationToken: 'cursor',
      nothing: null,
    });
    expect(body.clients[0]?.clientSecret).toBe('s1');
  });

  it('copies only what it changes: untouched parts are shared, and a clean value comes back as is', () => {
    const clean = { a: [{ b: 1 }], c: { d: 'e' } };
    expect(redactBody(clean)).toBe(clean);
    const body = { untouched: { deep: [1, 2, 3] }, inner: { apiKey: 'k', other: { x: 1 } } };
    const out = redactBody(body) as typeof body;
    expect(out).not.toBe(body);
    expect(out.untouched).toBe(body.untouched);
    expect(out.inner.other).toBe(body.inner.other);
    expect(out.inner.apiKey).toBe(REDACTED);
  });

  it('walks any depth without recursion, replacing what is deeper than the bound', () => {
    let deep: unknown = { apiKey: 'k' };
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const out = redactBody(deep);
    let level = out;
    for (let i = 1; i < REDACT_MAX_DEPTH; i++) level = (level as unknown[])[0];
    expect(level).toEqual([REDACTED_TOO_DEEP]);
    expect(JSON.stringify(out)).not.toContain('"k"');
    const shallow = redactBody({ a: { b: { apiKey: 'k' } } }, { maxDepth: 2 });
    expect(shallow).toEqual({ a: { b: REDACTED_TOO_DEEP } });
  });

  it('keeps a `__proto__` member an own member, and survives a cycle', () => {
    const body = JSON.parse('{"__proto__":{"apiKey":"k"},"apiKey":"k"}') as Record<string, unknown>;
    const out = redactBody(body) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'apiKey']);
    expect(JSON.stringify(out)).toBe(`{"__proto__":{"apiKey":"${REDACTED}"},"apiKey":"${REDACTED}"}`);
    const cyclic: Record<string, unknown> = { password: 'p' };
    cyclic.self = cyclic;
    expect(redactBody(cyclic)).toEqual({ password: REDACTED, self: '[circular]' });
  });
});
