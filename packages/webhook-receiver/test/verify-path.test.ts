/**
 * Every branch and boundary of the receiver's verify path made observable (issue 20, finding 12: the
 * mutation run over `receiver.ts`): each refusal's exact message, the content types and charsets
 * taken, what a declared `Content-Length` is trusted for, the body forms and their limits, how
 * headers are read, and the configuration checks.
 */
import {
  createTestDelivery,
  createWebhookReceiver,
  generateNotification,
  type WebhookError,
  type WebhookRequest,
} from '@iacm/webhook-receiver';
import { describe, expect, it, vi } from 'vitest';
import { basic, header, json } from './helpers.js';

const drift = generateNotification('Drift');
const good = createTestDelivery({ notification: drift, credentials: basic });
const size = new TextEncoder().encode(good.body).length;
const receiver = createWebhookReceiver({ credentials: basic });

/** The answer's status and message. */
async function outcome(request: WebhookRequest, on = receiver) {
  const answer = await on.handle(request);
  return { status: answer.status, message: answer.status === 200 ? 'ok' : (json(answer).message as string) };
}

const withHeaders = (headers: Record<string, string | string[]>): WebhookRequest => ({
  ...good,
  headers: { ...good.headers, ...headers },
});

describe('content types', () => {
  it('takes JSON and +json media types, in any case and spacing, with a UTF-8 charset or none', async () => {
    for (const contentType of [
      ' application/json',
      'application/json ; charset=utf-8',
      'Application/JSON',
      'application/vnd.api+json',
      'application/json; foo=bar',
      'application/json; charset = "UTF-8" ',
      'application/json; charset=utf8',
      'application/json; charset=US-ASCII',
      'application/json;charset="utf-8"',
    ]) {
      expect(await outcome(withHeaders({ 'content-type': contentType })), contentType).toEqual({
        status: 200,
        message: 'ok',
      });
    }
  });

  it('refuses another media type, naming it when it is one (415)', async () => {
    const expected = (received: string) => ({
      status: 415,
      message: `webhook deliveries are JSON: expected Content-Type application/json, received ${received}`,
    });
    const { 'content-type': _, ...noType } = good.headers;
    expect(await outcome({ ...good, headers: noType })).toEqual(expected('none'));
    for (const [contentType, received] of [
      ['text/plain', 'text/plain'],
      [' text/plain ; charset=utf-8', 'text/plain'],
      ['xapplication/vnd.api+json', 'xapplication/vnd.api+json'],
      ['application/vnd.api+jsonx', 'application/vnd.api+jsonx'],
      ['(text/plain', 'another media type'],
      ['text/plain)', 'another media type'],
      ['a/b', 'a/b'],
      [`${'t'.repeat(60)}/${'p'.repeat(60)}`, `${'t'.repeat(60)}/${'p'.repeat(60)}`],
      [`${'t'.repeat(61)}/plain`, 'another media type'],
      [`text/${'p'.repeat(61)}`, 'another media type'],
      ['', 'another media type'],
    ] as const) {
      expect(await outcome(withHeaders({ 'content-type': contentType })), contentType).toEqual(
        expected(received),
      );
    }
  });

  it('refuses a charset other than UTF-8 (415), a charset without a value or with inner quotes too', async () => {
    for (const contentType of [
      'application/json; charset=latin1',
      'application/json; charset',
      'application/json; charset=utf"-8',
      'application/json; charset=""',
    ]) {
      expect(await outcome(withHeaders({ 'content-type': contentType })), contentType).toEqual({
        status: 415,
        message: 'webhook deliveries are JSON in UTF-8; the Content-Type names another charset',
      });
    }
  });
});

