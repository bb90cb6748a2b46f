import { request as httpRequest } from 'node:http';
import { createMockServer } from '@iacm/mock-server';
import { listen, type RunningMockServer } from '@iacm/mock-server/node';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { FAULT_LIMITS } from '../../src/pipeline/faults.js';
import { tagRuleBody } from '../helpers.js';

const MiB = 1024 * 1024;

/** Sends `size` bytes of body in 64 KiB chunks, chunked (no Content-Length); answers status, headers and body. */
function sendChunked(
  url: string,
  path: string,
  size: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const req = httpRequest(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, sent }));
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

describe('body size limits on the standalone server', () => {
  let running: RunningMockServer;
  beforeAll(async () => {
    running = await listen({ port: 0, sizes: { workspaces: 5 } });
  });
  afterAll(() => running.close());

  it('answers 401, not 413, to an unauthenticated request with a huge body, reading none of it', async () => {
    const res = await fetch(`${running.url}/v2/guardrails`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(2 * MiB) }),
    });
    expect(res.status).toBe(401);
    const entry = running.control.journal().at(-1);
    expect(entry).toMatchObject({ path: '/v2/guardrails', status: 401, body: '[not read]' });
  });

  it('answers 413 from Content-Length with x-request-id, the error shape and no body in the journal', async () => {
    const res = await fetch(`${running.url}/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessKey: 'a', secretKey: 'x'.repeat(2 * MiB) }),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await res.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
    const entry = running.control.journal().at(-1);
    expect(entry?.status).toBe(413);
    expect(JSON.stringify(entry?.body ?? '').length).toBeLessThan(200);
  });

  it('stops reading a chunked body past the limit, answers 413 and closes the connection', async () => {
    const answer = await sendChunked(running.url, '/v2/login', 8 * MiB).catch((error: unknown) => ({
      status: -1,
      headers: {},
      body: String(error),
      sent: 0,
    }));
    // The server may close the connection while the client still writes: either a 413 arrives, or
    // the write fails; never a 200 or a 500, and never a read of the whole body.
    if (answer.status !== -1) {
      expect(answer.status).toBe(413);
      expect((answer.headers as Record<string, unknown>).connection).toBe('close');
    }
    const entry = running.control.journal().at(-1);
    expect(entry).toMatchObject({ path: '/v2/login', status: 413 });
  });

  it('applies the API limit given to listen, and each control route its own', async () => {
    const small = await listen({ port: 0, sizes: { workspaces: 5 }, maxBodyBytes: 100 });
    try {
      const res = await fetch(`${small.url}/v2/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ accessKey: 'a', secretKey: 'x'.repeat(200) }),
      });
      expect(res.status).toBe(413);
      // A control route is not bound by the API limit: a seed body of 150 bytes is fine.
      const seeded = await fetch(`${small.url}/__mock/seed`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seed: 'x'.repeat(100), sizes: { workspaces: 3 } }),
      });
      expect(seeded.status).toBe(200);
    } finally {
      await small.close();
    }
    const fault = await fetch(`${running.url}/__mock/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/v2/x', status: 500, body: 'x'.repeat(FAULT_LIMITS.maxBodyBytes) }),
    });
    expect(fault.status).toBe(413);
    expect(running.control.faults()).toEqual([]);
  });
});

describe('body size limits through MSW', () => {
  const mock = createMockServer({ baseUrl: 'https://limits.test', sizes: { workspaces: 5 } });
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('answers 413 over 1 MiB, and 401 without reading for an unauthenticated route', async () => {
    const big = JSON.stringify({ accessKey: 'a', secretKey: 'x'.repeat(2 * MiB) });
    const login = await fetch('https://limits.test/v2/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(login.status).toBe(413);
    expect(login.headers.get('x-request-id')).toMatch(/^req_/);
    const create = await fetch('https://limits.test/v2/guardrails', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(create.status).toBe(401);
    expect(mock.control.journal().at(-1)).toMatchObject({ status: 401, body: '[not read]' });
  });
});

describe('a client that has gone', () => {
  it('stops before the operation: nothing is created and the journal records the request as dropped', async () => {
    const core = new MockCore({ sizes: { workspaces: 5 } });
    const [primary] = core.accounts();
    if (!primary) throw new Error('no account');
    const { accessKey, secretKey } = primary;
    const login = await core.handle({ method: 'POST', path: '/v2/login', body: { accessKey, secretKey } });
    expect(login.status).toBe(200);
    const token = (login.body as { accessToken: string }).accessToken;
    const rules = () => core.store.accountOrPrimary(undefined).rules.size;
    const before = rules();
    const rule = tagRuleBody('created only by a client that stays');
    const create = (signal?: AbortSignal) =>
      core.handle(
        { method: 'POST', path: '/v2/guardrails', headers: { authorization: `Bearer ${token}` }, body: rule },
        signal ? { signal } : {},
      );
    const gone = new AbortController();
    gone.abort();
    const response = await create(gone.signal);
    expect(response.drop).toBe(true);
    expect(rules()).toBe(before);
    expect(core.control.journal().at(-1)).toMatchObject({ path: '/v2/guardrails', dropped: true });
    // The same request from a client that stays creates the rule.
    expect((await create()).status).toBe(200);
    expect(rules()).toBe(before + 1);
  });
});
