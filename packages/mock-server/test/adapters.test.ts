import { createMockServer, type MockState } from '@iacm/mock-server';
import { listen } from '@iacm/mock-server/node';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tagRuleBody } from './helpers.js';

async function loginOver(base: string, account: { accessKey: string; secretKey: string }): Promise<string> {
  const res = await fetch(`${base}/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accessKey: account.accessKey, secretKey: account.secretKey }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

describe('MSW adapter', () => {
  const mock = createMockServer({
    baseUrl: ['https://iacm.test', 'https://api.example.test/prefix'],
    sizes: { workspaces: 20 },
  });
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('registers one catch-all handler per base URL', () => {
    expect(mock.handlers).toHaveLength(2);
  });

  it('serves the API to fetch, on each base URL, including one with a path prefix', async () => {
    const [primary] = mock.control.accounts();
    for (const base of ['https://iacm.test', 'https://api.example.test/prefix']) {
      const token = await loginOver(base, primary as { accessKey: string; secretKey: string });
      const res = await fetch(`${base}/v2/workspaces/search?pageSize=5`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sort: { workspaceName: { order: 1 } } }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
      expect(((await res.json()) as unknown[]).length).toBe(5);
    }
  });

  it('answers 204 without a body and turns a dropped-connection fault into a network error', async () => {
    const health = await fetch('https://iacm.test/v2/health');
    expect(health.status).toBe(204);
    expect(await health.text()).toBe('');
    mock.control.addFault({ path: '/v2/health', drop: true });
    await expect(fetch('https://iacm.test/v2/health')).rejects.toThrow();
  });

  it('answers malformed JSON with the error shape', async () => {
    const res = await fetch('https://iacm.test/v2/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_json' });
  });
});

describe('standalone node:http server', () => {
  let running: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    running = await listen({ port: 0, sizes: { workspaces: 60 } });
  });
  afterAll(() => running.close());

  it('listens on 127.0.0.1 and answers a login and a search', async () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const [primary] = running.control.accounts();
    const token = await loginOver(running.url, primary as { accessKey: string; secretKey: string });
    const res = await fetch(`${running.url}/v2/workspaces/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(25);
  });

  it('refuses a body over the limit with 413 in the error shape', async () => {
    const res = await fetch(`${running.url}/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessKey: 'a', secretKey: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('loses nothing under hundreds of concurrent mutations', async () => {
    const [primary] = running.control.accounts();
    const token = await loginOver(running.url, primary as { accessKey: string; secretKey: string });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const workspaces = (await (
      await fetch(`${running.url}/v2/workspaces/search?pageSize=60`, { method: 'POST', headers, body: '{}' })
    ).json()) as Array<{ id: string }>;
    const creates = Array.from({ length: 200 }, (_, i) =>
      fetch(`${running.url}/v2/guardrails`, {
        method: 'POST',
        headers,
        body: JSON.stringify(tagRuleBody(`load rule ${i}`)),
      }).then((r) => r.json() as Promise<{ ruleId: string }>),
    );
    const relabels = workspaces.map((w, i) =>
      fetch(`${running.url}/v2/workspaces/${w.id}/labels`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ labels: [`load-${i}`] }),
      }),
    );
    const [created, labelled] = await Promise.all([Promise.all(creates), Promise.all(relabels)]);
    expect(new Set(created.map((c) => c.ruleId)).size).toBe(200);
    expect(labelled.every((r) => r.status === 200)).toBe(true);
    const rules = (await (
      await fetch(`${running.url}/v2/guardrails/search?pageSize=500`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ filters: { createdBy: ['bbbbbbbbbbbbbbbbbbbbbbbb'] } }),
      })
    ).json()) as unknown[];
    expect(rules).toHaveLength(200);
    for (const [i, w] of workspaces.entries()) {
      const found = (await (
        await fetch(`${running.url}/v2/workspaces/search`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ filters: { labels: [`load-${i}`] } }),
        })
      ).json()) as Array<{ id: string }>;
      expect(found.map((f) => f.id)).toEqual([w.id]);
    }
  });
});

describe('listen off loopback with a snapshot (finding 4 of issue 20)', () => {
  const TOKEN = 'a-control-token-of-32-characters';
  /** A snapshot of a loopback mock: its seeded key pairs are public test fixtures. */
  const publicState = (): Promise<MockState> =>
    createMockServer({ sizes: { workspaces: 3, events: 10 } }).control.getState();
  const pairs = (accounts: Array<{ accessKey: string; secretKey: string }>) =>
    accounts.map(({ accessKey, secretKey }) => `${accessKey}:${secretKey}`);

  it('gives the snapshot random key pairs, kept across reset and setState; keepStateKeys keeps its own', async () => {
    const state = await publicState();
    const fixtures = pairs(state.accounts.map((a) => a.account));
    const running = await listen({ port: 0, host: '0.0.0.0', controlToken: TOKEN, state });
    try {
      const random = pairs(running.core.accounts());
      expect(random).toHaveLength(fixtures.length);
      for (const pair of random) expect(fixtures).not.toContain(pair);
      await running.control.reset();
      expect(pairs(running.core.accounts())).toEqual(random);
      await running.control.setState(await publicState());
      expect(pairs(running.core.accounts())).toEqual(random);
    } finally {
      await running.close();
    }
    const kept = await listen({ port: 0, host: '0.0.0.0', controlToken: TOKEN, state, keepStateKeys: true });
    try {
      expect(pairs(kept.core.accounts())).toEqual(fixtures);
      await kept.control.setState(await publicState());
      expect(pairs(kept.core.accounts())).toEqual(fixtures);
    } finally {
      await kept.close();
    }
  });
});
