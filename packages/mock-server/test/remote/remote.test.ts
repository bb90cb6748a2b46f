/**
 * `@iacm/mock-server/remote` (issue 35, deliverable 2): the typed client of a standalone mock's control
 * plane. Same capabilities and names as the in-process `control`, one `calls()` shape in process and
 * over HTTP, its own error class that never holds the control token, a version check, the matchers.
 */
import { listen } from '@iacm/mock-server/node';
import { connect, MOCK_VERSION_HEADER, MockControlError } from '@iacm/mock-server/remote';
import { mockMatchers } from '@iacm/mock-server/vitest';
import { IacmClient } from '@iacm/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

expect.extend(mockMatchers);

let running: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  running = await listen({ port: 0, sizes: { workspaces: 12 }, sessions: { max: 10 } });
});
afterAll(() => running.close());

/** The member names of a control object, groups as `group.member`, sorted. */
function memberNames(control: object): string[] {
  const names: string[] = [];
  for (const [key, value] of Object.entries(control)) {
    if (typeof value === 'function') names.push(key);
    else if (typeof value === 'object' && value !== null)
      for (const [member, fn] of Object.entries(value))
        if (typeof fn === 'function') names.push(`${key}.${member}`);
  }
  return names.sort();
}

async function sessionClient() {
  const session = await connect(running.url).createSession({ sizes: { workspaces: 5 } });
  const [account] = session.accounts;
  if (!account) throw new Error('no account');
  const client = new IacmClient({
    baseUrl: running.url,
    auth: { accessKey: account.accessKey, secretKey: account.secretKey },
    headers: { 'X-Iacm-Mock-Session': session.id },
    maxRetries: 0,
    logLevel: 'off',
  });
  return { session, client, remote: connect(running.url, { session: session.id }) };
}

