/**
 * The pending waits' `match`es under a budget of bytes (`WAIT_LIMITS.maxMatchBytes`, 16 MiB), by the
 * heap's measure (`matchHeapBytes`: two bytes a character of the JSON text, 64 a value), checked by
 * the injected answers' one check (`checkKeptBytes`). Before, waits were bounded only by their count
 * (100): a `match` of 1 MiB of small values takes about 20 MB of heap, so 100 of them ran the mock out
 * of memory. Past the budget a further wait is a 409 `conflict` naming it, the same in process and
 * over HTTP, and nothing of it is kept; a wait that settles, times out, is cancelled, or a reset gives
 * its room back. No test here depends on wall time: waits are settled by the request they wait for,
 * cancelled, or time out at 0 ms.
 */
import { describe, expect, it } from 'vitest';
import { MATCH_LIMITS, matchHeapBytes } from '../../src/pipeline/request-match.js';
import { WAIT_LIMITS } from '../../src/pipeline/waiters.js';
import { expectError, rejection, setup } from '../helpers.js';
import { heavyMatch, type Match, matchesFilling, paddedMatch } from './budget-fill.js';

type Setup = Awaited<ReturnType<typeof setup>>;

const BUDGET = WAIT_LIMITS.maxMatchBytes;
const ENDPOINT = 'workspaces.search';

const heavy = heavyMatch;
const _padded = paddedMatch;

/** What became of a wait once every task queued so far has run: still pending, or how it settled. */
type Outcome = { state: 'pending' } | { state: 'refused'; status: number; code: string; message: string };

/** Starts a wait (in process or over HTTP); answers a handle to what becomes of it. */
type Start = (t: Setup, match: Match | undefined, timeout?: number) => Promise<Outcome>;

/** Lets every queued task run (no timer, no wall time): a refusal has answered by then, a pending wait has not. */
const drained = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The pending waits' promises, to be awaited once they are cancelled. */
const started: Promise<unknown>[] = [];

const inProcess: Start = async (t, match, timeout = WAIT_LIMITS.defaultTimeoutMs * 100) => {
  let outcome: Outcome = { state: 'pending' };
  const wait = t.core.control.waitFor(ENDPOINT, { ...(match ? { match } : {}), timeout } as never);
  started.push(
    rejection(wait).then((e) => {
      outcome = { state: 'refused', status: e.status, code: e.code, message: e.message };
    }),
  );
  await drained();
  return outcome;
};

const overHttp: Start = async (t, match, timeout = 30_000) => {
  let outcome: Outcome = { state: 'pending' };
  const answer = t.call('POST', '/__mock/journal/wait', {
    body: { endpoint: ENDPOINT, ...(match ? { match } : {}), timeout },
  });
  started.push(
    answer.then((res) => {
      const body = expectError(res, res.status, (res.body as { code: string }).code);
      outcome = { state: 'refused', status: res.status, code: body.code, message: body.message };
    }),
  );
  await drained();
  return outcome;
};

/** Cancels every pending wait of `t`, and awaits what each started wait became. */
async function cancelAll(t: Setup): Promise<number> {
  const cancelled = t.core.control.cancelWaits('the test is over');
  await Promise.all(started.splice(0));
  return cancelled;
}

/** The 409 of a wait whose `match` of `bytes` would pass the budget. */
const refusalOf = (bytes: number) =>
  `waitFor('${ENDPOINT}'): the pending waits' matches (this one's: ${bytes} bytes) would take more than ${BUDGET} bytes (a match's JSON at two bytes a character, its values at 64 bytes each), the most the mock keeps: remove them (await them, or cancel them: POST /__mock/waits/cancel, control.cancelWaits()) first`;

