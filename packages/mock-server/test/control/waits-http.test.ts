/**
 * Waits over HTTP: `GET`/`POST /__mock/journal/wait` and `GET /__mock/deliveries/next` are bounded
 * long polls. They answer the call or attempt when it comes, 408 in the standard error shape (listing
 * what arrived) when the timeout runs out, 400 naming `query.timeout` past 30 seconds, 409 past 100
 * pending waits; `close()` rejects what is pending.
 */

import { listen } from '@iacm/mock-server/node';
import { ErrorBody } from '@iacm/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { WAIT_LIMITS } from '../../src/pipeline/waiters.js';

let running: Awaited<ReturnType<typeof listen>>;
let token = '';

beforeAll(async () => {
  running = await listen({ port: 0, sizes: { workspaces: 10 } });
  const [primary] = running.control.accounts();
  const res = await fetch(`${running.url}/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accessKey: primary?.accessKey, secretKey: primary?.secretKey }),
  });
  token = ((await res.json()) as { accessToken: string }).accessToken;
});
afterAll(() => running.close());

const search = (body: Record<string, unknown>) =>
  fetch(`${running.url}/v2/workspaces/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The error body of an answer, checked against the contract's one error shape. */
async function errorOf(res: Response, status: number) {
  expect(res.status).toBe(status);
  return ErrorBody.parse(await res.json());
}

describe('GET /__mock/journal/wait', () => {
  it('answers the call made after since=<request id>, typed like the journal', async () => {
    // Whichever of the wait and the second search reaches the mock first, the wait answers that search.
    const first = await search({ searchValue: 'before' });
    const since = first.headers.get('x-request-id');
    const waiting = fetch(
      `${running.url}/__mock/journal/wait?endpoint=workspaces.search&since=${since}&timeout=10000`,
    );
    const sent = await search({ searchValue: 'http' });
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      endpoint: 'workspaces.search',
      requestId: sent.headers.get('x-request-id'),
      body: { searchValue: 'http' },
      status: 200,
    });
  });

  it('answers one already journalled with since=start, and POST matches by body', async () => {
    const sent = await search({ searchValue: 'posted' });
    const res = await fetch(`${running.url}/__mock/journal/wait`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        endpoint: 'workspaces.search',
        since: 'start',
        match: { body: { searchValue: 'posted' } },
        timeout: 0,
      }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { requestId: string }).requestId).toBe(sent.headers.get('x-request-id'));
  });

  it('answers 408 in the standard error shape when the timeout runs out, listing what arrived', async () => {
    const waiting = fetch(`${running.url}/__mock/journal/wait?endpoint=guardrails.create&timeout=200`);
    await search({ searchValue: 'not a guardrail' });
    const error = await errorOf(await waiting, 408);
    expect(error.code).toBe('request_timeout');
    expect(error.message).toMatch(
      /^waitFor\('guardrails\.create'\): no match within 200 ms; (nothing arrived|\d+ arrived: .*workspaces\.search)/,
    );
  });

  it('refuses a timeout over 30 seconds, and unknown parameters, naming them', async () => {
    const long = await errorOf(
      await fetch(`${running.url}/__mock/journal/wait?endpoint=health&timeout=30001`),
      400,
    );
    expect(long.message).toBe(
      'query.timeout: expected an integer from 0 to 30000 (milliseconds), received number 30001',
    );
    expect(long.issues?.map((i) => i.path)).toEqual(['timeout']);
    const text = await errorOf(
      await fetch(`${running.url}/__mock/journal/wait?endpoint=health&timeout=soon`),
      400,
    );
    expect(text.issues?.map((i) => i.path)).toEqual(['timeout']);
    const unknown = await errorOf(
      await fetch(`${running.url}/__mock/journal/wait?endpoint=health&wait=1`),
      400,
    );
    expect(unknown.message).toMatch(/wait/);
    const name = await errorOf(await fetch(`${running.url}/__mock/journal/wait?endpoint=helth`), 400);
    expect(name.issues?.map((i) => i.path)).toEqual(['endpoint']);
    const deliveries = await errorOf(await fetch(`${running.url}/__mock/deliveries/next?timeout=60000`), 400);
    expect(deliveries.message).toBe(
      'query.timeout: expected an integer from 0 to 30000 (milliseconds), received number 60000',
    );
  });

  it(`answers 409 past ${WAIT_LIMITS.maxWaiters} pending waits`, async () => {
    const pending = Array.from({ length: WAIT_LIMITS.maxWaiters }, () =>
      running.control.waitFor('health', { timeout: 10_000 }).catch((e: unknown) => e),
    );
    const error = await errorOf(await fetch(`${running.url}/__mock/deliveries/next?kind=Drift`), 409);
    expect(error.code).toBe('conflict');
    expect(error.message).toMatch(/100 waits are pending already/);
    expect(running.control.cancelWaits()).toBe(WAIT_LIMITS.maxWaiters);
    await Promise.all(pending);
  });
});

describe('GET /__mock/deliveries/next', () => {
  it('answers 408 listing nothing when no delivery came', async () => {
    const error = await errorOf(
      await fetch(`${running.url}/__mock/deliveries/next?kind=Drift&timeout=0`),
      408,
    );
    expect(error.message).toBe("nextDelivery({ kind: 'Drift' }): no match within 0 ms; nothing arrived");
  });
});

describe('close()', () => {
  it('rejects the waits still pending', async () => {
    const server = await listen({ port: 0, sizes: { workspaces: 5 } });
    const waiting = server.control.waitFor('workspaces.search', { timeout: 10_000 });
    await server.close();
    await expect(waiting).rejects.toThrow(
      "waitFor('workspaces.search') was cancelled: the mock server was closed (close()); nothing came that it waited for",
    );
  });
});

describe('a long poll whose client has gone', () => {
  it('leaves the pending waits at once, so it holds no place', async () => {
    const core = new MockCore({ sizes: { accounts: 1, workspaces: 1, events: 0 } });
    const controller = new AbortController();
    const answer = core.handle(
      {
        method: 'GET',
        path: '/__mock/journal/wait',
        query: { endpoint: 'guardrails.create', timeout: '30000' },
      },
      { signal: controller.signal },
    );
    // Let the poll reach its wait, then the client goes.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    // The answer comes now (dropped: nobody is there to read it), not after its 30 s.
    expect((await answer).status).toBe(0);
    expect(core.control.cancelWaits('nothing should be left')).toBe(0);
  });
});
