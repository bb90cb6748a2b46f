import { inspect } from 'node:util';
import {
  createTestDelivery,
  createWebhookReceiver,
  encodeAuthorization,
  generateNotification,
  type TestDelivery,
  type WebhookCredentials,
  type WebhookError,
  type WebhookRequest,
} from '@iacm/webhook-receiver';
import { describe, expect, it } from 'vitest';
import { basic, header, json, SECRET_PASSWORD, SECRET_TOKEN } from './helpers.js';

const notification = generateNotification('UnmanagedResource');

function deliver(credentials: WebhookCredentials | 'none'): TestDelivery {
  return createTestDelivery({ notification, credentials });
}

describe('encodeAuthorization', () => {
  it('encodes Basic as base64 of username:password in UTF-8 (RFC 7617 examples)', () => {
    expect(encodeAuthorization({ type: 'basic', username: 'Aladdin', password: 'open sesame' })).toBe(
      'Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==',
    );
    expect(encodeAuthorization({ type: 'basic', username: 'test', password: '123£' })).toBe(
      'Basic dGVzdDoxMjPCow==',
    );
  });

  it('sends a header value verbatim, scheme included, and nothing for "none"', () => {
    expect(encodeAuthorization({ type: 'header', value: 'Api-Key abc123' })).toBe('Api-Key abc123');
    expect(encodeAuthorization('none')).toBeUndefined();
  });

  it('encodes long credentials (no argument-count limit)', () => {
    const password = 'x'.repeat(200_000);
    const encoded = encodeAuthorization({ type: 'basic', username: 'u', password });
    expect(atob(encoded.slice('Basic '.length))).toBe(`u:${password}`);
  });
});

describe('each credential method', () => {
  const cases: Array<[string, WebhookCredentials | 'none']> = [
    ['basic', basic],
    ['header', header],
    ['none', 'none'],
  ];
  for (const [name, credentials] of cases) {
    it(`${name}: the delivery the service sends is accepted`, async () => {
      const receiver = createWebhookReceiver({ credentials });
      expect((await receiver.handle(deliver(credentials))).status).toBe(200);
    });
  }

  it('basic: the scheme name is case-insensitive and extra spaces are tolerated', async () => {
    const receiver = createWebhookReceiver({ credentials: basic });
    const token = encodeAuthorization(basic).slice('Basic '.length);
    for (const authorization of [`basic ${token}`, `BASIC ${token}`, `Basic   ${token}`]) {
      const request = deliver('none');
      const answer = await receiver.handle({ ...request, headers: { ...request.headers, authorization } });
      expect(answer.status, authorization).toBe(200);
    }
  });

  it('basic: a colon in the password (and in the username) still matches', async () => {
    const colons: WebhookCredentials = { type: 'basic', username: 'a:b', password: 'c:d' };
    const receiver = createWebhookReceiver({ credentials: colons });
    expect((await receiver.handle(deliver(colons))).status).toBe(200);
    // ...but splitting differently is another credential.
    const other: WebhookCredentials = { type: 'basic', username: 'a', password: 'b:c:e' };
    expect((await receiver.handle(deliver(other))).status).toBe(401);
  });

  it('basic: a non-canonical base64 of the right credentials is refused (400), the canonical one accepted', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    // Passwords whose encoding ends with "==" and "=": the last character then has 4 or 2 unused bits.
    let checked = 0;
    for (const password of ['open sesame', 'open sesame!', SECRET_PASSWORD]) {
      const credentials: WebhookCredentials = { type: 'basic', username: 'Aladdin', password };
      const receiver = createWebhookReceiver({ credentials });
      const token = encodeAuthorization(credentials).slice('Basic '.length);
      const padding = token.length - token.replace(/=+$/, '').length;
      if (padding === 0) continue;
      const at = token.length - padding - 1;
      // Set the lowest unused bit: atob decodes it to the same bytes, but it is not what encoding gives.
      const forged = `${token.slice(0, at)}${alphabet[alphabet.indexOf(token[at] as string) | 1]}${token.slice(at + 1)}`;
      expect(forged).not.toBe(token);
      expect(atob(forged)).toBe(atob(token));
      const request = deliver('none');
      const refused = await receiver.handle({
        ...request,
        headers: { ...request.headers, authorization: `Basic ${forged}` },
      });
      expect(refused.status, forged).toBe(400);
      expect(json(refused).code).toBe('malformed_authorization');
      expect(
        (
          await receiver.verify({
            ...request,
            headers: { ...request.headers, authorization: `Basic ${forged}` },
          })
        ).ok,
      ).toBe(false);
      expect((await receiver.handle(deliver(credentials))).status).toBe(200);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(2);
  });

  it('header: compared verbatim, scheme included', async () => {
    const receiver = createWebhookReceiver({ credentials: header });
    for (const value of [
      SECRET_TOKEN,
      `bearer ${SECRET_TOKEN}`,
      `Bearer ${SECRET_TOKEN}x`,
      `Bearer ${SECRET_TOKEN.slice(0, -1)}`,
    ]) {
      const answer = await receiver.handle(deliver({ type: 'header', value }));
      expect(answer.status, value).toBe(401);
      expect(json(answer).code).toBe('invalid_credentials');
    }
  });

  it('header: a Basic-looking configured value is compared verbatim too', async () => {
    const value = encodeAuthorization({ type: 'basic', username: 'x', password: 'y' });
    const receiver = createWebhookReceiver({ credentials: { type: 'header', value } });
    expect((await receiver.handle(deliver({ type: 'basic', username: 'x', password: 'y' }))).status).toBe(
      200,
    );
  });

  it('"none" accepts deliveries with or without an Authorization header', async () => {
    const receiver = createWebhookReceiver({ credentials: 'none' });
    expect((await receiver.handle(deliver(basic))).status).toBe(200);
    expect((await receiver.handle(deliver('none'))).status).toBe(200);
  });
});