describe('reading headers', () => {
  it('prefers the lower-case name of a record, and joins a list with ", "', async () => {
    const authorization = good.headers.authorization as string;
    const both = await receiver.handle({
      ...good,
      headers: { 'content-type': 'application/json', Authorization: 'Basic bm9wZTpub3Bl', authorization },
    });
    expect(both.status).toBe(200);
    const listed = createWebhookReceiver({ credentials: { type: 'header', value: 'Bearer, tok' } });
    const answer = await listed.handle({
      ...good,
      headers: { 'content-type': 'application/json', authorization: ['Bearer', 'tok'] },
    });
    expect(answer.status).toBe(200);
  });
});

describe('methods', () => {
  it('names the method it refuses when it is a word of at most 20 letters (405)', async () => {
    const expected = (what: string) => ({
      status: 405,
      message: `webhook deliveries are POST requests; this endpoint does not answer ${what}`,
    });
    for (const [method, what] of [
      ['GET', 'GET'],
      ['get', 'GET'],
      ['A'.repeat(20), 'A'.repeat(20)],
      ['A'.repeat(21), 'this method'],
      ['1GET', 'this method'],
      ['GET1', 'this method'],
      ['', 'this method'],
    ] as const) {
      expect(await outcome({ ...good, method }), method).toEqual(expected(what));
    }
    expect((await outcome({ ...good, method: 'post' })).status).toBe(200);
  });
});

describe('the size of the body', () => {
  const tooLarge = (limit: number) => ({
    status: 413,
    message: `the body is larger than the receiver's limit of ${limit} bytes; raise maxBodyBytes if deliveries are this large`,
  });

  it('trusts a declared Content-Length over the limit only when it is a plain number', async () => {
    const exact = createWebhookReceiver({ credentials: basic, maxBodyBytes: size });
    const reader = vi.fn(async () => good.body);
    for (const declared of [String(size + 1), ` ${size + 1} `, '99999999999999999999']) {
      expect(await outcome({ ...withHeaders({ 'content-length': declared }), body: reader }, exact)).toEqual(
        tooLarge(size),
      );
    }
    expect(reader).not.toHaveBeenCalled();
    // The declared length is only a shortcut: anything else is read and counted.
    for (const declared of [String(size), '1e9', '+2000000', `${size + 1}.5`, `${size + 1}x`, 'x', '-5']) {
      expect(await outcome(withHeaders({ 'content-length': declared }), exact), declared).toEqual({
        status: 200,
        message: 'ok',
      });
    }
  });

  it('counts the bytes of a string, a Uint8Array and an ArrayBuffer: the limit passes, one more is refused', async () => {
    const bytes = new TextEncoder().encode(good.body);
    for (const [limit, status] of [
      [size, 200],
      [size - 1, 413],
    ] as const) {
      const limited = createWebhookReceiver({ credentials: basic, maxBodyBytes: limit });
      for (const body of [good.body, bytes, bytes.slice().buffer, async () => bytes]) {
        const answer = await outcome({ ...good, body }, limited);
        expect(answer.status, `${limit} ${typeof body}`).toBe(status);
        if (status === 413) expect(answer).toEqual(tooLarge(limit));
      }
    }
    // A string of more characters than the limit is refused whatever its bytes.
    const small = createWebhookReceiver({ credentials: basic, maxBodyBytes: 4 });
    expect(await outcome({ ...good, body: '{"a":1}' }, small)).toEqual(tooLarge(4));
  });

  it('takes a limit of 0 (every body refused) and refuses a negative or fractional one', async () => {
    const none = createWebhookReceiver({ credentials: basic, maxBodyBytes: 0 });
    expect(await outcome(good, none)).toEqual(tooLarge(0));
    for (const maxBodyBytes of [-1, 1.5, Number.NaN])
      expect(() => createWebhookReceiver({ credentials: basic, maxBodyBytes })).toThrow(
        'createWebhookReceiver: `maxBodyBytes` must be a whole number of bytes, 0 or more.',
      );
  });
});

