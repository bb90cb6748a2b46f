import { IacmClient } from '@iacm/sdk';
import { describe, expect, it } from 'vitest';

describe('the fetch option', () => {
  it('is called as a plain function, as browsers require (no "Illegal invocation")', async () => {
    const receivers: unknown[] = [];
    // A fetch that, like a browser's, refuses to be called as a method of another object.
    const strictFetch = function (
      this: unknown,
      input: RequestInfo | URL,
      init?: RequestInit,
    ): Promise<Response> {
      receivers.push(this);
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
      void input;
      void init;
      return Promise.resolve(new Response(null, { status: 204 }));
    };
    const client = new IacmClient({
      baseUrl: 'https://iacm.test',
      auth: { token: 't' },
      fetch: strictFetch as typeof fetch,
    });
    await expect(client.health()).resolves.toBeUndefined();
    expect(receivers).toHaveLength(1);
  });
});
