/**
 * Faults by endpoint name (issue 22, point 5: "faults match the same way"): `endpoint` instead of
 * `path`, and `match` (partial body, partial query, account: the one-off answers' matcher), applied
 * at the one-off slot after routing, authentication and validation. Path faults keep their place.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectError, refusal, setup } from '../helpers.js';

const search = (t: Awaited<ReturnType<typeof setup>>, body: unknown = {}, init = {}) =>
  t.call('POST', '/v2/workspaces/search', { body, ...init });

afterEach(() => {
  vi.useRealTimers();
});

describe('a fault on an endpoint', () => {
  it('answers only that endpoint, after authentication and validation', async () => {
    const t = await setup();
    const fault = t.core.control.addFault({ endpoint: 'workspaces.search', status: 503, times: 5 });
    expect(fault).toMatchObject({ id: 'fault_1', endpoint: 'workspaces.search', status: 503, remaining: 5 });
    expect(fault).not.toHaveProperty('path');
    // Other endpoints, even under the same path prefix, get their real answer.
    expect((await t.call('POST', '/v2/workspaces/runs/search', { body: {} })).status).not.toBe(503);
    expect((await t.call('POST', '/v2/guardrails/search', { body: {} })).status).toBe(200);
    // It applies after authentication and validation: a 401 and a 400 come first and use nothing.
    expectError(await search(t, {}, { token: null }), 401, 'unauthorized');
    expectError(await search(t, { nope: 1 }), 400, 'validation_failed');
    expect(t.core.control.faults()[0]?.remaining).toBe(5);
    const res = await search(t);
    const body = expectError(res, 503, 'service_unavailable');
    expect(body.message).toContain('fault injected');
    expect(res.headers['x-request-id']).toBe(body.requestId);
    expect(t.core.control.faults()[0]?.remaining).toBe(4);
    // The journal has the endpoint, the account and the validated input of the faulted request.
    const [call] = t.core.control.calls('workspaces.search').slice(-1);
    expect(call).toMatchObject({ status: 503, validated: true, accountId: t.primary.id });
  });

  it('selects one request among several with match (partial body, partial query, account)', async () => {
    const t = await setup();
    t.core.control.addFault({
      endpoint: 'workspaces.search',
      match: { body: { searchValue: 'drift' }, query: { pageSize: 2 } },
      status: 500,
    });
    t.core.control.addFault({
      endpoint: 'workspaces.search',
      match: { accountId: t.other.id },
      status: 403,
    });
    expect((await search(t, { searchValue: 'drift' })).status).toBe(200); // no pageSize
    expect((await search(t, { searchValue: 'other' }, { query: { pageSize: '2' } })).status).toBe(200);
    // The query as the endpoint's schema parsed it: the text '2' is the number 2.
    expectError(
      await search(t, { searchValue: 'drift' }, { query: { pageSize: '2' } }),
      500,
      'internal_error',
    );
    expect((await search(t, { searchValue: 'drift' }, { query: { pageSize: '2' } })).status).toBe(200);
    // The account fault waits for the other account only.
    expect((await search(t)).status).toBe(200);
    expectError(await search(t, {}, { token: t.otherToken }), 403, 'forbidden');
    expect(t.core.control.faults()).toEqual([]);
  });

  it('counts times: the next `times` matching requests, then the real answer', async () => {
    const t = await setup();
    t.core.control.addFault({ endpoint: 'workspaces.search', status: 429, times: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await search(t)).status);
    expect(statuses).toEqual([429, 429, 429, 200, 200]);
  });

  it('comes before Prefer and one-off answers in the slot, and a path fault before all of them', async () => {
    const t = await setup();
    t.core.control.respond('workspaces.search', { status: 404 });
    t.core.control.addFault({ endpoint: 'workspaces.search', status: 500 });
    t.core.control.addFault({ path: '/v2/workspaces/search', status: 502, body: { from: 'path' } });
    // The path fault answers before routing: even an unauthenticated request.
    expect((await search(t, {}, { token: null })).status).toBe(502);
    expectError(await search(t, {}, { headers: { prefer: 'code=403' } }), 500, 'internal_error');
    expectError(await search(t, {}, { headers: { prefer: 'code=403' } }), 403, 'forbidden');
    expectError(await search(t), 404, 'not_found');
    expect((await search(t)).status).toBe(200);
  });

  it('drops the connection, or delays the answer by delayMs (then the real answer follows)', async () => {
    const t = await setup();
    t.core.control.addFault({
      endpoint: 'workspaces.search',
      match: { body: { searchValue: 'x' } },
      drop: true,
    });
    const dropped = await search(t, { searchValue: 'x' });
    expect(dropped).toMatchObject({ status: 0, drop: true });
    expect(t.core.control.calls('workspaces.search').at(-1)).toMatchObject({ dropped: true, status: 0 });

    vi.useFakeTimers({ toFake: ['setTimeout'] });
    t.core.control.addFault({ endpoint: 'workspaces.search', delayMs: 5000 });
    let answered = false;
    const pending = search(t).then((res) => {
      answered = true;
      return res;
    });
    await vi.advanceTimersByTimeAsync(4999);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(answered).toBe(true);
    expect((await pending).status).toBe(200);
    // A delay and a status: the status after the delay.
    t.core.control.addFault({ endpoint: 'workspaces.search', delayMs: 100, status: 503 });
    let late = false;
    const delayed = search(t).then((res) => {
      late = true;
      return res;
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(late).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await delayed).status).toBe(503);
  });

  it('is set over HTTP too (POST /__mock/faults), and listed', async () => {
    const t = await setup();
    const set = await t.call('POST', '/__mock/faults', {
      body: { endpoint: 'guardrails.search', match: { body: { searchValue: 'x' } }, status: 500 },
    });
    expect(set.status).toBe(201);
    expect(set.body).toMatchObject({ endpoint: 'guardrails.search', match: { body: { searchValue: 'x' } } });
    const listed = await t.call('GET', '/__mock/faults');
    expect(listed.body).toEqual([set.body]);
    expect((await t.call('POST', '/v2/guardrails/search', { body: {} })).status).toBe(200);
    expect((await t.call('POST', '/v2/guardrails/search', { body: { searchValue: 'x' } })).status).toBe(500);
  });
});

describe('a bad endpoint fault', () => {
  it('names `endpoint`, what came and the closest names for an unknown endpoint', async () => {
    const t = await setup();
    const error = refusal(() =>
      t.core.control.addFault({ endpoint: 'workspaces.serch' as never, status: 500 }),
    );
    expect(error.status).toBe(400);
    expect(error.issues?.[0]).toMatchObject({ location: 'body', path: 'endpoint' });
    expect(error.message).toContain('endpoint: expected an endpoint name of the contract');
    expect(error.message).toContain('received "workspaces.serch"; the closest: workspaces.search');
    // Over HTTP, the same 400; a long name is shown clipped, and only three names are suggested.
    const res = await t.call('POST', '/__mock/faults', {
      body: { endpoint: 'x'.repeat(100_000), status: 500 },
    });
    const body = expectError(res, 400, 'validation_failed');
    expect(body.message.length).toBeLessThan(400);
    expect(body.message).toContain('…');
    expect(body.message.match(/, /g)?.length ?? 0).toBeLessThanOrEqual(3);
    const notText = await t.call('POST', '/__mock/faults', { body: { endpoint: 42, status: 500 } });
    expect(expectError(notText, 400, 'validation_failed').message).toContain('received number');
    expect(t.core.control.faults()).toEqual([]);
  });

  it('takes exactly one of path and endpoint, a method only with a path, a match only with an endpoint', async () => {
    const { control } = (await setup()).core;
    const cases: Array<[unknown, string, string]> = [
      [
        { status: 500 },
        'path',
        'expected a path (as /v2/guardrails*) or an endpoint (as workspaces.search), received nothing',
      ],
      [
        { endpoint: 'workspaces.search', path: '/v2/workspaces/search', status: 500 },
        'path',
        'expected a path or an endpoint, not both (workspaces.search is POST /v2/workspaces/search)',
      ],
      [
        { endpoint: 'workspaces.search', method: 'POST', status: 500 },
        'method',
        'expected no method with an endpoint (workspaces.search is POST /v2/workspaces/search)',
      ],
      [
        { path: '/v2/workspaces/search', match: { body: {} }, status: 500 },
        'match',
        'expected match only with an endpoint',
      ],
      [
        { endpoint: 'workspaces.search', match: { body: { serchValue: 'x' } }, status: 500 },
        'match.body.serchValue',
        "not a member of workspaces.search's body (its members: ",
      ],
      [{ endpoint: 'health', match: { body: { a: 1 } }, status: 500 }, 'match.body', 'health takes no body'],
      [
        { endpoint: 'workspaces.search', match: { accountId: 'a'.repeat(65) }, status: 500 },
        'match.accountId',
        '64',
      ],
      [{ endpoint: 'workspaces.search', match: { bogus: 1 }, status: 500 }, 'match.bogus', 'match.bogus'],
    ];
    for (const [rule, path, message] of cases) {
      const error = refusal(() => control.addFault(rule as never));
      expect(error.status, JSON.stringify(rule)).toBe(400);
      expect(
        error.issues?.map((i) => i.path),
        JSON.stringify(rule),
      ).toContain(path);
      expect(error.message, JSON.stringify(rule)).toContain(message);
    }
    expect(control.faults()).toEqual([]);
  });
});
