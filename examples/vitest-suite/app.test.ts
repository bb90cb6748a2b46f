/**
 * Testing your own code against the mock, with Vitest and MSW: `app.ts` is the code under test, and
 * this suite runs it against `createMockServer` in-process (no port, no network). Each test reads as
 * its scenario:
 * - a **scene** says what the account holds (these workspaces, these runs, this rule, this stack);
 * - the app runs against it through the SDK;
 * - `expect(mock).toHaveReceived(...)` and `mock.control.calls(...)` check what the app sent, typed
 *   by endpoint;
 * - `mock.control.waitFor(...)` and `nextDelivery(...)` wait for what happens in the background
 *   (a webhook delivery, the bot's calls), without sleeps;
 * - `mock.control.respond(...)` gives one request an answer of the contract (an error, a race).
 * `reset()` after each test returns to the scene, so the tests do not depend on each other.
 * The same file runs on Node 20, 22 and 24, MSW 2 and 3, vitest 4 and 5 (CI runs it on each from the
 * packed tarballs, typechecked with `skipLibCheck: false`).
 *
 * Run it: `npx vitest run examples/vitest-suite` (in this repository, the `examples` vitest project).
 */
import { createMockServer, scene, unhandledRequestOptions } from '@iacm/mock-server';
import { mockMatchers } from '@iacm/mock-server/vitest';
import { IacmClient } from '@iacm/sdk';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDriftBot, DRIFTED_LABEL, findBlockedWorkspaces } from './app.js';

expect.extend(mockMatchers);

// Any URLs work: MSW intercepts them, nothing listens there.
const BASE_URL = 'https://iacm.example.test';
const BOT_URL = 'https://drift-bot.example.test/webhooks';
const BOT_TOKEN = 'Bearer drift-bot-token';

/** The account under test: what a reader of a test needs to know, and nothing generated in between. */
const ACME = scene.define({
  seed: 7, // what the scene leaves out (ids, timestamps, costs...) is drawn from it, the same on every run
  accounts: [
    scene.account({
      name: 'Acme',
      rules: [
        scene.rule({
          name: 'Cost ceiling',
          type: 'cost',
          severity: 2, // strict: a failure blocks the run
          criteria: { cost: { thresholdAmount: 100 } },
        }),
      ],
      workspaces: [
        scene.workspace({
          name: 'payments-prod',
          labels: ['prod'],
          guardrails: ['Cost ceiling'],
          runs: [
            scene.run({ status: 'apply_success' }),
            scene.run({ status: 'blocked', title: 'Bigger database' }),
          ],
        }),
        scene.workspace({
          name: 'search-prod',
          labels: ['prod'],
          guardrails: ['Cost ceiling'],
          runs: [scene.run({ status: 'blocked', title: 'More replicas' })],
        }),
        scene.workspace({ name: 'web-staging', runs: [scene.run({ status: 'apply_success' })] }),
      ],
      // The stack of payments-prod (a stack is named after its workspace), with no finding yet.
      stacks: [scene.stack({ workspace: 'payments-prod', status: 'active' })],
      // The bot's webhook integration: there from the start (a scene's integrations get no test delivery).
      webhooks: [
        scene.webhook({ nickname: 'drift-bot', url: BOT_URL, credentials: { authorization: BOT_TOKEN } }),
      ],
    }),
  ],
});

const mock = createMockServer({ baseUrl: BASE_URL, scene: ACME });
const [account] = mock.control.accounts(); // the scene's account and its key pair
if (!account) throw new Error('the scene has no account');

const client = new IacmClient({
  baseUrl: BASE_URL,
  auth: { accessKey: account.accessKey, secretKey: account.secretKey },
  maxRetries: 1,
  sleep: async () => {}, // retry waits take no time in tests
  logLevel: 'off',
});

// The app under test: the bot, answering where the integration delivers.
const bot = createDriftBot(client, { type: 'header', value: BOT_TOKEN });
// MSW answers both in-process: the API from the mock's handlers, the deliveries from the bot.
const server = setupServer(
  ...mock.handlers,
  http.post(BOT_URL, ({ request }) => bot(request)),
);

// The client may be created before listen(): it looks the global fetch up at each call.
// A request elsewhere fails, naming its method and URL, never its body (MSW's own 'error' prints it);
// the options name it as MSW 2 does (onUnhandledRequest) and as MSW 3 does (onUnhandledFrame).
beforeAll(() => server.listen(unhandledRequestOptions('error')));
afterEach(async () => await mock.control.reset()); // the scene again: data, journal, one-off answers, faults
afterAll(() => {
  mock.control.cancelWaits();
  server.close();
});

