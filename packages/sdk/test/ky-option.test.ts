/**
 * The SDK on ky (issue 36): every request goes through the client's `ky.create()` instance; ky's own
 * options are reachable through `ky: { ... }`, typed as ky's, but for those the SDK sets itself
 * (refused by name, saying what to use); a custom `fetch` gets what ky passes it (a `Request`).
 */
import { IacmClient, SDK_OWNED_KY_OPTIONS } from '@iacm/sdk';
import { describe, expect, it } from 'vitest';

const ok = (seen?: Request[]): typeof fetch =>
  (async (input: Request) => {
    seen?.push(input);
    return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;

const quiet = { error() {}, warn() {}, info() {}, debug() {} };

describe('the ky option', () => {
  it("runs ky's hooks on every attempt, after the SDK's headers are set and before its retries", async () => {
    const seen: string[] = [];
    let calls = 0;
    const client = new IacmClient({
      baseUrl: 'http://iacm.test',
      auth: { token: 't' },
      logger: quiet,
      sleep: async () => {},
      fetch: (async () => {
        calls += 1;
        return new Response(calls === 1 ? '{}' : '[]', {
          status: calls === 1 ? 503 : 200,
          headers: { 'content-type': 'application/json' },
        });
      }) as typeof fetch,
      ky: {
        hooks: {
          beforeRequest: [(request) => void seen.push(`${request.method} ${request.headers.get('accept')}`)],
          afterResponse: [(_request, _options, response) => void seen.push(String(response.status))],
        },
      },
    });
    await expect(client.workspaces.search()).resolves.toEqual([]);
    expect(seen).toEqual(['POST application/json', '503', 'POST application/json', '200']);
  });

  it('lets a beforeRequest hook of ky change the request (a header of its own)', async () => {
    const requests: Request[] = [];
    const client = new IacmClient({
      baseUrl: 'http://iacm.test',
      auth: { token: 't' },
      fetch: ok(requests),
      ky: { hooks: { beforeRequest: [(request) => void request.headers.set('x-trace', 'abc')] } },
    });
    await client.workspaces.search();
    expect(requests[0]?.headers.get('x-trace')).toBe('abc');
  });

  it('refuses the options the SDK sets itself, by name, saying what to use', () => {
    expect(SDK_OWNED_KY_OPTIONS).toContain('retry');
    for (const name of SDK_OWNED_KY_OPTIONS) {
      expect(
        () =>
          new IacmClient({ baseUrl: 'http://iacm.test', auth: { token: 't' }, ky: { [name]: 1 } as never }),
      ).toThrow(`option ky.${name}: set by the SDK itself`);
    }
    expect(
      () => new IacmClient({ baseUrl: 'http://iacm.test', auth: { token: 't' }, ky: { retry: 3 } as never }),
    ).toThrow('use maxRetries; the SDK retries itself');
    expect(
      () => new IacmClient({ baseUrl: 'http://iacm.test', auth: { token: 't' }, ky: 'x' as never }),
    ).toThrow("option ky: expected an object of ky's options");
  });

  it('gives a custom fetch the Request ky made: URL, method, headers, body', async () => {
    const requests: Request[] = [];
    const bodies: string[] = [];
    const client = new IacmClient({
      baseUrl: 'http://iacm.test',
      auth: { token: 'secret' },
      fetch: (async (input: Request) => {
        requests.push(input);
        bodies.push(await input.text());
        return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
      }) as unknown as typeof fetch,
    });
    await client.workspaces.search({ searchValue: 'web', pageSize: 5 });
    const [request] = requests;
    expect(request).toBeInstanceOf(Request);
    expect([request?.method, request?.url, request?.headers.get('authorization')]).toEqual([
      'POST',
      'http://iacm.test/v2/workspaces/search?pageSize=5',
      'Bearer secret',
    ]);
    expect(JSON.parse(bodies[0] ?? '')).toEqual({ searchValue: 'web' });
  });
});
