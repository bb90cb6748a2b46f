import { request as httpRequest } from 'node:http';
import { listen, type RunningMockServer, UnsafeBindError } from '@iacm/mock-server/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { allowedHostNames, checkHost, isLoopbackHost } from '../../src/pipeline/host.js';

const TOKEN = 'control-token-for-tests-0123456789';
const json = { 'content-type': 'application/json' };

describe('the control token (M3)', () => {
  const core = new MockCore({ sizes: { workspaces: 3, events: 10 }, controlToken: TOKEN });
  const get = (headers: Record<string, string> = {}) =>
    core.handle({ method: 'GET', path: '/__mock/accounts', headers });

  it('answers 403 without the token or with a wrong one, naming what is needed, and no key in it', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }]) {
      const res = await get(headers);
      expect(res.status).toBe(403);
      const text = JSON.stringify(res.body);
      expect(text).toContain('Authorization: Bearer <control token>');
      expect(text).not.toContain(core.accounts()[0]?.secretKey ?? '-');
    }
  });

  it('answers with the token; the API itself needs none of it', async () => {
    expect((await get({ authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await core.handle({ method: 'GET', path: '/v2/health' })).status).toBe(204);
    // The in-process control plane is not HTTP: no token.
    expect(core.control.accounts().length).toBeGreaterThan(0);
  });
});

describe('mutating control routes need Content-Type: application/json (M3)', () => {
  const core = new MockCore({ sizes: { workspaces: 3, events: 10 } });

  it('refuses a text/plain reset (what a web page can send no-cors) with 415 naming the header; nothing resets', async () => {
    core.control.addFault({ path: '/v2/health', status: 500 });
    const res = await core.handle({
      method: 'POST',
      path: '/__mock/reset',
      headers: { 'content-type': 'text/plain' },
      rawBody: '',
    });
    expect(res.status).toBe(415);
    expect(JSON.stringify(res.body)).toContain('Content-Type: application/json');
    expect(core.control.faults()).toHaveLength(1);
  });

  it('refuses a DELETE without a content type, and accepts both with application/json', async () => {
    const bare = await core.handle({ method: 'DELETE', path: '/__mock/faults' });
    expect(bare.status).toBe(415);
    expect(core.control.faults()).toHaveLength(1);
    const cleared = await core.handle({ method: 'DELETE', path: '/__mock/faults', headers: json });
    expect(cleared.status).toBe(204);
    const reset = await core.handle({ method: 'POST', path: '/__mock/reset', headers: json });
    expect(reset.status).toBe(200);
  });

  it('still answers GET without a content type', async () => {
    expect((await core.handle({ method: 'GET', path: '/__mock/faults' })).status).toBe(200);
  });
});

describe('control: false (M3)', () => {
  it('answers 404 for every /__mock path over HTTP, while the in-process control plane works', async () => {
    const core = new MockCore({ sizes: { workspaces: 3, events: 10 }, control: false });
    const res = await core.handle({ method: 'GET', path: '/__mock/accounts' });
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).toContain('--no-control');
    expect(core.control.accounts().length).toBeGreaterThan(0);
  });
});