describe('rotation', () => {
  const next: WebhookCredentials = { type: 'header', value: 'Bearer tok_next_5c7e' };

  it('accepts every configured credential while rotating, including across methods', async () => {
    const during = createWebhookReceiver({ credentials: [basic, next] });
    expect((await during.handle(deliver(basic))).status).toBe(200);
    expect((await during.handle(deliver(next))).status).toBe(200);
    expect((await during.handle(deliver(header))).status).toBe(401);
  });

  it('accepts the first and the last of several credentials of one method', async () => {
    const first: WebhookCredentials = { type: 'basic', username: 'u', password: 'one' };
    const last: WebhookCredentials = { type: 'basic', username: 'u', password: 'three' };
    const receiver = createWebhookReceiver({
      credentials: [first, { type: 'basic', username: 'u', password: 'two' }, last],
    });
    expect((await receiver.handle(deliver(first))).status).toBe(200);
    expect((await receiver.handle(deliver(last))).status).toBe(200);
    expect((await receiver.handle(deliver({ type: 'basic', username: 'u', password: 'four' }))).status).toBe(
      401,
    );
  });

  it('after the old credential is removed, it gets 401', async () => {
    const after = createWebhookReceiver({ credentials: [next] });
    expect((await after.handle(deliver(next))).status).toBe(200);
    const answer = await after.handle(deliver(basic));
    expect(answer.status).toBe(401);
    expect(json(answer).code).toBe('invalid_credentials');
  });
});

