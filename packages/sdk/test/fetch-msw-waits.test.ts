/**
 * Issue 22, point 6: the SDK finds MSW whenever it was started.
 * - Without a `fetch` option the client looks up `globalThis.fetch` at each call, so a client created
 *   before MSW's `server.listen()` (which replaces `globalThis.fetch`) goes through MSW.
 * - A connection error whose cause is a host name that does not resolve (ENOTFOUND, EAI_AGAIN) says
 *   which base URL failed and what to check.
 * - Retry waits follow vitest's fake timers, or go through the `sleep` option.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMockServer, type MockServer } from '@iacm/mock-server';
import { APIConnectionError, APIUserAbortError, type ClientOptions, IacmClient, IacmError } from '@iacm/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { workspaceSummary } from './fixtures.js';

const BASE = 'https://iacm.test';
const TOKEN = 'tok-s3cr3t-value';

/** An answer of the given status and JSON body. */
function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

const rateLimited = () =>
  json(429, { code: 'RATE_LIMITED', message: 'slow down' }, { 'retry-after': '2', 'x-request-id': 'r1' });

/** A fetch stub answering from a list (the last one repeats), recording the URLs it was called with. */
function stubFetch(...answers: Array<() => Response>) {
  const urls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    urls.push(input instanceof Request ? input.url : String(input));
    const next = answers[Math.min(urls.length - 1, answers.length - 1)];
    if (!next) throw new Error('no answer');
    return next();
  });
  return { fetch, urls };
}

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  vi.useRealTimers();
});

function client(options: ClientOptions = {}): IacmClient {
  return new IacmClient({ baseUrl: BASE, auth: { token: TOKEN }, logLevel: 'off', ...options });
}

describe('without a fetch option, the global fetch is looked up at each call', () => {
  it('uses a globalThis.fetch replaced after the client was created', async () => {
    const iacm = client();
    const stub = stubFetch(() => new Response(null, { status: 204 }));
    globalThis.fetch = stub.fetch as typeof fetch;
    await expect(iacm.health()).resolves.toBeUndefined();
    expect(stub.urls).toEqual([`${BASE}/v2/health`]);
  });

  it('keeps a fetch option as given, whatever globalThis.fetch becomes', async () => {
    const given = stubFetch(() => new Response(null, { status: 204 }));
    const iacm = client({ fetch: given.fetch as typeof fetch });
    const global = stubFetch(() => new Response(null, { status: 500 }));
    globalThis.fetch = global.fetch as typeof fetch;
    await expect(iacm.health()).resolves.toBeUndefined();
    expect(given.urls).toHaveLength(1);
    expect(global.urls).toHaveLength(0);
  });

  it('reaches the mock through MSW when the client was created before server.listen()', async () => {
    // msw is the mock server's dependency, not the SDK's: load the one its handlers are built with.
    const fromMock = createRequire(new URL('../../mock-server/package.json', import.meta.url));
    const mswDir = dirname(fromMock.resolve('msw/package.json'));
    const { setupServer } = (await import(pathToFileURL(join(mswDir, 'lib/node/index.mjs')).href)) as {
      setupServer: (...handlers: MockServer['handlers']) => {
        listen(options: { onUnhandledRequest: 'error' }): void;
        close(): void;
      };
    };
    const keys = { accessKey: 'iacm_ak_demo', secretKey: 'iacm_sk_demo' };
    const mock = createMockServer({ baseUrl: BASE, primaryKeys: keys, sizes: { workspaces: 3 } });
    // Created first, as a test file's top level does before its beforeAll(() => server.listen()).
    const early = new IacmClient({ baseUrl: BASE, auth: keys, maxRetries: 0, logLevel: 'off' });
    const server = setupServer(...mock.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const page = await early.workspaces.search({ pageSize: 2 });
      expect(page).toHaveLength(2);
      expect(mock.control.journal().map((entry) => entry.path)).toEqual([
        '/v2/login',
        '/v2/workspaces/search',
      ]);
    } finally {
      server.close();
    }
  });
});

/** A fetch that fails as undici's does when the host name does not resolve. */
function unresolvable(code = 'ENOTFOUND') {
  return vi.fn(async () => {
    throw new TypeError('fetch failed', {
      cause: Object.assign(new Error(`getaddrinfo ${code} x`), { code }),
    });
  });
}