describe('the Host guard (M3, DNS rebinding)', () => {
  let running: RunningMockServer;
  beforeAll(async () => {
    running = await listen({
      port: 0,
      sizes: { workspaces: 3, events: 10 },
      allowedHosts: ['mock.internal'],
    });
  });
  afterAll(() => running.close());

  /** A GET with a chosen Host header (fetch does not let one set it). */
  function getWithHost(path: string, host: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${running.url}${path}`, { headers: { host } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('refuses a foreign Host with 403 naming --allowed-host, and returns no key', async () => {
    const res = await getWithHost('/__mock/accounts', 'evil.example');
    expect(res.status).toBe(403);
    expect(res.body).toContain('--allowed-host');
    expect(res.body).not.toContain('secretKey');
  });

  it('accepts localhost, 127.0.0.1, [::1] and an allowed host, with or without a port', async () => {
    for (const host of [
      'localhost',
      `127.0.0.1:${running.port}`,
      '[::1]:4010',
      'mock.internal:80',
      'LOCALHOST',
    ]) {
      expect((await getWithHost('/v2/health', host)).status, host).toBe(204);
    }
  });

  it('has the names a bind implies', () => {
    expect([...allowedHostNames('0.0.0.0', [], ['10.1.2.3', 'fe80::1'])]).toEqual(
      expect.arrayContaining(['localhost', '127.0.0.1', '::1', '10.1.2.3', 'fe80::1']),
    );
    expect(isLoopbackHost('127.0.0.2')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(isLoopbackHost('127.0.0.1.evil.example')).toBe(false);
    expect(() => checkHost({ method: 'GET', path: '/' }, allowedHostNames('127.0.0.1'))).not.toThrow();
  });
});

describe('a non-loopback bind (M3)', () => {
  it('is refused without a control token or control: false', async () => {
    await expect(listen({ port: 0, host: '0.0.0.0', sizes: { workspaces: 3, events: 10 } })).rejects.toThrow(
      UnsafeBindError,
    );
    await expect(listen({ port: 0, host: '0.0.0.0', sizes: { workspaces: 3, events: 10 } })).rejects.toThrow(
      /--control-token .*--no-control/,
    );
  });

  it('starts with a token, and then every account has a random key pair, not the seed fixtures', async () => {
    const loopback = new MockCore({ sizes: { workspaces: 3, events: 10 } });
    const running = await listen({
      port: 0,
      host: '0.0.0.0',
      controlToken: TOKEN,
      sizes: { workspaces: 3, events: 10 },
    });
    try {
      const seeded = loopback.accounts().map((a) => a.secretKey);
      const random = running.core.accounts().map((a) => a.secretKey);
      expect(random).toHaveLength(seeded.length);
      for (const key of random) expect(seeded).not.toContain(key);
      // Kept across reset: a user who read them once can still log in.
      await running.control.reset();
      expect(running.core.accounts().map((a) => a.secretKey)).toEqual(random);
    } finally {
      await running.close();
    }
  });

  it('starts with control: false', async () => {
    const running = await listen({
      port: 0,
      host: '0.0.0.0',
      control: false,
      sizes: { workspaces: 3, events: 10 },
    });
    await running.close();
  });
});

describe('a deeply nested fault body (L4)', () => {
  it('is refused when it is added over HTTP, so that listing faults never fails to serialise', async () => {
    const core = new MockCore({ sizes: { workspaces: 3, events: 10 } });
    const depth = 5_000;
    const res = await core.handle({
      method: 'POST',
      path: '/__mock/faults',
      headers: { 'content-type': 'application/json' },
      rawBody: `{"path":"/v2/health","status":500,"body":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('at most 64 levels');
    const listed = await core.handle({ method: 'GET', path: '/__mock/faults' });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
  });
});

describe('the guardrail dry run with hostile patterns (L5)', () => {
  it('matches 300 KB of many-star scope patterns against the longest names by a linear scan', async () => {
    const core = new MockCore({ sizes: { workspaces: 3, events: 10 } });
    // The longest pattern a rule may hold (256 characters, the contract's MAX_RULE_VALUE_LENGTH), 600 times.
    const pattern = `*${'a*'.repeat(127)}b`;
    expect(pattern).toHaveLength(256);
    const list = { include: Array(600).fill(pattern), exclude: [] };
    const rule = {
      createdBy: 'bbbbbbbbbbbbbbbbbbbbbbbb',
      name: 'stars',
      type: 'tag',
      scope: {
        workspaces: list,
        repositories: list,
        branches: { include: [], exclude: [] },
        labels: { include: [], exclude: [] },
      },
      criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['team'] } },
      severity: 3,
    };
    const body = JSON.stringify({
      rules: [rule],
      run: { workspaceName: 'a'.repeat(512), repository: 'a'.repeat(1024), branch: 'main' },
      plan: { changes: [] },
    });
    expect(body.length).toBeGreaterThan(300_000);
    // The old quadratic matcher took 255 s on this; the test's hang bound (30 s) catches a regression.
    const res = await core.handle({
      method: 'POST',
      path: '/__mock/guardrails/evaluate',
      headers: { 'content-type': 'application/json' },
      rawBody: body,
    });
    expect(res.status).toBe(200);
  });
});
