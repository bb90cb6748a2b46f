import { describe, expect, it } from 'vitest';
import { parseControlBody } from '../../src/control/route.js';
import { HttpError } from '../../src/errors.js';
import { FAULT_LIMITS, type Fault, FaultBody, FaultBook, type FaultRule } from '../../src/pipeline/faults.js';
import { refusal } from '../helpers.js';

/** Adds a rule as `control.addFault` and `POST /__mock/faults` do: checked by `FaultBody` first. */
function add(book: FaultBook, rule: FaultRule): Fault {
  return book.add(parseControlBody(FaultBody, rule));
}

describe('faults stage', () => {
  it('matches method and a `*` path pattern, and uses a fault `times` times', async () => {
    const book = new FaultBook();
    book.add({ method: 'POST', path: '/v2/guardrails*', status: 503, times: 2 });
    expect(await book.apply('GET', '/v2/guardrails/search', 'r1')).toBeUndefined();
    const first = await book.apply('POST', '/v2/guardrails/search', 'r2');
    expect(first).toEqual({
      status: 503,
      headers: { 'content-type': 'application/json' },
      body: {
        status: 503,
        code: 'service_unavailable',
        message: "fault injected by the mock's control plane (status 503)",
        requestId: 'r2',
      },
    });
    expect(book.list()[0]?.remaining).toBe(1);
    expect((await book.apply('POST', '/v2/guardrails', 'r3'))?.status).toBe(503);
    expect(book.list()).toEqual([]);
    expect(await book.apply('POST', '/v2/guardrails', 'r4')).toBeUndefined();
  });

  it('answers a given body and headers (names lower-cased), or drops the connection', async () => {
    const book = new FaultBook();
    book.add({ path: '/a', status: 418, body: { teapot: true }, headers: { 'Retry-After': '1' } });
    book.add({ path: '/b', drop: true });
    expect(await book.apply('GET', '/a', 'r')).toEqual({
      status: 418,
      headers: { 'content-type': 'application/json', 'retry-after': '1' },
      body: { teapot: true },
    });
    expect(await book.apply('GET', '/b', 'r')).toMatchObject({ status: 0, drop: true });
  });

  it('takes regex characters in a pattern literally', async () => {
    const book = new FaultBook();
    book.add({ path: '/v2/(a|b)+', status: 500 });
    expect(await book.apply('GET', '/v2/aaa', 'r')).toBeUndefined();
    expect((await book.apply('GET', '/v2/(a|b)+', 'r'))?.status).toBe(500);
  });

  it('refuses a bad rule with 400 naming the field; reset numbers ids from 1 again', () => {
    const book = new FaultBook();
    let refused: unknown;
    try {
      add(book, { path: 'no-slash' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).issues?.[0]?.path).toBe('path');
    expect(book.add({ path: '/x' }).id).toBe('fault_1');
    expect(book.add({ path: '/y' }).id).toBe('fault_2');
    book.reset();
    expect(book.list()).toEqual([]);
    expect(book.add({ path: '/z' }).id).toBe('fault_1');
  });

  describe('bounds (hostile input)', () => {
    it('refuses a path pattern longer than the limit, naming the field', () => {
      const error = refusal(() =>
        add(new FaultBook(), { path: `/${'a'.repeat(FAULT_LIMITS.maxPathLength)}` }),
      );
      expect(error.status).toBe(400);
      expect(error.issues?.[0]).toMatchObject({ path: 'path', expected: 'at most 2048 characters' });
    });

    it('matches a pattern of many stars against a long path by a linear scan (the 95 s regular-expression case)', async () => {
      const book = new FaultBook();
      // 14 stars took 95.8 s with the old regular expression; here, the longest pattern the limit allows.
      const pattern = `/${'*a'.repeat((FAULT_LIMITS.maxPathLength - 2) / 2)}b`;
      book.add({ path: pattern.slice(0, FAULT_LIMITS.maxPathLength), status: 500 });
      const path = `/${'a'.repeat(100_000)}`;
      // The test's hang bound (30 s) catches a backtracking matcher; a linear one answers at once.
      expect(await book.apply('GET', path, 'r1')).toBeUndefined();
    });

    it('refuses header names that are not tokens and values with CR/LF (no header injection)', () => {
      const injected = refusal(() =>
        add(new FaultBook(), { path: '/a', status: 500, headers: { 'x-a': 'ok\r\nset-cookie: evil=1' } }),
      );
      expect(injected.status).toBe(400);
      expect(String(injected.issues?.[0]?.path)).toContain('headers');
      const badName = refusal(() =>
        add(new FaultBook(), { path: '/a', status: 500, headers: { 'x a:': '1' } }),
      );
      expect(badName.status).toBe(400);
    });

    it('keeps at most maxFaults waiting faults: the next is a 409', () => {
      const book = new FaultBook();
      for (let i = 0; i < FAULT_LIMITS.maxFaults; i++) book.add({ path: `/f${i}`, status: 500 });
      const error = refusal(() => book.add({ path: '/one-more', status: 500 }));
      expect(error.status).toBe(409);
      expect(book.list()).toHaveLength(FAULT_LIMITS.maxFaults);
    });
  });

  it('needs a body for a success or redirect status (the default body is the error shape)', () => {
    const book = new FaultBook();
    expect(() => add(book, { path: '/a', status: 200 })).toThrow(HttpError);
    expect(add(book, { path: '/a', status: 200, body: [] }).status).toBe(200);
    expect(book.add({ path: '/b', status: 503 }).status).toBe(503);
  });
});
