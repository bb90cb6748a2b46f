/**
 * Endpoint faults' `match`es under the one-off answers' budget: every API request to an endpoint is
 * compared with every waiting `match` of it, so the faults' `match`es are kept within
 * `MATCH_LIMITS.maxTotalBytes` by the heap's measure (`matchHeapBytes`: two bytes a character of the
 * JSON text, 64 a value), the bound and the check (`checkKeptBytes`) of the one-off answers. Before,
 * 1,000 faults of 55 KB `match`es were all kept (and a rule given in process was not bounded at all).
 * Past the budget a further fault is a 409 `conflict` naming the `match`es, the same in process and
 * over HTTP; a fault exactly at it is kept; a fault's last use, `clearFaults` and `reset` give room back.
 */
import { describe, expect, it } from 'vitest';
import { ONE_OFF_LIMITS } from '../../src/pipeline/one-off.js';
import { MATCH_LIMITS, matchHeapBytes, valueMatches } from '../../src/pipeline/request-match.js';
import { expectError, refusal, setup } from '../helpers.js';
import { heavyMatch, type Match, matchesFilling, paddedMatch } from './budget-fill.js';

type Setup = Awaited<ReturnType<typeof setup>>;

const BUDGET = MATCH_LIMITS.maxTotalBytes;

const heavy = heavyMatch;
const _padded = paddedMatch;

/** Adds an endpoint fault with `match`, in process or over HTTP; answers the error of a refusal. */
type Add = (
  t: Setup,
  match: Match | undefined,
) => Promise<{ status: number; code?: string; message?: string }>;

const inProcess: Add = async (t, match) => {
  try {
    t.core.control.addFault({ endpoint: 'workspaces.search', status: 503, ...(match ? { match } : {}) });
    return { status: 201 };
  } catch (error) {
    const e = refusal(() => {
      throw error;
    });
    return { status: e.status, code: e.code, message: e.message };
  }
};

const overHttp: Add = async (t, match) => {
  const res = await t.call('POST', '/__mock/faults', {
    body: { endpoint: 'workspaces.search', status: 503, ...(match ? { match } : {}) },
  });
  if (res.status === 201) return { status: 201 };
  const body = expectError(res, res.status, (res.body as { code: string }).code);
  return { status: res.status, code: body.code, message: body.message };
};

