/**
 * Webhook integrations and deliveries against hostile configuration and endless failure: control
 * characters in credentials are refused at configuration (never echoed), URL secrets are never shown
 * or recorded, and retries follow a bounded, seeded schedule on the mock's clock.
 */

import { parseRetryAfter } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { MockCore, type MockOptions } from '../src/app/mock.js';
import {
  DEFAULT_DELIVERY_POLICY,
  DELIVERY_POLICY_RANGES,
  MIN_RETRY_DELAY_MS,
} from '../src/domain/delivery-policy.js';
import { redactUrl } from '../src/domain/webhook-url.js';
import { retryDelay } from '../src/domain/webhooks/queue.js';
import { MAX_INTEGRATIONS } from '../src/domain/webhooks.js';
import type { MockResponse } from '../src/http/message.js';
import { expectError } from './helpers.js';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0, 0);
const HOOK = 'https://hooks.example.test/in';

interface Sent {
  url: string;
  headers: Record<string, string>;
}

/**
 * A mock on a stopped clock whose webhook endpoint answers `answer(n)` to the n-th POST (a status, or
 * a status and headers), recording what came.
 */
function makeMock(
  answer: (n: number) => number | { status: number; headers: Record<string, string> } = () => 200,
  extra: Partial<MockOptions> = {},
) {
  const sent: Sent[] = [];
  const core = new MockCore({
    seed: 7,
    sizes: { accounts: 2, workspaces: 5, events: 10, rules: 2, stacks: 3 },
    clock: () => T0,
    webhookFetch: async (input, init) => {
      sent.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
      const a = answer(sent.length);
      return typeof a === 'number'
        ? new Response(null, { status: a })
        : new Response(null, { status: a.status, headers: a.headers });
    },
    ...extra,
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

describe('control characters in credentials (L2)', () => {
  const injections = [
    { field: 'credentials.authorization', credentials: { authorization: 'Bearer abc\r\nX-Evil: injected' } },
    { field: 'credentials.authorization', credentials: { authorization: 'Bearer abc\ninjected-lf' } },
    { field: 'credentials.authorization', credentials: { authorization: 'Bearer\u0000nul-injected' } },
    {
      field: 'credentials.basic.username',
      credentials: { basic: { username: 'user\r\ninjected-user', password: 'pw' } },
    },
    {
      field: 'credentials.basic.password',
      credentials: { basic: { username: 'user', password: 'pw\u007finjected-del' } },
    },
  ];

  it.each(injections)(
    'refuses $field with a control character on create: 400 naming it, the value never echoed',
    async ({ field, credentials }) => {
      const m = makeMock();
      const res = await m.call('POST', '/__mock/integrations/webhook', {
        nickname: 'x',
        url: HOOK,
        credentials,
      });
      const error = expectError(res, 400, 'validation_failed');
      expect(error.issues?.map((i) => i.path)).toEqual([field]);
      expect(error.message).toMatch(/control characters/);
      expect(JSON.stringify(res.body)).not.toMatch(/injected/);
      expect(m.sent).toEqual([]); // no test delivery was even tried
      expect(m.core.control.webhooks.list()).toEqual([]);
    },
  );

  it('refuses them on update too, and keeps the stored credentials', async () => {
    const m = makeMock();
    const created = await m.core.control.webhooks.create({
      nickname: 'x',
      url: HOOK,
      credentials: { authorization: 'Bearer good' },
    });
    const res = await m.call('PATCH', `/__mock/integrations/webhook/${created.id}`, {
      replaceCredentials: true,
      credentials: { authorization: 'Bearer bad\r\nX-Evil: injected' },
    });
    expect(expectError(res, 400, 'validation_failed').issues?.map((i) => i.path)).toEqual([
      'credentials.authorization',
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/injected/);
    await m.core.control.webhooks.test(created.id);
    expect(m.sent.map((s) => s.headers.authorization)).toEqual(['Bearer good', 'Bearer good']);
  });
});

describe('secrets in the URL (L2)', () => {
  it('sends the URL as entered, but shows and records it with secret query parameters redacted', async () => {
    const m = makeMock((n) => (n === 1 ? 200 : 503));
    const url = `${HOOK}?token=tok-very-secret&api_key=key-very-secret&team=platform`;
    const created = await m.core.control.webhooks.create({ nickname: 'x', url });
    m.core.control.notify({ notificationType: 'Drift' });
    await m.core.control.flushDeliveries();
    expect(m.sent.map((s) => s.url)).toContain(url);
    expect(created.url).toBe(`${HOOK}?token=[redacted]&api_key=[redacted]&team=platform`);
    const shown = JSON.stringify([
      created,
      (await m.call('GET', '/__mock/integrations/webhook')).body,
      (await m.call('GET', '/__mock/deliveries')).body,
      m.core.control.webhooks.deliveries(),
    ]);
    expect(shown).not.toContain('very-secret');
    expect(shown).toContain('team=platform');
  });

  it('does not echo the secrets of a URL whose test delivery fails', async () => {
    const m = makeMock(() => 200, {
      webhookFetch: async (input) => {
        throw new TypeError(`connect ECONNREFUSED for ${String(input)}`);
      },
    });
    const res = await m.call('POST', '/__mock/integrations/webhook', {
      nickname: 'x',
      url: `${HOOK}?access_token=tok-very-secret`,
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).not.toContain('tok-very-secret');
    expect(JSON.stringify(res.body)).toContain('access_token=[redacted]');
  });

  it('refuses a user name or password in the URL: 400 naming url, neither echoed', async () => {
    const m = makeMock();
    for (const url of [
      'https://hook-user:pw-very-secret@hooks.example.test/in',
      'http://only-user-secret@x.test/',
    ]) {
      const res = await m.call('POST', '/__mock/integrations/webhook', { nickname: 'x', url });
      const error = expectError(res, 400, 'validation_failed');
      expect(error.issues?.map((i) => i.path)).toEqual(['url']);
      expect(error.message).toMatch(/credentials\.basic/);
      expect(JSON.stringify(res.body)).not.toMatch(/secret/);
    }
    const created = await m.core.control.webhooks.create({ nickname: 'x', url: HOOK });
    const res = await m.call('PATCH', `/__mock/integrations/webhook/${created.id}`, {
      url: 'https://u:pw-very-secret@hooks.example.test/in',
    });
    expect(expectError(res, 400, 'validation_failed').issues?.map((i) => i.path)).toEqual(['url']);
    expect(JSON.stringify(res.body)).not.toContain('pw-very-secret');
    expect(m.core.control.webhooks.list()[0]?.url).toBe(HOOK);
    expect(m.sent).toHaveLength(1);
  });

  it('redacts userinfo and secret-looking parameters in the query and the fragment', () => {
    expect(redactUrl('https://u:p@h.test/a?signature=1&page=2#access_token=3&x=4')).toBe(
      'https://[redacted]@h.test/a?signature=[redacted]&page=2#access_token=[redacted]&x=4',
    );
    expect(redactUrl('not a url')).toBe('[redacted]');
    expect(redactUrl(HOOK)).toBe(HOOK);
  });
});

describe('the delivery retry policy (L7)', () => {
  it('refuses values outside the documented ranges: 400 naming the member, the range and what came', async () => {
    const m = makeMock();
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ attempts: 20 }, 'attempts', /from 1 to 10, received number 20$/],
      [{ attempts: 0 }, 'attempts', /from 1 to 10, received number 0$/],
      [{ baseDelayMs: 0 }, 'baseDelayMs', /from 100 to 60000 \(milliseconds\), received number 0$/],
      [{ maxDelayMs: 10_000_000 }, 'maxDelayMs', /from 100 to 600000/],
      [{ maxTotalMs: 10 }, 'maxTotalMs', /from 1000 to 3600000/],
      [{ timeoutMs: 0 }, 'timeoutMs', /from 100 to 120000/],
    ];
    for (const [body, field, message] of cases) {
      const res = await m.call('PUT', '/__mock/deliveries/policy', body);
      const error = expectError(res, 400, 'validation_failed');
      expect(error.issues?.map((i) => i.path)).toEqual([field]);
      expect(error.message).toMatch(new RegExp(`^body\\.${field}: `));
      expect(error.message).toMatch(message);
    }
    expect(() => m.core.control.webhooks.setPolicy({ attempts: 11 })).toThrow(/attempts.*from 1 to 10/);
    expect(m.core.control.webhooks.setPolicy({})).toEqual(DEFAULT_DELIVERY_POLICY);
    expect(() => new MockCore({ deliveryPolicy: { baseDelayMs: 0 } })).toThrow(
      /^MockOptions deliveryPolicy\.baseDelayMs: expected an integer from 100 to 60000 \(milliseconds\), received 0/,
    );
    expect(() => new MockCore({ deliveryPolicy: { attempts: 20 } })).toThrow(RangeError);
  });

  it('retries with exponential backoff and seeded jitter, each retry due at an instant of the mock clock', async () => {
    const m = makeMock((n) => (n === 1 ? 200 : 503));
    const hook = await m.core.control.webhooks.create({ nickname: 'x', url: HOOK });
    m.core.control.notify({ notificationType: 'Drift' });
    await m.core.webhooks.runDue();
    const attempts = () => m.core.control.webhooks.deliveries(hook.id);
    expect(attempts().map((a) => [a.attempt, a.outcome])).toEqual([[1, 'retrying']]);

    // Nothing more happens until the clock reaches each retry's instant, however often it is asked.
    const delays: number[] = [];
    for (let retry = 1; retry < DEFAULT_DELIVERY_POLICY.attempts; retry++) {
      const last = attempts().at(-1);
      const due = Date.parse(last?.nextAttemptAt ?? '');
      const delay = due - Date.parse(last?.time ?? '');
      delays.push(delay);
      const backoff = DEFAULT_DELIVERY_POLICY.baseDelayMs * 2 ** (retry - 1);
      expect(delay).toBeGreaterThanOrEqual(Math.max(backoff / 2, MIN_RETRY_DELAY_MS));
      expect(delay).toBeLessThanOrEqual(backoff);
      m.core.clock.set(due - 1);
      await m.core.webhooks.runDue();
      expect(attempts()).toHaveLength(retry);
      m.core.clock.set(due);
      await m.core.webhooks.runDue();
      expect(attempts()).toHaveLength(retry + 1);
      expect(attempts().at(-1)?.time).toBe(new Date(due).toISOString());
    }
    expect(attempts().map((a) => a.outcome)).toEqual([
      'retrying',
      'retrying',
      'retrying',
      'retrying',
      'failed',
    ]);
    expect(attempts().at(-1)?.nextAttemptAt).toBeUndefined();
    expect(m.core.control.webhooks.list()[0]?.status).toBe('failing');

    // The same seed gives the same schedule (flushed at once: each attempt recorded when it was due).
    const again = makeMock((n) => (n === 1 ? 200 : 503));
    const hook2 = await again.core.control.webhooks.create({ nickname: 'x', url: HOOK });
    again.core.control.notify({ notificationType: 'Drift' });
    await again.core.control.flushDeliveries();
    const times = again.core.control.webhooks.deliveries(hook2.id).map((a) => Date.parse(a.time));
    expect(times.slice(1).map((t, i) => t - (times[i] as number))).toEqual(delays);
    expect(again.core.now()).toBe(T0); // flushing does not move the clock
  });

  it('honours Retry-After up to maxDelayMs, and gives up past maxTotalMs', async () => {
    const m = makeMock((n) =>
      n === 1 ? 200 : { status: n === 2 ? 429 : 503, headers: { 'retry-after': n === 2 ? '30' : '86400' } },
    );
    const hook = await m.core.control.webhooks.create({ nickname: 'x', url: HOOK });
    m.core.control.webhooks.setPolicy({ attempts: 10, maxDelayMs: 45_000, maxTotalMs: 100_000 });
    m.core.control.notify({ notificationType: 'Drift' });
    await m.core.control.flushDeliveries();
    const attempts = m.core.control.webhooks.deliveries(hook.id);
    const times = attempts.map((a) => Date.parse(a.time));
    // 30 s asked, then a day asked (capped at 45 s): 0, 30 s, 75 s; the next would be at 120 s > 100 s.
    expect(times.map((t) => t - T0)).toEqual([0, 30_000, 75_000]);
    expect(attempts.map((a) => a.outcome)).toEqual(['retrying', 'retrying', 'failed']);
    expect(m.sent).toHaveLength(4);
  });

  it('reads Retry-After as the SDK does: retry-after-ms, decimal seconds, an HTTP date, at most 64 characters', async () => {
    const asks: Array<Record<string, string>> = [
      { 'retry-after-ms': '2500' },
      { 'retry-after': '1.5' },
      { 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' }, // far away: capped at maxDelayMs
      { 'retry-after': `${'0'.repeat(62)}30` }, // 64 characters: read
      { 'retry-after': `${'0'.repeat(63)}40` }, // 65 characters: ignored, the backoff applies
    ];
    const m = makeMock((n) =>
      n === 1 || n > asks.length + 1 ? 200 : { status: 503, headers: asks[n - 2] ?? {} },
    );
    const hook = await m.core.control.webhooks.create({ nickname: 'x', url: HOOK });
    m.core.control.webhooks.setPolicy({
      attempts: 6,
      baseDelayMs: 100,
      maxDelayMs: 45_000,
      maxTotalMs: 3_600_000,
    });
    m.core.control.notify({ notificationType: 'Drift' });
    await m.core.control.flushDeliveries();
    const attempts = m.core.control.webhooks.deliveries(hook.id);
    expect(attempts.map((a) => a.outcome)).toEqual([...asks.map(() => 'retrying'), 'delivered']);
    const times = attempts.map((a) => Date.parse(a.time));
    const delays = times.slice(1).map((t, i) => t - (times[i] as number));
    expect(delays.slice(0, 4)).toEqual([2500, 1500, 45_000, 30_000]);
    // Retry 5 without a readable Retry-After: 100 ms × 2^4, jittered down to half.
    expect(delays[4]).toBeGreaterThanOrEqual(800);
    expect(delays[4]).toBeLessThanOrEqual(1600);
  });

  it('makes at most `attempts` POSTs per notification, at least 100 ms apart, whatever the endpoint does', async () => {
    const m = makeMock((n) => (n === 1 ? 200 : { status: 503, headers: { 'retry-after': '0' } }));
    await m.core.control.webhooks.create({ nickname: 'x', url: HOOK });
    m.core.control.webhooks.setPolicy({
      attempts: DELIVERY_POLICY_RANGES.attempts[1],
      baseDelayMs: DELIVERY_POLICY_RANGES.baseDelayMs[0],
      maxTotalMs: DELIVERY_POLICY_RANGES.maxTotalMs[1],
    });
    for (let i = 0; i < 20; i++) m.core.control.notify({ notificationType: 'GhostResource' });
    await m.core.control.flushDeliveries();
    expect(m.sent).toHaveLength(1 + 20 * 10);
    const byNotification = new Map<string, Array<{ time: string }>>();
    for (const a of m.core.control.webhooks.deliveries()) {
      byNotification.set(a.notificationId, [...(byNotification.get(a.notificationId) ?? []), a]);
    }
    expect(byNotification.size).toBe(20);
    for (const list of byNotification.values()) {
      expect(list).toHaveLength(10);
      const times = list.map((a) => Date.parse(a.time));
      for (let i = 1; i < times.length; i++) {
        expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(MIN_RETRY_DELAY_MS);
      }
    }
  });

  it('computes delays from the policy: backoff capped, jitter in [0.5, 1), Retry-After as a floor', () => {
    const policy = { ...DEFAULT_DELIVERY_POLICY, baseDelayMs: 1000, maxDelayMs: 5000 };
    const low = { next: () => 0 };
    const high = { next: () => 0.999999 };
    expect(retryDelay(policy, 1, low)).toBe(500);
    expect(retryDelay(policy, 1, high)).toBe(1000);
    expect(retryDelay(policy, 10, high)).toBe(5000);
    expect(retryDelay(policy, 1, low, 3000)).toBe(3000);
    expect(retryDelay(policy, 1, low, 999_999)).toBe(5000);
    expect(retryDelay({ ...policy, baseDelayMs: 100 }, 1, low, 0)).toBe(MIN_RETRY_DELAY_MS);
    expect(parseRetryAfter({ 'retry-after': '120' }, 0)).toBe(120_000);
    expect(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 1970 00:00:10 GMT' }, 4000)).toBe(6000);
    expect(parseRetryAfter({ 'retry-after': 'soon' }, 0)).toBeUndefined();
    expect(parseRetryAfter({}, 0)).toBeUndefined();
  });

  it('stops a retry schedule when the integration is removed', async () => {
    const m = makeMock((n) => (n === 1 ? 200 : 503));
    const hook = await m.core.control.webhooks.create({ nickname: 'x', url: HOOK });
    m.core.control.notify({ notificationType: 'Drift' });
    await m.core.webhooks.runDue();
    expect(m.core.webhooks.waiting()).toHaveLength(1);
    m.core.control.webhooks.remove(hook.id);
    await m.core.control.flushDeliveries();
    expect(m.sent).toHaveLength(2);
  });
});

describe('the number of integrations (M4: every stored control body is bounded)', () => {
  it(`keeps at most MAX_INTEGRATIONS; the next create is a 409 and stores nothing`, async () => {
    const { core } = makeMock();
    for (let i = 0; i < MAX_INTEGRATIONS; i++)
      await core.control.webhooks.create({ nickname: `h${i}`, url: HOOK });
    await expect(core.control.webhooks.create({ nickname: 'one more', url: HOOK })).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
    });
    expect(core.control.webhooks.list()).toHaveLength(MAX_INTEGRATIONS);
  });
});
