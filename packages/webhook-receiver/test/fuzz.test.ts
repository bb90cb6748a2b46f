import {
  createFetchHandler,
  createTestDelivery,
  createWebhookReceiver,
  encodeAuthorization,
  generateNotification,
  WEBHOOK_ERROR_STATUS,
  WEBHOOK_KINDS,
  type WebhookRequest,
  type WebhookResponse,
} from '@iacm/webhook-receiver';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../../tests/support/fuzz.js';
import { basic, header } from './helpers.js';

/** Every status the receiver documents for what a client can send (no handler throws here, so no 500). */
const CLIENT_STATUSES = new Set([200, 400, 401, 405, 413, 415, 422]);

const receiver = createWebhookReceiver({ credentials: [basic, header], maxBodyBytes: 4096 });
const goodAuth = [encodeAuthorization(basic), encodeAuthorization(header)];

/** Fails when a promise takes longer than `ms`: a hang is a failure, not a timeout of the whole suite. */
async function within<T>(promise: Promise<T>, ms = 30_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function checkAnswer(answer: WebhookResponse): void {
  expect(CLIENT_STATUSES.has(answer.status), `status ${answer.status}`).toBe(true);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = JSON.parse(answer.body) as {
    status?: number;
    code?: keyof typeof WEBHOOK_ERROR_STATUS;
    ok?: boolean;
  };
  if (answer.status === 200) {
    expect(body.ok).toBe(true);
    return;
  }
  expect(body.status).toBe(answer.status);
  expect(body.code && WEBHOOK_ERROR_STATUS[body.code]).toBe(answer.status);
  if (answer.status === 405) expect(answer.headers.allow).toBe('POST');
  if (answer.status === 401) expect(answer.headers['www-authenticate']).toMatch(/^Basic realm=/);
}

const headerValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    'application/json',
    'text/plain',
    'application/json; charset=utf-16',
    'Basic',
    'Basic =',
    '0',
    '-1',
    '99999999999999999999',
  ),
);
const authorization = fc.oneof(
  fc.constantFrom(...goodAuth),
  fc.string().map((s) => `Basic ${s}`),
  fc.uint8Array().map((bytes) => `Basic ${btoa(String.fromCharCode(...bytes))}`),
  fc.string().map((s) => `Bearer ${s}`),
  headerValue,
);
const headers = fc.record(
  {
    authorization,
    'content-type': fc.oneof(fc.constant('application/json'), headerValue),
    'content-length': fc.oneof(fc.nat().map(String), headerValue),
    other: headerValue,
  },
  { requiredKeys: [] },
);

const validBody = fc.constantFrom(...WEBHOOK_KINDS).map((kind) => JSON.stringify(generateNotification(kind)));
/** A valid body with one member replaced by any JSON value: exercises the schema's every branch. */
const mutatedBody = fc
  .tuple(
    fc.constantFrom(...WEBHOOK_KINDS.filter((kind) => kind !== 'test')),
    fc.constantFrom('notificationType', 'samples', 'accountId', 'providerType', 'region'),
    fc.jsonValue(),
  )
  .map(([kind, key, value]) => JSON.stringify({ ...generateNotification(kind), [key]: value }));
const textBody = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.json(), validBody, mutatedBody);
const body = fc.oneof(
  textBody,
  fc.uint8Array({ maxLength: 8192 }),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => bytes.buffer as ArrayBuffer),
  fc.nat({ max: 10_000 }).map((n) => 'x'.repeat(n)),
);
const method = fc.oneof(
  fc.constantFrom('POST', 'GET', 'post', 'PUT', 'HEAD', 'OPTIONS'),
  fc.string(),
  fc.constant(undefined),
);

describe('fuzz: any method, headers and body', () => {
  it('never throws, never hangs, always answers a documented status with a JSON body', async () => {
    await fc.assert(
      fc.asyncProperty(method, headers, body, async (m, h, b) => {
        const request: WebhookRequest =
          m === undefined ? { headers: h, body: b } : { method: m, headers: h, body: b };
        checkAnswer(await within(receiver.handle(request)));
      }),
      { numRuns: fuzzRuns(1500), seed: fuzzSeed(1500) },
    );
  });

  it('only the configured credentials are ever accepted', async () => {
    const payload = JSON.stringify(generateNotification('Drift'));
    await fc.assert(
      fc.asyncProperty(authorization, async (auth) => {
        const answer = await within(
          receiver.handle({
            method: 'POST',
            headers: { authorization: auth, 'content-type': 'application/json' },
            body: payload,
          }),
        );
        expect(answer.status === 200).toBe(goodAuth.includes(auth));
        expect([200, 400, 401]).toContain(answer.status);
      }),
      { numRuns: fuzzRuns(1000), seed: fuzzSeed(1000) },
    );
  });

  it('a valid delivery with any extra member is always accepted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...WEBHOOK_KINDS),
        fc.string().filter((key) => !['notificationType', 'samples', 'text', '__proto__'].includes(key)),
        fc.jsonValue(),
        async (kind, key, value) => {
          const base = generateNotification(kind) as Record<string, unknown>;
          if (key in base) return;
          const delivery = createTestDelivery({
            notification: { ...base, [key]: value },
            credentials: header,
          });
          const answer = await within(createWebhookReceiver({ credentials: header }).handle(delivery));
          expect(answer.status).toBe(200);
        },
      ),
      { numRuns: fuzzRuns(300), seed: fuzzSeed(300) },
    );
  });
});

describe('fuzz: the fetch handler with real Request objects', () => {
  const handler = createFetchHandler(receiver);
  const token = fc.stringMatching(/^[\x21-\x7e][\x20-\x7e]{0,40}$/);

  it('answers every request with a documented status', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'GET', 'PUT', 'DELETE', 'PATCH'),
        fc.record(
          {
            authorization: fc.oneof(fc.constantFrom(...goodAuth), token),
            'content-type': fc.oneof(fc.constant('application/json'), token),
          },
          { requiredKeys: [] },
        ),
        fc.oneof(textBody, fc.uint8Array({ maxLength: 10_000 })),
        async (m, h, b) => {
          const init: RequestInit = { method: m, headers: h };
          if (m !== 'GET') init.body = b as BodyInit;
          const response = await within(handler(new Request('https://example.test/webhooks', init)));
          checkAnswer({
            status: response.status,
            headers: Object.fromEntries(response.headers),
            body: await response.text(),
          });
        },
      ),
      { numRuns: fuzzRuns(500), seed: fuzzSeed(500) },
    );
  });
});