describe("endpoint faults' match budget", () => {
  it("is the one-off answers' budget: the same constant", () => {
    expect(ONE_OFF_LIMITS.maxTotalBytes).toBe(MATCH_LIMITS.maxTotalBytes);
    expect(BUDGET).toBe(64 * 1024 * 1024);
  });

  const refusals: Record<string, string | undefined> = {};
  for (const [transport, add] of [
    ['in process', inProcess],
    ['over HTTP', overHttp],
  ] as const) {
    it(`keeps faults up to the budget exactly, then refuses the next with a 409 naming the matches (${transport})`, async () => {
      const t = await setup();
      for (const match of matchesFilling(BUDGET)) expect((await add(t, match)).status).toBe(201);
      const kept = t.core.control.faults().length;
      // One value more is past it.
      const past = await add(t, { accountId: 'x' });
      expect(past.status).toBe(409);
      expect(past.code).toBe('conflict');
      const bytes = matchHeapBytes({ accountId: 'x' });
      expect(past.message).toBe(
        `the waiting faults' matches and answers (this one's: ${bytes} bytes) would take more than ${BUDGET} bytes (a match's JSON at two bytes a character, its values at 64 bytes each; an answer's body and headers at two bytes a character of their JSON), the most the mock keeps: remove them (DELETE /__mock/faults, control.clearFaults()) first`,
      );
      refusals[transport] = past.message;
      expect(t.core.control.faults()).toHaveLength(kept);
      // A fault without a match takes none of it.
      expect((await add(t, undefined)).status).toBe(201);
      expect(
        (await t.call('POST', '/__mock/faults', { body: { path: '/nowhere', status: 500 } })).status,
      ).toBe(201);
      // Room comes back with clearFaults (and with reset()).
      t.core.control.clearFaults();
      expect((await add(t, { accountId: 'x' })).status).toBe(201);
      for (const match of matchesFilling(BUDGET - bytes)) expect((await add(t, match)).status).toBe(201);
      expect((await add(t, { accountId: 'y' })).status).toBe(409);
      t.core.control.reset();
      expect((await add(t, { accountId: 'y' })).status).toBe(201);
    });
  }

  it('gives the same message in process and over HTTP', () => {
    expect(refusals['in process']).toBeDefined();
    expect(refusals['over HTTP']).toBe(refusals['in process']);
  });

  it("gives a fault's room back at its last use", async () => {
    const t = await setup();
    // The first fault matches any request of the primary account, once; the others none of these.
    const first = { accountId: t.primary.id };
    t.core.control.addFault({ endpoint: 'workspaces.search', status: 503, match: first });
    for (const match of matchesFilling(BUDGET - matchHeapBytes(first))) {
      t.core.control.addFault({ endpoint: 'workspaces.search', status: 503, match: match as never });
    }
    const next = () => t.core.control.addFault({ endpoint: 'workspaces.search', match: { accountId: 'x' } });
    expect(refusal(next).status).toBe(409);
    expectError(await t.call('POST', '/v2/workspaces/search', { body: {} }), 503, 'service_unavailable');
    expect(next().id).toMatch(/^fault_/);
  });

  it('costs a request what the request holds, not what the waiting matches hold', async () => {
    // Counted, not timed: a 4,500-member match compared with a smaller request reads at most one
    // member more than the request has (before, every request listed every match's members: 150 such
    // faults, 150 ms a request).
    const members = Object.fromEntries(Array.from({ length: 4500 }, (_, i) => [`k${i}`, i]));
    let reads = 0;
    const counted = new Proxy(members, {
      get(target, key, receiver) {
        reads += 1;
        return Reflect.get(target, key, receiver);
      },
    });
    expect(valueMatches(counted, {})).toBe(false);
    expect(reads).toBe(0);
    expect(valueMatches(counted, { k0: 0, k1: 1 })).toBe(false);
    expect(reads).toBe(2);
    // An array of the match: the first item the request lacks ends the comparison.
    let looked = 0;
    const request = new Proxy(['a', 'b', 'c'], {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) looked += 1;
        return Reflect.get(target, key, receiver);
      },
    });
    const names = Array.from({ length: 100 }, (_, i) => `name-${i}`);
    expect(valueMatches(names, request)).toBe(false);
    expect(looked).toBe(3);
    // Through the mock: 150 faults naming 100 workspace names each wait; requests they do not match pass them.
    const t = await setup();
    for (let i = 0; i < 150; i++) {
      t.core.control.addFault({
        endpoint: 'workspaces.search',
        status: 503,
        match: { body: { filters: { workspaceName: names } } },
      });
    }
    const search = () =>
      t.call('POST', '/v2/workspaces/search', { body: { filters: { workspaceName: ['a', 'b', 'c'] } } });
    for (let i = 0; i < 3; i++) expect((await search()).status).toBe(200);
    // Matching is unchanged: a request the last fault's match names is answered by it.
    t.core.control.addFault({
      endpoint: 'workspaces.search',
      status: 503,
      match: { body: { searchValue: 'hit' } },
    });
    const hit = await t.call('POST', '/v2/workspaces/search', { body: { searchValue: 'hit', filters: {} } });
    expectError(hit, 503, 'service_unavailable');
  });

  it('keeps the refusal small however large the match', async () => {
    const t = await setup();
    for (const match of matchesFilling(BUDGET)) await inProcess(t, match);
    const huge = await inProcess(t, heavy);
    expect(huge.status).toBe(409);
    expect(huge.message?.length).toBeLessThan(400);
  });

  it('takes a rule given in process only as JSON within the JSON bounds (as over HTTP), a 400 otherwise', async () => {
    const t = await setup();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const cyclic = refusal(() =>
      t.core.control.addFault({
        endpoint: 'workspaces.search',
        status: 500,
        match: { body: { filters: cycle } } as never,
      }),
    );
    expect(cyclic.status).toBe(400);
    expect(cyclic.code).toBe('validation_failed');
    expect(cyclic.message.length).toBeLessThan(1000);
    // Shared parts, 2^40 values walked as a tree: refused at the JSON bounds' value count, at once.
    let shared: unknown[] = [0];
    for (let i = 0; i < 40; i++) shared = [shared, shared];
    const wide = refusal(() =>
      t.core.control.addFault({
        endpoint: 'workspaces.search',
        status: 500,
        match: { body: { filters: shared } } as never,
      }),
    );
    expect(wide.status).toBe(400);
    expect(wide.message).toContain('values');
    expect(t.core.control.faults()).toEqual([]);
  });
});
