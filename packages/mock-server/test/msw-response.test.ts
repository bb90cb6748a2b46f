/**
 * The answers the MSW adapter gives are plain Fetch `Response`s (the Node builds do not load msw's
 * `HttpResponse`, which lives in msw 2's main entry): the same status, reason phrase, headers and body
 * as msw's `HttpResponse` gave, a dropped connection as a network error, and a null-body status
 * without its body.
 */
import { createMockServer, toFetchResponse } from '@iacm/mock-server';
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('toFetchResponse', () => {
  it('gives the status, the reason phrase msw HttpResponse gives, the headers and the JSON bytes', async () => {
    for (const status of [200, 201, 204, 400, 401, 404, 409, 413, 422, 429, 500, 503]) {
      const body = status === 204 ? undefined : { status };
      const ours = toFetchResponse({
        status,
        headers: { 'content-type': 'application/json', 'x-a': '1' },
        body,
      });
      const msws = new HttpResponse(body === undefined ? null : JSON.stringify(body), { status });
      expect([status, ours.statusText]).toEqual([status, msws.statusText]);
      expect(ours.status).toBe(status);
      expect(ours.headers.get('x-a')).toBe('1');
      expect(await ours.text()).toBe(body === undefined ? '' : JSON.stringify(body));
    }
  });

  it('answers a dropped connection with a network error', () => {
    const dropped = toFetchResponse({ status: 0, headers: {}, body: undefined, drop: true });
    expect(dropped.type).toBe('error');
    expect(dropped.status).toBe(0);
  });

  it('answers a null-body status (204, 205, 304) without its body instead of throwing', async () => {
    for (const status of [204, 205, 304]) {
      const answer = toFetchResponse({ status, headers: {}, body: { ignored: true } });
      expect(answer.status).toBe(status);
      expect(answer.body).toBeNull();
    }
  });
});

describe('the MSW adapter end to end', () => {
  const mock = createMockServer({ baseUrl: 'http://fetch-response.test' });
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('a fault of status 204 with a body answers 204 with none, and a 503 keeps its reason phrase', async () => {
    mock.control.addFault({ path: '/v2/health', status: 204, body: { no: 'body' } });
    const empty = await fetch('http://fetch-response.test/v2/health');
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
    mock.control.addFault({ path: '/v2/health', status: 503, body: { down: true } });
    const down = await fetch('http://fetch-response.test/v2/health');
    expect([down.status, down.statusText]).toEqual([503, 'Service Unavailable']);
    expect(await down.json()).toEqual({ down: true });
  });
});
