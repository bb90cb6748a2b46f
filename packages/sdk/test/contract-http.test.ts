/**
 * The HTTP rules the mock server and the webhook receiver share (issue 21): reading a header from
 * every header form, which `Content-Type` is JSON, and reading a body within a size limit.
 */
import {
  BodyCollector,
  type BodyReader,
  checkJsonMediaType,
  isBodyReadProblem,
  isJsonMediaType,
  readBoundedBody,
  readHeader,
} from '@iacm/sdk/contract';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';

describe('readHeader', () => {
  it('reads a web Headers in any case, and anything with get()', () => {
    const headers = new Headers({ 'Content-Type': 'application/json' });
    expect(readHeader(headers, 'content-type')).toBe('application/json');
    expect(readHeader(headers, 'CONTENT-TYPE')).toBe('application/json');
    expect(readHeader(headers, 'authorization')).toBeUndefined();
    const map = new Map([['x-one', '1']]);
    expect(readHeader(map, 'x-one')).toBe('1');
    expect(readHeader(map, 'x-two')).toBeUndefined();
    expect(readHeader({ get: () => null }, 'x')).toBeUndefined();
  });

  it('reads a record in any case, a list joined with ", ", skipping absent values', () => {
    expect(readHeader({ 'Content-Type': 'text/plain' }, 'content-type')).toBe('text/plain');
    expect(readHeader({ 'content-type': 'text/plain' }, 'Content-Type')).toBe('text/plain');
    expect(readHeader({ 'X-Forwarded-For': ['10.0.0.1', '10.0.0.2'] }, 'x-forwarded-for')).toBe(
      '10.0.0.1, 10.0.0.2',
    );
    expect(readHeader({ 'x-list': [] }, 'x-list')).toBe('');
    expect(readHeader({ Host: undefined, host: 'a.test' }, 'host')).toBe('a.test');
    expect(readHeader({ host: undefined, Host: 'a.test' }, 'host')).toBe('a.test');
    expect(readHeader({ host: undefined }, 'host')).toBeUndefined();
    expect(readHeader({}, 'host')).toBeUndefined();
    expect(readHeader(undefined, 'host')).toBeUndefined();
  });

  it("prefers the record's member of exactly that name, else the first that matches in any case", () => {
    const both = { Authorization: 'Basic first', authorization: 'Bearer exact' };
    expect(readHeader(both, 'authorization')).toBe('Bearer exact');
    expect(readHeader(both, 'Authorization')).toBe('Basic first');
    expect(readHeader({ 'X-A': '1', 'x-A': '2' }, 'x-a')).toBe('1');
  });

  it('reads only the record’s own members, and a member named get as a header', () => {
    expect(readHeader({}, 'constructor')).toBeUndefined();
    expect(readHeader({}, 'toString')).toBeUndefined();
    expect(
      readHeader(Object.create({ host: 'inherited' }) as Record<string, string>, 'host'),
    ).toBeUndefined();
    expect(readHeader({ get: 'a header' }, 'get')).toBe('a header');
    const bare = Object.assign(Object.create(null) as Record<string, string>, { host: 'node.test' });
    expect(readHeader(bare, 'Host')).toBe('node.test');
  });

  it('throws a TypeError for headers that are null (a caller’s bug, not a request)', () => {
    expect(() => readHeader(null as never, 'host')).toThrow(TypeError);
  });
});