/** The stack of a workspace of the scene (arranging, through the control plane: not journalled). */
async function stackOf(workspaceName: string) {
  const stack = (await mock.control.getState()).accounts[0]?.stacks.find((s) => s.name === workspaceName);
  if (!stack) throw new Error(`no stack named ${workspaceName}`);
  return stack;
}

/** A workspace of the scene by its name (arranging, through the control plane: not journalled). */
async function workspaceOf(name: string) {
  const workspace = (await mock.control.getState()).accounts[0]?.workspaces.find(
    (w) => w.workspaceName === name,
  );
  if (!workspace) throw new Error(`no workspace named ${name}`);
  return workspace;
}

describe('findBlockedWorkspaces', () => {
  it('finds the workspaces whose last run is blocked, with what blocked them', async () => {
    const found = await findBlockedWorkspaces(client);

    expect(found.map((w) => [w.workspaceName, w.runTitle])).toEqual([
      ['payments-prod', 'Bigger database'],
      ['search-prod', 'More replicas'],
    ]);
    expect(found[0]?.violations).toEqual([expect.stringMatching(/^strict: /)]);

    // One search for blocked workspaces, then one look at each one's runs, and nothing else.
    expect(mock).toHaveReceived('workspaces.search', {
      times: 1,
      body: expect.objectContaining({ filters: { status: ['blocked'] } }),
    });
    expect(mock).toHaveReceived('workspaces.runs.search', { times: 2 });
    expect(mock.control.calls('workspaces.runs.search').map((call) => call.params.workspaceId)).toEqual(
      found.map((w) => w.id),
    );
    expect(mock).toHaveReceivedNothingElse(['auth.login']);
  });

  it('refuses a misspelt endpoint name, in the types and when it runs', () => {
    // @ts-expect-error: there is no endpoint 'workspaces.serch' (the matchers are typed by endpoint)
    expect(() => expect(mock).toHaveReceived('workspaces.serch')).toThrow(/workspaces\.search/);
  });

  it('leaves out a workspace deleted between the search and the look at its runs', async () => {
    // The next look at runs answers 404, as the service does for a workspace deleted meanwhile.
    mock.control.respond('workspaces.runs.search', { status: 404 });

    const found = await findBlockedWorkspaces(client);

    expect(found.map((w) => w.workspaceName)).toEqual(['search-prod']);
    expect(mock.control.calls('workspaces.runs.search').map((call) => call.status)).toEqual([404, 200]);
  });

  it('rides out one 500 (the SDK retries the search)', async () => {
    mock.control.respond('workspaces.search', {
      status: 500,
      match: { body: { filters: { status: ['blocked'] } } },
    });

    await expect(findBlockedWorkspaces(client)).resolves.toHaveLength(2);

    expect(mock.control.calls('workspaces.search').map((call) => call.status)).toEqual([500, 200]);
  });
});

