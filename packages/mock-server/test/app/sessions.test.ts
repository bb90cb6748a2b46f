/**
 * Sessions in process: the registry's bounds (the most sessions, 409 past it; idle ones ended on the
 * wall clock, injected here), the in-process methods, the control token still required inside a
 * session, waits cancelled when a session ends, and a default reset that leaves sessions alone.
 */

import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { startConfiguration } from '../../src/app/options.js';
import { SessionHost } from '../../src/app/session-host.js';
import { DEFAULT_SESSION_BOUNDS, MockSessions } from '../../src/app/sessions.js';
import { DEFAULT_BUDGET_BYTES, MemoryBudget } from '../../src/store/budget.js';
import { estimateSeedBytes } from '../../src/store/seed/limits.js';
import { DEFAULT_SIZES } from '../../src/store/state.js';
import { expectError, refusal, rejection } from '../helpers.js';

const small = { sizes: { workspaces: 4, rules: 1 } };

/** A request to `core` in session `session`. */
function inSession(core: MockCore, session: string, method: string, path: string, body?: unknown) {
  return core.handle({
    method,
    path,
    headers: { 'x-iacm-mock-session': session, 'content-type': 'application/json' },
    body,
  });
}

describe('session bounds', () => {
  it('answers 409 conflict naming the bound for the session past sessions.max', async () => {
    const core = new MockCore({ ...small, sessions: { max: 2 } });
    await core.control.createSession();
    await core.control.createSession();
    const error = await rejection(core.control.createSession());
    expect(error.status).toBe(409);
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('at most 2 sessions');
    expect(error.message).toContain('sessions.max');
    expect(core.control.sessions()).toHaveLength(2);
  });

  it('answers 409 budget_exceeded before generating a session whose data would pass its share of the budget', async () => {
    const core = new MockCore({ ...small, sessions: { max: 10 }, budget: { bytes: DEFAULT_BUDGET_BYTES } });
    const huge = { sizes: { workspaces: 100_000, events: 1_000_000 } };
    const share = core.control.budget();
    expect(estimateSeedBytes({ ...DEFAULT_SIZES, ...huge.sizes })).toBeGreaterThan(DEFAULT_BUDGET_BYTES);
    const error = await rejection(core.control.createSession(huge));
    expect(error.status).toBe(409);
    expect(error.code).toBe('budget_exceeded');
    expect(error.message).toMatch(
      /^data \(.*\) would take [\d.]+ MiB more, past this session's memory budget of 64\.0 MiB \(budget\.sessionBytes\), which holds 0 bytes; nothing was changed: .*, or raise budget\.sessionBytes$/,
    );
    expect(core.control.sessions()).toEqual([]);
    // Nothing of it stays charged.
    expect(core.control.budget()).toEqual(share);
    // Small sessions still fit.
    await core.control.createSession();
    expect(core.control.sessions()).toHaveLength(1);
    expect(core.control.budget().sessions).toBeGreaterThan(0);
  });

  it('ends a session unused for idleMs of wall time when the registry is next touched', () => {
    let wall = 1_000_000;
    const ended: string[] = [];
    const sessions = new MockSessions<string>(
      { max: 5, idleMs: 60_000 },
      (core) => ended.push(core),
      () => wall,
    );
    const a = sessions.create(() => 'a');
    wall += 30_000;
    const b = sessions.create(() => 'b');
    wall += 29_999;
    const use = sessions.enter(a.id);
    expect(use.core).toBe('a');
    use.done(true); // used: its idle time starts again
    wall += 59_999;
    expect(sessions.list().map((s) => s.id)).toEqual([a.id]); // b was idle 89,998 ms
    expect(ended).toEqual(['b']);
    wall += 1;
    const error = refusal(() => sessions.enter(a.id));
    expect(error.status).toBe(404);
    expect(ended).toEqual(['b', 'a']);
    expect(sessions.size).toBe(0);
    expect(b.id).toMatch(/^ses_[0-9a-f]{16}$/);
  });

  it("starts a session's idle time again only for a request that passed its access checks (not a 401 or 403)", async () => {
    let wall = 1_000_000;
    const answers: Record<string, number> = {
      '/ok': 200,
      '/no-token': 401,
      '/forbidden': 403,
      '/missing': 404,
    };
    const fake = {
      accounts: () => [],
      handle: async (request: { path: string }) => ({
        status: answers[request.path] ?? 200,
        headers: {},
        body: undefined,
      }),
    };
    const host = new SessionHost(
      {},
      startConfiguration(small),
      new MemoryBudget(DEFAULT_BUDGET_BYTES),
      () => fake,
      () => undefined,
      () => wall,
    );
    const { id } = await host.control().create({});
    const lastUsed = () => host.control().list()[0]?.lastUsedAt;
    const send = (path: string) => host.handle(id, { method: 'GET', path }, {});
    const created = lastUsed();
    wall += 1_000;
    expect((await send('/no-token')).status).toBe(401);
    expect((await send('/forbidden')).status).toBe(403);
    expect(lastUsed()).toBe(created);
    expect((await send('/missing')).status).toBe(404); // granted: a 404 passed the access checks
    expect(lastUsed()).toBe(new Date(wall).toISOString());
    wall += 1_000;
    await send('/ok');
    expect(lastUsed()).toBe(new Date(wall).toISOString());
    // Refused requests alone do not keep it alive: idle 30 minutes after its last granted request, it ends.
    wall += DEFAULT_SESSION_BOUNDS.idleMs - 1;
    await send('/no-token');
    wall += 1;
    expect(host.control().list()).toEqual([]);
  });

  it('does not end a session as idle while one of its requests is under way', async () => {
    let wall = 1_000_000;
    let release: (() => void) | undefined;
    const fake = {
      accounts: () => [],
      handle: (request: { path: string }) =>
        request.path === '/slow'
          ? new Promise<{ status: number; headers: Record<string, string>; body: undefined }>((resolve) => {
              release = () => resolve({ status: 200, headers: {}, body: undefined });
            })
          : Promise.resolve({ status: 200, headers: {}, body: undefined }),
    };
    const host = new SessionHost(
      {},
      startConfiguration(small),
      new MemoryBudget(DEFAULT_BUDGET_BYTES),
      () => fake,
      () => undefined,
      () => wall,
    );
    const { id } = await host.control().create({});
    const slow = host.handle(id, { method: 'GET', path: '/slow' }, {});
    wall += DEFAULT_SESSION_BOUNDS.idleMs * 2;
    expect(
      host
        .control()
        .list()
        .map((s) => s.id),
    ).toEqual([id]); // under way: kept
    release?.();
    expect((await slow).status).toBe(200);
    expect(host.control().list()[0]?.lastUsedAt).toBe(new Date(wall).toISOString());
  });

  it("charges a session's data anew when the session replaces it, refusing past the budget (finding 2)", async () => {
    const core = new MockCore({ ...small, sessions: { max: 10 } });
    const { id } = await core.control.createSession();
    const huge = { seed: 1, sizes: { workspaces: 100_000, events: 1_000_000 } };
    const taken = () => core.control.budget().sessions ?? 0;
    // The session's own view: its data's charge (its journal grows with each request besides).
    const data = async () =>
      ((await inSession(core, id, 'GET', '/__mock/budget')).body as { stores: { data: number } }).stores.data;
    const start = await data();
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThan(5 * 1024 * 1024);
    expect(taken()).toBeGreaterThanOrEqual(start);
    // What create refuses, the session cannot load inside either: 409, and its data stays.
    const before = await inSession(core, id, 'GET', '/__mock/accounts');
    const refused = await inSession(core, id, 'POST', '/__mock/seed', huge);
    const body = expectError(refused, 409, 'budget_exceeded');
    expect(body.message).toMatch(
      /^data \(.*\) would take [\d.]+ MiB more, past this session's memory budget/,
    );
    expect((await inSession(core, id, 'GET', '/__mock/accounts')).body).toEqual(before.body);
    expect(await data()).toBe(start);
    // Larger data that fits is charged in the place of the data before: the session and the mock hold more.
    const grown = await inSession(core, id, 'POST', '/__mock/seed', {
      seed: 2,
      sizes: { workspaces: 6_000 },
    });
    expect(grown.status).toBe(200);
    expect(await data()).toBeGreaterThan(start + 25 * 1024 * 1024);
    expect(taken()).toBeGreaterThan(start + 25 * 1024 * 1024);
    // A reset returns the session to its start data, and its charge to the start's.
    expect((await inSession(core, id, 'POST', '/__mock/reset')).status).toBe(200);
    expect(await data()).toBe(start);
    // Ending it gives everything back.
    core.control.endSession(id);
    expect(core.control.budget().sessions).toBe(0);
  });

  it('charges a scene session by the records its scene names, not at the default sizes (finding 8)', async () => {
    const core = new MockCore({ ...small, sessions: { max: 10 } });
    const workspaces = Array.from({ length: 5_000 }, (_, i) => ({ name: `ws-${i}`, runs: [] }));
    await core.control.createSession({ scene: { accounts: [{ workspaces }] } });
    // 5,000 workspaces of 1.5 KB: about 7 MiB, where the default sizes' estimate is about 1 MiB.
    expect(core.control.budget().sessions).toBeGreaterThanOrEqual(7 * 1024 * 1024);
  });

  it('checks the sessions option against its ranges', () => {
    expect(() => new MockCore({ sessions: { max: -1 } })).toThrow(
      'MockOptions sessions.max: expected an integer from 0 to 1000 (sessions), received -1',
    );
    expect(() => new MockCore({ sessions: { idleMs: 10 } })).toThrow(/MockOptions sessions\.idleMs/);
    expect(() => new MockCore({ sessions: { other: 1 } as never })).toThrow(/unknown bound/);
  });
});