describe('checkJsonMediaType and isJsonMediaType', () => {
  it.each([
    'application/json',
    'Application/JSON',
    ' application/json ',
    'application/json ; charset=utf-8',
    'application/json;charset="utf-8"',
    'application/json; charset = "UTF-8" ',
    'application/json; charset=utf8',
    'application/json; charset=US-ASCII',
    'application/json; foo=bar',
    'application/json; foo',
    'application/json;',
    'application/vnd.api+json',
    'application/merge-patch+json',
    'application/problem+json; charset=utf-8',
    'application/vnd.a-b_c.d!#$&^+json',
    'application/1+json',
  ])('%s is JSON', (contentType) => {
    expect(checkJsonMediaType(contentType)).toBeUndefined();
    expect(isJsonMediaType(contentType)).toBe(true);
  });

  it.each([
    'application/json-seq',
    'application/jsonl',
    'application/json5',
    'application/json-patch',
    'application/x-json',
    'application/x-ndjson',
    'text/json',
    'text/plain',
    'application/+json',
    'application/vnd api+json',
    'application/vnd/api+json',
    'application/vnd.api+jsonx',
    'xapplication/vnd.api+json',
    'application/vnd.api+json+',
    'application/xml; note=+json',
    'application/vnd.ä+json',
    '',
    ';charset=utf-8',
  ])('%s is another media type', (contentType) => {
    expect(checkJsonMediaType(contentType)).toBe('not_json');
    expect(isJsonMediaType(contentType)).toBe(false);
  });

  it.each([
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json; charset=ISO-8859-1',
    'application/json; charset',
    'application/json; charset=',
    'application/json; charset=""',
    'application/json; charset=utf"-8',
    'application/json; charset=utf-8=x',
    'application/json; charset=utf-8; charset=latin1',
    'application/vnd.api+json; Charset=latin1',
  ])('%s names another charset than UTF-8', (contentType) => {
    expect(checkJsonMediaType(contentType)).toBe('charset');
    expect(isJsonMediaType(contentType)).toBe(false);
  });

  it('says missing for no Content-Type, which isJsonMediaType does not take as JSON', () => {
    expect(checkJsonMediaType(undefined)).toBe('missing');
    expect(isJsonMediaType(undefined)).toBe(false);
  });
});

describe('readBoundedBody', () => {
  const LIMIT = 10;
  const tooLarge = { problem: 'too_large' };

  it('refuses a declared Content-Length over the limit without calling the reader', async () => {
    const reader = vi.fn<BodyReader>(async () => '{}');
    for (const declared of ['11', ' 11 ', '0011', '99999999999999999999', '1'.repeat(400)]) {
      expect(await readBoundedBody(reader, declared, LIMIT), declared).toEqual(tooLarge);
    }
    expect(await readBoundedBody('{}', '11', LIMIT)).toEqual(tooLarge);
    expect(reader).not.toHaveBeenCalled();
  });

  it('reads on when the Content-Length is within the limit or not a plain number, counting instead', async () => {
    for (const declared of [
      undefined,
      '10',
      '0',
      '',
      ' ',
      '1e9',
      '+20',
      '-5',
      '10.5',
      '11x',
      'x',
      '11, 11',
    ]) {
      const reader = vi.fn<BodyReader>(async () => '{"a":1}');
      expect(await readBoundedBody(reader, declared, LIMIT), String(declared)).toBe('{"a":1}');
      expect(reader).toHaveBeenCalledWith(LIMIT);
    }
  });

  it('passes a reader’s problem on, and what it throws', async () => {
    expect(await readBoundedBody(async () => ({ problem: 'too_large' }), undefined, LIMIT)).toEqual(tooLarge);
    const parsed = { problem: 'already_parsed', hint: 'use express.raw()' } as const;
    expect(await readBoundedBody(async () => parsed, undefined, LIMIT)).toBe(parsed);
    const broken = new Error('socket hang up');
    await expect(
      readBoundedBody(
        async () => {
          throw broken;
        },
        undefined,
        LIMIT,
      ),
    ).rejects.toBe(broken);
  });

  it('counts what a reader gave too: one that did not keep to the limit is refused', async () => {
    expect(await readBoundedBody(async () => new Uint8Array(11), undefined, LIMIT)).toEqual(tooLarge);
    expect(await readBoundedBody(async () => 'x'.repeat(11), undefined, LIMIT)).toEqual(tooLarge);
  });

  it('takes a string, a Uint8Array or an ArrayBuffer of the limit, unchanged, and refuses one byte more', async () => {
    const text = 'x'.repeat(LIMIT);
    const bytes = new Uint8Array(LIMIT);
    const buffer = new ArrayBuffer(LIMIT);
    expect(await readBoundedBody(text, undefined, LIMIT)).toBe(text);
    expect(await readBoundedBody(bytes, undefined, LIMIT)).toBe(bytes);
    expect(await readBoundedBody(buffer, undefined, LIMIT)).toBe(buffer);
    expect(await readBoundedBody(`${text}x`, undefined, LIMIT)).toEqual(tooLarge);
    expect(await readBoundedBody(new Uint8Array(LIMIT + 1), undefined, LIMIT)).toEqual(tooLarge);
    expect(await readBoundedBody(new ArrayBuffer(LIMIT + 1), undefined, LIMIT)).toEqual(tooLarge);
    expect(await readBoundedBody('', undefined, 0)).toBe('');
    expect(await readBoundedBody('x', undefined, 0)).toEqual(tooLarge);
  });

  it('counts a string in UTF-8 bytes: 2, 3 and 4 byte characters, a lone surrogate as 3', async () => {
    for (const [text, bytes] of [
      ['é'.repeat(5), 10],
      ['€€€a', 10],
      ['😀😀a', 9],
      ['\ud800\ud800\ud800a', 10],
      ['a\udc00', 4],
      ['😀\ud83d', 7],
    ] as const) {
      expect(new TextEncoder().encode(text).byteLength, text).toBe(bytes);
      expect(await readBoundedBody(text, undefined, bytes), text).toBe(text);
      expect(await readBoundedBody(text, undefined, bytes - 1), text).toEqual(tooLarge);
    }
  });

  it('counts any string as TextEncoder does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string()),
        fc.nat({ max: 64 }),
        async (text, limit) => {
          const over = new TextEncoder().encode(text).byteLength > limit;
          expect(await readBoundedBody(text, undefined, limit)).toEqual(over ? tooLarge : text);
        },
      ),
    );
  });

  it('reads null or undefined as an empty body, and refuses a parsed body as already parsed', async () => {
    expect(await readBoundedBody(null, undefined, LIMIT)).toBe('');
    expect(await readBoundedBody(undefined, undefined, LIMIT)).toBe('');
    expect(await readBoundedBody(async () => null as never, undefined, LIMIT)).toBe('');
    for (const parsed of [{ a: 1 }, [1], 42, true, { problem: 'too_large' }]) {
      expect(await readBoundedBody(parsed as never, undefined, LIMIT), JSON.stringify(parsed)).toEqual({
        problem: 'already_parsed',
      });
    }
    expect(await readBoundedBody(async () => ({ a: 1 }) as never, undefined, LIMIT)).toEqual({
      problem: 'already_parsed',
    });
  });
});

