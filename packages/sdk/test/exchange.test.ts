/**
 * One HTTP exchange (src/core/exchange.ts): how the transport calls `fetch`, and its deadline.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { send, TimeoutError } from '../src/core/exchange.js';

const url = new URL('https://iacm.test/v2/workspaces/search?pageSize=5');

afterEach(() => {
  vi.useRealTimers();
});

describe('send', () => {
  it('calls fetch(url, init): the URL as a string, the method, the headers, the body and a signal', async () => {
    const calls: Array<[unknown, RequestInit | undefined]> = [];
    const fetchImpl = (async (input: unknown, init?: RequestInit) => {
      calls.push([input, init]);
      return new Response('{}', { status: 200 });
    }) as typeof fetch;
    const response = await send(
      fetchImpl,
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
      1000,
    );
    expect(response.status).toBe(200);
    expect(calls).toHaveLength(1);
    const [input, init] = calls[0] as [unknown, RequestInit];
    expect(input).toBe('https://iacm.test/v2/workspaces/search?pageSize=5');
    expect(init).toMatchObject({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(init.signal?.aborted).toBe(false);
  });

  it('rejects with TimeoutError at the deadline and aborts the request, even when fetch ignores the abort', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const never = ((_input: unknown, init?: RequestInit) => {
      signal = init?.signal ?? undefined;
      return new Promise<Response>(() => undefined);
    }) as typeof fetch;
    const sent = send(never, url, { method: 'GET', headers: {} }, 250);
    const outcome = sent.then(
      () => 'answered',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(249);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('no answer within 250 ms');
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe(error);
  });

  it('waits for a timeout past setTimeout range (about 24.8 days) instead of firing at once', async () => {
    vi.useFakeTimers();
    const never = (() => new Promise<Response>(() => undefined)) as typeof fetch;
    let settled = false;
    send(never, url, { method: 'GET', headers: {} }, 3_000_000_000).then(
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
    const listening = ((_input: unknown, init?: RequestInit) =>
      new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      })) as typeof fetch;
    const sent = send(listening, url, { method: 'GET', headers: {}, signal: controller.signal }, 60_000);
    const outcome = sent.catch((error: unknown) => error);
    controller.abort(new Error('the caller left'));
    expect(((await outcome) as Error).message).toBe('the caller left');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once with what a fetch throws synchronously, and leaves no timer', async () => {
    vi.useFakeTimers();
    const throwing = (() => {
      throw new TypeError('not a fetch');
    }) as typeof fetch;
    await expect(send(throwing, url, { method: 'GET', headers: {} }, 60_000)).rejects.toThrow('not a fetch');
    expect(vi.getTimerCount()).toBe(0);
  });
});
