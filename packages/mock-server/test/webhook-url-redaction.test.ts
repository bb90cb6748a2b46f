/**
 * Secret URL parameters by the services' real names (issue 20, finding 9): `?sig=` (Azure SAS, Logic
 * Apps), `?code=` (Azure Functions), the AWS and GCS signed-URL parameters and the names redacted
 * before, in any case, read `[redacted]` in every place the mock shows a URL: the integration answers
 * and listings, delivery attempts, the 422 of a failed test delivery, the journal (bodies and query
 * strings) and the standalone server's request log.
 */
import { isSecretParameter, SECRET_PARAMETERS } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { maskSecrets } from '../src/adapters/request-log.js';
import { MockCore } from '../src/app/mock.js';
import { redactUrl, scrubUrl } from '../src/domain/webhook-url.js';
import type { MockResponse } from '../src/http/message.js';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0, 0);
const HOOK = 'https://hooks.example.test/in';

/** The names the issue lists, then the names redacted before it, each as the services spell them. */
const NAMES = [
  'sig',
  'code',
  'signature',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
  'X-Goog-Signature',
  'X-Goog-Credential',
  'token',
  'access_token',
  'api_key',
  'key',
] as const;

/** Each name as spelled, in lower case and in upper case. */
const SPELLINGS = NAMES.flatMap((name) => [...new Set([name, name.toLowerCase(), name.toUpperCase()])]);

/** A value no other text of an answer holds. */
const secretOf = (i: number) => `very-secret-${i}-q9`;

function makeMock(fetch?: (input: string) => Promise<Response>) {
  const sent: string[] = [];
  const core = new MockCore({
    seed: 7,
    sizes: { accounts: 2, workspaces: 5, events: 10, rules: 2, stacks: 3 },
    clock: () => T0,
    webhookFetch: async (input) => {
      sent.push(String(input));
      return fetch ? fetch(String(input)) : new Response(null, { status: 200 });
    },
  });
  const call = (method: string, path: string, body?: unknown): Promise<MockResponse> =>
    core.handle({
      method,
      path,
      headers: { 'content-type': 'application/json' },
      ...(body !== undefined ? { body } : {}),
    });
  return { core, sent, call };
}

