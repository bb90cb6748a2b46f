/**
 * Framing headers in injected answers: a one-off answer (`control.respond`, `POST /__mock/responses`)
 * or a fault (`control.addFault`, `POST /__mock/faults`) may not set `transfer-encoding`,
 * `content-length`, `connection` or another hop-by-hop header (`FRAMING_HEADERS`), in any case and
 * with `validate: false` too: the standalone server frames each answer itself, and an answer with
 * `transfer-encoding: chunked` beside its `content-length` is one `fetch` refuses (RFC 9112 §6.1).
 * A 400 `validation_failed` names `headers.<name>`, in process and over HTTP alike; other headers pass.
 */
import { listen } from '@iacm/mock-server/node';
import { ErrorBody } from '@iacm/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMING_HEADERS } from '../../src/pipeline/faults.js';
import { expectError, refusal, setup } from '../helpers.js';

/** `transfer-encoding` as `Transfer-Encoding`: a name in another case is the same header. */
const titleCase = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash, c: string) => dash + c.toUpperCase());

/** The message the 400 gives for header `name` (as sent) with value `value`. */
const framingMessage = (name: string, value: string) =>
  `body.headers.${name}: expected a header other than ${FRAMING_HEADERS.join(', ')} (the mock frames each answer itself), received "${value}"`;

/** The two ways to set an injected answer with `headers`, in process and over HTTP. */
const injections = [
  {
    what: 'a one-off answer (validate: false)',
    path: '/__mock/responses',
    rule: (headers: Record<string, string>) => ({
      endpoint: 'workspaces.search',
      validate: false,
      status: 500,
      headers,
    }),
    inProcess: (t: Awaited<ReturnType<typeof setup>>, headers: Record<string, string>) =>
      t.core.control.respond('workspaces.search', { validate: false, status: 500, headers }),
    waiting: (t: Awaited<ReturnType<typeof setup>>) => t.core.control.responses(),
  },
  {
    what: 'an endpoint fault',
    path: '/__mock/faults',
    rule: (headers: Record<string, string>) => ({ endpoint: 'workspaces.search', status: 500, headers }),
    inProcess: (t: Awaited<ReturnType<typeof setup>>, headers: Record<string, string>) =>
      t.core.control.addFault({ endpoint: 'workspaces.search', status: 500, headers }),
    waiting: (t: Awaited<ReturnType<typeof setup>>) => t.core.control.faults(),
  },
  {
    what: 'a path fault',
    path: '/__mock/faults',
    rule: (headers: Record<string, string>) => ({ path: '/v2/workspaces/search', status: 500, headers }),
    inProcess: (t: Awaited<ReturnType<typeof setup>>, headers: Record<string, string>) =>
      t.core.control.addFault({ path: '/v2/workspaces/search', status: 500, headers }),
    waiting: (t: Awaited<ReturnType<typeof setup>>) => t.core.control.faults(),
  },
] as const;