describe('a host name that does not resolve', () => {
  it('says which base URL failed and what to check (undici nests ENOTFOUND in cause.code)', async () => {
    const iacm = client({ baseUrl: 'https://iacm.exmaple.test/api', fetch: unresolvable(), maxRetries: 0 });
    const error = await iacm.workspaces.search({ pageSize: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    const message = (error as Error).message;
    expect(message).toBe(
      'workspaces.search: could not reach https://iacm.exmaple.test: fetch failed: getaddrinfo ENOTFOUND x (ENOTFOUND: check the ' +
        'spelling of baseUrl, the network and DNS; in a test, start the mock (MSW) before the call)',
    );
    // The cause is kept as it came.
    expect(((error as Error).cause as { cause: { code: string } }).cause.code).toBe('ENOTFOUND');
  });

  it('reads EAI_AGAIN too, and a code on the error itself', async () => {
    const direct = vi.fn(async () => {
      throw Object.assign(new Error('getaddrinfo EAI_AGAIN iacm.test'), { code: 'EAI_AGAIN' });
    });
    for (const fetch of [unresolvable('EAI_AGAIN'), direct]) {
      const error = await client({ fetch: fetch as typeof globalThis.fetch, maxRetries: 0 })
        .health()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message).toMatch(/\(EAI_AGAIN: check the spelling of baseUrl/);
    }
  });

  it('holds no credential, in its message or its JSON', async () => {
    const iacm = client({
      fetch: unresolvable(),
      maxRetries: 0,
      headers: { 'x-api-key': 'hdr-s3cr3t-value' },
    });
    const error = await iacm.workspaces.search({ pageSize: 1 }).catch((e: unknown) => e);
    const text = `${(error as Error).message}\n${JSON.stringify(error)}`;
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('hdr-s3cr3t-value');
    expect(text).not.toMatch(/authorization|bearer/i);
  });

  it('says what refused the connection (undici puts it in cause), with no DNS hint', async () => {
    const refused = vi.fn(async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4010'), { code: 'ECONNREFUSED' }),
      });
    });
    const error = await client({ fetch: refused, maxRetries: 0 })
      .health()
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'health: could not reach https://iacm.test: fetch failed: connect ECONNREFUSED 127.0.0.1:4010',
    );
  });

  it('reads the causes at most 3 deep, each once and cut to 300 characters', async () => {
    const deep = vi.fn(async () => {
      const bottom = new Error('never read');
      const third = new Error('y'.repeat(1000), { cause: bottom });
      const second = new Error('fetch failed', { cause: third }); // told once
      throw new TypeError('fetch failed', { cause: new Error('socket hang up', { cause: second }) });
    });
    const error = await client({ fetch: deep, maxRetries: 0 })
      .health()
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `health: could not reach https://iacm.test: fetch failed: socket hang up: ${'y'.repeat(300)}…`,
    );
  });
});

describe('retry waits', () => {
  it('go through the sleep option: its waits are what Retry-After asked', async () => {
    const stub = stubFetch(rateLimited, () => json(200, [workspaceSummary]));
    const waits: number[] = [];
    const signals: Array<AbortSignal | undefined> = [];
    const controller = new AbortController();
    const iacm = client({
      fetch: stub.fetch as typeof fetch,
      sleep: async (ms, signal) => {
        waits.push(ms);
        signals.push(signal);
      },
    });
    const page = await iacm.workspaces.search({ pageSize: 1 }, { signal: controller.signal });
    expect(page).toHaveLength(1);
    expect(waits).toEqual([2000]);
    expect(signals).toEqual([controller.signal]);
    expect(stub.urls).toHaveLength(2);
  });

  it('with the sleep option, an abort during the wait still ends the call at once', async () => {
    const stub = stubFetch(rateLimited);
    const controller = new AbortController();
    const iacm = client({
      fetch: stub.fetch as typeof fetch,
      // A sleep that never ends and ignores the signal.
      sleep: () => {
        controller.abort();
        return new Promise<void>(() => {});
      },
    });
    await expect(iacm.health({ signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('refuses a sleep option that is not a function, naming it', () => {
    for (const sleep of [1000, 'soon', null, {}]) {
      expect(() => client({ sleep: sleep as never })).toThrow(IacmError);
      expect(() => client({ sleep: sleep as never })).toThrow(/option sleep: expected a function/);
    }
    expect(() => client({ fetch: 'fetch' as never })).toThrow(/option fetch: expected a function/);
  });

  it('follow fake timers: the call resolves only after the wait is advanced', async () => {
    vi.useFakeTimers();
    const stub = stubFetch(rateLimited, () => json(200, [workspaceSummary]));
    const iacm = client({ fetch: stub.fetch as typeof fetch });
    let settled = false;
    const call = iacm.workspaces.search({ pageSize: 1 }).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(settled).toBe(false);
    expect(stub.urls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(call).resolves.toHaveLength(1);
    expect(stub.urls).toHaveLength(2);
  });
});