describe('connect()', () => {
  it('has every capability of the in-process control plane, by the same names', () => {
    const remote = connect(running.url);
    const inProcess = memberNames(running.control).filter((name) => name !== 'handle');
    expect(memberNames(remote)).toEqual(inProcess);
    expect(inProcess.length).toBeGreaterThan(40);
  });

  it('answers calls() in the in-process shape, and GET /__mock/journal?endpoint= answers the same', async () => {
    const [account] = running.control.accounts();
    const client = new IacmClient({
      baseUrl: running.url,
      auth: { accessKey: account?.accessKey ?? '', secretKey: account?.secretKey ?? '' },
      logLevel: 'off',
    });
    await client.workspaces.search({ pageSize: 2, searchValue: 'a' });
    const remote = await connect(running.url).calls('workspaces.search');
    const local = running.control.calls('workspaces.search');
    expect(remote).toEqual(local);
    expect(remote.at(-1)?.body).toMatchObject({ searchValue: 'a' });
    expect(Object.keys(remote.at(-1) ?? {})).toContain('requestId');
    const res = await fetch(`${running.url}/__mock/journal?endpoint=workspaces.search`);
    expect(await res.json()).toEqual(local);
  });

  it('drives a session: faults, one-off answers, the clock, waits and reset stay in it', async () => {
    const one = await sessionClient();
    const other = await sessionClient();
    await one.remote.addFault({ endpoint: 'workspaces.search', status: 500, times: 1 });
    await expect(one.client.workspaces.search({})).rejects.toMatchObject({ status: 500 });
    await expect(other.client.workspaces.search({})).resolves.toHaveLength(5);
    await one.remote.respond('workspaces.search', { status: 404 });
    await expect(one.client.workspaces.search({})).rejects.toMatchObject({ status: 404 });
    expect((await one.remote.calls('workspaces.search')).map((c) => c.status)).toEqual([500, 404]);
    expect((await other.remote.calls('workspaces.search')).map((c) => c.status)).toEqual([200]);

    await one.remote.clock.set('2026-01-01T00:00:00.000Z'); // set: the clock stands there
    await one.remote.clock.advance(60_000);
    expect(await one.remote.clock.now()).toBe(Date.UTC(2026, 0, 1, 0, 1));
    expect(await other.remote.clock.now()).not.toBe(Date.UTC(2026, 0, 1, 0, 1));

    const arrived = one.remote.waitFor('workspaces.search', { match: { body: { searchValue: 'x' } } });
    await one.client.workspaces.search({ searchValue: 'x' });
    expect((await arrived).body).toMatchObject({ searchValue: 'x' });

    await one.remote.reset();
    expect(await one.remote.calls('workspaces.search')).toEqual([]);
    expect(await other.remote.calls('workspaces.search')).toHaveLength(1);
    await connect(running.url).endSession(one.session.id);
    await expect(one.remote.calls('workspaces.search')).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it('refuses a bad body with a MockControlError naming the request, its status, code and issues', async () => {
    const { remote } = await sessionClient();
    const error = await remote
      .addFault({ endpoint: 'workspaces.search', status: 99 as 500 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockControlError);
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', request: 'POST /__mock/faults' });
    expect((error as MockControlError).message).toMatch(/^POST \/__mock\/faults: 400 .*status/);
    expect((error as MockControlError).issues?.length).toBeGreaterThan(0);
  });

  it('checks its arguments before any request, naming the one that is wrong', () => {
    expect(() => connect('not a url')).toThrow(/connect: baseUrl: expected an http\(s\) URL/);
    expect(() => connect('ftp://x.test')).toThrow(/expected http: or https:/);
    expect(() => connect(running.url, { sesion: 'x' } as never)).toThrow(/options\.sesion: unknown option/);
    expect(() => connect(running.url, { session: '' })).toThrow(
      /options\.session: expected a non-empty string/,
    );
    expect(() => connect(running.url, { timeoutMs: 5 })).toThrow(/options\.timeoutMs/);
  });
});

describe('a mock with a control token', () => {
  const TOKEN = 'ctl-token-that-must-not-leak-0123456789';
  let guarded: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    guarded = await listen({ port: 0, sizes: { workspaces: 3 }, controlToken: TOKEN });
  });
  afterAll(() => guarded.close());

  it('sends the token, and without it the 403 says what is needed', async () => {
    expect(await connect(guarded.url, { controlToken: TOKEN }).accounts()).toHaveLength(
      guarded.control.accounts().length,
    );
    await expect(connect(guarded.url).accounts()).rejects.toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('never puts the token in an error, even when the network error quotes it', async () => {
    const leaky = (async (_input: unknown, init?: RequestInit) => {
      throw new TypeError(`fetch failed: ${JSON.stringify(init?.headers)}`);
    }) as typeof fetch;
    const error = (await connect(guarded.url, { controlToken: TOKEN, fetch: leaky })
      .accounts()
      .catch((e: unknown) => e)) as MockControlError;
    expect(error).toMatchObject({ status: 0, code: 'network_error' });
    expect(error.message).toContain('[redacted]');
    expect(`${error.message} ${String(error.stack)}`).not.toContain(TOKEN);
  });
});

describe('the version check', () => {
  function answeringAs(version: string | null): typeof fetch {
    return (async (input: RequestInfo | URL, init?: RequestInit) => {
      const real = await fetch(input, init);
      const headers = new Headers(real.headers);
      if (version === null) headers.delete(MOCK_VERSION_HEADER);
      else headers.set(MOCK_VERSION_HEADER, version);
      return new Response(await real.text(), { status: real.status, headers });
    }) as typeof fetch;
  }

  it('every control answer says the mock version', async () => {
    const res = await fetch(`${running.url}/__mock/clock`);
    expect(res.headers.get(MOCK_VERSION_HEADER)).toMatch(/^\d+\.\d+\.\d+/);
    const refused = await fetch(`${running.url}/__mock/nothing-here`);
    expect([refused.status, refused.headers.get(MOCK_VERSION_HEADER)]).toEqual([
      404,
      res.headers.get(MOCK_VERSION_HEADER),
    ]);
  });

  it('fails with version_mismatch for another minor, and for a server that does not say', async () => {
    await expect(connect(running.url, { fetch: answeringAs('9.8.0') }).accounts()).rejects.toMatchObject({
      code: 'version_mismatch',
      message: expect.stringMatching(/is @iacm\/mock-server 9\.8\.0 and this client \d/),
    });
    await expect(connect(running.url, { fetch: answeringAs(null) }).accounts()).rejects.toMatchObject({
      code: 'version_mismatch',
      message: expect.stringContaining('did not say its version'),
    });
  });
});

describe('deeper matching and run waits over the remote client', () => {
  it('selects by path parameter and by one nested member, and waits for a timed run to reach a status', async () => {
    const { client, remote } = await sessionClient();
    const [first, second] = await client.workspaces.search({});
    if (!first || !second) throw new Error('expected two workspaces');
    await remote.respond('workspaces.runs.search', {
      status: 404,
      match: { params: { workspaceId: second.id } },
    });
    await expect(client.workspaces.runs.search(first.id, {}).toArray({ limit: 10 })).resolves.toBeDefined();
    await expect(client.workspaces.runs.search(second.id, {}).toArray({ limit: 10 })).rejects.toMatchObject({
      status: 404,
    });
    await remote.addFault({
      endpoint: 'workspaces.search',
      status: 503,
      match: { body: { filters: { status: ['blocked'] } } },
    });
    await expect(
      client.workspaces.search({ filters: { status: ['blocked', 'apply_error'] } }),
    ).rejects.toMatchObject({ status: 503 });
    // A timed run, its clock moved by the test: the wait answers with the run as it took the status.
    const timed = await remote.simulateRun(first.id, {
      apply: true,
      timing: { startAfterMs: 0, planningMs: 60_000, applyingMs: 60_000 },
    });
    const applied = remote.waitForRun(first.id, {
      status: 'apply_no_changes',
      runId: timed.runId,
      timeout: 10_000,
    });
    await remote.clock.advance(120_000);
    await expect(applied).resolves.toMatchObject({ id: timed.runId, status: 'apply_no_changes' });
    // The matcher names the nearest miss over HTTP too.
    const failure = await (async () => {
      await expect(remote).toHaveReceived('workspaces.search', {
        body: { filters: { status: ['plan_error'] } },
      });
    })().catch((e: unknown) => e);
    expect(String((failure as Error).message)).toContain(
      'at body.filters.status[0]: expected "plan_error", received "blocked"',
    );
  });
});

describe('the vitest matchers on the remote client', () => {
  it('pass and fail as in process, listing what arrived', async () => {
    const { client, remote } = await sessionClient();
    await client.workspaces.search({ searchValue: 'web' });
    await expect(remote).toHaveReceived('workspaces.search', { times: 1, body: { searchValue: 'web' } });
    await expect(remote).not.toHaveReceived('guardrails.search');
    await expect(remote).toHaveReceivedNothingElse(['auth.login']);
    const failure = await (async () => {
      await expect(remote).toHaveReceived('workspaces.search', { times: 2 });
    })().catch((e: unknown) => e);
    expect(String((failure as Error).message)).toMatch(
      /expected the mock to have received workspaces.search 2 times, but 1 of its 1 calls[\s\S]*POST \/v2\/workspaces\/search -> 200/,
    );
  });
});
