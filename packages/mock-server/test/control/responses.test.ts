/**
 * One-off answers (`control.respond`, `POST /__mock/responses`): checked against the strict contract
 * when they are set, served to the matching requests `times` times, then the real answer again.
 */
import type { WorkspaceSummary } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import type { MockResponse } from '../../src/http/message.js';
import { ONE_OFF_LIMITS } from '../../src/pipeline/one-off.js';
import { expectError, refusal, setup } from '../helpers.js';

/** A workspace the strict contract accepts: the mock's own first one, renamed. */
async function aWorkspace(t: Awaited<ReturnType<typeof setup>>, name = 'canned'): Promise<WorkspaceSummary> {
  const res = await t.call('POST', '/v2/workspaces/search', { body: {}, query: { pageSize: '1' } });
  const [first] = res.body as WorkspaceSummary[];
  if (!first) throw new Error('expected a workspace');
  return { ...first, workspaceName: name };
}

const search = (t: Awaited<ReturnType<typeof setup>>, body: unknown = {}, init = {}) =>
  t.call('POST', '/v2/workspaces/search', { body, ...init });

const names = (res: MockResponse) => (res.body as WorkspaceSummary[]).map((w) => w.workspaceName);

describe('control.respond: a checked one-off answer', () => {
  it('is served once (times 1 by default), then the real answer comes back', async () => {
    const t = await setup({ sizes: { workspaces: 5 } });
    const canned = await aWorkspace(t);
    const set = t.core.control.respond('workspaces.search', { status: 200, body: [canned] });
    expect(set).toMatchObject({ endpoint: 'workspaces.search', status: 200, times: 1, remaining: 1 });
    const first = await search(t);
    expect(first.status).toBe(200);
    expect(names(first)).toEqual(['canned']);
    expect(first.headers['x-request-id']).toBeDefined();
    const second = await search(t);
    expect(names(second)).not.toEqual(['canned']);
    expect((second.body as unknown[]).length).toBe(5);
    expect(t.core.control.responses()).toEqual([]);
  });

  it('takes the success status by default, and serves `times` times', async () => {
    const t = await setup({ sizes: { workspaces: 5 } });
    const canned = await aWorkspace(t);
    t.core.control.respond('workspaces.search', { body: [canned], times: 2 });
    expect(names(await search(t))).toEqual(['canned']);
    expect(t.core.control.responses()[0]?.remaining).toBe(1);
    expect(names(await search(t))).toEqual(['canned']);
    expect(names(await search(t))).not.toEqual(['canned']);
  });

  it('answers a documented error with the standard error body, or the error body given', async () => {
    const t = await setup();
    t.core.control.respond('workspaces.search', { status: 503 as never, validate: false });
    t.core.control.respond('workspaces.search', { status: 404 });
    t.core.control.respond('workspaces.search', {
      status: 429,
      body: { status: 429, code: 'rate_limited', message: 'slow down' },
      headers: { 'Retry-After': '7' },
    });
    const unchecked = await search(t);
    expectError(unchecked, 503, 'service_unavailable');
    const notFound = expectError(await search(t), 404, 'not_found');
    expect(notFound.message).toContain('one-off answer');
    const limited = await search(t);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ status: 429, code: 'rate_limited', message: 'slow down' });
    expect(limited.headers['retry-after']).toBe('7');
  });

  it('refuses a misspelt member and an unknown enum value, naming the path; the store is unchanged', async () => {
    const t = await setup();
    const canned = await aWorkspace(t);
    const misspelt = refusal(() =>
      t.core.control.respond('workspaces.search', {
        body: [{ ...canned, lastRunStatu: 'blocked' } as never],
      }),
    );
    expect(misspelt.status).toBe(400);
    expect(misspelt.message).toContain('body.body[0]');
    expect(misspelt.message).toContain('lastRunStatu');
    const badEnum = refusal(() =>
      t.core.control.respond('workspaces.search', {
        body: [{ ...canned, runnerType: 'github-action' as never }],
      }),
    );
    expect(badEnum.message).toContain('body[0].runnerType');
    expect(badEnum.message).toContain('github-actions');
    const badError = refusal(() =>
      t.core.control.respond('workspaces.search', {
        status: 404,
        body: { status: 404, code: 'not_fonud' as never, message: 'x' },
      }),
    );
    expect(badError.message).toContain('body.code');
    expect(t.core.control.responses()).toEqual([]);
  });

  it('names the closest endpoints for an unknown name, as every control input does', async () => {
    const t = await setup({ sizes: { workspaces: 3, events: 10 } });
    const error = refusal(() =>
      t.core.control.respond('workspace.search' as 'workspaces.search', { body: [] }),
    );
    expect(error.message).toMatch(
      /^body\.endpoint: expected an endpoint name of the contract \(as workspaces\.search\), received "workspace\.search"; the closest: workspaces\.search, /,
    );
    expect(t.core.control.responses()).toEqual([]);
  });

  it('refuses a status that is neither the success status nor a documented error, listing them', async () => {
    const t = await setup();
    const error = refusal(() => t.core.control.respond('workspaces.search', { status: 418 as never }));
    expect(error.status).toBe(400);
    expect(error.message).toContain('status');
    expect(error.message).toContain('200');
    expect(error.message).toContain('429');
    expect(error.message).toContain('validate: false');
    // a 204 endpoint takes no body; login (no bearer token) documents no 403
    refusal(() => t.core.control.respond('health', { status: 204, body: { up: true } as never }));
    refusal(() => t.core.control.respond('auth.login', { status: 403 as never }));
  });

  it('with validate: false, takes any body and any status, unchecked', async () => {
    const t = await setup();
    t.core.control.respond('workspaces.search', {
      validate: false,
      status: 200,
      body: [{ anything: 'goes' }],
    });
    t.core.control.respond('workspaces.search', { validate: false, status: 418 });
    const res = await search(t);
    expect(res.body).toEqual([{ anything: 'goes' }]);
    expect((await search(t)).status).toBe(418);
  });

  it('matches by partial body, partial query and account; other requests get the real answer', async () => {
    const t = await setup({ sizes: { workspaces: 5 } });
    const canned = await aWorkspace(t);
    t.core.control.respond('workspaces.search', {
      body: [canned],
      match: {
        body: { searchValue: 'drift', filters: { status: ['blocked'] } },
        query: { page: 1 },
        accountId: t.primary.id,
      },
    });
    const wanted = { searchValue: 'drift', filters: { status: ['blocked'] } };
    // Another body member's value, a list without the item named, another page, another account: not matched.
    expect(names(await search(t, { ...wanted, searchValue: 'other' }, { query: { page: '1' } }))).not.toEqual(
      ['canned'],
    );
    expect(
      names(await search(t, { ...wanted, filters: { status: ['apply_error'] } }, { query: { page: '1' } })),
    ).not.toEqual(['canned']);
    expect(names(await search(t, wanted, { query: { page: '2' } }))).not.toEqual(['canned']);
    expect(names(await search(t, wanted, { query: { page: '1' }, token: t.otherToken }))).not.toEqual([
      'canned',
    ]);
    expect(t.core.control.responses()).toHaveLength(1);
    // The matching request (members not named in `match` may be anything).
    const hit = await search(
      t,
      { ...wanted, projection: ['workspaceName'] },
      {
        query: { page: '1', pageSize: '3' },
      },
    );
    expect(names(hit)).toEqual(['canned']);
    expect(t.core.control.responses()).toEqual([]);
  });

  it('refuses a match member the endpoint does not take', () => {
    return setup().then((t) => {
      const error = refusal(() =>
        t.core.control.respond('workspaces.search', {
          status: 404,
          match: { body: { serchValue: 'x' } as never },
        }),
      );
      expect(error.message).toContain('match.body.serchValue');
    });
  });

  it('is bounded: past ONE_OFF_LIMITS.maxAnswers waiting answers a further one is a 409', async () => {
    const t = await setup();
    for (let i = 0; i < ONE_OFF_LIMITS.maxAnswers; i++) {
      t.core.control.respond('workspaces.search', { status: 404 });
    }
    const error = refusal(() => t.core.control.respond('workspaces.search', { status: 404 }));
    expect(error.status).toBe(409);
    expect(error.message).toContain(String(ONE_OFF_LIMITS.maxAnswers));
    t.core.control.clearResponses();
    expect(t.core.control.responses()).toEqual([]);
    t.core.control.respond('workspaces.search', { status: 404 });
  });

  it('reset() clears the waiting answers', async () => {
    const t = await setup();
    t.core.control.respond('workspaces.search', { status: 404, times: 5 });
    await t.core.control.reset();
    expect(t.core.control.responses()).toEqual([]);
    expect((await search(t)).status).toBe(200);
  });

  it('applies after authentication and validation: a bad request still gets its real 401 or 400', async () => {
    const t = await setup();
    t.core.control.respond('workspaces.search', { status: 404, times: 3 });
    expectError(await search(t, {}, { token: null }), 401, 'unauthorized');
    expectError(await search(t, { nope: 1 }), 400, 'validation_failed');
    expect(t.core.control.responses()[0]?.remaining).toBe(3);
  });
});