describe('the SDK against the mock', () => {
  it('logs in again by itself when the token expires', async () => {
    await findBlockedWorkspaces(client); // the client logs in and keeps the token
    mock.control.clearJournal();
    mock.control.clock.advance(2 * 60 * 60 * 1000); // the mock's tokens live an hour

    await expect(findBlockedWorkspaces(client)).resolves.toHaveLength(2);

    // The search got 401 token_expired; the client logged in again and repeated it.
    expect(mock.control.calls('workspaces.search').map((call) => call.status)).toEqual([401, 200]);
    expect(mock).toHaveReceived('auth.login', { times: 1, status: 200 });
  });

  it("waits out a 429's Retry-After on fake timers: start the call, move the clock, await it", async () => {
    // A client that really waits (the suite's own skips the waits with `sleep`).
    const patient = new IacmClient({
      baseUrl: BASE_URL,
      auth: { accessKey: account.accessKey, secretKey: account.secretKey },
      logLevel: 'off',
    });
    mock.control.respond('workspaces.search', { status: 429, headers: { 'retry-after': '30' } });
    vi.useFakeTimers();
    try {
      const found = findBlockedWorkspaces(patient);
      await vi.advanceTimersByTimeAsync(30_000);
      await expect(found).resolves.toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
    expect(mock.control.calls('workspaces.search').map((call) => call.status)).toEqual([429, 200]);
  });
});

describe('the drift bot', () => {
  it('labels the drifted workspace when a Drift notification arrives', async () => {
    // Arm the waits first: they see what happens after the call.
    const delivered = mock.control.nextDelivery({ kind: 'Drift' });
    const labelled = mock.control.waitFor('workspaces.setLabels');

    // The mock plays the service: a drift on payments-prod's stack, delivered to the bot.
    mock.control.recordFinding((await stackOf('payments-prod')).id, {
      kind: 'Drift',
      name: 'aws_s3_bucket.logs',
    });

    expect(await delivered).toMatchObject({ kind: 'Drift', status: 200, outcome: 'delivered' });
    const call = await labelled;
    expect(call.body).toEqual({ labels: ['prod', DRIFTED_LABEL] });
    const [workspace] = await client.workspaces.search({ searchValue: 'payments-prod', pageSize: 1 });
    expect([workspace?.id, workspace?.labels]).toEqual([call.params.workspaceId, ['prod', DRIFTED_LABEL]]);
  });

  it('fails the delivery when the label change is refused, and labels the workspace on the retry', async () => {
    // One refusal of the label change, as the service answers a key without write permission.
    mock.control.respond('workspaces.setLabels', { status: 403 });
    const firstAttempt = mock.control.nextDelivery({ kind: 'Drift' });

    mock.control.recordFinding((await stackOf('payments-prod')).id, { kind: 'Drift' });

    // The bot answered 500, so the mock will deliver again; send the retry now instead of waiting.
    expect(await firstAttempt).toMatchObject({ status: 500, outcome: 'retrying' });
    await mock.control.flushDeliveries();

    expect(mock.control.calls('workspaces.setLabels').map((call) => call.status)).toEqual([403, 200]);
    expect(mock).toHaveReceived('workspaces.setLabels', {
      body: { labels: ['prod', DRIFTED_LABEL] },
      status: 200,
    });
  });

  it('starts again from the scene when reset right after a delivery', async () => {
    const delivered = mock.control.nextDelivery({ kind: 'Drift' });
    mock.control.recordFinding((await stackOf('payments-prod')).id, { kind: 'Drift' });
    expect(await delivered).toMatchObject({ status: 200, outcome: 'delivered' });

    await mock.control.reset(); // at once, in the turn the delivery was told

    const [workspace] = await client.workspaces.search({ searchValue: 'payments-prod', pageSize: 1 });
    expect(workspace?.labels).toEqual(['prod']);
    expect(mock.control.webhooks.deliveries()).toEqual([]);
  });
});

describe('matching what the app sent, and runs that take time', () => {
  it('answers one workspace by its path parameter, and a search by one nested member', async () => {
    const searchProd = await workspaceOf('search-prod');
    // Only search-prod's runs are "deleted"; the match names its id, nothing else of the request.
    mock.control.respond('workspaces.runs.search', {
      status: 404,
      match: { params: { workspaceId: searchProd.id } },
    });

    const found = await findBlockedWorkspaces(client);

    expect(found.map((w) => w.workspaceName)).toEqual(['payments-prod']);
    // A match names members at any depth; an array matches when it holds the items named.
    expect(mock).toHaveReceived('workspaces.search', {
      body: expect.objectContaining({ filters: { status: ['blocked'] } }),
    });
    await expect(
      mock.control.waitFor('workspaces.search', {
        match: { body: { filters: { status: ['blocked'] } } },
        since: 'start',
        timeout: 0,
      }),
    ).resolves.toMatchObject({ status: 200 });
  });

  it('says which call came nearest when an expectation fails', async () => {
    await findBlockedWorkspaces(client);

    expect(() =>
      expect(mock).toHaveReceived('workspaces.search', { body: { filters: { status: ['apply_error'] } } }),
    ).toThrow(
      /nearest miss: req_\d+ POST \/v2\/workspaces\/search -> 200, at body\.filters\.status\[0\]: expected "apply_error", received "blocked"/,
    );
  });

  it('waits for a timed run to reach a status while the test moves the clock', async () => {
    const web = await workspaceOf('web-staging');
    const { runId } = mock.control.simulateRun(web.id, {
      apply: true,
      timing: { startAfterMs: 60_000, planningMs: 120_000, applyingMs: 300_000 },
    });
    const planning = mock.control.waitForRun(web.id, { status: 'planning', runId });
    const finished = mock.control.waitForRun(web.id, {
      status: ['apply_success', 'apply_no_changes', 'apply_error'],
      runId,
    });

    mock.control.clock.advance(60_000);
    expect((await planning).status).toBe('planning');
    mock.control.clock.advance(420_000); // the plan's end and the apply's end at once

    expect(await finished).toMatchObject({ id: runId, status: 'apply_no_changes' });
    // The app sees it too: the workspace's last run status.
    const [workspace] = await client.workspaces.search({ searchValue: 'web-staging', pageSize: 1 });
    expect(workspace?.lastRunStatus?.description).toBe('apply_no_changes');
  });
});