describe('framing headers in injected answers', () => {
  it('are the framing and hop-by-hop headers of RFC 9112 §6 and RFC 9110 §7.6.1, lower-case', () => {
    expect([...FRAMING_HEADERS].sort()).toEqual([
      'connection',
      'content-length',
      'keep-alive',
      'proxy-connection',
      'te',
      'trailer',
      'transfer-encoding',
      'upgrade',
    ]);
  });

  for (const injection of injections) {
    describe(injection.what, () => {
      it('refuses each of them, in any case, with one 400 naming headers.<name>, in process and over HTTP', async () => {
        const t = await setup();
        for (const lower of FRAMING_HEADERS) {
          for (const name of [lower, titleCase(lower), lower.toUpperCase()]) {
            const headers = { 'x-custom': 'kept', [name]: 'chunked' };
            const error = refusal(() => injection.inProcess(t, headers));
            expect(error.status).toBe(400);
            expect(error.code).toBe('validation_failed');
            expect(error.message).toBe(framingMessage(name, 'chunked'));
            expect(error.issues).toEqual([
              {
                location: 'body',
                path: `headers.${name}`,
                message: framingMessage(name, 'chunked'),
                received: '"chunked"',
              },
            ]);
            const res = await t.call('POST', injection.path, { body: injection.rule(headers) });
            const body = expectError(res, 400, 'validation_failed');
            expect(body.message).toBe(error.message);
            expect(body.issues).toEqual(error.issues);
          }
        }
        // Nothing was kept, and the endpoint answers as before.
        expect(injection.waiting(t)).toEqual([]);
        expect((await t.call('POST', '/v2/workspaces/search', { body: {} })).status).toBe(200);
      });

      it('still takes another header (x-custom) and sends it', async () => {
        const t = await setup();
        injection.inProcess(t, { 'X-Custom': 'in-process' });
        const first = await t.call('POST', '/v2/workspaces/search', { body: {} });
        expect(first.status).toBe(500);
        expect(first.headers['x-custom']).toBe('in-process');
        const set = await t.call('POST', injection.path, {
          body: injection.rule({ 'x-custom': 'over-http' }),
        });
        expect(set.status).toBe(201);
        const second = await t.call('POST', '/v2/workspaces/search', { body: {} });
        expect(second.status).toBe(500);
        expect(second.headers['x-custom']).toBe('over-http');
      });
    });
  }

  it('keeps the 400 small for many case variants of one framing header', async () => {
    const t = await setup();
    // 64 headers at most: 64 spellings of transfer-encoding, each refused, in one small answer.
    const headers: Record<string, string> = {};
    for (let i = 0; Object.keys(headers).length < 64; i++) {
      const name = [...'transfer-encoding'].map((c, k) => ((i >> k) & 1 ? c.toUpperCase() : c)).join('');
      headers[name] = 'x'.repeat(8192);
    }
    const res = await t.call('POST', '/__mock/faults', {
      body: { endpoint: 'workspaces.search', status: 500, headers },
    });
    const body = expectError(res, 400, 'validation_failed');
    expect(body.issues?.length).toBeLessThanOrEqual(101);
    expect(JSON.stringify(body).length).toBeLessThan(64 * 1024);
  });
});

describe('over the standalone server', () => {
  let running: Awaited<ReturnType<typeof listen>>;
  let token = '';
  beforeAll(async () => {
    running = await listen({ port: 0 });
    const [primary] = running.control.accounts();
    const res = await fetch(`${running.url}/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessKey: primary?.accessKey, secretKey: primary?.secretKey }),
    });
    token = ((await res.json()) as { accessToken: string }).accessToken;
  });
  afterAll(() => running.close());

  const post = (path: string, body: unknown) =>
    fetch(`${running.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const search = () =>
    fetch(`${running.url}/v2/workspaces/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });

  it('refuses transfer-encoding: chunked (which fetch could not read beside content-length)', async () => {
    for (const [path, rule] of [
      ['/__mock/responses', { endpoint: 'workspaces.search', validate: false, status: 503 }],
      ['/__mock/faults', { endpoint: 'workspaces.search', status: 503 }],
    ] as const) {
      const res = await post(path, { ...rule, headers: { 'Transfer-Encoding': 'chunked' } });
      expect(res.status).toBe(400);
      const body = ErrorBody.parse(await res.json());
      expect(body.code).toBe('validation_failed');
      expect(body.message).toBe(framingMessage('Transfer-Encoding', 'chunked'));
      // Nothing waits: the next search is the real answer, which fetch reads.
      const answer = await search();
      expect(answer.status).toBe(200);
      expect(Array.isArray(await answer.json())).toBe(true);
    }
  });

  it('sends an injected answer with x-custom, which fetch reads', async () => {
    const set = await post('/__mock/responses', {
      endpoint: 'workspaces.search',
      validate: false,
      status: 503,
      body: { injected: true },
      headers: { 'x-custom': 'yes' },
    });
    expect(set.status).toBe(201);
    const answer = await search();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('x-custom')).toBe('yes');
    expect(answer.headers.get('transfer-encoding')).toBeNull();
    expect(await answer.json()).toEqual({ injected: true });
  });
});
