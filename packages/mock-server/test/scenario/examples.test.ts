/**
 * The two scenarios of `examples/scenarios/` run as a user runs them: load the file, play it, move
 * the mock's clock, and read the result through the API (the stacks' statuses, the runs, the events).
 * Only the mock's clock moves (no wall time).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Event, IacStack, WorkspaceRun, WorkspaceSummary } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import type { Scenario } from '../../src/domain/scenario.js';
import { loginToken } from '../helpers.js';

const T0 = Date.UTC(2026, 3, 1, 8, 0, 0);
const MINUTE = 60_000;

/** An example scenario, read from its file as `iacm-mock --scenario` reads it. */
function example(name: string): Scenario {
  const file = fileURLToPath(new URL(`../../../../examples/scenarios/${name}`, import.meta.url));
  return JSON.parse(readFileSync(file, 'utf8')) as Scenario;
}

/** A mock on a stopped clock at T0 that plays `scenario`, and an API caller logged in as its primary account. */
async function played(scenario: Scenario) {
  const core = new MockCore({ tokenTtlSeconds: 86_400 }); // a token that outlives the scenario
  core.clock.set(T0);
  const answer = await core.control.play(scenario);
  const token = await loginToken(core);
  const api = async <T>(
    method: string,
    path: string,
    body: unknown = {},
    query: Record<string, string> = {},
  ): Promise<T> => {
    const res = await core.handle({
      method,
      path,
      query,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as T;
  };
  const stacks = async () => {
    const { hits } = await api<{ hits: IacStack[] }>('POST', '/api/iacStacks', { pageSize: 100 });
    return Object.fromEntries(hits.map((s) => [s.name, s.status]));
  };
  const events = async (type: string) => {
    const body = {
      query: { startTime: new Date(T0).toISOString(), filters: [{ key: 'eventType', values: [type] }] },
      size: 150,
    };
    return (await api<{ events: Event[] }>('POST', '/v2/event-center', body)).events;
  };
  const workspaces = async () => {
    const list = await api<WorkspaceSummary[]>('POST', '/v2/workspaces/search', {}, { pageSize: '100' });
    return new Map(list.map((w) => [w.workspaceName, w]));
  };
  const runs = async (workspaceName: string) => {
    const workspace = (await workspaces()).get(workspaceName);
    if (!workspace) throw new Error(`no workspace ${workspaceName}`);
    return api<WorkspaceRun[]>('POST', `/v2/workspaces/${workspace.id}/runs/search`, {});
  };
  return { core, answer, stacks, events, workspaces, runs };
}

const count = (statuses: Record<string, string>, status: string) =>
  Object.values(statuses).filter((s) => s === status).length;

describe('examples/scenarios/drift-storm.json', () => {
  it('drifts 30 of 40 stacks and ghosts the 10 dev stacks as the clock passes the steps', async () => {
    const { core, answer, stacks, events } = await played(example('drift-storm.json'));
    expect(answer).toMatchObject({ status: 'playing', steps: 51, startsAt: '2026-04-01T08:00:00.000Z' });
    expect(answer.endsAt).toBe('2026-04-01T09:00:00.000Z');

    let now = await stacks();
    expect(Object.keys(now)).toHaveLength(40);
    expect(count(now, 'active')).toBe(40);

    core.clock.advance(MINUTE); // +1m: the first drift (payments-prod)
    now = await stacks();
    expect(now['payments-prod']).toBe('contains_drifts');
    expect(count(now, 'contains_drifts')).toBe(1);

    core.clock.advance(4 * MINUTE); // +5m: one every 30 s, 9 so far
    expect(count(await stacks(), 'contains_drifts')).toBe(9);

    core.clock.advance(20 * MINUTE); // +25m: all 30 drifts, 6 of the 10 ghosts
    now = await stacks();
    expect(count(now, 'contains_drifts')).toBe(30);
    expect(count(now, 'contains_ghosts')).toBe(6);

    core.clock.set(T0 + 60 * MINUTE); // the end
    now = await stacks();
    expect(count(now, 'contains_drifts')).toBe(30);
    expect(count(now, 'contains_ghosts')).toBe(10);
    expect(now['shipping-dev']).toBe('contains_ghosts');
    expect(now['shipping-qa']).toBe('contains_drifts');

    // Each finding is an event stamped with its step's instant (not the clock's jump).
    const changes = (await events('iac_status_change')).filter((e) =>
      e.event.attributes.some((a) => a.key === 'finding'),
    );
    expect(changes).toHaveLength(50);
    const stamped = (stack: string) =>
      changes
        .filter((e) => e.event.attributes.some((a) => a.key === 'stackName' && a.value === stack))
        .map((e) => e.event_timestamp);
    expect(stamped('payments-prod')).toEqual(['2026-04-01T08:45:00.000Z', '2026-04-01T08:01:00.000Z']);
    expect(stamped('shipping-dev')).toEqual(['2026-04-01T08:29:00.000Z']);
    // The storm's notifications: 50 findings and the closing insight.
    expect(core.outbox()).toHaveLength(51);
  });

  it('answers each stack with its findings counted once the storm is over', async () => {
    const { core } = await played(example('drift-storm.json'));
    core.clock.advance(2 * 60 * MINUTE);
    const [account] = (await core.control.getState()).accounts;
    const prod = account?.stacks.find((s) => s.name === 'ledger-prod') as IacStack & {
      findings?: Record<string, number>;
    };
    expect(prod.findings).toEqual({ drifts: 2, ghosts: 0, unmanaged: 0, insights: 0 });
  });
});

describe('examples/scenarios/guardrail-rollout.json', () => {
  it("blocks the payments team's bucket runs once the strict rule reaches them, and no one else's", async () => {
    const { core, answer, runs, events, workspaces } = await played(example('guardrail-rollout.json'));
    expect(answer).toMatchObject({ steps: 8, endsAt: '2026-04-01T08:30:00.000Z' });

    core.clock.advance(5 * MINUTE); // +5m: before the rollout, the bucket applies
    expect((await runs('payments-api-prod')).map((r) => r.status)).toEqual(['apply_success']);

    core.clock.advance(5 * MINUTE); // +10m: the rollout labels the team's workspaces
    const labelled = await workspaces();
    expect(labelled.get('payments-worker-prod')?.labels).toEqual(['team:payments', 'guardrails:strict']);
    expect(labelled.get('search-prod')?.labels).toEqual(['team:search']);

    core.clock.advance(6 * MINUTE); // +16m: the timed run is planning
    let api = await runs('payments-api-prod');
    expect(api.find((r) => r.title === 'Add the archive bucket')?.status).toBe('planning');

    core.clock.advance(MINUTE); // +17m: its plan ends, blocked by the strict rule
    api = await runs('payments-api-prod');
    expect(api.find((r) => r.title === 'Add the archive bucket')?.status).toBe('blocked');

    core.clock.set(T0 + 60 * MINUTE);
    expect((await runs('payments-worker-prod')).map((r) => r.status)).toEqual(['apply_success']);
    expect((await runs('payments-api-staging')).map((r) => r.status)).toEqual(['blocked']);
    expect((await runs('search-prod')).map((r) => r.status)).toEqual(['apply_success']);

    const violations = await events('guardrails_violation');
    const attrs = (e: Event) => Object.fromEntries(e.event.attributes.map((a) => [a.key, a.value]));
    expect(
      violations.map((e) => [e.event_timestamp, attrs(e).workspaceName, attrs(e).ruleName]).reverse(),
    ).toEqual([
      ['2026-04-01T08:17:00.000Z', 'payments-api-prod', 'no new S3 buckets'],
      ['2026-04-01T08:25:00.000Z', 'payments-api-staging', 'no new S3 buckets'],
    ]);
  });
});
