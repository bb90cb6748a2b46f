/**
 * One HTTP exchange (src/core/exchange.ts): the client's ky instance, how it calls `fetch`, and its
 * deadline (ky's `timeout`, per attempt). ky's retries and HTTP errors are off: the transport's own.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKy, send, TimeoutError } from '../src/core/exchange.js';

const url = new URL('https://iacm.test/v2/workspaces/search?pageSize=5');

afterEach(() => {
  vi.useRealTimers();
});

describe('send, through ky', () => {
  it('calls fetch(request, init) with the URL, the method, the headers, the body and a signal', async () => {
    const calls: Array<[unknown, RequestInit | undefined]> = [];
    const bodies: string[] = [];
    const fetchImpl = (async (input: Request, init?: RequestInit) => {
      calls.push([input, init]);
      bodies.push(await input.text());
      return new Response('{}', { status: 200 });
    }) as unknown as typeof fetch;
    const response = await send(
      createKy(fetchImpl),
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
      1000,
    );
    expect(response.status).toBe(200);
    expect(calls).toHaveLength(1);
    const [input] = calls[0] as [Request, RequestInit];
    expect(input).toBeInstanceOf(Request);
    expect([input.url, input.method, input.headers.get('content-type')]).toEqual([
      'https://iacm.test/v2/workspaces/search?pageSize=5',
      'POST',
      'application/json',
    ]);
    expect(bodies).toEqual(['{"a":1}']);
    expect(input.signal.aborted).toBe(false);
  });

  it('answers an error status as it came: no HTTPError, no retry of ky', async () => {
    let count = 0;
    const failing = (async () => {
      count += 1;
      return new Response('{}', { status: 503 });
    }) as typeof fetch;
    const response = await send(createKy(failing), url, { method: 'GET', headers: {} }, 1000);
    expect([response.status, count]).toEqual([503, 1]);
  });

  it("rejects with ky's TimeoutError at the deadline and aborts the request, even when fetch ignores the abort", async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const never = ((input: Request) => {
      signal = input.signal;
      return new Promise<Response>(() => undefined);
    }) as unknown as typeof fetch;
    const sent = send(createKy(never), url, { method: 'GET', headers: {} }, 250);
    const outcome = sent.then(
      () => 'answered',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(249);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(signal?.aborted).toBe(true);
  });

  it('waits for a timeout past setTimeout range (about 24.8 days) instead of firing at once', async () => {
    vi.useFakeTimers();
    const never = (() => new Promise<Response>(() => undefined)) as typeof fetch;
    let settled = false;
    send(createKy(never), url, { method: 'GET', headers: {} }, 3_000_000_000).then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    await vi.advanceTimersByTimeAsync(60_000);
    expect(settled).toBe(false);
  });

  it('passes the call signal on: aborting it aborts the request, and no timer is left', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const listening = ((input: Request) =>
      new Promise<Response>((_, reject) => {
        input.signal.addEventListener('abort', () => reject(input.signal.reason));
      })) as unknown as typeof fetch;
    const sent = send(
      createKy(listening),
      url,
      { method: 'GET', headers: {}, signal: controller.signal },
      60_000,
    );
    const outcome = sent.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    controller.abort(new Error('the caller left'));
    expect(((await outcome) as Error).message).toBe('the caller left');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with what a fetch throws synchronously, and leaves no timer', async () => {
    vi.useFakeTimers();
    const throwing = (() => {
      throw new TypeError('not a fetch');
    }) as typeof fetch;
    await expect(send(createKy(throwing), url, { method: 'GET', headers: {} }, 60_000)).rejects.toThrow(
      'not a fetch',
    );
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps the caller's ky options (its hooks run on each request), under the SDK's own", async () => {
    const seen: string[] = [];
    const fetchImpl = (async () => new Response('{}', { status: 200 })) as typeof fetch;
    const instance = createKy(fetchImpl, {
      hooks: {
        beforeRequest: [(request) => void seen.push(`before ${request.method}`)],
        afterResponse: [(_request, _options, response) => void seen.push(`after ${response.status}`)],
      },
    });
    await send(instance, url, { method: 'GET', headers: {} }, 1000);
    expect(seen).toEqual(['before GET', 'after 200']);
  });
});
