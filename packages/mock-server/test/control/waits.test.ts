/**
 * Waits without sleeps, in process: `control.waitFor(name, ...)` resolves with the first matching
 * call (already journalled with `since: 'start'`, or made later), rejects after its timeout listing
 * what did arrive, refuses the 101st wait, is rejected by `reset()` and `cancelWaits()`, and runs on
 * real timers whatever fake timers the test installed. `control.nextDelivery` resolves with the next
 * webhook delivery attempt of a kind.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { HttpError } from '../../src/errors.js';
import { WAIT_LIMITS } from '../../src/pipeline/waiters.js';
import { setup } from '../helpers.js';

type T = Awaited<ReturnType<typeof setup>>;

const search = (t: T, body: Record<string, unknown> = {}, query?: Record<string, string>) =>
  t.call('POST', '/v2/workspaces/search', { body, ...(query ? { query } : {}) });

/** What a promise rejected with (an `HttpError`); fails the test when it resolves or throws anything else. */
async function rejection(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the wait to reject');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('control.waitFor', () => {
  it("resolves early with a call already journalled, given since: 'start'", async () => {
    const t = await setup();
    const res = await search(t, { searchValue: 'web' });
    const call = await t.core.control.waitFor('workspaces.search', { since: 'start', timeout: 0 });
    expect(call).toMatchObject({
      endpoint: 'workspaces.search',
      requestId: res.headers['x-request-id'],
      status: 200,
      accountId: t.primary.id,
      validated: true,
      body: { searchValue: 'web' },
    });
  });

  it('resolves late, with the first matching call made after the wait started (default since: now)', async () => {
    const t = await setup();
    await search(t, { searchValue: 'before' });
    const waiting = t.core.control.waitFor('workspaces.search', { match: { body: { searchValue: 'web' } } });
    await search(t, { searchValue: 'other' });
    const res = await search(t, { searchValue: 'web' });
    const call = await waiting;
    expect(call.requestId).toBe(res.headers['x-request-id']);
    expect(call.body.searchValue).toBe('web');
  });

  it('does not see what came before the call without since', async () => {
    const t = await setup();
    await search(t, { searchValue: 'web' });
    const error = await rejection(t.core.control.waitFor('workspaces.search', { timeout: 0 }));
    expect(error.status).toBe(408);
    expect(error.message).toBe("waitFor('workspaces.search'): no match within 0 ms; nothing arrived");
  });

  it('starts after a request id, or an entry carrying one', async () => {
    const t = await setup();
    const first = await search(t, { searchValue: 'a' });
    const second = await search(t, { searchValue: 'b' });
    const firstId = first.headers['x-request-id'] as string;
    const after = await t.core.control.waitFor('workspaces.search', { since: firstId, timeout: 0 });
    expect(after.requestId).toBe(second.headers['x-request-id']);
    const [call] = t.core.control.calls('workspaces.search');
    if (!call) throw new Error('expected a call');
    const again = await t.core.control.waitFor('workspaces.search', { since: call, timeout: 0 });
    expect(again.body.searchValue).toBe('b');
    const unknown = await rejection(
      t.core.control.waitFor('workspaces.search', { since: 'req_0000009999', timeout: 0 }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.message).toMatch(/^since: the journal holds no request req_0000009999/);
    const bad = await rejection(t.core.control.waitFor('workspaces.search', { since: 'yesterday' }));
    expect(bad.message).toBe(
      `body.since: expected 'now', 'start' or a request id (req_0000000007), received "yesterday"`,
    );
  });

  it('selects by partial body, partial query and account, as respond does', async () => {
    const t = await setup();
    const byQuery = t.core.control.waitFor('workspaces.search', { match: { query: { page: 2 } } });
    const byAccount = t.core.control.waitFor('workspaces.search', {
      match: { accountId: t.other.id, body: { searchValue: 'x' } },
    });
    await search(t, { searchValue: 'x' });
    const paged = await search(t, {}, { page: '2' });
    const theirs = await t.call('POST', '/v2/workspaces/search', {
      body: { searchValue: 'x' },
      token: t.otherToken,
    });
    expect((await byQuery).requestId).toBe(paged.headers['x-request-id']);
    expect((await byAccount).requestId).toBe(theirs.headers['x-request-id']);
  });

  it('checks its inputs: the endpoint name, match members, the timeout range (400 naming the field)', async () => {
    const t = await setup();
    const name = await rejection(t.core.control.waitFor('workspace.search' as 'workspaces.search'));
    expect(name.message).toMatch(/^body\.endpoint: expected an endpoint name of the contract/);
    expect(name.message).toMatch(/the closest: workspaces\.search/);
    const member = await rejection(
      t.core.control.waitFor('workspaces.search', { match: { body: { serchValue: 'x' } as never } }),
    );
    expect(member.issues?.map((i) => i.path)).toEqual(['match.body.serchValue']);
    const timeout = await rejection(t.core.control.waitFor('workspaces.search', { timeout: 600_001 }));
    expect(timeout.message).toBe(
      'body.timeout: expected an integer from 0 to 600000 (milliseconds), received number 600001',
    );
    const unknown = await rejection(t.core.control.waitFor('workspaces.search', { timeot: 5 } as never));
    expect(unknown.status).toBe(400);
    expect(unknown.message).toMatch(/timeot/);
  });

  it('rejects after its timeout with a 408 listing the first 10 requests that arrived, and their count', async () => {
    const t = await setup();
    const waiting = t.core.control.waitFor('workspaces.search', {
      match: { body: { searchValue: 'never' } },
      timeout: 20,
    });
    for (let i = 0; i < 12; i++) await search(t, { searchValue: `n${i}` });
    await t.call('GET', '/__mock/accounts'); // the control plane's own requests are not listed
    const error = await rejection(waiting);
    expect(error.status).toBe(408);
    expect(error.code).toBe('request_timeout');
    expect(error.message).toMatch(
      /^waitFor\('workspaces\.search'\): no match within 20 ms; 12 arrived \(the first 10 listed\): req_\d+ POST \/v2\/workspaces\/search → 200 \(workspaces\.search\); /,
    );
    // Then the nearest miss: each search had none of the match's values, the latest of them is named.
    const parts = error.message.split('; ');
    expect(parts).toHaveLength(12);
    expect(parts.at(-1)).toMatch(
      /^nearest miss: req_\d+ POST \/v2\/workspaces\/search → 200 \(workspaces\.search\), at body\.searchValue: expected "never", received "n11"$/,
    );
    expect(t.core.control.cancelWaits()).toBe(0); // nothing left pending
  });

  it(`refuses the ${WAIT_LIMITS.maxWaiters + 1}st pending wait with a clear 409`, async () => {
    const t = await setup();
    const pending = Array.from({ length: WAIT_LIMITS.maxWaiters }, () =>
      t.core.control.waitFor('health').catch((e: unknown) => e),
    );
    const refused = await rejection(t.core.control.nextDelivery());
    expect(refused.status).toBe(409);
    expect(refused.message).toBe(
      'nextDelivery(): 100 waits are pending already, the most the mock keeps; await (or cancel: control.cancelWaits()) some first',
    );
    expect(t.core.control.cancelWaits()).toBe(WAIT_LIMITS.maxWaiters);
    await Promise.all(pending);
    // Room again once they are settled.
    await t.call('GET', '/v2/health', { token: null });
    const health = t.core.control.waitFor('health', { since: 'start', timeout: 0 });
    await expect(health).resolves.toMatchObject({ endpoint: 'health' });
  });

  it('is rejected by reset() and by cancelWaits(), with a message saying why', async () => {
    const t = await setup();
    const calls = t.core.control.waitFor('workspaces.search');
    const deliveries = t.core.control.nextDelivery({ kind: 'Drift' });
    await t.core.control.reset();
    const [a, b] = await Promise.all([rejection(calls), rejection(deliveries)]);
    expect(a.status).toBe(409);
    expect(a.message).toBe(
      "waitFor('workspaces.search') was cancelled: the mock was reset (reset(), POST /__mock/reset); nothing came that it waited for",
    );
    expect(b.message).toMatch(/^nextDelivery\(\{ kind: 'Drift' \}\) was cancelled: the mock was reset/);
    const later = t.core.control.waitFor('health');
    expect(t.core.control.cancelWaits('the suite is over')).toBe(1);
    expect((await rejection(later)).message).toBe(
      "waitFor('health') was cancelled: the suite is over; nothing came that it waited for",
    );
  });

  it('times out on real timers: vi.useFakeTimers() does not freeze it', async () => {
    const t = await setup();
    vi.useFakeTimers();
    // With the fake timers installed and never advanced, the wait still ends.
    const error = await rejection(t.core.control.waitFor('workspaces.search', { timeout: 20 }));
    expect(error.status).toBe(408);
    const delivery = await rejection(t.core.control.nextDelivery({ timeout: 20 }));
    expect(delivery.status).toBe(408);
  });

  it('refuses to wait on a journal that keeps nothing', async () => {
    const core = new MockCore({ journalLimit: 0 });
    const error = await rejection(core.control.waitFor('health'));
    expect(error.status).toBe(409);
    expect(error.message).toMatch(/journalLimit: 0/);
  });
});

