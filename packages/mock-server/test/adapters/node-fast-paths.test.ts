/**
 * The standalone server's per-request shortcuts of issue 25 (`adapters/node.ts`,
 * `adapters/answer-buffers.ts`): a request target read without a URL where a URL would read it the
 * same, and answers written into reused buffers (never one answer's bytes in another's); a body
 * read the same whether it arrives at once or in pieces.
 */
import { request as httpRequest } from 'node:http';
import { listen, type RunningMockServer } from '@iacm/mock-server/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_BUFFER_POOL, AnswerBuffers } from '../../src/adapters/answer-buffers.js';
import { requestTarget } from '../../src/adapters/node.js';

describe('requestTarget', () => {
  const targets = [
    '/',
    '/v2/workspaces/search',
    '/v2/workspaces/search/',
    '/v2/workspaces/search?pageSize=5&page=1',
    '/v2/workspaces/search?a=1&a=2&b',
    '/v2/workspaces/search?',
    '/v2/workspaces/search??pageSize=5',
    '/v2/workspaces/search?q=a+b%20c&x=%41%zz',
    '/v2/workspaces/search?q=\'"<>`{}|^',
    '/v2/workspaces/search?q=a#fragment',
    '/v2/workspaces/search#fragment',
    '/v2/guardrails/abc%2Fdef',
    '/v2/guardrails/%2e%2e/x',
    '/v2/./workspaces/search',
    '/v2/workspaces/../workspaces/search',
    '/v2/workspaces/search/.',
    '/.well-known/x',
    '/v2/a.b/c.d',
    '//evil.test/v2/workspaces/search',
    '/v2\\workspaces\\search',
    "/v2/a-b_c~d!$&'()*+,;=:@",
    '/v2/a|b^c`d{e}',
    '/v2/\u00e4\u00f6?q=\u00fc',
    '/v2/a b?c d',
    '/v2/\tx?y=\t',
  ];
  it.each(targets)('reads %j as new URL(target, "http://localhost") does', (target) => {
    const url = new URL(target, 'http://localhost');
    const read = requestTarget(target);
    expect(read.path).toBe(url.pathname);
    expect([...new URLSearchParams(read.query ?? '')]).toEqual([...url.searchParams]);
  });
});

describe('AnswerBuffers', () => {
  it('keeps at most maxBuffers waiting, none larger than maxBufferBytes, and a buffer given twice once', () => {
    const pool = new AnswerBuffers();
    const taken = Array.from({ length: ANSWER_BUFFER_POOL.maxBuffers + 4 }, () => pool.take(25_000));
    for (const buffer of taken) expect(buffer.length).toBeGreaterThanOrEqual(25_000);
    for (const buffer of taken) pool.give(buffer);
    expect(pool.waiting).toBe(ANSWER_BUFFER_POOL.maxBuffers);
    const huge = pool.take(ANSWER_BUFFER_POOL.maxBufferBytes + 1);
    expect(huge.length).toBe(ANSWER_BUFFER_POOL.maxBufferBytes + 1);
    const fresh = new AnswerBuffers();
    fresh.give(huge);
    expect(fresh.waiting).toBe(0);
    const one = fresh.take(10);
    fresh.give(one);
    fresh.give(one);
    expect(fresh.waiting).toBe(1);
    // A waiting buffer is reused when large enough, a new one made when not.
    expect(fresh.take(10)).toBe(one);
    fresh.give(one);
    expect(fresh.take(one.length + 1)).not.toBe(one);
  });
});

/** One request over node:http (its own connection), the body written in the given pieces. */
function send(
  base: string,
  path: string,
  headers: Record<string, string>,
  pieces: string[],
  pauseMs = 0,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.flushHeaders();
    const write = (i: number) => {
      if (i === pieces.length) {
        req.end();
        return;
      }
      req.write(pieces[i]);
      setTimeout(() => write(i + 1), pauseMs);
    };
    write(0);
  });
}

describe('the standalone server with reused answer buffers', () => {
  let server: RunningMockServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    server = await listen({ port: 0, sizes: { workspaces: 60 } });
    const [account] = server.control.accounts();
    const login = await fetch(`${server.url}/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessKey: account?.accessKey, secretKey: account?.secretKey }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    auth = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  });
  afterAll(() => server.close());

  it('answers concurrent requests of different pages each with its own bytes', async () => {
    const sizes = [1, 7, 25, 3, 50, 12, 25, 2, 40, 9, 33, 5];
    const expected = await Promise.all(
      sizes.map(async (size) => {
        const answer = await server.core.handle({
          method: 'POST',
          path: '/v2/workspaces/search',
          query: { pageSize: String(size) },
          headers: auth,
          body: {},
        });
        return JSON.stringify(answer.body);
      }),
    );
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        sizes.map((size) =>
          fetch(`${server.url}/v2/workspaces/search?pageSize=${size}`, {
            method: 'POST',
            headers: auth,
            body: '{}',
          }),
        ),
      );
      const texts = await Promise.all(answers.map((res) => res.text()));
      expect(texts).toEqual(expected);
    }
  });

  it('reads a body that arrives in pieces, and one that arrived whole, the same way', async () => {
    const body = JSON.stringify({ sort: { workspaceName: { order: -1 } } });
    const whole = await send(server.url, '/v2/workspaces/search?pageSize=3', auth, [body]);
    const pieces = await send(
      server.url,
      '/v2/workspaces/search?pageSize=3',
      auth,
      [body.slice(0, 5), body.slice(5, 20), body.slice(20)],
      20,
    );
    expect(whole.status).toBe(200);
    expect(pieces).toEqual(whole);
    const names = (JSON.parse(whole.text) as Array<{ workspaceName: string }>).map((w) => w.workspaceName);
    expect(names).toEqual([...names].sort().reverse());
    // A bad body is read too (not taken for none), whole or in pieces.
    const bad = await send(server.url, '/v2/workspaces/search', auth, ['{"sort": 1']);
    const badPieces = await send(server.url, '/v2/workspaces/search', auth, ['{"sort"', ': 1'], 20);
    expect(bad.status).toBe(400);
    expect(badPieces.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ code: 'invalid_json' });
  });
});
