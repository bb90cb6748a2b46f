/**
 * The receiver's credential check is strict and fails closed (issue 20, findings 10 and 12): a value
 * holding a control character never verifies (only HTTP's spaces and tabs around it are trimmed),
 * only the result `'ok'` lets a delivery through, and a configuration that could never work (a
 * missing environment variable's `undefined`) is refused with a message naming the member.
 */
import {
  createTestDelivery,
  createWebhookReceiver,
  encodeAuthorization,
  generateNotification,
  type WebhookCredentials,
  type WebhookResponse,
} from '@iacm/webhook-receiver';
import { describe, expect, it } from 'vitest';
import { checkAuthorization, digestCredentials, hasControlCharacter } from '../src/credentials.js';
import { basic, header, json, SECRET_PASSWORD, SECRET_TOKEN } from './helpers.js';

const notification = generateNotification('Drift');
const CHALLENGE = 'Basic realm="iacm-webhooks", charset="UTF-8"';
const CONTROL_MESSAGE = 'the Authorization header holds a control character (CR, LF, NUL, DEL...)';
const MALFORMED_MESSAGE =
  'the Authorization header uses the Basic scheme but its value is not the base64 of "username:password"';
const INVALID_MESSAGE =
  "the Authorization header matches none of the receiver's credentials: check the integration's credentials " +
  "(Basic username and password, or the whole header value with its scheme) against the receiver's; " +
  'while rotating, configure the receiver with both the old and the new';
const MISSING_MESSAGE =
  'no Authorization header: the integration must be configured with credentials, or configure the receiver with credentials: "none"';

/** The Basic token (base64) of {@link basic}. */
const TOKEN = encodeAuthorization(basic).slice('Basic '.length);

/** The receiver's answer to a delivery with this `Authorization` value (none when undefined). */
async function answer(
  credentials: WebhookCredentials | readonly WebhookCredentials[],
  authorization?: string,
) {
  const receiver = createWebhookReceiver({ credentials });
  const delivery = createTestDelivery({ notification, credentials: 'none' });
  const headers = authorization === undefined ? delivery.headers : { ...delivery.headers, authorization };
  return receiver.handle({ ...delivery, headers });
}

function expectRefusal(res: WebhookResponse, status: number, code: string, message: string) {
  expect(res.status).toBe(status);
  expect(json(res)).toEqual({ status, code, message });
}

/** Every C0 character but the tab, and DEL. */
const CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).filter((c) => c !== '\t'),
  '\x7f',
];

describe('a credential value holding a control character', () => {
  it('never verifies: the three values of the finding, Basic and header alike (400, no challenge)', async () => {
    for (const [credentials, value] of [
      [basic, `Basic \r\n${TOKEN}`],
      [basic, `Basic ${TOKEN}\r\n`],
      [header, `${header.value}\r\n`],
      [header, `\r\n${header.value}`],
    ] as const) {
      const res = await answer(credentials, value);
      expectRefusal(res, 400, 'malformed_authorization', CONTROL_MESSAGE);
      expect(res.headers['www-authenticate'], JSON.stringify(value)).toBeUndefined();
    }
  });

  it('never verifies, whichever C0 character or DEL, wherever it is', async () => {
    const receiver = createWebhookReceiver({ credentials: [basic, header] });
    const delivery = createTestDelivery({ notification, credentials: 'none' });
    for (const control of CONTROLS) {
      for (const value of [
        `${control}Basic ${TOKEN}`,
        `Basic${control}${TOKEN}`,
        `Basic ${TOKEN.slice(0, 4)}${control}${TOKEN.slice(4)}`,
        `Basic ${TOKEN}${control}`,
        `${header.value}${control}`,
        `Bearer${control}${SECRET_TOKEN}`,
      ]) {
        const res = await receiver.handle({
          ...delivery,
          headers: { ...delivery.headers, authorization: value },
        });
        expect(res.status, JSON.stringify(value)).toBe(400);
        expect(json(res).message).toBe(CONTROL_MESSAGE);
      }
    }
  });

  it('is told by the exact rule: C0 but the tab, and DEL; not space, `~`, the tab or other characters', () => {
    for (const control of CONTROLS)
      expect(hasControlCharacter(`a${control}b`), control.charCodeAt(0).toString(16)).toBe(true);
    for (const plain of ['', 'a b', '~', 'a\tb', '\t', '\x80', '\u0085', 'é', '😀', ' !'])
      expect(hasControlCharacter(plain), JSON.stringify(plain)).toBe(false);
  });

  it('the tab and spaces stay allowed around the value and after the scheme, as in HTTP', async () => {
    for (const value of [
      `Basic\t${TOKEN}`,
      `Basic \t ${TOKEN}`,
      ` Basic ${TOKEN}`,
      `\tBasic ${TOKEN}`,
      `Basic ${TOKEN} `,
      `Basic ${TOKEN}\t`,
      ` \t Basic ${TOKEN} \t `,
    ]) {
      expect((await answer(basic, value)).status, JSON.stringify(value)).toBe(200);
    }
    for (const value of [` ${header.value}`, `${header.value}\t`, `\t ${header.value} \t`]) {
      expect((await answer(header, value)).status, JSON.stringify(value)).toBe(200);
    }
    // A configured value of one character is a value.
    expect((await answer({ type: 'header', value: 'x' }, 'x')).status).toBe(200);
    // A configured value with a tab inside is compared as it is.
    const tabbed: WebhookCredentials = { type: 'header', value: `Bearer\t${SECRET_TOKEN}` };
    expect((await answer(tabbed, `Bearer\t${SECRET_TOKEN}`)).status).toBe(200);
    expect((await answer(tabbed, `Bearer ${SECRET_TOKEN}`)).status).toBe(401);
  });

  it('but inner spaces of a header value are not trimmed, and a character outside ASCII is just wrong', async () => {
    expectRefusal(
      await answer(header, `Bearer  ${SECRET_TOKEN}`),
      401,
      'invalid_credentials',
      INVALID_MESSAGE,
    );
    expectRefusal(await answer(header, `${header.value}\u0085`), 401, 'invalid_credentials', INVALID_MESSAGE);
    expectRefusal(
      await answer(basic, `Basic ${TOKEN}\u2028`),
      400,
      'malformed_authorization',
      MALFORMED_MESSAGE,
    );
  });
});

