/**
 * The request hooks (`beforeRequest`, `afterResponse`, `onRetry`): what each attempt tells them, with
 * the log level anything (the description of a request is made only when a hook or a debug line wants
 * it, issue 25).
 */
import { IacmClient, type RequestInfo, type ResponseInfo, type RetryInfo } from '@iacm/sdk';
import { describe, expect, it } from 'vitest';

const answers = (...statuses: number[]): typeof fetch => {
  let call = 0;
  return (async () => {
    const status = statuses[Math.min(call++, statuses.length - 1)] as number;
    const body =
      status === 200 ? [] : { status, code: 'internal_error', message: 'boom', requestId: 'req_7' };
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', 'x-request-id': `req_${call}` },
    });
  }) as typeof fetch;
};

describe('request hooks', () => {
  for (const logLevel of ['off', 'debug'] as const) {
    it(`tell every attempt its endpoint, URL, redacted headers and answer (log level ${logLevel})`, async () => {
      const seen: Array<['before', RequestInfo] | ['after', ResponseInfo] | ['retry', RetryInfo]> = [];
      const client = new IacmClient({
        baseUrl: 'http://iacm.test',
        auth: { token: 'secret-token-value' },
        logLevel,
        logger: { error() {}, warn() {}, info() {}, debug() {} },
        fetch: answers(503, 200),
        sleep: async () => {},
        hooks: {
          beforeRequest: (info) => void seen.push(['before', info]),
          afterResponse: (info) => void seen.push(['after', info]),
          onRetry: (info) => void seen.push(['retry', info]),
        },
      });
      await client.workspaces.search();
      expect(seen.map(([kind, info]) => `${kind} ${info.attempt}`)).toEqual([
        'before 1',
        'after 1',
        'retry 1',
        'before 2',
        'after 2',
      ]);
      const [, before] = seen[0] as ['before', RequestInfo];
      expect(before).toEqual({
        endpoint: 'workspaces.search',
        method: 'POST',
        url: 'http://iacm.test/v2/workspaces/search',
        headers: expect.objectContaining({ accept: 'application/json', 'content-type': 'application/json' }),
        attempt: 1,
      });
      expect(JSON.stringify(seen)).not.toContain('secret-token-value');
      expect(before.headers.authorization).toBeDefined();
      const [, after] = seen[1] as ['after', ResponseInfo];
      expect(after).toMatchObject({ ...before, status: 503, requestId: 'req_1' });
      expect(after.durationMs).toBeGreaterThanOrEqual(0);
      expect(seen[2]?.[1]).toMatchObject({ ...before, reason: { status: 503 } });
      expect(seen[4]?.[1]).toMatchObject({ attempt: 2, status: 200, requestId: 'req_2' });
    });
  }

  it('onRetry alone still gets the whole request description', async () => {
    const retries: RetryInfo[] = [];
    const client = new IacmClient({
      baseUrl: 'http://iacm.test',
      auth: { token: 'secret-token-value' },
      fetch: answers(500, 200),
      sleep: async () => {},
      hooks: { onRetry: (info) => void retries.push(info) },
    });
    await client.workspaces.search();
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({
      endpoint: 'workspaces.search',
      method: 'POST',
      url: 'http://iacm.test/v2/workspaces/search',
      attempt: 1,
      reason: { status: 500 },
    });
    expect(JSON.stringify(retries)).not.toContain('secret-token-value');
  });
});