describe('control.nextDelivery', () => {
  const T0 = Date.UTC(2026, 0, 15, 12, 0, 0, 0);
  const makeMock = (answer: () => number = () => 200) =>
    new MockCore({
      seed: 7,
      sizes: { accounts: 2, workspaces: 5, events: 10, rules: 2, stacks: 3 },
      clock: () => T0,
      webhookFetch: async () => new Response(null, { status: answer() }),
    });
  const stackOf = async (core: MockCore) => (await core.control.getState()).accounts[0]?.stacks[0]?.id ?? '';

  it('resolves with the Drift delivery of a recorded finding, not the test delivery before it', async () => {
    const core = makeMock();
    const next = core.control.nextDelivery({ kind: 'Drift', nickname: 'ops' });
    const integration = await core.control.webhooks.create({
      nickname: 'ops',
      url: 'https://hooks.example.test/in',
    });
    core.control.recordFinding(await stackOf(core), { kind: 'Drift', name: 'bucket' });
    const attempt = await next;
    expect(attempt).toMatchObject({
      kind: 'Drift',
      integrationId: integration.id,
      attempt: 1,
      status: 200,
      outcome: 'delivered',
    });
    expect(core.control.webhooks.deliveries().map((a) => a.id)).toContain(attempt.id);
  });

  it("with since: 'start', an attempt the log holds counts; else it lists what came", async () => {
    const core = makeMock();
    const integration = await core.control.webhooks.create({
      nickname: 'ops',
      url: 'https://hooks.example.test/in',
    });
    const made = await core.control.webhooks.test(integration.id);
    const test = await core.control.nextDelivery({ kind: 'test', since: 'start', timeout: 0 });
    expect(test).toEqual(made);
    const drift = core.control.nextDelivery({ kind: 'Drift', timeout: 20 });
    await core.control.webhooks.test(integration.id);
    const error = await rejection(drift);
    expect(error.status).toBe(408);
    expect(error.message).toMatch(
      new RegExp(
        `^nextDelivery\\(\\{ kind: 'Drift' \\}\\): no match within 20 ms; 1 arrived: dlv_\\d+ test → ${integration.id} \\(ops\\) 200 delivered$`,
      ),
    );
    const bad = await rejection(core.control.nextDelivery({ kind: 'drift' as 'Drift' }));
    expect(bad.status).toBe(400);
    expect(bad.issues?.map((i) => i.path)).toEqual(['kind']);
  });
});
