/**
 * `control.waitForRun(workspaceId, { status, runId, timeout })` (issue 35, deliverable 4): a wait that
 * resolves when a run of the workspace takes a status, a timed run's as the mock's clock reaches its
 * steps. In process and over HTTP (`POST /__mock/runs/wait`), bounded with the other waits, rejected on
 * reset; with `runId`, a run that ends in another status rejects at once. No test here depends on wall
 * time: the clock is the mock's, moved by the test; timeouts are 0 (look once) or met by a cancel.
 */
import { describe, expect, it } from 'vitest';
import { WAIT_LIMITS } from '../../src/pipeline/waiters.js';
import { expectError, rejection, setup } from '../helpers.js';

type Setup = Awaited<ReturnType<typeof setup>>;

/** The id of the first workspace of the primary account. */
async function aWorkspaceId(t: Setup): Promise<string> {
  const res = await t.call('POST', '/v2/workspaces/search', { body: {}, query: { pageSize: '1' } });
  const [first] = res.body as { id: string }[];
  if (!first) throw new Error('expected a workspace');
  return first.id;
}

const timing = { startAfterMs: 1_000, planningMs: 60_000, applyingMs: 120_000 };

/** Lets every queued task run (no timer): a wait that can answer has answered by then. */
const drained = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('control.waitForRun', () => {
  it("resolves as a timed run takes each status, the run as it was then, when the test moves the mock's clock", async () => {
    const t = await setup({ sizes: { workspaces: 3 } });
    const id = await aWorkspaceId(t);
    const scheduled = t.core.control.simulateRun(id, { apply: true, timing });
    const planning = t.core.control.waitForRun(id, { status: 'planning', timeout: 60_000 });
    const applied = t.core.control.waitForRun(id, {
      status: ['apply_success', 'apply_no_changes', 'apply_error'],
      runId: scheduled.runId,
      timeout: 60_000,
    });
    let done = false;
    void applied.then(() => {
      done = true;
    });
    t.advance(1_000);
    // A request settles the steps due (as any request or control call does).
    await t.call('GET', '/__mock/clock');
    const first = await planning;
    expect(first).toMatchObject({ id: scheduled.runId, status: 'planning' });
    await drained();
    expect(done).toBe(false);
    // One move past both remaining steps: the wait for the end sees the run as it ended.
    t.advance(180_000);
    await t.call('GET', '/__mock/clock');
    const last = await applied;
    // (A plan without changes applies nothing.)
    expect(last).toMatchObject({ id: scheduled.runId, status: 'apply_no_changes' });
    // Already there: answered at once, even with timeout 0.
    await expect(
      t.core.control.waitForRun(id, { status: 'apply_no_changes', timeout: 0 }),
    ).resolves.toMatchObject({
      id: scheduled.runId,
    });
  });

  it('sees the status a run took between two steps of one clock move (applying, then apply_success)', async () => {
    const t = await setup({ sizes: { workspaces: 3 } });
    const id = await aWorkspaceId(t);
    t.core.control.simulateRun(id, { apply: true, timing });
    const applying = t.core.control.waitForRun(id, { status: 'applying', timeout: 60_000 });
    t.core.control.clock.advance(500_000);
    expect(await applying).toMatchObject({ status: 'applying' });
  });

  it('rejects at once when the run it waits for ends in another status (409 naming both)', async () => {
    const t = await setup({ sizes: { workspaces: 3 } });
    const id = await aWorkspaceId(t);
    const scheduled = t.core.control.simulateRun(id, { apply: true, failPlan: true, timing });
    const waiting = t.core.control.waitForRun(id, {
      status: 'apply_success',
      runId: scheduled.runId,
      timeout: 60_000,
    });
    t.core.control.clock.advance(100_000);
    const error = await rejection(waiting);
    expect(error.status).toBe(409);
    expect(error.message).toContain(
      `run ${scheduled.runId} ended as 'plan_error', so it will not take 'apply_success'`,
    );
  });

  it("times out with a 408 listing the statuses taken and the mock's clock", async () => {
    const t = await setup({ sizes: { workspaces: 3 } });
    const id = await aWorkspaceId(t);
    const { run } = t.core.control.simulateRun(id, { apply: false });
    const error = await rejection(t.core.control.waitForRun(id, { status: 'apply_success', timeout: 0 }));
    expect(error.status).toBe(408);
    expect(error.message).toContain(`waitForRun('${id}', { status: 'apply_success' }): no match within 0 ms`);
    expect(error.message).toContain(`run ${run.id} was ${run.status}`);
    expect(error.message).toContain("the mock's clock reads 2026-01-15T12:00:00.000Z");
  });

  it('checks its inputs: a 400 naming the field, a 404 for an unknown workspace', async () => {
    const t = await setup({ sizes: { workspaces: 3 } });
    const id = await aWorkspaceId(t);
    const bad = await rejection(t.core.control.waitForRun(id, { status: 'done' as never }));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('body.status');
    const missing = await rejection(t.core.control.waitForRun('0'.repeat(24), { status: 'planning' }));
    expect(missing.status).toBe(404);
    const long = await rejection(t.core.control.waitForRun(id, { status: 'planning', timeout: 600_001 }));
    expect(long.status).toBe(400);
  });

  it('is one of the waits: bounded with them, cancelled by cancelWaits() and reset()', async () => {
    const t = await setup({ sizes: { workspaces: 3 } });
    const id = await aWorkspaceId(t);
    const pending = Array.from({ length: WAIT_LIMITS.maxWaiters }, () =>
      rejection(t.core.control.waitForRun(id, { status: 'applying', timeout: 60_000 })),
    );
    const over = await rejection(t.core.control.waitForRun(id, { status: 'applying', timeout: 60_000 }));
    expect(over.status).toBe(409);
    expect(t.core.control.cancelWaits('the test ended')).toBe(WAIT_LIMITS.maxWaiters);
    for (const error of await Promise.all(pending)) expect(error.status).toBe(409);
    const again = rejection(t.core.control.waitForRun(id, { status: 'applying', timeout: 60_000 }));
    await t.core.control.reset();
    expect((await again).message).toContain('the mock was reset');
  });

  it('works over HTTP: POST /__mock/runs/wait, the same answers and errors', async () => {
    const t = await setup({ sizes: { workspaces: 3 } });
    const id = await aWorkspaceId(t);
    const scheduled = await t.call('POST', `/__mock/workspaces/${id}/runs`, {
      body: { apply: true, timing },
    });
    expect(scheduled.status).toBe(202);
    const { runId } = scheduled.body as { runId: string };
    const answer = t.call('POST', '/__mock/runs/wait', {
      body: { workspaceId: id, status: 'apply_no_changes', runId, timeout: 30_000 },
    });
    await t.call('POST', '/__mock/clock', { body: { advanceMs: 200_000 } });
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: runId, status: 'apply_no_changes' });
    expectError(
      await t.call('POST', '/__mock/runs/wait', {
        body: { workspaceId: id, status: 'planning', timeout: 30_001 },
      }),
      400,
      'validation_failed',
    );
  });
});
