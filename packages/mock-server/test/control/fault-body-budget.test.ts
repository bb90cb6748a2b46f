/**
 * A fault's answer under the faults' budget: its `body` (and its `headers`) are charged as a one-off
 * answer's are, two bytes a character of their JSON text (`keptTextBytes`: the body is kept as that
 * text and read afresh for each use), in the one total of the waiting faults with their `match`es
 * (`MATCH_LIMITS.maxTotalBytes`, 64 MiB; `faultHeapBytes`). Before, faults were bounded only by their
 * count (1,000) and a fault's body was kept as a parsed value uncharged: a 64 KiB body of `{}` takes
 * about 1.4 MB of heap, out of memory at 172 faults. Past the budget a further fault is a 409
 * `conflict` naming it, the same in process and over HTTP, and nothing is kept; a fault's last use,
 * `clearFaults` and `reset` give its room back.
 */
import { describe, expect, it } from 'vitest';
import { FAULT_LIMITS } from '../../src/pipeline/faults.js';
import { MATCH_LIMITS, matchHeapBytes } from '../../src/pipeline/request-match.js';
import { expectError, refusal, setup } from '../helpers.js';
import { filling } from './budget-fill.js';

type Setup = Awaited<ReturnType<typeof setup>>;

const BUDGET = MATCH_LIMITS.maxTotalBytes;

/** A body of many small values: 50 lists of 10,000 zeros (500,000 values, about 1 MB of JSON). */
const heavy: unknown = Array.from({ length: 50 }, () => new Array(10_000).fill(0));
/** A body of `k` characters of text. */
const padded = (k: number): unknown => 'x'.repeat(k);
const PAD_MAX = 4_000_000;

/** What a body takes by the one-off answers' measure: two bytes a character of its JSON text. */
const bodyBytes = (body: unknown) => 2 * JSON.stringify(body).length;

/** Bodies whose measures add up to exactly `bytes`, in few faults (at most the faults' count). */
function bodiesFilling(bytes: number): unknown[] {
  // One body of many small values (the finding's kind), the rest text (quick to fill with).
  const out = filling(bytes, { measure: bodyBytes, heavy, padded, padMax: PAD_MAX, heavyAtMost: 1 });
  expect(out.length).toBeLessThan(FAULT_LIMITS.maxFaults);
  return out;
}

/** Adds path faults answering 503 with these bodies, for a path no test requests (in process). */
function fill(t: Setup, bodies: unknown[]): void {
  for (const body of bodies) t.core.control.addFault({ path: '/v2/filling', status: 503, body });
}

/** The 409 of a fault that would take `bytes` past the budget. */
const refusalOf = (bytes: number) =>
  `the waiting faults' matches and answers (this one's: ${bytes} bytes) would take more than ${BUDGET} bytes (a match's JSON at two bytes a character, its values at 64 bytes each; an answer's body and headers at two bytes a character of their JSON), the most the mock keeps: remove them (DELETE /__mock/faults, control.clearFaults()) first`;

const NOBODY = matchHeapBytes({ accountId: 'nobody' });

