import {
  createFetchHandler,
  createTestDelivery,
  createWebhookReceiver,
  DEFAULT_MAX_BODY_BYTES,
  encodeAuthorization,
  generateNotification,
  WEBHOOK_ERROR_STATUS,
  WEBHOOK_KINDS,
  type WebhookNotification,
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

/** Member names that are also names of `Object.prototype` members, and a few ordinary ones. */
const hostileKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'valueOf',
    'hasOwnProperty',
    '__defineGetter__',
    'notificationType',
    'samples',
    'drifts',
  ),
  fc.string({ maxLength: 8 }),
);

/**
 * JSON text of any value whose members have hostile names. Built as text, because an object literal
 * cannot hold an own `__proto__` member while `JSON.parse` makes one.
 */
const { value: hostileJson } = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 0 }).map((leaf) => JSON.stringify(leaf)),
    tie('object'),
    tie('array'),
  ),
  object: fc
    .array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 })
    .map((members) => `{${members.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`),
  array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
}));

/** JSON text nested `levels` deep in arrays or objects, shallow (within the limit) or far past it. */
const deepJson = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 1_000, max: 100_000 })),
    fc.constantFrom<[string, string]>(['[', ']'], ['{"a":', '}'], ['{"__proto__":', '}'], ['[{"x":', '}]']),
    fc.constantFrom('null', '0', '"x"', '{}', '[]'),
  )
  .map(([levels, [open, close], leaf]) => `${open.repeat(levels)}${leaf}${close.repeat(levels)}`);

/** JSON text of a long array (up to 12,000 items) of items that are empty, wrong or hostile. */
const hugeArrayJson = fc
  .tuple(
    fc.integer({ min: 1_000, max: 12_000 }),
    fc.constantFrom(
      '{}',
      '0',
      '"x"',
      '[]',
      'null',
      '{"__proto__":{}}',
      '{"constructor":1}',
      '{"drifts":[{}]}',
    ),
  )
  .map(([length, item]) => `[${Array.from({ length }, () => item).join(',')}]`);

/** A notification's JSON text with one member, or a sample's, or a drift list, replaced by hostile text. */
const hostileDelivery = fc
  .tuple(
    fc.constantFrom(...WEBHOOK_KINDS),
    fc.constantFrom('extra', 'samples', 'sample', 'drifts', 'notificationType'),
    hostileKey,
    fc.oneof(hostileJson, deepJson, hugeArrayJson),
  )
  .map(([kind, where, key, text]) => {
    const notification = generateNotification(kind) as unknown as Record<string, unknown>;
    const base = JSON.stringify(notification).slice(0, -1);
    // The first sample's members (none for the test delivery), to append one more to.
    const members = JSON.stringify((notification.samples as unknown[] | undefined)?.[0] ?? {}).slice(1, -1);
    const sample = (name: string) => `{${members}${members ? ',' : ''}${JSON.stringify(name)}:${text}}`;
    switch (where) {
      case 'extra':
        return `${base},${JSON.stringify(key)}:${text}}`;
      case 'samples':
        return `${base},"samples":${text}}`;
      case 'sample':
        return `${base},"samples":[${sample(key)}]}`;
      case 'drifts':
        return `${base},"samples":[${sample('drifts')}]}`;
      default:
        return `${base},"notificationType":${JSON.stringify(key)},"samples":${text}}`;
    }
  });

describe('fuzz: hostile member names, deep nesting and huge arrays', () => {
  const notifications: WebhookNotification[] = [];
  const tolerant = createWebhookReceiver({ credentials: 'none' }).onAny((notification) => {
    notifications.push(notification);
  });
  const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

  it(
    'answers 200, 413 or 422; stops at 100 issues; an accepted payload always serialises; no pollution',
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileDelivery, async (text) => {
          notifications.length = 0;
          const answer = await within(
            tolerant.handle({ method: 'POST', headers: { 'content-type': 'application/json' }, body: text }),
          );
          checkAnswer(answer);
          expect([200, 413, 422]).toContain(answer.status);
          if (answer.status === 413) expect(text.length).toBeGreaterThan(DEFAULT_MAX_BODY_BYTES / 4);
          if (answer.status === 422) {
            const body = JSON.parse(answer.body) as { issues: unknown[]; message: string };
            expect(body.issues.length).toBeGreaterThan(0);
            expect(body.issues.length).toBeLessThanOrEqual(100);
            // The message counts the issues the receiver found: never more than it may list.
            const more = /\(and (\d+) more issues?\b/.exec(body.message)?.[1];
            expect(Number(more ?? 0)).toBeLessThanOrEqual(99);
          }
          if (answer.status === 200) {
            expect(notifications).toHaveLength(1);
            expect(() => JSON.stringify(notifications[0]?.payload)).not.toThrow();
          }
          expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        }),
        { numRuns: fuzzRuns(300), seed: fuzzSeed(1300) },
      );
      // A bound for hangs only, grown with the number of cases (`pnpm test:fuzz` runs 12 times as many).
    },
    Math.max(30_000, fuzzRuns(300) * 50),
  );
});
