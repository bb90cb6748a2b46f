/**
 * Many steps due at once are applied in slices that give the event loop a turn (issue 34, findings 13
 * and 4): a scenario's 5,000 steps at `+0ms`, and a clock jump over 1,000 timed runs. Checked by
 * order, never by time: a timer set before the request fires before its work is done, another
 * session's request is answered meanwhile, and a request to the same mock waits for the work, so that
 * it sees every step due when it arrived. A synchronous in-process read applies what is still due in
 * one go.
 */
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import type { Scenario } from '../../src/domain/scenario.js';

const SCENE: Scenario['scene'] = {
  seed: 3,
  accounts: [{ name: 'Acme', workspaces: [{ name: 'payments-prod', runs: [] }] }],
};

/** 5,000 label steps, all due at the start. */
const AT_ONCE = Array.from({ length: 5_000 }, (_, i) => ({
  at: 0,
  labels: { workspace: 'payments-prod', labels: [`l${i}`] },
}));

const json = { 'content-type': 'application/json' };

/** A request to `core`, in session `session` when given. */
function send(core: MockCore, method: string, path: string, body?: unknown, session?: string) {
  const headers = session ? { ...json, 'x-iacm-mock-session': session } : json;
  return core.handle({ method, path, headers, body });
}

/** A timer set now (a macrotask): when it fires, `then` runs. */
function onTimer(then: () => void): void {
  setTimeout(then, 0);
}

describe('work due at once is applied in slices', () => {
  it('plays 5,000 steps at +0ms while another session is answered, and a request to the same session sees none or all of them (finding 13)', async () => {
    const core = new MockCore({ sizes: { workspaces: 3, events: 0 }, sessions: { max: 4 } });
    const playing = await core.control.createSession({ scene: SCENE });
    const other = await core.control.createSession({ scene: SCENE });
    const order: string[] = [];
    // A request to the playing session at every turn of the event loop until the play answers: each
    // sees the scenario not yet loaded (its steps being checked) or every step applied, never part.
    const seen: Array<Promise<{ status: number; body: unknown }>> = [];
    let answered = false;
    const probe = () => {
      seen.push(send(core, 'GET', '/__mock/scenario', undefined, playing.id));
      if (!answered) setImmediate(probe);
    };
    onTimer(() => {
      order.push('timer');
      void send(core, 'GET', '/__mock/clock', undefined, other.id).then((res) => {
        expect(res.status).toBe(200);
        order.push('other session answered');
      });
      probe();
    });
    const played = await send(
      core,
      'POST',
      '/__mock/scenario',
      { scene: SCENE, timeline: AT_ONCE },
      playing.id,
    );
    answered = true;
    order.push('play answered');
    expect(played.status, JSON.stringify(played.body)).toBe(200);
    expect(played.body).toMatchObject({ status: 'playing', steps: 5_000 });
    // The timer and the other session went between two slices of the play.
    expect(order).toEqual(['timer', 'other session answered', 'play answered']);
    seen.push(send(core, 'GET', '/__mock/scenario', undefined, playing.id));
    const progress = await Promise.all(seen);
    expect(progress.length).toBeGreaterThan(2);
    for (const res of progress) {
      expect(res.status).toBe(200);
      const body = res.body as { status: string };
      if (body.status !== 'none')
        expect(body).toMatchObject({ status: 'finished', applied: 5_000, pending: 0, skippedCount: 0 });
    }
    // The last, sent once the play answered, saw every step applied.
    expect(progress.at(-1)?.body).toMatchObject({ status: 'finished', applied: 5_000 });
  });

  it('settles a clock jump over 1,000 timed runs in slices; the next request sees every run finished (finding 4)', async () => {
    const now = Date.UTC(2026, 0, 1);
    const core = new MockCore({ clock: () => now, sizes: { workspaces: 3, events: 0, runsPerWorkspace: 1 } });
    const workspace = (await core.control.getState()).accounts[0]?.workspaces[0];
    if (!workspace) throw new Error('no workspace');
    const ids = new Set<string>();
    for (let i = 0; i < 1_000; i++) {
      const answer = core.control.simulateRun(workspace.id, {
        apply: true,
        timing: { startAfterMs: i, planningMs: 1_000, applyingMs: 1_000 },
      });
      ids.add((answer as { runId: string }).runId);
    }
    const order: string[] = [];
    onTimer(() => order.push('timer'));
    const moved = await send(core, 'POST', '/__mock/clock', { advanceMs: 7_200_000 });
    expect(moved.status).toBe(200);
    order.push('clock answered');
    const state = await send(core, 'GET', '/__mock/state');
    order.push('state answered');
    // The move answered at once; its steps went on in slices, the timer between two of them; the
    // next request waited for them.
    expect(order).toEqual(['clock answered', 'timer', 'state answered']);
    const runs = (
      state.body as { accounts: Array<{ runs: Array<{ id: string; status: string }> }> }
    ).accounts[0]?.runs.filter((r) => ids.has(r.id));
    expect(runs).toHaveLength(1_000);
    expect(new Set(runs?.map((r) => r.status))).toEqual(new Set(['apply_no_changes']));
  });

  it('applies what is still due in one go for a synchronous in-process read after a move', () => {
    const now = Date.UTC(2026, 0, 1);
    const core = new MockCore({ clock: () => now, sizes: { workspaces: 3, events: 0, runsPerWorkspace: 1 } });
    const workspace = core.store.toState().accounts[0]?.workspaces[0];
    if (!workspace) throw new Error('no workspace');
    const ids = new Set<string>();
    for (let i = 0; i < 1_000; i++) {
      const answer = core.control.simulateRun(workspace.id, {
        timing: { startAfterMs: i, planningMs: 1_000 },
      });
      ids.add((answer as { runId: string }).runId);
    }
    core.control.clock.advance(3_600_000);
    // No turn of the event loop in between: the read applies the rest itself.
    const timed = core.store.toState().accounts[0]?.runs.filter((r) => ids.has(r.id));
    expect(timed).toHaveLength(1_000);
    expect(new Set(timed?.map((r) => r.status))).toEqual(new Set(['plan_no_changes']));
  });
});