describe('the answers of the credential check', () => {
  it('missing: no header, an empty one or only spaces and tabs (401 with the challenge)', async () => {
    for (const value of [undefined, '', ' ', '\t', ' \t ']) {
      const res = await answer(basic, value);
      expectRefusal(res, 401, 'missing_credentials', MISSING_MESSAGE);
      expect(res.headers['www-authenticate']).toBe(CHALLENGE);
    }
    // Without a Basic credential there is no challenge.
    expect((await answer(header)).headers['www-authenticate']).toBeUndefined();
  });

  it('malformed: Basic whose value is not canonical base64 of user:pass (400, no challenge)', async () => {
    for (const value of ['Basic', 'Basic ', 'Basic !!!!', `Basic ${btoa('no-colon')}`, `Basic ${TOKEN}=`]) {
      const res = await answer(basic, value);
      expectRefusal(res, 400, 'malformed_authorization', MALFORMED_MESSAGE);
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
    // With header credentials only, a Basic value is compared verbatim: just wrong.
    expectRefusal(await answer(header, 'Basic !!!!'), 401, 'invalid_credentials', INVALID_MESSAGE);
  });

  it('invalid: a wrong credential (401 with the challenge), ok: the right one', async () => {
    const wrong = encodeAuthorization({ type: 'basic', username: basic.username, password: 'wrong' });
    const res = await answer(basic, wrong);
    expectRefusal(res, 401, 'invalid_credentials', INVALID_MESSAGE);
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
    expect((await answer(basic, `Basic ${TOKEN}`)).status).toBe(200);
    expect((await answer(header, header.value)).status).toBe(200);
  });

  it('reads the Basic scheme only as the whole first word of the value', async () => {
    for (const value of [`xBasic ${TOKEN}`, `Basic${TOKEN}`, `BasicX ${TOKEN}`, `Bearer Basic ${TOKEN}`]) {
      expectRefusal(await answer(basic, value), 401, 'invalid_credentials', INVALID_MESSAGE);
    }
    for (const value of [`basic ${TOKEN}`, `BASIC ${TOKEN}`, `bAsIc ${TOKEN}`])
      expect((await answer(basic, value)).status, value).toBe(200);
  });

  it('keeps only the digests of the configured credentials, one list per method', () => {
    expect(digestCredentials('none')).toEqual({ none: true, basic: [], header: [] });
    const digests = digestCredentials([basic, header, basic]);
    expect(digests.none).toBe(false);
    expect(digests.basic).toHaveLength(2);
    expect(digests.header).toHaveLength(1);
    expect(digestCredentials([basic]).header).toEqual([]);
    expect(digestCredentials([header]).basic).toEqual([]);
    for (const digest of [...digests.basic, ...digests.header]) expect(digest).toHaveLength(32);
    expect(JSON.stringify(digests)).not.toContain(SECRET_TOKEN);
  });

  it('are exactly these, from the check itself', () => {
    const digests = digestCredentials([basic, header]);
    expect(checkAuthorization(`Basic ${TOKEN}`, digests)).toBe('ok');
    expect(checkAuthorization(header.value, digests)).toBe('ok');
    expect(checkAuthorization(undefined, digests)).toBe('missing');
    expect(checkAuthorization(' \t', digests)).toBe('missing');
    expect(checkAuthorization('Basic !', digests)).toBe('malformed');
    expect(checkAuthorization(`Basic ${TOKEN}\n`, digests)).toBe('control');
    expect(checkAuthorization('Bearer nope', digests)).toBe('invalid');
    expect(checkAuthorization('anything\r\n', digestCredentials('none'))).toBe('ok');
  });
});

describe('configuration that could never work', () => {
  const where = 'createWebhookReceiver: credentials[0]';
  const env = '(is its environment variable set?).';
  const refused = (credentials: unknown) => {
    try {
      createWebhookReceiver({ credentials: credentials as never });
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError);
      return (error as TypeError).message;
    }
    return 'accepted';
  };

  it('a Basic username or password that is not a string (a missing environment variable)', () => {
    expect(refused({ type: 'basic', username: 'u', password: undefined })).toBe(
      `${where}.password: expected a string, received undefined ${env}`,
    );
    expect(refused({ type: 'basic', username: 'u', password: null })).toBe(
      `${where}.password: expected a string, received null ${env}`,
    );
    expect(refused({ type: 'basic', username: 'u', password: 42 })).toBe(
      `${where}.password: expected a string, received number ${env}`,
    );
    expect(refused({ type: 'basic', username: undefined, password: 'p' })).toBe(
      `${where}.username: expected a string, received undefined ${env}`,
    );
    expect(refused({ type: 'basic', username: ['u'], password: 'p' })).toBe(
      `${where}.username: expected a string, received an array ${env}`,
    );
    expect(refused({ type: 'basic', username: { name: 'u' }, password: 'p' })).toBe(
      `${where}.username: expected a string, received object ${env}`,
    );
    // An empty password is a password.
    expect(refused({ type: 'basic', username: 'u', password: '' })).toBe('accepted');
  });

  it('a Basic username or password with a control character', () => {
    for (const control of ['\r', '\n', '\0', '\x7f']) {
      expect(refused({ type: 'basic', username: 'u', password: `p${control}` })).toBe(
        `${where}.password: expected no control characters (CR, LF, NUL, DEL...), received a string with one.`,
      );
      expect(refused({ type: 'basic', username: `${control}u`, password: 'p' })).toMatch(
        /^createWebhookReceiver: credentials\[0\]\.username: expected no control characters/,
      );
    }
    expect(refused({ type: 'basic', username: 'u', password: 'p\tq' })).toBe('accepted');
  });

  it('a header value that is not a non-empty string', () => {
    const message = (received: string) =>
      `${where}.value: expected a non-empty string (the whole Authorization value, scheme included), received ${received} ${env}`;
    expect(refused({ type: 'header', value: undefined })).toBe(message('undefined'));
    expect(refused({ type: 'header' })).toBe(message('undefined'));
    expect(refused({ type: 'header', value: '' })).toBe(message('an empty string'));
    expect(refused({ type: 'header', value: true })).toBe(message('boolean'));
    expect(refused({ type: 'header', value: ' Bearer x' })).toBe(
      `${where}.value: the Authorization header value must be printable ASCII without leading or trailing whitespace ` +
        '(HTTP strips surrounding whitespace and servers read other bytes differently, so it could never match).',
    );
  });

  it('a credential that is not an object, or of an unknown type, naming its place in the list', () => {
    expect(refused(['x'])).toBe(
      `${where} is not a credential object; expected { type: 'basic', ... } or { type: 'header', ... }, received string.`,
    );
    expect(refused([basic, null])).toBe(
      "createWebhookReceiver: credentials[1] is not a credential object; expected { type: 'basic', ... } or { type: 'header', ... }, received null.",
    );
    expect(refused([header, basic, 7])).toMatch(
      /^createWebhookReceiver: credentials\[2\] .* received number\.$/,
    );
    expect(refused([''])).toMatch(/received an empty string\.$/);
    expect(refused({ type: 'oauth' })).toBe(`${where}.type: unknown type; expected 'basic' or 'header'.`);
    expect(refused(null)).toBe(refused(undefined));
    expect(refused(undefined)).toBe(
      'createWebhookReceiver: `credentials` is required. Pass the credentials configured on the integration ' +
        "({ type: 'basic', username, password } or { type: 'header', value }), a list of them while rotating, " +
        "or credentials: 'none' when the integration has no custom credentials.",
    );
    expect(refused([])).toBe(
      "createWebhookReceiver: `credentials` is an empty list, which would refuse every delivery. Configure at least one credential, or credentials: 'none'.",
    );
  });

  it('never shows the configured secret in the message', () => {
    const messages = [
      refused({ type: 'basic', username: SECRET_PASSWORD, password: undefined }),
      refused({ type: 'basic', username: 'u', password: `${SECRET_PASSWORD}\n` }),
      refused({ type: 'header', value: `Bearer ${SECRET_TOKEN}\n` }),
    ];
    for (const message of messages) {
      expect(message).not.toContain(SECRET_PASSWORD);
      expect(message).not.toContain(SECRET_TOKEN);
    }
  });
});
