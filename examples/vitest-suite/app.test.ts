/**
 * Testing your own code against the mock, with Vitest and MSW: `app.ts` is the code under test, and
 * this suite runs it against `createMockServer` in-process (no port, no network). MSW's
 * `setupServer` answers the SDK's requests to BASE_URL from the mock's handlers; the mock's control
 * plane (`mock.control`) sets the scene: a simulated CI run blocked by a guardrail, faults, the clock.
 * `reset()` after each test puts the seeded data back, so the tests do not depend on each other.
 *
 * Run it: `npx vitest run examples/vitest-suite` (in this repository, the `examples` vitest project).
 */
import { createMockServer } from '@iacm/mock-server';
import { IacmClient, InternalServerError } from '@iacm/sdk';
import type { GuardrailCreateBody } from '@iacm/sdk/contract';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findBlockedWorkspaces } from './app.js';

// Any URL works: MSW intercepts it, nothing listens there.
const BASE_URL = 'https://iacm.example.test';
const mock = createMockServer({ baseUrl: BASE_URL, seed: 7, sizes: { workspaces: 40, events: 100 } });
const server = setupServer(...mock.handlers);

const [account] = mock.control.accounts(); // the seeded primary account and its demo key pair
if (!account) throw new Error('the mock has no account');

let client: IacmClient;
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // Create the client after listen(): a client keeps the global fetch of the moment it is created,
  // and MSW intercepts by replacing the global fetch in listen().
  client = new IacmClient({
    baseUrl: BASE_URL,
    auth: { accessKey: account.accessKey, secretKey: account.secretKey },
    maxRetries: 1,
    logLevel: 'off',
  });
});
afterEach(() => {
  mock.control.reset(); // the seeded state again: rules, runs and labels as generated
  mock.control.clearFaults();
  mock.control.clock.resume();
});
afterAll(() => server.close());

/** A strict rule: a monthly cost rise over $100 blocks the run. */
const costCeiling: GuardrailCreateBody = {
  createdBy: 'a0a0a0a0a0a0a0a0a0a0a0a0',
  name: 'Cost ceiling',
  type: 'cost',
  severity: 2,
  scope: {
    workspaces: { include: [], exclude: [] },
    repositories: { include: [], exclude: [] },
    branches: { include: [], exclude: [] },
    labels: { include: [], exclude: [] },
  },
  criteria: { cost: { thresholdAmount: 100 } },
};

/** A workspace whose last run is not blocked. */
async function unblockedWorkspace() {
  const [workspace] = await client.workspaces.search({
    filters: { status: ['apply_success'] },
    sort: { workspaceName: { order: 1 } },
    pageSize: 1,
  });
  if (!workspace) throw new Error('expected a workspace whose last run was applied');
  return workspace;
}

describe('findBlockedWorkspaces', () => {
  it('finds the workspaces whose last run is blocked in the seeded data', async () => {
    const seeded = mock.control
      .getState()
      .accounts[0]?.workspaces.filter((w) => w.lastRunStatus?.description === 'blocked')
      .map((w) => w.id)
      .sort();

    const found = await findBlockedWorkspaces(client);

    expect(found.map((w) => w.id).sort()).toEqual(seeded);
  });

  it('reports a run that a strict guardrail blocked, with the violation', async () => {
    await client.guardrails.create(costCeiling);
    const workspace = await unblockedWorkspace();

    // The mock plays the CI pipeline: the plan raises the monthly cost by $150.
    const { run, evaluation } = mock.control.simulateRun(workspace.id, {
      title: 'Bigger database',
      changes: [
        {
          address: 'aws_db_instance.main',
          assetType: 'aws_db_instance',
          region: 'us-east-1',
          actions: ['update'],
          monthlyCost: { before: 100, after: 250 },
        },
      ],
      apply: true,
    });
    expect(run.status).toBe('blocked');
    expect(evaluation.blocked).toBe(true);

    const found = await findBlockedWorkspaces(client);

    const blocked = found.find((w) => w.id === workspace.id);
    expect(blocked?.runTitle).toBe('Bigger database');
    expect(blocked?.violations).toContainEqual(
      'strict: monthly cost rises by $150.00 (+150.00%), over the $100.00 threshold',
    );
  });

  it('starts from the seeded data again after reset()', async () => {
    const workspace = await unblockedWorkspace();
    mock.control.simulateRun(workspace.id, { failPlan: true });
    expect((await unblockedWorkspace()).id).not.toBe(workspace.id);

    mock.control.reset();

    expect((await unblockedWorkspace()).id).toBe(workspace.id);
  });

  it('rides out one 503 (the SDK retries), and fails with InternalServerError when it persists', async () => {
    // Retry-After: 0 makes the retry immediate.
    mock.control.addFault({
      method: 'POST',
      path: '/v2/workspaces/search',
      status: 503,
      headers: { 'Retry-After': '0' },
    });
    await expect(findBlockedWorkspaces(client)).resolves.toBeInstanceOf(Array);

    mock.control.addFault({
      method: 'POST',
      path: '/v2/workspaces/search',
      status: 503,
      headers: { 'Retry-After': '0' },
      times: 2, // the first attempt and the one retry (maxRetries: 1)
    });
    await expect(findBlockedWorkspaces(client)).rejects.toBeInstanceOf(InternalServerError);
  });

  it('keeps working when the login token expires (the SDK logs in again)', async () => {
    await findBlockedWorkspaces(client); // logs in (once), then the token is cached
    mock.control.clearJournal();
    mock.control.clock.advance(2 * 60 * 60 * 1000); // the mock's tokens live an hour

    await expect(findBlockedWorkspaces(client)).resolves.toBeInstanceOf(Array);

    // One 401 token_expired, one new login, and the same call again.
    const journal = mock.control.journal();
    expect(journal.filter((entry) => entry.status === 401)).toHaveLength(1);
    expect(journal.filter((entry) => entry.path === '/v2/login')).toHaveLength(1);
  });
});
