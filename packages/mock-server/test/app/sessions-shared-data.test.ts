/**
 * Copy on write between sessions: sessions (and the default session, and other mocks of the same
 * seed) share the data generated once (`store/template.ts`), and a write in one of them (a workspace
 * deleted, a rule created, a run simulated, a finding recorded, and the events each records) is
 * seen by it alone. The shared records are frozen, so a change in place could not leak silently.
 */

import { describe, expect, it } from 'vitest';
import { SHARED_DATA_FRACTION } from '../../src/app/data.js';
import { MockCore } from '../../src/app/mock.js';
import { DEFAULT_BUDGET_BYTES } from '../../src/store/budget.js';
import { estimateSeedBytes } from '../../src/store/seed/limits.js';
import { DEFAULT_SIZES } from '../../src/store/state.js';
import { tagRuleBody } from '../helpers.js';

const sizes = { workspaces: 12, rules: 2, events: 60 };

/** A JSON request to `core`, in `session` when given. */
async function call(
  core: MockCore,
  method: string,
  path: string,
  { session, token, body }: { session?: string | undefined; token?: string | undefined; body?: unknown } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (session !== undefined) headers['x-iacm-mock-session'] = session;
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return core.handle({ method, path, headers, body });
}

/** The whole state as `GET /__mock/state` answers it, in `session` when given (as JSON text). */
async function stateText(core: MockCore, session?: string): Promise<string> {
  const res = await call(core, 'GET', '/__mock/state', { session });
  expect(res.status).toBe(200);
  return JSON.stringify(res.body);
}

/**
 * Writes of every kind in `session` (the default when undefined): a workspace deleted, a rule
 * created, a run simulated, a finding recorded; each records events.
 */
async function writeEverything(core: MockCore, session: string | undefined, accounts = core.accounts()) {
  const keys = accounts[0];
  const login = await call(core, 'POST', '/v2/login', {
    session,
    body: { accessKey: keys?.accessKey, secretKey: keys?.secretKey },
  });
  expect(login.status).toBe(200);
  const token = (login.body as { accessToken: string }).accessToken;
  const state = JSON.parse(await stateText(core, session)) as {
    accounts: Array<{ workspaces: Array<{ id: string }>; stacks: Array<{ id: string }> }>;
  };
  const [first, second] = state.accounts[0]?.workspaces ?? [];
  const stack = state.accounts[0]?.stacks[0];
  expect((await call(core, 'DELETE', `/v2/workspaces/${first?.id}`, { session, token })).status).toBe(200);
  expect(
    (await call(core, 'POST', '/v2/guardrails', { session, token, body: tagRuleBody('cow') })).status,
  ).toBe(200);
  expect(
    (await call(core, 'POST', `/__mock/workspaces/${second?.id}/runs`, { session, body: {} })).status,
  ).toBe(201);
  const finding = await call(core, 'POST', `/__mock/stacks/${stack?.id}/findings`, {
    session,
    body: { kind: 'Drift', name: 'bucket' },
  });
  expect(finding.status).toBe(201);
}

describe('sessions share the generated data, copied on write', () => {
  it('keeps a write in one session out of the other sessions and the default session', async () => {
    const core = new MockCore({ sizes, sessions: { max: 4 } });
    const a = await core.control.createSession();
    const b = await core.control.createSession();
    const before = await stateText(core);
    // Same seed, same data: every session starts equal to the default session.
    expect(await stateText(core, a.id)).toBe(before);
    expect(await stateText(core, b.id)).toBe(before);

    await writeEverything(core, a.id, a.accounts);
    const changed = await stateText(core, a.id);
    expect(changed).not.toBe(before);
    expect(await stateText(core, b.id)).toBe(before);
    expect(await stateText(core)).toBe(before);

    // And the other way: the default session's writes stay out of the sessions.
    await writeEverything(core, undefined);
    expect(await stateText(core, a.id)).toBe(changed);
    expect(await stateText(core, b.id)).toBe(before);

    // A reset inside a session returns it to the shared start, and nobody else moves.
    const defaultNow = await stateText(core);
    expect((await call(core, 'POST', '/__mock/reset', { session: a.id })).status).toBe(200);
    expect(await stateText(core, a.id)).toBe(before);
    expect(await stateText(core)).toBe(defaultNow);
  });

  it('keeps writes in one mock out of another mock of the same seed and sizes', async () => {
    const one = new MockCore({ sizes });
    const two = new MockCore({ sizes });
    const before = await stateText(two);
    await writeEverything(one, undefined);
    expect(await stateText(one)).not.toBe(before);
    expect(await stateText(two)).toBe(before);
  });

  it('freezes the shared records, so that a change in place fails loudly instead of leaking', async () => {
    const core = new MockCore({ sizes });
    const account = [...core.store.accounts.values()][0];
    const workspace = account?.workspaces.values().next().value;
    expect(workspace && Object.isFrozen(workspace)).toBe(true);
    expect(workspace && Object.isFrozen(workspace.lastRunStatus ?? {})).toBe(true);
    expect(Object.isFrozen(account?.explorer.stacks[0])).toBe(true);
    // The snapshot handed to a caller is the caller's own: it may change it (and load it back).
    const state = await core.control.getState();
    const mine = state.accounts[0]?.workspaces[0] as { workspaceName: string };
    mine.workspaceName = 'renamed-by-the-test';
    await core.control.setState(state);
    expect([...core.store.accounts.values()][0]?.workspaces.get(workspace?.id ?? '')?.workspaceName).toBe(
      'renamed-by-the-test',
    );
  });

  it('counts a session sharing data in memory at a tenth of its estimate against the budget', async () => {
    const core = new MockCore({ sessions: { max: 1000 } });
    const estimate = estimateSeedBytes(DEFAULT_SIZES);
    // Sessions of the mock's own seed share its data: many more fit the budget than full copies would.
    const full = Math.floor(DEFAULT_BUDGET_BYTES / estimate);
    for (let i = 0; i < full + 5; i++) await core.control.createSession();
    expect(core.control.sessions()).toHaveLength(full + 5);
    expect(core.control.budget().sessions).toBe((full + 5) * Math.ceil(estimate / SHARED_DATA_FRACTION));
  });
});
