/**
 * `unhandledRequestStrategy`: a request no handler answers (a wrong host) fails, or is warned about,
 * with its method and URL named and its body (a login's secret key) never written down; MSW's `print`
 * is never called (MSW's own 'error' and 'warn' print the body).
 */
import {
  createMockServer,
  type MockUnhandledRequestCallback,
  UnhandledRequestError,
  unhandledRequestOptions,
  unhandledRequestStrategy,
} from '@iacm/mock-server';
import { APIConnectionError, IacmClient } from '@iacm/sdk';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it, vi } from 'vitest';

const SECRET = 'iacm_sk_do_not_print_me_4f1c';
const KEYS = { accessKey: 'iacm_ak_demo', secretKey: SECRET };
const loginBody = JSON.stringify(KEYS);

/** Everything written to the console and to stderr while `work` runs. */
async function written(work: () => Promise<unknown>): Promise<{ text: string; result: unknown }> {
  const lines: string[] = [];
  const record = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  const spies = [
    vi.spyOn(console, 'error').mockImplementation(record),
    vi.spyOn(console, 'warn').mockImplementation(record),
    vi.spyOn(console, 'log').mockImplementation(record),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    }),
  ];
  try {
    const result = await work().then(
      (value) => value,
      (error: unknown) => error,
    );
    return { text: lines.join('\n'), result };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/** The error and its causes. */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let at = error; at !== undefined && out.length < 10; at = (at as { cause?: unknown }).cause) {
    out.push(at);
    if (!(at instanceof Error)) break;
  }
  return out;
}

describe('unhandledRequestStrategy', () => {
  let close: (() => void) | undefined;
  afterEach(() => {
    close?.();
    close = undefined;
  });

  function serve(onUnhandledRequest: MockUnhandledRequestCallback): void {
    const mock = createMockServer({ baseUrl: 'https://iacm.example.test', primaryKeys: KEYS });
    const server = setupServer(...mock.handlers);
    server.listen({ onUnhandledRequest });
    close = () => server.close();
  }

  it("'error': a login sent to a wrong host fails naming its method and URL, and never its secret key", async () => {
    serve(unhandledRequestStrategy('error'));
    const { text, result } = await written(() =>
      fetch('https://wrong.example.test/v2/login?api_key=query-secret&page=2', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: loginBody,
      }),
    );
    const cause = chain(result).find((each) => each instanceof UnhandledRequestError);
    expect(cause).toBeInstanceOf(UnhandledRequestError);
    expect(cause).toMatchObject({
      method: 'POST',
      url: 'https://wrong.example.test/v2/login?api_key=[redacted]&page=2',
    });
    expect((cause as Error).message).toMatch(
      /^\[@iacm\/mock-server\] no request handler matches POST https:\/\/wrong\.example\.test\/v2\/login\?api_key=\[redacted\]&page=2: /,
    );
    expect(JSON.stringify(chain(result).map((each) => String(each)))).not.toContain(SECRET);
    expect((cause as Error).message).not.toContain('query-secret');
    expect(text).not.toContain(SECRET);
  });

  it("'error': the SDK with a wrong baseUrl gets a connection error caused by it, nothing printed", async () => {
    serve(unhandledRequestStrategy('error'));
    const client = new IacmClient({ baseUrl: 'https://wrong.example.test', auth: KEYS, maxRetries: 0 });
    const { text, result } = await written(() => client.workspaces.search({ pageSize: 1 }));
    expect(result).toBeInstanceOf(APIConnectionError);
    expect(chain(result).some((each) => each instanceof UnhandledRequestError)).toBe(true);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('Request body');
  });

  it("'warn': warns with the method and URL only, and lets the request go on", async () => {
    serve(unhandledRequestStrategy('warn'));
    // 127.0.0.1:1 refuses at once: the request did go on to the network.
    const { text, result } = await written(() =>
      fetch('http://127.0.0.1:1/v2/login', { method: 'POST', body: loginBody }),
    );
    expect(result).toBeInstanceOf(TypeError);
    expect(chain(result).some((each) => each instanceof UnhandledRequestError)).toBe(false);
    expect(text).toContain('no request handler matches POST http://127.0.0.1:1/v2/login: ');
    expect(text).not.toContain(SECRET);
  });

  it("never calls MSW's print, and redacts URL credentials; reads MSW 3's frames too", () => {
    const print = { warning: vi.fn(), error: vi.fn() };
    const request = { method: 'PUT', url: 'https://user:pass@wrong.example.test/x?token=t0k&q=1' } as Request;
    const strategy = unhandledRequestStrategy();
    expect(() => strategy(request, print)).toThrow(
      'no request handler matches PUT https://[redacted]@wrong.example.test/x?token=[redacted]&q=1: ',
    );
    expect(print.warning).not.toHaveBeenCalled();
    expect(print.error).not.toHaveBeenCalled();
    // MSW 3: onUnhandledFrame({ frame, defaults })
    const defaults = { warn: vi.fn(), error: vi.fn() };
    const http = {
      protocol: 'http',
      data: { id: '1', request: new Request('https://wrong.example.test/v2/login') },
    };
    expect(() => strategy({ frame: http, defaults } as never)).toThrow(
      'no request handler matches GET https://wrong.example.test/v2/login: ',
    );
    const ws = {
      protocol: 'ws',
      data: { connection: { client: { url: new URL('wss://wrong.example.test/s?key=k') } } },
    };
    expect(() => strategy({ frame: ws })).toThrow(
      'no request handler matches WEBSOCKET wss://wrong.example.test/s?key=[redacted]',
    );
    expect(defaults.warn).not.toHaveBeenCalled();
    expect(defaults.error).not.toHaveBeenCalled();
  });

  it("lets requests for a page's static assets pass, as MSW's own strategies do", () => {
    const strategy = unhandledRequestStrategy('error');
    expect(() => strategy(new Request('https://app.example.test/assets/logo.png'))).not.toThrow();
    expect(() => strategy(new Request('https://app.example.test/api/logo'))).toThrow(UnhandledRequestError);
  });

  it("refuses a mode other than 'error' and 'warn', naming it", () => {
    expect(() => unhandledRequestStrategy('bypass' as 'warn')).toThrow(
      `unhandledRequestStrategy: expected 'error' or 'warn', received "bypass"`,
    );
  });
});