describe('credentials never appear in errors, answers or logs', () => {
  const secrets = [
    SECRET_PASSWORD,
    SECRET_TOKEN,
    encodeAuthorization(basic).slice('Basic '.length),
    // A wrong credential a sender used must not be echoed either.
    'WRONG-secret-0a9f',
    btoa('iacm-hooks:WRONG-secret-0a9f'),
  ];

  function serialisations(error: WebhookError): string[] {
    return [
      JSON.stringify(error),
      String(error),
      error.message,
      error.stack ?? '',
      inspect(error, { depth: 10, showHidden: true }),
      JSON.stringify(error.headers),
    ];
  }

  it('in every refusal, in every form', async () => {
    const receiver = createWebhookReceiver({ credentials: [basic, header], maxBodyBytes: 64 * 1024 });
    const errors: WebhookError[] = [];
    receiver.onError((error) => errors.push(error));
    const good = deliver(basic);
    const wrongBasic = encodeAuthorization({
      type: 'basic',
      username: 'iacm-hooks',
      password: 'WRONG-secret-0a9f',
    });
    const requests: WebhookRequest[] = [
      { ...good, method: 'GET' },
      deliver('none'),
      { ...good, headers: { ...good.headers, authorization: wrongBasic } },
      { ...good, headers: { ...good.headers, authorization: 'Bearer WRONG-secret-0a9f' } },
      { ...good, headers: { ...good.headers, authorization: 'Basic WRONG-secret-0a9f!' } },
      { ...good, headers: { authorization: good.headers.authorization ?? '', 'content-type': 'text/plain' } },
      { ...good, body: 'x'.repeat(70 * 1024) },
      { ...good, body: `{"password":"${SECRET_PASSWORD}"` },
      { ...good, body: JSON.stringify({ notificationType: 'Drift', accountId: SECRET_PASSWORD }) },
      { ...good, body: { parsed: true } as never },
    ];
    const answers = await Promise.all(requests.map((request) => receiver.handle(request)));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(
      new Set([405, 401, 400, 415, 413, 422, 500]),
    );
    expect(errors).toHaveLength(requests.length);
    const everything = [
      ...answers.map((answer) => JSON.stringify(answer)),
      ...errors.flatMap(serialisations),
      inspect(receiver, { depth: 10, showHidden: true }),
      JSON.stringify(receiver),
    ].join('\n');
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  it('in configuration errors', () => {
    const messages: string[] = [];
    for (const credentials of [
      { type: 'header', value: ` Bearer ${SECRET_TOKEN}` },
      { type: 'header', value: `Bearer ${SECRET_TOKEN}\n` },
      { type: 'basic', username: SECRET_PASSWORD },
      { type: 'other', secret: SECRET_PASSWORD },
    ]) {
      try {
        createWebhookReceiver({ credentials: credentials as never });
        messages.push('did not throw');
      } catch (error) {
        messages.push(inspect(error), String((error as Error).stack));
      }
    }
    expect(messages).not.toContain('did not throw');
    for (const message of messages) {
      expect(message).not.toContain(SECRET_TOKEN);
      expect(message).not.toContain(SECRET_PASSWORD);
    }
  });
});

describe('the check of each kind of credential', () => {
  it('gives the same verdict whichever kinds are configured (Basic, header, or both)', async () => {
    const { checkAuthorization, digestCredentials } = await import('../src/credentials.js');
    const other: WebhookCredentials = { type: 'basic', username: 'someone', password: 'else' };
    const sent = {
      basic: encodeAuthorization(basic),
      header: encodeAuthorization(header),
      otherBasic: encodeAuthorization(other),
      malformed: 'Basic !!!',
      noColon: `Basic ${btoa('nocolon')}`,
      bearer: 'Bearer nope',
      empty: 'Basic',
    };
    const verdicts = (list: WebhookCredentials[]) =>
      Object.fromEntries(
        Object.entries(sent).map(([name, value]) => [
          name,
          checkAuthorization(value, digestCredentials(list)),
        ]),
      );
    expect(verdicts([basic])).toEqual({
      basic: 'ok',
      header: 'invalid',
      otherBasic: 'invalid',
      malformed: 'malformed',
      noColon: 'malformed',
      bearer: 'invalid',
      empty: 'malformed',
    });
    expect(verdicts([header])).toEqual({
      basic: 'invalid',
      header: 'ok',
      otherBasic: 'invalid',
      malformed: 'invalid',
      noColon: 'invalid',
      bearer: 'invalid',
      empty: 'invalid',
    });
    expect(verdicts([header, basic])).toEqual({
      basic: 'ok',
      header: 'ok',
      otherBasic: 'invalid',
      malformed: 'malformed',
      noColon: 'malformed',
      bearer: 'invalid',
      empty: 'malformed',
    });
  });
});