describe('POST /__mock/responses', () => {
  it('sets, lists and clears one-off answers over HTTP, with the same checks', async () => {
    const t = await setup();
    const canned = await aWorkspace(t);
    const created = await t.call('POST', '/__mock/responses', {
      body: { endpoint: 'workspaces.search', status: 200, body: [canned], times: 2 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ endpoint: 'workspaces.search', remaining: 2 });
    const listed = await t.call('GET', '/__mock/responses');
    expect(listed.body).toHaveLength(1);
    const bad = await t.call('POST', '/__mock/responses', {
      body: { endpoint: 'workspaces.search', body: [{ ...canned, nme: 'x' }] },
    });
    const error = expectError(bad, 400, 'validation_failed');
    expect(error.message).toContain('body.body[0]');
    expect(error.message).toContain('nme');
    const unknown = expectError(
      await t.call('POST', '/__mock/responses', { body: { endpoint: 'workspaces.serch', status: 404 } }),
      400,
      'validation_failed',
    );
    expect(unknown.message).toContain('endpoint');
    const times = expectError(
      await t.call('POST', '/__mock/responses', {
        body: { endpoint: 'workspaces.search', status: 404, times: 0 },
      }),
      400,
      'validation_failed',
    );
    expect(times.message).toContain('body.times: expected an integer from 1 to 1000000');
    expect((await t.call('DELETE', '/__mock/responses')).status).toBe(204);
    expect((await t.call('GET', '/__mock/responses')).body).toEqual([]);
  });
});

describe('POST /__mock/responses without a body', () => {
  it('answers 400 naming the endpoint member', async () => {
    const t = await setup();
    const error = expectError(await t.call('POST', '/__mock/responses'), 400, 'validation_failed');
    expect(error.message).toContain('body.endpoint');
  });
});