describe('BodyCollector', () => {
  it('keeps chunks up to the limit and joins them; one byte more drops them all', () => {
    const body = new BodyCollector(5);
    expect(body.add(new Uint8Array([1, 2]))).toBe(true);
    expect(body.add(new Uint8Array([3, 4, 5]))).toBe(true);
    expect(body.bytes()).toEqual(new Uint8Array([1, 2, 3, 4, 5]));
    expect(body.add(new Uint8Array([6]))).toBe(false);
    expect(body.bytes()).toEqual(new Uint8Array(0));
    expect(body.add(new Uint8Array(0))).toBe(false);
  });

  it('gives a single chunk as it is, and no chunk as an empty body', () => {
    const chunk = new Uint8Array([1]);
    const one = new BodyCollector(1);
    one.add(chunk);
    expect(one.bytes()).toBe(chunk);
    expect(new BodyCollector(0).bytes()).toEqual(new Uint8Array(0));
    const none = new BodyCollector(0);
    expect(none.add(new Uint8Array(0))).toBe(true);
    expect(none.add(new Uint8Array(1))).toBe(false);
    expect(none.limit).toBe(0);
  });
});

describe('isBodyReadProblem', () => {
  it('is true only for an object with a string problem', () => {
    expect(isBodyReadProblem({ problem: 'too_large' })).toBe(true);
    expect(isBodyReadProblem({ problem: 'already_parsed', hint: 'x' })).toBe(true);
    for (const value of [
      null,
      undefined,
      'too_large',
      new Uint8Array(1),
      new ArrayBuffer(1),
      {},
      { problem: 1 },
    ]) {
      expect(isBodyReadProblem(value), String(value)).toBe(false);
    }
  });
});