describe('the body', () => {
  it('refuses a reader that fails, keeping what it threw as the cause (400)', async () => {
    const errors: WebhookError[] = [];
    const broken = new Error('socket hang up');
    const on = createWebhookReceiver({ credentials: basic }).onError((error) => errors.push(error));
    const answer = await outcome(
      {
        ...good,
        body: async () => {
          throw broken;
        },
      },
      on,
    );
    expect(answer).toEqual({
      status: 400,
      message: 'the request body could not be read (the connection closed or broke while it was sent)',
    });
    expect(errors[0]?.cause).toBe(broken);
  });

  it('refuses a body a framework already read: its hint, else a sentence saying so (500)', async () => {
    expect(await outcome({ ...good, body: async () => ({ problem: 'already_parsed' as const }) })).toEqual({
      status: 500,
      message:
        'the body is not the raw request body: something parsed or read it before the receiver; give the receiver the raw body',
    });
    expect(
      await outcome({
        ...good,
        body: async () => ({ problem: 'already_parsed' as const, hint: 'use express.raw()' }),
      }),
    ).toEqual({ status: 500, message: 'use express.raw()' });
    expect(await outcome({ ...good, body: { notificationType: 'Drift' } as never })).toEqual({
      status: 500,
      message:
        'the body is not the raw request body (was it parsed as JSON first, e.g. by express.json()?): ' +
        'pass the raw body as a string, Uint8Array or ArrayBuffer, exactly as it arrived',
    });
  });

  it('refuses what a reader gave when it is not a raw body, and counts what it gave (issue 21)', async () => {
    expect(await outcome({ ...good, body: async () => ({ notificationType: 'Drift' }) as never })).toEqual({
      status: 500,
      message:
        'the body is not the raw request body: something parsed or read it before the receiver; give the receiver the raw body',
    });
    // A body given directly is never read as a reader's problem.
    expect((await outcome({ ...good, body: { problem: 'too_large' } as never })).status).toBe(500);
    const small = createWebhookReceiver({ credentials: basic, maxBodyBytes: size - 1 });
    expect((await outcome({ ...good, body: async () => good.body }, small)).status).toBe(413);
  });

  it('refuses an empty body, a null one included, and a body that is not UTF-8 (400)', async () => {
    const empty = { status: 400, message: 'the body is empty; a webhook delivery is a JSON object' };
    for (const body of ['', new Uint8Array(0), new ArrayBuffer(0), null as never]) {
      expect(await outcome({ ...good, body }), String(body)).toEqual(empty);
    }
    expect(await outcome({ ...good, body: new Uint8Array([0x7b, 0xff, 0x7d]) })).toEqual({
      status: 400,
      message: 'the body is not valid UTF-8; a webhook delivery is JSON in UTF-8',
    });
  });

  it('says where JSON breaks, or how, without quoting it (400)', async () => {
    const message = async (body: string) => (await outcome({ ...good, body })).message;
    expect(await message('{"abcdefghij":1 x}')).toBe(
      'the body is not valid JSON (syntax error at character 16)',
    );
    expect(await message('{"a":')).toBe('the body is not valid JSON: it ends too early (truncated?)');
    expect(await message('{"a": secret-value}')).toBe(
      'the body is not valid JSON: it has an unexpected character',
    );
  });
});

