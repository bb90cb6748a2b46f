// The sender seals webhook credentials with a one-time pad kept by the sender alone (issue 35,
// finding 1: Web Crypto's AES jobs abort Node 22 and 24 after msw 3 answered an https delivery).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { integrationBytes } from '../../src/domain/webhooks/integrations.js';
import { WebhookSender } from '../../src/domain/webhooks/sender.js';

const SECRET = 'Bearer s3cr3t-t0ken-ünïcödé';

function recordingFetch() {
  const seen: Array<Record<string, string>> = [];
  const fetchImpl = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    seen.push({ ...(init?.headers as Record<string, string>) });
    return new Response(null, { status: 204 });
  });
  return { seen, fetchImpl: fetchImpl as unknown as typeof fetch };
}

function post(sender: WebhookSender, sealed: Awaited<ReturnType<WebhookSender['seal']>>) {
  return sender.post(
    { url: 'https://hooks.example.test/in', sealed },
    { text: 'hello' },
    5000,
    new AbortController().signal,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('WebhookSender credentials', () => {
  it('keeps no readable trace of the secret in the sealed value', async () => {
    const sender = new WebhookSender(recordingFetch().fetchImpl);
    const sealed = await sender.seal({ type: 'header', value: SECRET });
    const bytes = Buffer.from(sealed?.data ?? new Uint8Array());
    const plain = Buffer.from(JSON.stringify({ type: 'header', value: SECRET }));
    expect(bytes.length).toBe(plain.length);
    expect(bytes.includes(Buffer.from('s3cr3t'))).toBe(false);
    expect(bytes.equals(plain)).toBe(false);
    expect(Object.keys(sealed ?? {})).toEqual(['data']);
    // Two seals of the same secret share nothing (a new pad each time).
    const again = await sender.seal({ type: 'header', value: SECRET });
    expect(Buffer.from(again?.data ?? []).equals(bytes)).toBe(false);
  });

  it('opens them into the delivery header, Basic and header alike, redacted in what it reports', async () => {
    const { seen, fetchImpl } = recordingFetch();
    const sender = new WebhookSender(fetchImpl);
    const header = await post(sender, await sender.seal({ type: 'header', value: SECRET }));
    const basic = await post(
      sender,
      await sender.seal({ type: 'basic', username: 'aladdin', password: 'opensesame' }),
    );
    const none = await post(sender, await sender.seal(undefined));
    expect(seen.map((h) => h.authorization)).toEqual([SECRET, 'Basic YWxhZGRpbjpvcGVuc2VzYW1l', undefined]);
    expect([header.headers.authorization, basic.headers.authorization, none.headers.authorization]).toEqual([
      '[redacted]',
      '[redacted]',
      undefined,
    ]);
    expect(header.delivered).toBe(true);
  });

  it('does not open a value another sender sealed, nor a copy of one', async () => {
    const one = new WebhookSender(recordingFetch().fetchImpl);
    const other = new WebhookSender(recordingFetch().fetchImpl);
    const sealed = await one.seal({ type: 'header', value: SECRET });
    await expect(post(other, sealed)).rejects.toThrow('the credentials were sealed by another sender');
    await expect(post(one, { data: new Uint8Array(sealed?.data ?? []) })).rejects.toThrow(TypeError);
  });

  it('uses no Web Crypto cipher (the jobs that abort Node 22 and 24 under msw 3)', async () => {
    const encrypt = vi.spyOn(crypto.subtle, 'encrypt');
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
    const generateKey = vi.spyOn(crypto.subtle, 'generateKey');
    const sender = new WebhookSender(recordingFetch().fetchImpl);
    await post(sender, await sender.seal({ type: 'header', value: SECRET }));
    expect([encrypt.mock.calls.length, decrypt.mock.calls.length, generateKey.mock.calls.length]).toEqual([
      0, 0, 0,
    ]);
  });

  it('seals credentials longer than one getRandomValues call fills (65,536 bytes)', async () => {
    const { seen, fetchImpl } = recordingFetch();
    const sender = new WebhookSender(fetchImpl);
    const long = `Bearer ${'x'.repeat(150_000)}`;
    await post(sender, await sender.seal({ type: 'header', value: long }));
    expect(seen[0]?.authorization).toBe(long);
  });

  it('charges the sealed form to the budget: two byte arrays of the UTF-8 text, for any characters', () => {
    const config = { nickname: 'n', url: 'https://hooks.example.test/in' };
    const none = integrationBytes('acc', config, undefined);
    const ascii = integrationBytes('acc', config, { type: 'header', value: 'a'.repeat(1000) });
    const wide = integrationBytes('acc', config, { type: 'header', value: '€'.repeat(1000) });
    // '€' is 3 UTF-8 bytes: the sealed form grows by 2 × 2,000 more bytes than for 'a'.
    expect(wide - ascii).toBe(4000);
    expect(ascii - none).toBeGreaterThan(2 * 1000 + 2 * 1000);
  });
});