describe('sessions in process', () => {
  it('creates, lists and ends sessions; a default reset leaves them', async () => {
    const core = new MockCore(small);
    const created = await core.control.createSession({ seed: 'other', sizes: { accounts: 2 } });
    expect(created.id).toMatch(/^ses_[0-9a-f]{16}$/);
    expect(created.accounts).toHaveLength(2);
    expect(created.accounts[0]?.accessKey).not.toBe(core.accounts()[0]?.accessKey);
    await core.control.reset();
    expect(core.control.sessions().map((s) => s.id)).toEqual([created.id]);
    expect((await inSession(core, created.id, 'GET', '/__mock/accounts')).status).toBe(200);
    core.control.endSession(created.id);
    expect(core.control.sessions()).toEqual([]);
    expect(refusal(() => core.control.endSession(created.id)).status).toBe(404);
    const bad = await rejection(core.control.createSession({ sizes: { workspaces: -1 } }));
    expect(bad.message).toContain('sizes.workspaces');
  });

  it('starts a session from the mock seed and sizes by default, with its own tokens', async () => {
    const core = new MockCore({ ...small, seed: 9 });
    const { id, accounts } = await core.control.createSession();
    expect(accounts.map((a) => a.id)).toEqual(core.accounts().map((a) => a.id));
    const login = await inSession(core, id, 'POST', '/v2/login', {
      accessKey: accounts[0]?.accessKey,
      secretKey: accounts[0]?.secretKey,
    });
    expect(login.status).toBe(200);
    const token = (login.body as { accessToken: string }).accessToken;
    const outside = await core.handle({
      method: 'POST',
      path: '/v2/workspaces/search',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: {},
    });
    expectError(outside, 401, 'unauthorized');
  });

  it('still needs the control token for a session control request, and for an unknown session', async () => {
    const core = new MockCore({ ...small, controlToken: 'the-token' });
    const { id } = await core.control.createSession();
    expectError(await inSession(core, id, 'GET', '/__mock/journal'), 403, 'forbidden');
    expectError(await inSession(core, 'ses_unknown', 'GET', '/__mock/journal'), 403, 'forbidden');
    const allowed = await core.handle({
      method: 'GET',
      path: '/__mock/journal',
      headers: { 'x-iacm-mock-session': id, authorization: 'Bearer the-token' },
    });
    expect(allowed.status).toBe(200);
  });

  it('cancels the pending waits of a session it ends', async () => {
    const core = new MockCore(small);
    const { id } = await core.control.createSession();
    const pending = core.handle({
      method: 'GET',
      path: '/__mock/journal/wait',
      query: { endpoint: 'workspaces.search', timeout: '10000' },
      headers: { 'x-iacm-mock-session': id },
    });
    await new Promise((resolve) => setImmediate(resolve));
    core.control.endSession(id);
    const res = await pending;
    expect(res.status).toBe(409);
    expect((res.body as { message: string }).message).toContain(`the session ${id} was ended`);
  });

  it('a session core does not make sessions (409)', async () => {
    const core = new MockCore(small);
    const { id } = await core.control.createSession();
    expectError(await inSession(core, id, 'GET', '/__mock/sessions'), 409, 'conflict');
  });
});
