/**
 * Runs that live in time (`simulateRun` with `timing`): each status at its clock time through the API,
 * each step's events and notifications at the step's instant, guardrails as they are at the plan's
 * end, reset, the bound, bad timing values, a workspace deleted in flight. Only the mock's clock moves
 * (no wall time).
 */
import type { Event, WorkspaceRun, WorkspaceSummary } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import type { SimulatedRunInput } from '../../src/domain/simulate.js';
import { TIMED_RUN_LIMITS, type TimedRunAnswer } from '../../src/domain/timed-runs.js';
import { type Call, expectError, loginToken, refusal } from '../helpers.js';

const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** A mock on a stopped clock at T0, with no guardrail rules, logged in as the primary account. */
async function timedMock() {
  const core = new MockCore({ sizes: { accounts: 2, workspaces: 4, runsPerWorkspace: 1, rules: 0 } });
  core.clock.set(T0);
  const token = await loginToken(core);
  const call = (method: string, path: string, init: Call = {}) =>
    core.handle({
      method,
      path,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
  const account = core.accounts()[0];
  const workspace = [...(core.store.accounts.get(account?.id ?? '')?.workspaces.values() ?? [])][0];
  if (!account || !workspace) throw new Error('expected a workspace in the primary account');
  const runs = async (): Promise<WorkspaceRun[]> => {
    const res = await call('POST', `/v2/workspaces/${workspace.id}/runs/search`, { body: {} });
    expect(res.status).toBe(200);
    return res.body as WorkspaceRun[];
  };
  const workspaceNow = async (): Promise<WorkspaceSummary> => {
    const res = await call('POST', '/v2/workspaces/search', {
      body: { searchValue: workspace.workspaceName },
    });
    expect(res.status).toBe(200);
    const found = (res.body as WorkspaceSummary[]).find((w) => w.id === workspace.id);
    if (!found) throw new Error('workspace not found');
    return found;
  };
  const statusChanges = (runId: string) =>
    [...(core.store.accounts.get(account.id)?.events.values() ?? [])]
      .filter((e: Event) => e.event_type === 'iac_status_change' && e.asset_id === runId)
      .sort((a, b) => a.event_timestamp.localeCompare(b.event_timestamp))
      .map((e) => {
        const attr = Object.fromEntries(e.event.attributes.map((a) => [a.key, a.value]));
        return { at: e.event_timestamp, from: attr.from, to: attr.to };
      });
  return { core, call, account, workspace, runs, workspaceNow, statusChanges };
}

const growingPlan: Pick<SimulatedRunInput, 'changes'> = {
  changes: [
    {
      address: 'aws_nat_gateway.main',
      assetType: 'aws_nat_gateway',
      region: 'us-east-1',
      actions: ['create'],
      monthlyCost: { before: 0, after: 40 },
    },
  ],
};

describe('simulateRun with timing', () => {
  it('shows each status at its clock time through the API, with the workspace and the events following', async () => {
    const m = await timedMock();
    const before = await m.workspaceNow();
    const res = await m.call('POST', `/__mock/workspaces/${m.workspace.id}/runs`, {
      body: {
        ...growingPlan,
        apply: true,
        timing: { startAfterMs: MINUTE, planningMs: 5 * MINUTE, applyingMs: 10 * MINUTE },
      },
    });
    expect(res.status).toBe(202);
    const answer = res.body as TimedRunAnswer;
    const [startsAt, planEndsAt, applyEndsAt] = [T0 + MINUTE, T0 + 6 * MINUTE, T0 + 16 * MINUTE];
    expect(answer).toEqual({
      runId: expect.stringMatching(/^[0-9a-f]{24}$/),
      workspaceId: m.workspace.id,
      accountId: m.account.id,
      schedule: { startsAt: iso(startsAt), planEndsAt: iso(planEndsAt), applyEndsAt: iso(applyEndsAt) },
      run: null,
    });
    const runOf = async () => (await m.runs()).find((r) => r.id === answer.runId);

    // Before startAfter: no run, the workspace as it was.
    m.core.clock.advance(MINUTE - 1);
    expect(await runOf()).toBeUndefined();
    expect((await m.workspaceNow()).runsCount).toBe(before.runsCount);

    // Started: planning, the plan task running.
    m.core.clock.advance(1);
    const planning = await runOf();
    expect(planning).toMatchObject({
      status: 'planning',
      createdAt: iso(startsAt),
      updatedAt: iso(startsAt),
    });
    expect(planning?.plan[0]).toMatchObject({ status: 'running', resultStatus: 'pending' });
    expect(planning?.apply).toEqual([]);
    expect(await m.workspaceNow()).toMatchObject({
      lastRunStatus: { description: 'planning' },
      lastRunTime: iso(startsAt),
      runsCount: before.runsCount + 1,
    });

    // The plan ended (no rule): applying, the plan task done, an apply task running.
    m.core.clock.set(planEndsAt);
    const applying = await runOf();
    expect(applying).toMatchObject({
      status: 'applying',
      createdAt: iso(startsAt),
      updatedAt: iso(planEndsAt),
    });
    expect(applying?.plan[0]).toMatchObject({
      status: 'completed',
      resultStatus: 'success',
      createdAt: iso(startsAt),
      updatedAt: iso(planEndsAt),
    });
    expect(applying?.apply[0]).toMatchObject({ status: 'running', resultStatus: 'pending' });
    expect(await m.workspaceNow()).toMatchObject({
      lastRunStatus: { description: 'applying' },
      lastPlanTime: iso(planEndsAt),
    });

    // The apply ended.
    m.core.clock.advance(10 * MINUTE);
    const done = await runOf();
    expect(done).toMatchObject({ status: 'apply_success', updatedAt: iso(applyEndsAt) });
    expect(done?.apply[0]).toMatchObject({
      status: 'completed',
      resultStatus: 'success',
      createdAt: iso(planEndsAt),
      updatedAt: iso(applyEndsAt),
    });
    expect(await m.workspaceNow()).toMatchObject({
      lastRunStatus: { description: 'apply_success' },
      lastApplyTime: iso(applyEndsAt),
    });
    expect(m.statusChanges(answer.runId)).toEqual([
      { at: iso(startsAt), from: before.lastRunStatus?.description ?? 'none', to: 'planning' },
      { at: iso(planEndsAt), from: 'planning', to: 'applying' },
      { at: iso(applyEndsAt), from: 'applying', to: 'apply_success' },
    ]);
  });

  it('stamps each step with its own instant when one clock move passes them all', async () => {
    const m = await timedMock();
    const answer = m.core.control.simulateRun(m.workspace.id, {
      apply: true,
      failApply: true,
      timing: { startAfterMs: SECOND, planningMs: 2 * SECOND, applyingMs: 3 * SECOND },
    });
    m.core.clock.advance(MINUTE);
    expect(m.statusChanges(answer.runId).map((c) => [c.at, c.to])).toEqual([
      [iso(T0 + SECOND), 'planning'],
      [iso(T0 + 3 * SECOND), 'applying'],
      [iso(T0 + 6 * SECOND), 'apply_error'],
    ]);
    const run = (await m.runs()).find((r) => r.id === answer.runId);
    expect(run).toMatchObject({
      status: 'apply_error',
      createdAt: iso(T0 + SECOND),
      updatedAt: iso(T0 + 6 * SECOND),
    });
    expect(run?.apply[0]).toMatchObject({ status: 'failed', resultStatus: 'failure' });
  });

  it('evaluates the rules as they are at the plan end: a strict rule created after scheduling blocks, its violation queued then', async () => {
    const m = await timedMock();
    const answer = m.core.control.simulateRun(m.workspace.id, {
      ...growingPlan,
      apply: true,
      timing: { startAfterMs: 0, planningMs: 5 * MINUTE, applyingMs: MINUTE },
    });
    expect(answer.run).toMatchObject({ id: answer.runId, status: 'planning' });

    m.core.clock.advance(2 * MINUTE);
    const created = await m.call('POST', '/v2/guardrails', {
      body: {
        createdBy: 'aaaaaaaaaaaaaaaaaaaaaaaa',
        name: 'No cost rise',
        type: 'cost',
        severity: 2,
        scope: {
          workspaces: { include: [], exclude: [] },
          repositories: { include: [], exclude: [] },
          branches: { include: [], exclude: [] },
          labels: { include: [], exclude: [] },
        },
        criteria: { cost: { thresholdAmount: 0 } },
      },
    });
    expect(created.status).toBe(200);
    const { ruleId } = created.body as { ruleId: string };
    expect(m.core.outbox(m.account.id)).toEqual([]);

    m.core.clock.advance(3 * MINUTE);
    const planEndsAt = iso(T0 + 5 * MINUTE);
    const run = (await m.runs()).find((r) => r.id === answer.runId);
    expect(run).toMatchObject({ status: 'blocked', apply: [] });
    expect(run?.plan[0]?.resultStatus).toBe('blocked');
    expect(run?.plan[0]?.guardrailsSummary?.violations).toEqual([
      expect.objectContaining({ id: ruleId, severity: 'strict' }),
    ]);
    expect(m.core.control.outbox(m.account.id)).toEqual([
      expect.objectContaining({
        createdAt: planEndsAt,
        source: expect.objectContaining({ kind: 'guardrail_violation', ruleId, runId: answer.runId }),
      }),
    ]);
    const violations = [...(m.core.store.accounts.get(m.account.id)?.events.values() ?? [])].filter(
      (e) => e.event_type === 'guardrails_violation' && e.asset_id === answer.runId,
    );
    expect(violations.map((e) => e.event_timestamp)).toEqual([planEndsAt]);
    expect(m.statusChanges(answer.runId).at(-1)).toEqual({ at: planEndsAt, from: 'planning', to: 'blocked' });

    // Blocked: no apply step follows.
    m.core.clock.advance(10 * MINUTE);
    expect((await m.runs()).find((r) => r.id === answer.runId)?.status).toBe('blocked');
    expect((await m.workspaceNow()).lastRunStatus?.description).toBe('blocked');
  });

  it('ends a plan in plan_error with failPlan and in plan_no_changes without changes, never applying', async () => {
    const m = await timedMock();
    {
      const failed = m.core.control.simulateRun(m.workspace.id, {
        apply: true,
        failPlan: true,
        timing: { planningMs: MINUTE },
      });
      expect(failed.schedule.applyEndsAt).toBe(iso(T0 + MINUTE));
      const quiet = m.core.control.simulateRun(m.workspace.id, { timing: { planningMs: MINUTE } });
      expect(quiet.schedule.applyEndsAt).toBeNull();
      m.core.clock.advance(MINUTE);
      const runs = await m.runs();
      expect(runs.find((r) => r.id === failed.runId)).toMatchObject({ status: 'plan_error', apply: [] });
      expect(runs.find((r) => r.id === quiet.runId)).toMatchObject({ status: 'plan_no_changes' });
    }
  });

  it('finishes at once with zero durations, in the 202 answer', async () => {
    const m = await timedMock();
    {
      const answer = m.core.control.simulateRun(m.workspace.id, { ...growingPlan, apply: true, timing: {} });
      expect(answer.run).toMatchObject({ id: answer.runId, status: 'apply_success' });
      expect(m.statusChanges(answer.runId).map((c) => c.to)).toEqual([
        'planning',
        'applying',
        'apply_success',
      ]);
    }
  });

  it('without timing, answers 201 with the finished run and its evaluation, as before', async () => {
    const m = await timedMock();
    const res = await m.call('POST', `/__mock/workspaces/${m.workspace.id}/runs`, { body: { apply: true } });
    expect(res.status).toBe(201);
    const { run, evaluation } = res.body as { run: WorkspaceRun; evaluation: unknown };
    expect(run.status).toBe('apply_no_changes');
    expect(run.createdAt).toBe(iso(T0));
    expect(evaluation).toMatchObject({ blocked: false });
  });

  it('drops the pending steps on reset (the data part), and those of a deleted workspace quietly', async () => {
    const m = await timedMock();
    const timing = { startAfterMs: MINUTE, planningMs: MINUTE };
    const first = m.core.control.simulateRun(m.workspace.id, { timing });
    await m.core.control.reset();
    m.core.clock.set(T0 + 10 * MINUTE);
    expect((await m.runs()).some((r) => r.id === first.runId)).toBe(false);

    // Started, then its workspace deleted before the plan's end: nothing more happens, no 500.
    const second = m.core.control.simulateRun(m.workspace.id, { timing: { planningMs: MINUTE } });
    expect(second.run?.status).toBe('planning');
    const deleted = await m.call('DELETE', `/v2/workspaces/${m.workspace.id}`);
    expect(deleted.status).toBe(200);
    m.core.clock.advance(MINUTE);
    const after = await m.call('POST', `/v2/workspaces/${m.workspace.id}/runs/search`, { body: {} });
    expect(after.status).toBe(404);
    expect(m.statusChanges(second.runId).map((c) => c.to)).toEqual(['planning']);
    expect((await m.call('GET', '/__mock/state')).status).toBe(200);
  });

  it(`refuses a timed run past ${TIMED_RUN_LIMITS.maxInFlight} in flight with a 409 naming the bound`, async () => {
    const m = await timedMock();
    for (let i = 0; i < TIMED_RUN_LIMITS.maxInFlight; i++) {
      m.core.control.simulateRun(m.workspace.id, { timing: { startAfterMs: MINUTE } });
    }
    const res = await m.call('POST', `/__mock/workspaces/${m.workspace.id}/runs`, {
      body: { timing: { startAfterMs: MINUTE } },
    });
    const error = expectError(res, 409, 'conflict');
    expect(error.message).toContain(`${TIMED_RUN_LIMITS.maxInFlight} timed runs are in flight already`);
    // An immediate run is not bounded by it; once the clock passes, room again.
    expect(m.core.control.simulateRun(m.workspace.id, {}).run.status).toBe('plan_no_changes');
    m.core.clock.advance(MINUTE);
    expect(m.core.control.simulateRun(m.workspace.id, { timing: {} }).run?.status).toBe('plan_no_changes');
  });

  it('refuses bad timing values with a 400 naming the path, over HTTP and in process', async () => {
    const m = await timedMock();
    const send = async (timing: unknown) => {
      const res = await m.call('POST', `/__mock/workspaces/${m.workspace.id}/runs`, { body: { timing } });
      return expectError(res, 400, 'validation_failed').message;
    };
    expect(await send({ planningMs: -1 })).toContain(
      'body.timing.planningMs: expected an integer from 0 to 604800000 (milliseconds)',
    );
    expect(await send({ startAfterMs: 604_800_001 })).toContain(
      'body.timing.startAfterMs: expected an integer',
    );
    expect(await send({ applyingMs: 1.5 })).toContain('body.timing.applyingMs: expected an integer');
    expect(await send({ applyingMs: '5' })).toContain('body.timing.applyingMs');
    expect(await send({ planningFor: 5 })).toContain('timing');
    expect(await send(5)).toContain('body.timing');
    const error = refusal(() =>
      m.core.control.simulateRun(m.workspace.id, { timing: { planningMs: Number.NaN } }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('body.timing.planningMs');
    // Steps past the clock's last instant.
    m.core.clock.set('9999-12-31T23:00:00.000Z');
    expect(await send({ startAfterMs: 604_800_000 })).toContain('body.timing: expected steps that end by');
  });
});
