import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/errors.js';
import { RequestBody } from '../../src/pipeline/body.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof HttpError ? `${error.status} ${error.code}` : String(error);
  }
}

describe('body stage', () => {
  it('reads nothing until asked, then parses once', () => {
    const request = { method: 'POST', path: '/', rawBody: '{"a":1}' };
    const body = new RequestBody(request);
    expect(body.read).toBe(false);
    expect(body.value()).toEqual({ a: 1 });
    expect(body.read).toBe(true);
    request.rawBody = '{"a":2}';
    expect(body.value()).toEqual({ a: 1 });
  });

  it('answers 400 invalid_json for text that is not JSON, and the same again when asked twice', () => {
    const body = new RequestBody({ method: 'POST', path: '/', rawBody: '{oops' });
    expect(codeOf(() => body.value())).toBe('400 invalid_json');
    expect(codeOf(() => body.value())).toBe('400 invalid_json');
  });

  it('answers 415 for a body of another media type; accepts +json types and no content type', () => {
    const xml = new RequestBody({
      method: 'POST',
      path: '/',
      rawBody: '<a/>',
      headers: { 'Content-Type': 'application/xml' },
    });
    expect(codeOf(() => xml.value())).toBe('415 unsupported_media_type');
    const problem = new RequestBody({
      method: 'POST',
      path: '/',
      rawBody: '{"b":true}',
      headers: { 'content-type': 'application/merge-patch+json; charset=utf-8' },
    });
    expect(problem.value()).toEqual({ b: true });
    expect(new RequestBody({ method: 'POST', path: '/', rawBody: '[1]' }).value()).toEqual([1]);
  });

  it('takes an empty text as no body, and a body the adapter parsed as it is', () => {
    expect(new RequestBody({ method: 'POST', path: '/', rawBody: '  \n' }).value()).toBeUndefined();
    const parsed = { c: 3 };
    expect(new RequestBody({ method: 'POST', path: '/', body: parsed }).value()).toBe(parsed);
  });
});
