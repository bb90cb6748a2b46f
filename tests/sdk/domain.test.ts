import type { Event, WorkspaceSummary } from '@iacm/sdk/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock } from './helpers.js';

let env: Awaited<ReturnType<typeof startMock>>;
beforeAll(async () => {
  env = await startMock();
});
afterAll(() => env.close());
beforeEach(async () => {
  await env.mock.control.reset();
  env.mock.control.clearFaults();
});

async function post(path: string, body: unknown) {
  const res = await fetch(`${env.mock.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const everywhere = {
  workspaces: { include: ['*'], exclude: [] },
  repositories: { include: ['*'], exclude: [] },
  branches: { include: ['main'], exclude: [] },
  labels: { include: [], exclude: [] },
};

describe('simulated runs against guardrail rules, end to end through the SDK', () => {
  it('blocks a run that breaks a strict rule and shows it in run search, the workspace and the event center', async () => {
    const client = env.client();
    // Only our rule applies: disable the seeded ones.
    for (const rule of await client.guardrails.search({ pageSize: 500 }))
      await client.guardrails.update(rule.id, { isEnabled: false });
    const { ruleId, notificationId } = await client.guardrails.create({
      createdBy: 'dddddddddddddddddddddddd',
      name: 'Cost ceiling',
      type: 'cost',
      scope: everywhere,
      criteria: { cost: { thresholdAmount: 100 } },
      severity: 2,
    });
    const [workspace] = (await client.workspaces.search({
      pageSize: 1,
      sort: { workspaceName: { order: 1 } },
    })) as WorkspaceSummary[];
    const before = await client.eventCenter.query({ size: 1, facets: [{ field: 'eventType', size: 10 }] });
    const violationsBefore =
      before.facets[0]?.values.find((v) => v.value === 'guardrails_violation')?.count ?? 0;

    const simulated = await post(`/__mock/workspaces/${workspace?.id}/runs`, {
      branch: 'main',
      commitId: '9f1c2e7',
      title: 'Add log bucket',
      pullRequestId: '42',
      changes: [
        {
          address: 'aws_s3_bucket.logs',
          assetType: 'aws_s3_bucket',
          region: 'us-east-1',
          actions: ['create'],
          tags: { team: 'data' },
          monthlyCost: { before: 0, after: 120 },
        },
      ],
      policyFindings: [{ policy: 's3-bucket-encryption', severity: 'high' }],
      apply: true,
    });
    expect(simulated.status).toBe(201);
    const runId = (simulated.body.run as { id: string }).id;

    const [run] = await client.workspaces.runs.search(workspace?.id as string, {
      filters: { status: ['blocked'] },
    });
    expect(run?.id).toBe(runId);
    expect(run?.apply).toEqual([]);
    expect(run?.pullRequestUrl).toBe(`${workspace?.repoUrl}/pull/42`);
    const summary = run?.plan[0]?.guardrailsSummary;
    expect(summary).toMatchObject({ total: 1, passed: 0, failed: 1 });
    expect(summary?.violations[0]).toMatchObject({ id: ruleId, severity: 'strict' });
    expect(summary?.violations[0]?.message).toMatch(/120/);

    const [after] = await client.workspaces.search({
      filters: { workspaceName: [workspace?.workspaceName as string] },
    });
    expect(after?.lastRunStatus?.description).toBe('blocked');
    expect(after?.runsCount).toBe((workspace?.runsCount ?? 0) + 1);
    expect(after?.guardrails).toEqual([ruleId]);

    const events = await client.eventCenter.query({
      query: {
        filters: [{ key: 'eventType', values: ['guardrails_violation'] }],
        searchText: 'cost ceiling',
      },
      facets: [{ field: 'eventType' }],
    });
    expect(events.events).toHaveLength(1);
    const attributes = Object.fromEntries(
      (events.events[0] as Event).event.attributes.map((a) => [a.key, a.value]),
    );
    expect(attributes).toMatchObject({ ruleId, workspaceId: workspace?.id, runId });
    const all = await client.eventCenter.query({ size: 1, facets: [{ field: 'eventType', size: 10 }] });
    expect(all.facets[0]?.values.find((v) => v.value === 'guardrails_violation')?.count).toBe(
      violationsBefore + 1,
    );

    const outbox = env.mock.control.outbox(env.primary.id);
    expect(outbox.at(-1)?.source).toMatchObject({
      kind: 'guardrail_violation',
      ruleId,
      notificationId,
      runId,
    });
  });

  it('applies a run that breaks only a warning rule, and reports the violation', async () => {
    const client = env.client();
    for (const rule of await client.guardrails.search({ pageSize: 500 }))
      await client.guardrails.delete(rule.id);
    const { ruleId } = await client.guardrails.create({
      createdBy: 'dddddddddddddddddddddddd',
      name: 'Team tag',
      type: 'tag',
      scope: everywhere,
      criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['owner'] } },
      severity: 3,
    });
    const [workspace] = await client.workspaces.search({ pageSize: 1 });
    const simulated = await post(`/__mock/workspaces/${workspace?.id}/runs`, {
      changes: [
        {
          address: 'aws_sqs_queue.jobs',
          assetType: 'aws_sqs_queue',
          region: 'eu-west-1',
          actions: ['create'],
          tags: { team: 'x' },
        },
      ],
      apply: true,
    });
    const run = simulated.body.run as {
      status: string;
      apply: unknown[];
      plan: Array<{ guardrailsSummary: { violations: Array<{ id: string }> } }>;
    };
    expect(run.status).toBe('apply_success');
    expect(run.apply).toHaveLength(1);
    expect(run.plan[0]?.guardrailsSummary.violations.map((v) => v.id)).toEqual([ruleId]);
  });

  it('refuses a malformed simulated run naming the field, and an unknown workspace with 404', async () => {
    const [workspace] = await env.client().workspaces.search({ pageSize: 1 });
    const bad = await post(`/__mock/workspaces/${workspace?.id}/runs`, {
      changes: [{ address: 'x', assetType: 'y', actions: ['destroy'] }],
    });
    expect(bad.status).toBe(400);
    expect((bad.body.issues as Array<{ path: string }>)[0]?.path).toBe('changes[0].actions[0]');
    expect((await post('/__mock/workspaces/ffffffffffffffffffffffff/runs', {})).status).toBe(404);
  });

  it('dry-runs rules against a plan without storing anything', async () => {
    const before = JSON.stringify(await env.mock.control.getState());
    const res = await post('/__mock/guardrails/evaluate', {
      rules: [
        {
          createdBy: 'dddddddddddddddddddddddd',
          name: 'No deletes of databases',
          type: 'resource',
          scope: everywhere,
          criteria: {
            resource: {
              actions: ['delete'],
              regions: { include: ['*'], exclude: [] },
              assetTypes: { include: ['aws_db_instance'], exclude: [] },
            },
          },
          severity: 2,
        },
      ],
      run: { workspaceName: 'payments-prod', repository: 'acme/payments', branch: 'main', labels: ['prod'] },
      plan: {
        changes: [
          {
            address: 'aws_db_instance.main',
            assetType: 'aws_db_instance',
            region: 'us-east-1',
            actions: ['delete'],
          },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 1, failed: 1, blocked: true });
    expect(JSON.stringify(await env.mock.control.getState())).toBe(before);
  });
});

describe('findings on IaC stacks', () => {
  it('change what the stack query reports, add the event, and queue the notification', async () => {
    const client = env.client();
    const { hits } = await client.iacExplorer.stacks({
      pageSize: 500,
      screenFilters: { status: ['active'] },
    });
    const stack = hits[0];
    expect(stack).toBeDefined();
    const res = await post(`/__mock/stacks/${stack?.id}/findings`, {
      kind: 'Drift',
      assetType: 'aws_s3_bucket',
      name: 'acme-logs',
      assetId: 'arn:aws:s3:::acme-logs',
      drifts: [{ keyName: 'versioning.status', iacValue: 'Enabled', providerValue: 'Suspended' }],
    });
    expect(res.status).toBe(201);
    const { hits: after } = await client.iacExplorer.stacks({
      pageSize: 500,
      screenFilters: { status: ['contains_drifts'] },
    });
    const changed = after.find((s) => s.id === stack?.id);
    expect(changed?.status).toBe('contains_drifts');
    expect((changed as { findings?: unknown } | undefined)?.findings).toEqual({
      drifts: 1,
      ghosts: 0,
      unmanaged: 0,
      insights: 0,
    });
    const events = await client.eventCenter.query({ query: { searchText: 'arn:aws:s3:::acme-logs' } });
    expect(events.events[0]?.event.attributes).toEqual(
      expect.arrayContaining([
        { key: 'finding', value: 'Drift' },
        { key: 'to', value: 'contains_drifts' },
      ]),
    );
    const queued = env.mock.control.outbox().at(-1);
    expect(queued?.source).toEqual({ kind: 'finding', stackId: stack?.id });
    expect(queued?.payload.notificationType).toBe('Drift');
    expect(queued?.payload.samples[0]).toMatchObject({ name: 'acme-logs', ARN: 'arn:aws:s3:::acme-logs' });
  });

  it('answers 404 for an unknown stack and 400 for an unknown kind', async () => {
    expect((await post('/__mock/stacks/nope/findings', { kind: 'Drift' })).status).toBe(404);
    const { hits } = await env.client().iacExplorer.stacks({ pageSize: 1 });
    expect((await post(`/__mock/stacks/${hits[0]?.id}/findings`, { kind: 'Fire' })).status).toBe(400);
  });
});

describe('mutation events and the clock', () => {
  it('records API mutations as events with the right mutation type, at the mock clock', async () => {
    env.mock.control.clock.set('2026-03-01T10:00:00.000Z');
    try {
      const client = env.client();
      const [workspace] = await client.workspaces.search({ pageSize: 1 });
      await client.workspaces.setLabels(workspace?.id as string, ['audited']);
      env.mock.control.clock.advance(1000);
      const { ruleId } = await client.guardrails.create({
        createdBy: 'dddddddddddddddddddddddd',
        name: 'Temp',
        type: 'cost',
        scope: everywhere,
        criteria: { cost: { thresholdPercentage: 10 } },
        severity: 1,
      });
      env.mock.control.clock.advance(1000);
      await client.guardrails.update(ruleId, { name: 'Temp 2' });
      env.mock.control.clock.advance(1000);
      await client.guardrails.delete(ruleId);
      env.mock.control.clock.advance(1000);
      await client.workspaces.delete(workspace?.id as string);
      const { events } = await client.eventCenter.query({
        size: 5,
        query: { filters: [{ key: 'eventType', values: ['mutation'] }] },
      });
      expect(events.map((e) => `${e.asset_type}:${e.event.mutation_type}`)).toEqual([
        'iacm_workspace:delete',
        'iacm_guardrail_rule:delete',
        'iacm_guardrail_rule:update',
        'iacm_guardrail_rule:create',
        'iacm_workspace:update',
      ]);
      expect(events[0]?.event_timestamp).toBe('2026-03-01T10:00:04.000Z');
      expect(events[4]?.event_timestamp).toBe('2026-03-01T10:00:00.000Z');
    } finally {
      env.mock.control.clock.resume();
    }
  });
});