describe('secret URL parameters by their real names', () => {
  it('are credentials in any case, as a whole name; `sig`, `code` and `hmac` only as a whole name', () => {
    for (const name of [...SPELLINGS, ...SECRET_PARAMETERS, 'Sig', 'CODE', 'HMAC', 'AWSAccessKeyId'])
      expect(isSecretParameter(name), name).toBe(true);
    for (const name of ['statusCode', 'code_challenge_method', 'sigma', 'design', 'zipcode', 'page'])
      expect(isSecretParameter(name), name).toBe(false);
  });

  it('read [redacted] in the query and the fragment of a shown URL, the other parameters kept', () => {
    SPELLINGS.forEach((name, i) => {
      const url = `${HOOK}?${name}=${secretOf(i)}&team=platform#${name}=${secretOf(i)}x&x=1`;
      expect(redactUrl(url), name).toBe(`${HOOK}?${name}=[redacted]&team=platform#${name}=[redacted]&x=1`);
    });
    // A name percent-encoded is judged decoded; a parameter without a value has nothing to hide.
    expect(redactUrl(`${HOOK}?%73ig=${secretOf(0)}&sig&code=`)).toBe(
      `${HOOK}?%73ig=[redacted]&sig&code=[redacted]`,
    );
  });

  it('read [redacted] in a delivery error message, as written and percent-decoded, in the query and the fragment', () => {
    const url = `${HOOK}?sig=a%2Bb%3D&code=plain-secret#X-Amz-Signature=frag-secret`;
    const text = `fetch failed for ${url}; sig a+b= code plain-secret signature frag-secret`;
    const scrubbed = scrubUrl(text, url);
    for (const secret of ['a%2Bb%3D', 'a+b=', 'plain-secret', 'frag-secret'])
      expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toBe(
      `fetch failed for ${HOOK}?sig=[redacted]&code=[redacted]#X-Amz-Signature=[redacted]; sig [redacted] code [redacted] signature [redacted]`,
    );
    // Not a URL: only the URL itself is replaced.
    expect(scrubUrl('failed for not a url', 'not a url')).toBe('failed for [redacted]');
  });

  it('never show in integration answers, listings, deliveries or the journal', async () => {
    const m = makeMock();
    const urls = SPELLINGS.map((name, i) => `${HOOK}?${name}=${secretOf(i)}&team=platform`);
    const shown: unknown[] = [];
    for (const url of urls) {
      const created = await m.call('POST', '/__mock/integrations/webhook', { nickname: 'x', url });
      expect(created.status).toBe(201);
      shown.push(created.body);
      const id = (created.body as { id: string }).id;
      const updated = await m.call('PATCH', `/__mock/integrations/webhook/${id}`, { url: `${url}&v=2` });
      expect(updated.status).toBe(200);
      shown.push(updated.body, (await m.call('GET', `/__mock/integrations/webhook/${id}/deliveries`)).body);
    }
    m.core.control.notify({ notificationType: 'Drift' });
    await m.core.control.flushDeliveries();
    // Every URL was sent as entered.
    for (const url of urls) expect(m.sent).toContain(`${url}&v=2`);
    shown.push(
      (await m.call('GET', '/__mock/integrations/webhook')).body,
      m.core.control.webhooks.list(),
      (await m.call('GET', '/__mock/deliveries')).body,
      m.core.control.webhooks.deliveries(),
      (await m.call('GET', '/__mock/journal')).body,
      m.core.control.journal(),
    );
    const text = JSON.stringify(shown);
    SPELLINGS.forEach((name, i) => {
      expect(text, name).not.toContain(secretOf(i));
      expect(text, name).toContain(`${HOOK}?${name}=[redacted]&team=platform&v=2`);
    });
  });

  it('never show in the 422 of a failed test delivery or in a network error of a delivery', async () => {
    let failing = true;
    const m = makeMock(async (input) => {
      if (failing) throw new TypeError(`connect ECONNREFUSED ${input}`);
      return new Response(null, { status: 200 });
    });
    const texts: string[] = [];
    for (const [i, name] of SPELLINGS.entries()) {
      const url = `${HOOK}?${name}=${secretOf(i)}`;
      failing = true;
      const refused = await m.call('POST', '/__mock/integrations/webhook', { nickname: 'x', url });
      expect(refused.status).toBe(422);
      texts.push(JSON.stringify(refused.body));
      failing = false;
      expect((await m.call('POST', '/__mock/integrations/webhook', { nickname: 'x', url })).status).toBe(201);
    }
    failing = true;
    m.core.control.notify({ notificationType: 'Drift' });
    await m.core.control.flushDeliveries();
    const deliveries = m.core.control.webhooks.deliveries().filter((d) => d.error !== undefined);
    expect(deliveries.length).toBeGreaterThanOrEqual(SPELLINGS.length);
    texts.push(JSON.stringify(deliveries), JSON.stringify(m.core.control.journal()));
    const text = texts.join('\n');
    SPELLINGS.forEach((name, i) => {
      expect(text, name).not.toContain(secretOf(i));
      expect(text, name).toContain(`${name}=[redacted]`);
    });
  });

  it("never show in the journal's query strings or the request log", async () => {
    const m = makeMock();
    for (const [i, name] of SPELLINGS.entries()) {
      // Answered 400 (the endpoint takes no such parameter), and journaled all the same.
      await m.core.handle({ method: 'GET', path: '/v2/health', query: { [name]: secretOf(i), q: 'kept' } });
      expect(maskSecrets(`/v2/health?${name}=${secretOf(i)}&q=kept`)).toBe(`/v2/health?${name}=***&q=kept`);
    }
    const journal = JSON.stringify(m.core.control.journal());
    SPELLINGS.forEach((name, i) => {
      expect(journal, name).not.toContain(secretOf(i));
      expect(journal, name).toContain(`"${name}":"[redacted]"`);
    });
    expect(journal).toContain('"q":"kept"');
  });
});
