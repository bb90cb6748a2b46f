import type { BodyReader } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/errors.js';
import { RequestBody } from '../../src/pipeline/body.js';
import { NOT_KEPT } from '../../src/pipeline/journal.js';
import { expectError, setup } from '../helpers.js';

const LIMIT = 1024;

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof HttpError ? `${error.status} ${error.code}` : String(error);
  }
}

/** A reader over `text` that counts what it was asked for and how many bytes it handed out. */
function countingReader(text: string): { read: BodyReader; calls: number[]; handed: number } {
  const state = {
    calls: [] as number[],
    handed: 0,
    read: async (limit: number) => {
      state.calls.push(limit);
      const bytes = new TextEncoder().encode(text);
      if (bytes.byteLength > limit) {
        state.handed += limit + 1;
        return { problem: 'too_large' as const };
      }
      state.handed += bytes.byteLength;
      return bytes;
    },
  };
  return state;
}

describe('body stage', () => {
  it('reads nothing until asked, then parses once', async () => {
    const request = { method: 'POST', path: '/', rawBody: '{"a":1}' };
    const body = new RequestBody(request);
    body.trust();
    expect(body.read).toBe(false);
    expect(body.forJournal()).toBeUndefined();
    expect(await body.value(LIMIT)).toEqual({ a: 1 });
    expect(body.read).toBe(true);
    expect(body.forJournal()).toEqual({ value: { a: 1 } });
    request.rawBody = '{"a":2}';
    expect(await body.value(LIMIT)).toEqual({ a: 1 });
  });

  it('answers 400 invalid_json for text that is not JSON, and the same again when asked twice', async () => {
    const body = new RequestBody({ method: 'POST', path: '/', rawBody: '{oops' });
    expect(await codeOf(body.value(LIMIT))).toBe('400 invalid_json');
    expect(await codeOf(body.value(LIMIT))).toBe('400 invalid_json');
    body.trust();
    const journalled = body.forJournal() as { error: unknown };
    expect(journalled.error).toBeInstanceOf(HttpError);
  });

  it('answers 415 for a body of another media type; accepts +json types and no content type', async () => {
    const xml = new RequestBody({
      method: 'POST',
      path: '/',
      rawBody: '<a/>',
      headers: { 'Content-Type': 'application/xml' },
    });
    expect(await codeOf(xml.value(LIMIT))).toBe('415 unsupported_media_type');
    const problem = new RequestBody({
      method: 'POST',
      path: '/',
      rawBody: '{"b":true}',
      headers: { 'content-type': 'application/merge-patch+json; charset=utf-8' },
    });
    expect(await problem.value(LIMIT)).toEqual({ b: true });
    expect(await new RequestBody({ method: 'POST', path: '/', rawBody: '[1]' }).value(LIMIT)).toEqual([1]);
  });

  it('answers 415 for a body without a Content-Type where the route needs one (a route open without authentication)', async () => {
    const request = (headers?: Record<string, string>) =>
      new RequestBody({ method: 'POST', path: '/', rawBody: '{"a":1}', ...(headers ? { headers } : {}) });
    let refusal: unknown;
    try {
      await request().value(LIMIT, { requireContentType: true });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({
      status: 415,
      code: 'unsupported_media_type',
      message:
        'expected a JSON body with Content-Type: application/json (or application/<name>+json), received no Content-Type',
    });
    const json = { 'content-type': 'application/json' };
    expect(await request(json).value(LIMIT, { requireContentType: true })).toEqual({ a: 1 });
    expect(await request().value(LIMIT, { requireContentType: false })).toEqual({ a: 1 });
    expect(await request().value(LIMIT)).toEqual({ a: 1 });
    expect(
      await codeOf(request({ 'content-type': 'text/plain' }).value(LIMIT, { requireContentType: true })),
    ).toBe('415 unsupported_media_type');
    // No body at all is no body, whatever the Content-Type; a body the adapter parsed has passed its own checks.
    expect(
      await new RequestBody({ method: 'POST', path: '/', rawBody: '' }).value(LIMIT, {
        requireContentType: true,
      }),
    ).toBeUndefined();
    expect(
      await new RequestBody({ method: 'POST', path: '/', body: { b: 2 } }).value(LIMIT, {
        requireContentType: true,
      }),
    ).toEqual({ b: 2 });
  });

  it('POST /v2/login needs Content-Type: application/json, as the spec and the SDK send it (issue 20, finding 1)', async () => {
    const { core, primary } = await setup({ sizes: { workspaces: 2, events: 2 } });
    const rawBody = JSON.stringify({ accessKey: primary.accessKey, secretKey: primary.secretKey });
    // What a "no-cors" fetch from any web page can send: a body without a Content-Type.
    const bare = await core.handle({ method: 'POST', path: '/v2/login', rawBody });
    const error = expectError(bare, 415, 'unsupported_media_type');
    expect(error.message).toContain('received no Content-Type');
    expect(JSON.stringify(error)).not.toContain(primary.secretKey);
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
      const res = await core.handle({
        method: 'POST',
        path: '/v2/login',
        rawBody,
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(200);
    }
    // An authenticated route still reads a body without a Content-Type as JSON.
    const token = (
      (await core.handle({ method: 'POST', path: '/v2/login', body: JSON.parse(rawBody) })).body as {
        accessToken: string;
      }
    ).accessToken;
    const search = await core.handle({
      method: 'POST',
      path: '/v2/workspaces/search',
      rawBody: '{}',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(search.status).toBe(200);
  });

  it('gives the journal the body only once its sender is trusted, `[not kept]` before, nothing when unread', async () => {
    const body = new RequestBody({ method: 'POST', path: '/', rawBody: '{"a":1}' });
    expect(body.forJournal()).toBeUndefined();
    await body.value(LIMIT);
    expect(body.forJournal()).toBe(NOT_KEPT);
    body.trust();
    expect(body.forJournal()).toEqual({ value: { a: 1 } });
    const broken = new RequestBody({ method: 'POST', path: '/', rawBody: '{oops' });
    broken.trust();
    expect(broken.forJournal()).toBeUndefined();
    await codeOf(broken.value(LIMIT));
    const thrower = broken.forJournal();
    expect(
      thrower !== undefined && typeof thrower === 'object' && 'error' in thrower && thrower.error,
    ).toBeInstanceOf(HttpError);
  });

  it('takes an empty text as no body, and a body the adapter parsed as it is', async () => {
    expect(
      await new RequestBody({ method: 'POST', path: '/', rawBody: '  \n' }).value(LIMIT),
    ).toBeUndefined();
    const parsed = { c: 3 };
    expect(await new RequestBody({ method: 'POST', path: '/', body: parsed }).value(LIMIT)).toBe(parsed);
  });

  it('reads an adapter body on demand with the limit, and answers 413 when the reader stops past it', async () => {
    const small = countingReader('{"d":4}');
    const body = new RequestBody({ method: 'POST', path: '/', readBody: small.read });
    expect(small.calls).toEqual([]);
    expect(await body.value(LIMIT)).toEqual({ d: 4 });
    expect(small.calls).toEqual([LIMIT]);

    const big = countingReader(`"${'x'.repeat(5000)}"`);
    const tooBig = new RequestBody({ method: 'POST', path: '/', readBody: big.read });
    expect(await codeOf(tooBig.value(LIMIT))).toBe('413 payload_too_large');
    expect(big.handed).toBeLessThanOrEqual(LIMIT + 1);
  });

  it('answers 413 from a declared Content-Length over the limit without reading anything', async () => {
    const reader = countingReader('{}');
    const body = new RequestBody({
      method: 'POST',
      path: '/',
      headers: { 'content-length': String(LIMIT + 1) },
      readBody: reader.read,
    });
    expect(await codeOf(body.value(LIMIT))).toBe('413 payload_too_large');
    expect(reader.calls).toEqual([]);
  });

  it('answers 413 from a declared Content-Length over the limit for a raw text too, and for a reader that gave more than the limit (issue 21)', async () => {
    const declared = new RequestBody({
      method: 'POST',
      path: '/',
      rawBody: '{}',
      headers: { 'content-length': String(LIMIT + 1) },
    });
    expect(await codeOf(declared.value(LIMIT))).toBe('413 payload_too_large');
    const careless = new RequestBody({
      method: 'POST',
      path: '/',
      readBody: async () => `"${'x'.repeat(LIMIT)}"`,
    });
    expect(await codeOf(careless.value(LIMIT))).toBe('413 payload_too_large');
  });

  it('answers 413 for a raw text over the limit, counting UTF-8 bytes', async () => {
    const ascii = new RequestBody({ method: 'POST', path: '/', rawBody: `"${'a'.repeat(LIMIT)}"` });
    expect(await codeOf(ascii.value(LIMIT))).toBe('413 payload_too_large');
    // 400 characters, 1200 bytes.
    const wide = new RequestBody({ method: 'POST', path: '/', rawBody: `"${'€'.repeat(400)}"` });
    expect(await codeOf(wide.value(LIMIT))).toBe('413 payload_too_large');
  });

  it('refuses a body nested deeper than 64 levels with a 400 naming the limit, before any schema (L4)', async () => {
    const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`;
    expect(
      await new RequestBody({ method: 'POST', path: '/', rawBody: nested(64) }).value(1 << 30),
    ).toBeTruthy();
    const deep = new RequestBody({ method: 'POST', path: '/', rawBody: nested(200_000) });
    const error = await deep.value(1 << 30).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    expect((error as HttpError).message).toContain('at most 64 levels');
    expect((error as HttpError).issues).toHaveLength(1);
  });

  it('refuses an array of more than 10,000 items with one issue, not one per item (M6)', async () => {
    const body = new RequestBody({
      method: 'POST',
      path: '/',
      rawBody: `{"filters":{"labels":[${Array(100_000).fill('0').join(',')}]}}`,
    });
    const error = (await body.value(1 << 30).catch((e: unknown) => e)) as HttpError;
    expect(error.status).toBe(400);
    expect(error.issues).toEqual([
      expect.objectContaining({ path: 'filters.labels', expected: 'at most 10000 items' }),
    ]);
  });
});

/** A body with this Content-Type, through the body stage. */
const typed = (contentType: string, rawBody = '{"b":true}') =>
  new RequestBody({ method: 'POST', path: '/', rawBody, headers: { 'content-type': contentType } });

describe('media types', () => {
  it.each([
    'application/json-seq',
    'application/jsonl',
    'application/json5',
    'application/json-patch',
    'application/x-json',
    'text/json',
    'application/+json',
    'application/vnd api+json',
    'application/xml; note=+json',
  ])('answers 415 for %s, which is not JSON', async (contentType) => {
    expect(await codeOf(typed(contentType).value(LIMIT))).toBe('415 unsupported_media_type');
  });

  it.each([
    'application/json',
    'Application/JSON; charset=UTF-8',
    ' application/json ;charset=utf-8',
    'application/vnd.api+json',
    'application/merge-patch+json',
    'application/problem+json; charset=utf-8',
  ])('reads %s as JSON', async (contentType) => {
    expect(await typed(contentType).value(LIMIT)).toEqual({ b: true });
  });

  it.each([
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/problem+json; charset=ISO-8859-1',
    'application/json; charset',
  ])(
    'answers 415 for %s: JSON bodies are UTF-8, as the webhook receiver says too (issue 21)',
    async (contentType) => {
      const error = (await typed(contentType)
        .value(LIMIT)
        .catch((e: unknown) => e)) as HttpError;
      expect(`${error.status} ${error.code}`).toBe('415 unsupported_media_type');
      expect(error.message).toBe(
        `expected a JSON body in UTF-8: the Content-Type names another charset (received Content-Type: ${contentType})`,
      );
    },
  );

  it.each([
    'application/json; charset=utf8',
    'application/json; charset="UTF-8"',
    'application/json; charset=us-ascii',
  ])('reads %s as JSON (UTF-8, or its subset US-ASCII)', async (contentType) => {
    expect(await typed(contentType).value(LIMIT)).toEqual({ b: true });
  });

  it('names the media type it expected and the one that came', async () => {
    const error = (await typed('application/json-seq')
      .value(LIMIT)
      .catch((e: unknown) => e)) as HttpError;
    expect(error.message).toBe(
      'expected a JSON body with Content-Type: application/json (or application/<name>+json), received Content-Type: application/json-seq',
    );
  });
});

describe('inputs a validator of the OpenAPI document lets through, refused by the mock', () => {
  it('reads a JSON null body as null, not as an absent body', async () => {
    expect(await new RequestBody({ method: 'POST', path: '/', rawBody: 'null' }).value(LIMIT)).toBeNull();
  });

  it('refuses a JSON null body where the body must be an object: 400 naming body, never read as {}', async () => {
    const { call } = await setup({ sizes: { workspaces: 2, events: 2 } });
    for (const [method, path] of [
      ['POST', '/v2/workspaces/search'],
      ['POST', '/v2/login'],
      ['POST', '/api/iacStacks'],
      ['POST', '/v2/event-center'],
    ] as const) {
      const res = await call(method, path, { rawBody: 'null' });
      const body = expectError(res, 400, 'validation_failed');
      expect(body.issues, `${method} ${path}`).toEqual([
        {
          location: 'body',
          path: '',
          message: 'body: expected object, received null',
          expected: 'object',
          received: 'null',
        },
      ]);
    }
    // An endpoint without a body refuses it as a body.
    const health = expectError(
      await call('GET', '/v2/health', { rawBody: 'null' }),
      400,
      'validation_failed',
    );
    expect(health.message).toBe('body: GET /v2/health takes no body');
    // An absent optional body is still `{}`.
    expect((await call('POST', '/v2/workspaces/search')).status).toBe(200);
  });

  it('answers 415 for application/json-seq on an API route, before validating the body', async () => {
    const { call } = await setup({ sizes: { workspaces: 2, events: 2 } });
    const res = await call('POST', '/v2/workspaces/search', {
      rawBody: '{}',
      headers: { 'content-type': 'application/json-seq' },
    });
    expect(expectError(res, 415, 'unsupported_media_type').message).toContain(
      'received Content-Type: application/json-seq',
    );
  });

  it.each([
    [
      'page',
      '01',
      'expected a whole number without leading zeros, like 1',
      'a whole number without leading zeros',
    ],
    [
      'pageSize',
      '007',
      'expected a whole number without leading zeros, like 7',
      'a whole number without leading zeros',
    ],
    [
      'page',
      '1.0',
      'expected a whole number in decimal digits, like 0 or 25 (no sign, spaces, decimal point or exponent)',
      'a whole number in decimal digits',
    ],
    [
      'page',
      '+1',
      'expected a whole number in decimal digits, like 0 or 25 (no sign, spaces, decimal point or exponent)',
      'a whole number in decimal digits',
    ],
    [
      'page',
      '12345678901234567',
      'expected a whole number of at most 16 digits',
      'a whole number of at most 16 digits',
    ],
  ])(
    'answers %s=%s with a 400 naming the parameter, the rule and the text',
    async (name, value, rule, expected) => {
      const { call } = await setup({ sizes: { workspaces: 2, events: 2 } });
      const res = await call('POST', '/v2/workspaces/search', { body: {}, query: { [name]: value } });
      const body = expectError(res, 400, 'validation_failed');
      const message = `query.${name}: ${rule}, received ${JSON.stringify(value)}`;
      expect(body.message).toBe(message);
      expect(body.issues).toEqual([
        { location: 'query', path: name, message, expected, received: JSON.stringify(value) },
      ]);
    },
  );
});