describe("a fault's answer under the faults' budget", () => {
  it('keeps faults up to the budget exactly, then refuses the next one with a body: the same 409 in process and over HTTP', async () => {
    const t = await setup();
    fill(t, bodiesFilling(BUDGET - NOBODY));
    const kept = t.core.control.faults().length;
    // Room for the match of one more fault, none for its body.
    t.core.control.addFault({ endpoint: 'workspaces.search', status: 503, match: { accountId: 'nobody' } });
    const rule = { endpoint: 'workspaces.search', status: 503, body: 'x' } as const;
    const bytes = bodyBytes('x');
    const inProcess = refusal(() => t.core.control.addFault(rule));
    expect(inProcess.status).toBe(409);
    expect(inProcess.code).toBe('conflict');
    expect(inProcess.message).toBe(refusalOf(bytes));
    expect(inProcess.message.length).toBeLessThan(400);
    const overHttp = expectError(await t.call('POST', '/__mock/faults', { body: rule }), 409, 'conflict');
    expect(overHttp.message).toBe(inProcess.message);
    // A path fault's body counts too, and its headers.
    const pathRule = { path: '/v2/nowhere*', status: 500, body: {} };
    expect(refusal(() => t.core.control.addFault(pathRule)).status).toBe(409);
    const headers = { 'x-a': 'b' };
    const withHeaders = refusal(() =>
      t.core.control.addFault({ path: '/v2/nowhere*', status: 500, headers }),
    );
    expect(withHeaders.message).toBe(refusalOf(2 * JSON.stringify(headers).length));
    // Nothing of the refused ones was kept.
    expect(t.core.control.faults()).toHaveLength(kept + 1);
    // A fault of no body, no headers and no match takes nothing, and is still taken.
    expect(t.core.control.addFault({ path: '/v2/nowhere*', status: 500 }).id).toMatch(/^fault_/);
  });

  it('charges a body sent over HTTP (64 KiB of small values) as the one-off answers do', async () => {
    const t = await setup();
    // 30,000 zeros in lists: 60 KB of JSON, within the route's 64 KiB.
    const body = [new Array(10_000).fill(0), new Array(10_000).fill(0), new Array(10_000).fill(0)];
    fill(t, bodiesFilling(BUDGET - bodyBytes(body) + 2));
    const res = await t.call('POST', '/__mock/faults', { body: { path: '/v2/x', status: 500, body } });
    expectError(res, 409, 'conflict');
    expect((res.body as { message: string }).message).toBe(refusalOf(bodyBytes(body)));
  });

  it("gives a fault's room back at its last use", async () => {
    const t = await setup();
    const answer = { items: [{ id: 'a' }, { id: 'b' }] };
    // The first fault answers the primary account's next two searches with its body.
    t.core.control.addFault({
      endpoint: 'workspaces.search',
      status: 503,
      body: answer,
      times: 2,
      match: { accountId: t.primary.id },
    });
    const first = bodyBytes(answer) + matchHeapBytes({ accountId: t.primary.id });
    fill(t, bodiesFilling(BUDGET - first));
    const next = () => t.core.control.addFault({ endpoint: 'workspaces.search', status: 503, body: 'x' });
    expect(refusal(next).status).toBe(409);
    // Its first use keeps it (and its room); each use answers its body, a copy of its own.
    const once = await t.call('POST', '/v2/workspaces/search', { body: {} });
    expect(once.status).toBe(503);
    expect(once.body).toEqual(answer);
    (once.body as { items: unknown[] }).items.length = 0;
    expect(refusal(next).status).toBe(409);
    const twice = await t.call('POST', '/v2/workspaces/search', { body: {} });
    expect(twice.body).toEqual(answer);
    // Its last use gives the room back.
    expect(next().id).toMatch(/^fault_/);
  });

  it('gives the room back on clearFaults() and reset()', async () => {
    const t = await setup();
    const bodies = bodiesFilling(BUDGET);
    fill(t, bodies);
    const next = () => t.core.control.addFault({ path: '/v2/x', status: 500, body: 'x' });
    expect(refusal(next).status).toBe(409);
    t.core.control.clearFaults();
    fill(t, bodies);
    expect(refusal(next).status).toBe(409);
    expect((await t.call('DELETE', '/__mock/faults')).status).toBe(204);
    fill(t, bodies);
    expect(refusal(next).status).toBe(409);
    t.core.control.reset();
    fill(t, bodies);
    expect(refusal(next).status).toBe(409);
  });

  it('leaves faults as they were: listed with their body, answered with it each time', async () => {
    const t = await setup();
    const body = { code: 'custom', list: [1, 2, 3], nested: { a: null } };
    const added = t.core.control.addFault({
      endpoint: 'workspaces.search',
      status: 500,
      headers: { 'x-fault': 'yes' },
      body,
      times: 3,
    });
    expect(added.body).toEqual(body);
    expect(t.core.control.faults()[0]?.body).toEqual(body);
    // A listing is a copy: changing it changes nothing kept.
    const [copy] = t.core.control.faults() as { body: { list: number[] } }[];
    copy?.body.list.push(4);
    const listed = await t.call('GET', '/__mock/faults');
    expect((listed.body as { body: unknown }[])[0]?.body).toEqual(body);
    for (let i = 0; i < 3; i++) {
      const res = await t.call('POST', '/v2/workspaces/search', { body: {} });
      expect(res.status).toBe(500);
      expect(res.headers['x-fault']).toBe('yes');
      expect(res.body).toEqual(body);
    }
    expect(t.core.control.faults()).toEqual([]);
    // A fault without a body still answers the standard error body.
    t.core.control.addFault({ endpoint: 'workspaces.search', status: 503 });
    expectError(await t.call('POST', '/v2/workspaces/search', { body: {} }), 503, 'service_unavailable');
    // A body of null is a body.
    t.core.control.addFault({ path: '/v2/workspaces/search', status: 500, body: null });
    expect((await t.call('POST', '/v2/workspaces/search', { body: {} })).body).toBeNull();
  });
});
