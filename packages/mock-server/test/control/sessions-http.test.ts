/**
 * Sessions over HTTP: one standalone mock shared by parallel workers, each in its own session
 * (`X-Iacm-Mock-Session`), with no cross-talk: data, guardrail rules, faults, clock and reset are each
 * the session's own, and the default session is unchanged. Tokens are per session; an unknown session
 * is a 404 for the API and the control plane alike.
 */

import { listen } from '@iacm/mock-server/node';
import { ErrorBody } from '@iacm/sdk/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tagRuleBody } from '../helpers.js';

let running: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  running = await listen({ port: 0, sizes: { workspaces: 12, rules: 2 }, sessions: { max: 10 } });
});
afterAll(() => running.close());
afterEach(() => {
  for (const { id } of running.control.sessions()) running.control.endSession(id);
});

/** One JSON request to the running mock, in a session when `session` is given. */
async function call(
  method: string,
  path: string,
  { session, token, body }: { session?: string | undefined; token?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = {};
  if (session !== undefined) headers['x-iacm-mock-session'] = session;
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined || path.startsWith('/__mock')) headers['content-type'] = 'application/json';
  const res = await fetch(`${running.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Logs in with a key pair (in a session when given); the access token. */
async function login(keys: { accessKey: string; secretKey: string }, session?: string): Promise<string> {
  const res = await call('POST', '/v2/login', {
    session,
    body: { accessKey: keys.accessKey, secretKey: keys.secretKey },
  });
  expect(res.status).toBe(200);
  return (res.body as { accessToken: string }).accessToken;
}

type Created = { id: string; accounts: { id: string; name: string; accessKey: string; secretKey: string }[] };

async function createSession(body: unknown = {}): Promise<Created> {
  const res = await call('POST', '/__mock/sessions', { body });
  expect(res.status).toBe(201);
  return res.body as Created;
}

/** The workspace ids of the primary account (in a session when given). */
async function workspaceIds(token: string, session?: string): Promise<string[]> {
  const res = await call('POST', '/v2/workspaces/search', { session, token, body: {} });
  expect(res.status).toBe(200);
  return (res.body as { id: string }[]).map((w) => w.id);
}

async function ruleNames(token: string, session?: string): Promise<string[]> {
  const res = await call('POST', '/v2/guardrails/search', { session, token, body: {} });
  expect(res.status).toBe(200);
  return (res.body as { name: string }[]).map((r) => r.name);
}

describe('sessions over HTTP', () => {
  it('8 workers, each in its own session, delete, fault, move their clock and reset without cross-talk', async () => {
    const defaultKeys = running.control.accounts()[0] as { accessKey: string; secretKey: string };
    const defaultToken = await login(defaultKeys);
    const stateBefore = await call('GET', '/__mock/state');
    const workspacesBefore = await workspaceIds(defaultToken);
    const clockBefore = running.control.clock.now();

    const worker = async (n: number) => {
      const session = await createSession();
      const primary = session.accounts[0] as Created['accounts'][number];
      const token = await login(primary, session.id);
      // A rule of its own.
      const rule = await call('POST', '/v2/guardrails', {
        session: session.id,
        token,
        body: tagRuleBody(`worker ${n}`),
      });
      expect(rule.status).toBe(200);
      expect((await ruleNames(token, session.id)).filter((r) => r.startsWith('worker '))).toEqual([
        `worker ${n}`,
      ]);
      // A deleted workspace.
      const [first, ...rest] = await workspaceIds(token, session.id);
      const deleted = await call('DELETE', `/v2/workspaces/${first}`, { session: session.id, token });
      expect(deleted.status).toBe(200);
      expect(await workspaceIds(token, session.id)).toEqual(rest);
      // A fault of its own, consumed by its own request only.
      const fault = await call('POST', '/__mock/faults', {
        session: session.id,
        body: { path: '/v2/workspaces/search', status: 503, times: 1 },
      });
      expect(fault.status).toBe(201);
      const faults = await call('GET', '/__mock/faults', { session: session.id });
      expect(faults.body).toHaveLength(1);
      const faulted = await call('POST', '/v2/workspaces/search', { session: session.id, token, body: {} });
      expect(faulted.status).toBe(503);
      // Its own clock.
      const at = Date.UTC(2030, 0, 1 + n);
      const moved = await call('POST', '/__mock/clock', { session: session.id, body: { now: at } });
      expect(moved.status).toBe(200);
      const clock = await call('GET', '/__mock/clock', { session: session.id });
      expect(clock.body).toMatchObject({ now: new Date(at).toISOString() });
      // A reset of its own session: the workspace and the rule are back as the start data has them.
      expect((await call('POST', '/__mock/reset', { session: session.id })).status).toBe(200);
      const after = await login(primary, session.id);
      expect(await workspaceIds(after, session.id)).toEqual([first, ...rest]);
      expect((await ruleNames(after, session.id)).some((r) => r.startsWith('worker '))).toBe(false);
      expect((await call('GET', '/__mock/faults', { session: session.id })).body).toEqual([]);
      return session.id;
    };
    const ids = await Promise.all(Array.from({ length: 8 }, (_, n) => worker(n)));

    expect(new Set(ids).size).toBe(8);
    // The default session is unchanged: its data, its faults, its clock.
    expect(await call('GET', '/__mock/state')).toEqual(stateBefore);
    expect(await workspaceIds(defaultToken)).toEqual(workspacesBefore);
    expect((await ruleNames(defaultToken)).some((r) => r.startsWith('worker '))).toBe(false);
    expect(running.control.faults()).toEqual([]);
    expect(running.control.clock.now()).toBeGreaterThanOrEqual(clockBefore);
    expect(running.control.clock.now()).toBeLessThan(Date.UTC(2030, 0, 1));
    for (const id of ids) expect((await call('DELETE', `/__mock/sessions/${id}`)).status).toBe(204);
  });

  it('keeps a write of one session out of another and out of the default session', async () => {
    const a = await createSession();
    const b = await createSession();
    const tokenA = await login(a.accounts[0] as Created['accounts'][number], a.id);
    const tokenB = await login(b.accounts[0] as Created['accounts'][number], b.id);
    const defaultToken = await login(running.control.accounts()[0] as Created['accounts'][number]);
    const [victim] = await workspaceIds(tokenA, a.id);
    expect((await call('DELETE', `/v2/workspaces/${victim}`, { session: a.id, token: tokenA })).status).toBe(
      200,
    );
    expect(await workspaceIds(tokenA, a.id)).not.toContain(victim);
    expect(await workspaceIds(tokenB, b.id)).toContain(victim);
    expect(await workspaceIds(defaultToken)).toContain(victim);
    await call('DELETE', `/__mock/sessions/${a.id}`);
    await call('DELETE', `/__mock/sessions/${b.id}`);
  });

  it('refuses a token of one session in another and in the default session, and a default token in a session', async () => {
    const a = await createSession();
    const b = await createSession();
    const keys = a.accounts[0] as Created['accounts'][number];
    const tokenA = await login(keys, a.id);
    const defaultToken = await login(running.control.accounts()[0] as Created['accounts'][number]);
    const search = (session: string | undefined, token: string) =>
      call('POST', '/v2/workspaces/search', { session, token, body: {} });
    expect((await search(a.id, tokenA)).status).toBe(200);
    expect((await search(b.id, tokenA)).status).toBe(401);
    expect((await search(undefined, tokenA)).status).toBe(401);
    expect((await search(a.id, defaultToken)).status).toBe(401);
    await call('DELETE', `/__mock/sessions/${a.id}`);
    await call('DELETE', `/__mock/sessions/${b.id}`);
  });

  it('answers 404 naming the session for an unknown or ended id, API and control plane alike', async () => {
    const api = await call('POST', '/v2/workspaces/search', { session: 'ses_nope', body: {} });
    expect(api.status).toBe(404);
    expect(ErrorBody.parse(api.body)).toMatchObject({ code: 'not_found' });
    expect((api.body as { message: string }).message).toContain('"ses_nope"');
    const control = await call('GET', '/__mock/journal', { session: 'ses_nope' });
    expect(control.status).toBe(404);
    expect((control.body as { message: string }).message).toContain('"ses_nope"');
    const long = await call('GET', '/__mock/faults', { session: 'x'.repeat(500) });
    expect((long.body as { message: string }).message.length).toBeLessThan(200);

    const session = await createSession();
    const listed = await call('GET', '/__mock/sessions');
    expect(listed.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: session.id, createdAt: expect.any(String) })]),
    );
    expect((await call('DELETE', `/__mock/sessions/${session.id}`)).status).toBe(204);
    expect((await call('GET', '/__mock/faults', { session: session.id })).status).toBe(404);
    expect((await call('DELETE', `/__mock/sessions/${session.id}`)).status).toBe(404);
  });

  it('answers 409 for the session routes inside a session', async () => {
    const session = await createSession();
    const inside = await call('POST', '/__mock/sessions', { session: session.id, body: {} });
    expect(inside.status).toBe(409);
    expect(ErrorBody.parse(inside.body).code).toBe('conflict');
    expect((await call('GET', '/__mock/sessions', { session: session.id })).status).toBe(409);
    await call('DELETE', `/__mock/sessions/${session.id}`);
  });

  it('refuses a bad create body with a 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ seed: true }, 'seed'],
      [{ sizes: { accounts: 0 } }, 'sizes.accounts'],
      [{ extra: 1 }, 'extra'],
      [{ scene: { accounts: 'x' } }, 'accounts'],
      [{ scene: {}, sizes: { workspaces: 1 } }, 'sizes'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/__mock/sessions', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = ErrorBody.parse(res.body);
      expect(error.code).toBe('validation_failed');
      expect(error.message, JSON.stringify(body)).toContain(field);
    }
    expect((await call('GET', '/__mock/sessions')).body).toEqual([]);
  });

  it('creates a session from a seed and sizes, or from a scene', async () => {
    const seeded = await createSession({ seed: 7, sizes: { accounts: 2, workspaces: 3 } });
    expect(seeded.accounts).toHaveLength(2);
    const token = await login(seeded.accounts[0] as Created['accounts'][number], seeded.id);
    expect(await workspaceIds(token, seeded.id)).toHaveLength(3);
    const scened = await createSession({
      scene: { accounts: [{ name: 'Team A', workspaces: [{ name: 'ws-a' }] }] },
    });
    expect(scened.accounts.map((a) => a.name)).toEqual(['Team A']);
    await call('DELETE', `/__mock/sessions/${seeded.id}`);
    await call('DELETE', `/__mock/sessions/${scened.id}`);
  });
});

describe('closing the standalone server', () => {
  it('ends every session, rejecting their pending waits', async () => {
    const server = await listen({ port: 0, sizes: { accounts: 1, workspaces: 2, events: 0 } });
    const { id } = await server.control.createSession();
    const wait = fetch(`${server.url}/__mock/journal/wait?endpoint=guardrails.create&timeout=30000`, {
      headers: { 'x-iacm-mock-session': id },
    }).then(
      (res) => res.status,
      () => 'closed',
    );
    await expect.poll(() => server.control.sessions().length).toBe(1);
    await server.close();
    expect(server.control.sessions()).toEqual([]);
    expect(await wait).not.toBe(408);
  });
});