describe("the pending waits' match budget", () => {
  it('is 16 MiB, a quarter of the injected answers’ budget', () => {
    expect(BUDGET).toBe(16 * 1024 * 1024);
    expect(BUDGET).toBeLessThan(MATCH_LIMITS.maxTotalBytes);
  });

  const refusals: Record<string, string | undefined> = {};
  for (const [transport, start] of [
    ['in process', inProcess],
    ['over HTTP', overHttp],
  ] as const) {
    it(`keeps waits up to the budget exactly, then refuses the next with a 409 naming it, keeping nothing (${transport})`, async () => {
      const t = await setup();
      const fill = matchesFilling(BUDGET);
      for (const match of fill) expect(await start(t, match)).toEqual({ state: 'pending' });
      // One value more is past it.
      const bytes = matchHeapBytes({ accountId: 'x' });
      const past = await start(t, { accountId: 'x' });
      expect(past).toEqual({ state: 'refused', status: 409, code: 'conflict', message: refusalOf(bytes) });
      if (past.state === 'refused') {
        refusals[transport] = past.message;
        expect(past.message.length).toBeLessThan(400);
      }
      // A large match is refused as briefly.
      const huge = await start(t, heavy);
      expect(huge.state === 'refused' && huge.message.length).toBeLessThan(400);
      // A wait without a match takes none of it (nor does a nextDelivery, which has none).
      expect(await start(t, undefined)).toEqual({ state: 'pending' });
      const delivery = t.core.control.nextDelivery({ timeout: 600_000 });
      started.push(rejection(delivery));
      // Nothing of the refused ones was kept: the filling waits, the one without a match, the delivery.
      expect(await cancelAll(t)).toBe(fill.length + 2);
      // Cancelling gave the room back.
      expect(await start(t, { accountId: 'x' })).toEqual({ state: 'pending' });
      for (const match of matchesFilling(BUDGET - bytes)) {
        expect(await start(t, match)).toEqual({ state: 'pending' });
      }
      expect((await start(t, { accountId: 'y' })).state).toBe('refused');
      await cancelAll(t);
    });
  }

  it('gives the same message in process and over HTTP', () => {
    expect(refusals['in process']).toBeDefined();
    expect(refusals['over HTTP']).toBe(refusals['in process']);
  });

  it('gives a wait’s room back when the request it waits for is journalled', async () => {
    const t = await setup();
    // The first wait selects a search for 'hit'; the others a request nobody makes.
    const first: Match = { body: { searchValue: 'hit' } };
    const settled = t.core.control.waitFor(ENDPOINT, { match: first as never, timeout: 600_000 });
    for (const match of matchesFilling(BUDGET - matchHeapBytes(first))) await inProcess(t, match);
    expect((await inProcess(t, { accountId: 'x' })).state).toBe('refused');
    // Requests that no wait selects change nothing.
    expect((await t.call('POST', '/v2/workspaces/search', { body: {} })).status).toBe(200);
    expect((await inProcess(t, { accountId: 'x' })).state).toBe('refused');
    // The one the first waits for settles it, and its room is free again: exactly that much.
    expect((await t.call('POST', '/v2/workspaces/search', { body: { searchValue: 'hit' } })).status).toBe(
      200,
    );
    expect((await settled).body).toMatchObject({ searchValue: 'hit' });
    expect(await inProcess(t, first)).toEqual({ state: 'pending' });
    expect((await inProcess(t, { accountId: 'x' })).state).toBe('refused');
    await cancelAll(t);
  });

  it('gives a wait’s room back when it times out (at 0 ms: it looks once)', async () => {
    const t = await setup();
    const small: Match = { body: { searchValue: 'soon' } };
    for (const match of matchesFilling(BUDGET - matchHeapBytes(small))) await inProcess(t, match);
    const timedOut = await rejection(t.core.control.waitFor(ENDPOINT, { match: small as never, timeout: 0 }));
    expect(timedOut.status).toBe(408);
    expect(await inProcess(t, small)).toEqual({ state: 'pending' });
    expect((await inProcess(t, { accountId: 'x' })).state).toBe('refused');
    await cancelAll(t);
  });

  it('gives every wait’s room back on reset()', async () => {
    const t = await setup();
    for (const match of matchesFilling(BUDGET)) await inProcess(t, match);
    expect((await inProcess(t, { accountId: 'x' })).state).toBe('refused');
    t.core.control.reset();
    await Promise.all(started.splice(0));
    for (const match of matchesFilling(BUDGET)) {
      expect(await inProcess(t, match)).toEqual({ state: 'pending' });
    }
    await cancelAll(t);
  });

  it('leaves ordinary waits as they were: each resolves with the call it selects', async () => {
    const t = await setup();
    for (let i = 0; i < 3; i++) {
      const wait = t.core.control.waitFor(ENDPOINT, {
        match: { body: { searchValue: `v${i}` }, accountId: t.primary.id },
        timeout: 600_000,
      });
      await t.call('POST', '/v2/workspaces/search', { body: { searchValue: `v${i}` } });
      expect((await wait).body).toMatchObject({ searchValue: `v${i}` });
    }
    // Over HTTP, the GET long poll's `accountId` too.
    const polled = t.call('GET', '/__mock/journal/wait', {
      query: { endpoint: ENDPOINT, accountId: t.primary.id, timeout: '30000' },
    });
    await drained();
    await t.call('POST', '/v2/workspaces/search', { body: {} });
    expect((await polled).status).toBe(200);
    // None of them holds room: the whole budget is there.
    for (const match of matchesFilling(BUDGET)) {
      expect(await inProcess(t, match)).toEqual({ state: 'pending' });
    }
    await cancelAll(t);
  });

  it('takes a match given in process only as JSON within the JSON bounds, copied (a 400 otherwise)', async () => {
    const t = await setup();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const cyclic = await rejection(
      t.core.control.waitFor(ENDPOINT, { match: { body: { filters: cycle } } as never, timeout: 600_000 }),
    );
    expect(cyclic.status).toBe(400);
    expect(cyclic.code).toBe('validation_failed');
    // Shared parts, 2^40 values walked as a tree: refused at the JSON bounds' value count, at once.
    let shared: unknown[] = [0];
    for (let i = 0; i < 40; i++) shared = [shared, shared];
    const wide = await rejection(
      t.core.control.waitFor(ENDPOINT, { match: { body: { filters: shared } } as never, timeout: 600_000 }),
    );
    expect(wide.status).toBe(400);
    expect(wide.message).toContain('values');
    // The caller changing its match afterwards changes nothing of the wait.
    const match = { body: { searchValue: 'kept' } };
    const wait = t.core.control.waitFor(ENDPOINT, { match, timeout: 600_000 });
    match.body.searchValue = 'changed';
    await t.call('POST', '/v2/workspaces/search', { body: { searchValue: 'changed' } });
    await t.call('POST', '/v2/workspaces/search', { body: { searchValue: 'kept' } });
    expect((await wait).body).toMatchObject({ searchValue: 'kept' });
    expect(await cancelAll(t)).toBe(0);
  });
});