describe('the payload', () => {
  const sample = drift.samples[0] as Record<string, unknown>;
  const withIssues = (count: number) =>
    JSON.stringify({
      ...drift,
      samples: Array.from({ length: count }, () => ({ ...sample, isLocked: 'x' })),
    });
  const prefix = 'the body is not a webhook notification of the expected shape: ';

  it('names the first issue, then how many more, in the singular and the plural (422)', async () => {
    const one = await receiver.handle({ ...good, body: withIssues(1) });
    expect(one.status).toBe(422);
    const [issue] = json(one).issues as Array<{ message: string }>;
    expect(json(one).message).toBe(`${prefix}${issue?.message}`);
    expect((await outcome({ ...good, body: withIssues(2) })).message).toMatch(/ \(and 1 more issue\)$/);
    expect((await outcome({ ...good, body: withIssues(3) })).message).toMatch(/ \(and 2 more issues\)$/);
    expect((await outcome({ ...good, body: withIssues(101) })).message).toMatch(
      / \(and 99 more issues listed; validation stopped at 100 issues, so there may be more\)$/,
    );
  });

  it('refuses a body nested deeper than maxDepth, naming where (422); maxDepth 1 is a setting', async () => {
    const shallow = createWebhookReceiver({ credentials: basic, maxDepth: 1 });
    const answer = await shallow.handle({ ...good, body: '{"text":"hi","a":{"b":1}}' });
    expect(answer.status).toBe(422);
    expect(json(answer).message).toMatch(
      /^the body is not a webhook notification of the expected shape: a: expected .+, received .+; raise maxDepth if deliveries are this deep$/,
    );
    expect((await shallow.handle({ ...good, body: '{"text":"hi"}' })).status).toBe(200);
    for (const maxDepth of [0, 1.5])
      expect(() => createWebhookReceiver({ credentials: basic, maxDepth })).toThrow(
        'createWebhookReceiver: `maxDepth` must be a whole number of levels, 1 or more.',
      );
  });
});

describe('failures', () => {
  it('names the delivery whose handler threw; several failures are one AggregateError (500)', async () => {
    const causes: unknown[] = [];
    const one = createWebhookReceiver({ credentials: basic })
      .on('Drift', () => {
        throw new Error('first');
      })
      .onError((error) => causes.push(error.cause));
    expect(await outcome(good, one)).toEqual({
      status: 500,
      message: "a handler of the Drift delivery threw; the receiver's onError handlers got the error",
    });
    one.onAny(() => {
      throw new Error('second');
    });
    await one.handle(good);
    expect((causes[0] as Error).message).toBe('first');
    expect(causes[1]).toBeInstanceOf(AggregateError);
    expect((causes[1] as AggregateError).message).toBe('2 handlers threw');
  });

  it('does not turn its own failure into a refusal: verify throws it, handle answers 500 internal_error', async () => {
    const broken = { ...good, headers: null as never };
    await expect(receiver.verify(broken)).rejects.toBeInstanceOf(TypeError);
    const errors: WebhookError[] = [];
    const on = createWebhookReceiver({ credentials: basic }).onError((error) => errors.push(error));
    const answer = await on.handle(broken);
    expect(answer.status).toBe(500);
    expect(json(answer)).toEqual({
      status: 500,
      code: 'internal_error',
      message: 'the receiver failed unexpectedly; its onError handlers got the error',
    });
    expect(errors[0]?.cause).toBeInstanceOf(TypeError);
  });
});

describe('configuration', () => {
  it('needs options with credentials', () => {
    expect(() => createWebhookReceiver(undefined as never)).toThrow(
      /^createWebhookReceiver: `credentials` is required\./,
    );
  });

  it('refuses a realm that is not printable ASCII without quotes or backslashes', () => {
    const message = 'createWebhookReceiver: `realm` must be printable ASCII without quotes or backslashes.';
    for (const realm of ['réalm', 'a\nb', 'a"b', 'a\\b', '\u007f'])
      expect(() => createWebhookReceiver({ credentials: basic, realm }), realm).toThrow(message);
    expect(() => createWebhookReceiver({ credentials: basic, realm: ' ~ ' })).not.toThrow();
  });

  it('challenges with Basic when any configured credential is Basic', async () => {
    const mixed = createWebhookReceiver({ credentials: [header, basic] });
    const { authorization: _, ...without } = good.headers;
    const answer = await mixed.handle({ ...good, headers: without });
    expect(answer.headers['www-authenticate']).toBe('Basic realm="iacm-webhooks", charset="UTF-8"');
  });
});