describe('unhandledRequestOptions', () => {
  it("holds one strategy under MSW 2's and MSW 3's option names; MSW 2 reads it from listen(options)", async () => {
    const options = unhandledRequestOptions('error');
    expect(Object.keys(options).sort()).toEqual(['onUnhandledFrame', 'onUnhandledRequest']);
    expect(options.onUnhandledFrame).toBe(options.onUnhandledRequest);
    const mock = createMockServer({ baseUrl: 'https://iacm.example.test', primaryKeys: KEYS });
    const server = setupServer(...mock.handlers);
    server.listen(options);
    try {
      const client = new IacmClient({ baseUrl: 'https://wrong.example.test', auth: KEYS, maxRetries: 0 });
      const { text, result } = await written(() => client.workspaces.search({ pageSize: 1 }));
      expect(result).toBeInstanceOf(APIConnectionError);
      // The explanation is in the SDK's message, whether MSW rejects with it (2) or under fetch failed (3).
      expect((result as Error).message).toContain(
        'no request handler matches POST https://wrong.example.test/v2/login: is the client',
      );
      expect(text).not.toContain(SECRET);
    } finally {
      server.close();
    }
  });

  it("'warn' warns, and a wrong mode is refused as the strategy refuses it", () => {
    const { onUnhandledFrame } = unhandledRequestOptions('warn');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      onUnhandledFrame({ frame: { protocol: 'http', data: { request: new Request('https://x.test/a') } } });
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('no request handler matches GET https://x.test/a'),
      );
    } finally {
      warn.mockRestore();
    }
    expect(() => unhandledRequestOptions('bypass' as 'warn')).toThrow(/expected 'error' or 'warn'/);
  });
});

describe('isCommonAssetRequest (msw its own, kept here so the mock does not load msw main entry)', () => {
  it('answers as msw 2 does, for assets and for API calls', async () => {
    const { isCommonAssetRequest: ours } = await import('../src/adapters/unhandled-request.js');
    const { isCommonAssetRequest: msws } = await import('msw');
    const urls = [
      'http://localhost:5173/src/main.tsx',
      'http://localhost:5173/@vite/client',
      'http://localhost:5173/node_modules/.vite/deps/react.js',
      'https://fonts.googleapis.com/css2?family=Inter',
      'http://localhost:5173/logo.SVG',
      'http://localhost:5173/data.json',
      'http://localhost:5173/archive.tar.gz',
      'file:///tmp/page.html',
      'http://localhost:4010/v1/workspaces/search',
      'http://localhost:4010/v1/workspaces/ws-1',
      'http://localhost:4010/v1/events?format=json',
      'http://localhost:4010/v1/iac-explorer/resources.jsonx',
    ];
    for (const url of urls) expect([url, ours(new Request(url))]).toEqual([url, msws(new Request(url))]);
    expect(ours(new Request('http://localhost:4010/v1/workspaces/search'))).toBe(false);
    expect(ours(new Request('http://localhost:5173/src/main.tsx'))).toBe(true);
  });
});
