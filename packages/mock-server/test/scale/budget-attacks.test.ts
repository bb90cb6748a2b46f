/**
 * The memory budget under attack, at the default options, in a child with a 256 MB heap (issue 34):
 * the default budget is half the heap limit, every store charges what it keeps, and past the budget
 * a write is a 409 `budget_exceeded` (or, for the event log, the oldest go). Each attack ran the mock
 * out of memory, or grew its heap past what the budget allows, before the budget: the label flood
 * (finding 3), pending timed runs with large plans (finding 11) and the sessions' one-off answers
 * together (finding 9), control-made runs (finding 12) and a session's rules (finding 10). Measured as
 * the heap after a forced collection, never as time. In `pnpm test:scale` (`.ci/run`), not `pnpm test`:
 * five children of a 256 MB heap take about 10 s of the two cores.
 */
import { describe, expect, it } from 'vitest';
import { runInSmallHeap } from '../hostile/child.js';
import { DEFAULT_MOCK, SLACK } from './default-mock.js';

/** The child's prelude: a mock at the default options, logged in as its primary account's API user. */
const MOCK = DEFAULT_MOCK;

/** What an attack of simulated runs measured: how many were made, the refusal, the budget, the growth. */
interface RunsAttack {
  made: number;
  refusal?: { status: number; code: string; message: string };
  limit: number;
  growth: number;
}

/**
 * The script of an attack that posts simulated runs (`POST /__mock/workspaces/{id}/runs`, the body
 * `body` that `build` defines) until one is not answered `success`, at most 400.
 */
const runsUntilRefused = (build: string, success: number) => `${MOCK}
  const workspaceId = core.store.toState().accounts[0].workspaces[0].id;
  ${build}
  const base = heapAfterGc();
  let made = 0;
  let refusal;
  for (let i = 0; i < 400 && !refusal; i++) {
    const res = await send('POST', '/__mock/workspaces/' + workspaceId + '/runs', body);
    if (res.status === ${success}) made += 1;
    else refusal = { status: res.status, code: res.body.code, message: res.body.message };
  }
  return { made, refusal, limit, growth: heapAfterGc() - base };
`;

describe('the memory budget at the default options, 256 MB heap', () => {
  it('keeps the label flood within the event log’s share: 6,000 updates of 50 labels of 128 characters (finding 3)', {
    timeout: 180_000,
  }, async () => {
    const result = await runInSmallHeap<{
      statuses: number[];
      limit: number;
      events: number;
      charged: number;
      growth: number;
    }>(
      `${MOCK}
      const search = await send('POST', '/v2/workspaces/search', {});
      const path = '/v2/workspaces/' + search.body[0].id + '/labels';
      const statuses = new Set();
      const base = heapAfterGc();
      for (let n = 0; n < 6000; n++) {
        const labels = Array.from({ length: 50 }, (_, k) => (n + '-' + k + '-').padEnd(128, 'L'));
        statuses.add((await send('PUT', path, { labels })).status);
      }
      const growth = heapAfterGc() - base;
      const view = core.control.budget();
      return { statuses: [...statuses], limit, events: view.stores.events, charged: view.used, growth };
    `,
      { heapMb: 256 },
    );
    expect(result.statuses).toEqual([200]);
    // Half the heap limit of a 256 MB heap, and the event log within a quarter of it.
    expect(result.limit).toBeGreaterThan(100 * 1024 * 1024);
    expect(result.limit).toBeLessThan(200 * 1024 * 1024);
    expect(result.events).toBeLessThanOrEqual(result.limit / 4);
    expect(result.growth).toBeLessThan(result.limit / 4 + SLACK);
  });

  it('refuses timed runs past the budget: plans of 10,000 changes each, until a 409 budget_exceeded (finding 11)', {
    timeout: 180_000,
  }, async () => {
    const result = await runInSmallHeap<RunsAttack>(
      runsUntilRefused(
        `const changes = Array.from({ length: 10000 }, (_, i) => ({ address: 'aws_s3_bucket.b' + i, assetType: 'aws_s3_bucket', actions: ['create'] }));
        const body = { timing: { startAfterMs: 3600000, planningMs: 60000 }, changes };`,
        202,
      ),
      { heapMb: 256 },
    );
    expect(result.refusal?.status).toBe(409);
    expect(result.refusal?.code).toBe('budget_exceeded');
    expect(result.refusal?.message).toMatch(/^timedRuns \(the pending timed runs\) would take/);
    expect(result.made).toBeGreaterThan(10);
    expect(result.growth).toBeLessThan(result.limit + SLACK);
  });

  it('bounds the sessions’ one-off answers together: 32 sessions filling theirs, until the mock’s budget refuses (finding 9)', {
    timeout: 180_000,
  }, async () => {
    const result = await runInSmallHeap<{
      created: number;
      kept: number;
      refusals: string[];
      limit: number;
      used: number;
      growth: number;
    }>(
      `${MOCK}
      const answer = { endpoint: 'workspaces.search', body: { extra: 'x'.repeat(900000) }, validate: false };
      const base = heapAfterGc();
      let created = 0;
      let kept = 0;
      const refusals = [];
      for (let s = 0; s < 32; s++) {
        let session;
        try {
          session = await core.control.createSession();
        } catch (error) {
          // Its data finds the mock's budget full: refused too.
          refusals.push(error.code + ': ' + error.message);
          continue;
        }
        created += 1;
        for (let i = 0; i < 200; i++) {
          const res = await send('POST', '/__mock/responses', answer, { 'x-iacm-mock-session': session.id });
          if (res.status !== 201) { refusals.push(res.body.code + ': ' + res.body.message); break; }
          kept += 1;
        }
      }
      const growth = heapAfterGc() - base;
      return { created, kept, refusals: refusals.slice(-2), limit, used: core.control.budget().used, growth };
    `,
      { heapMb: 256 },
    );
    expect(result.created).toBeGreaterThan(4);
    expect(result.kept).toBeGreaterThan(20);
    expect(result.refusals.every((r) => r.startsWith('budget_exceeded: '))).toBe(true);
    expect(result.refusals.at(-1)).toMatch(/past the mock's memory budget of .* \(budget\.bytes\)/);
    expect(result.used).toBeLessThanOrEqual(result.limit);
    expect(result.growth).toBeLessThan(result.limit + SLACK);
  });

  it('refuses control-made runs past the budget: runs of 1,000 changed files with paths of 1,000 characters (finding 12)', {
    timeout: 180_000,
  }, async () => {
    const result = await runInSmallHeap<RunsAttack>(
      runsUntilRefused(
        `const changedFiles = Array.from({ length: 1000 }, (_, i) => ({ path: (i + '/').padEnd(1000, 'p'), type: 'modified' }));
        const body = { changedFiles, apply: true };`,
        201,
      ),
      { heapMb: 256 },
    );
    expect(result.refusal?.status).toBe(409);
    expect(result.refusal?.code).toBe('budget_exceeded');
    expect(result.refusal?.message).toMatch(/^data \(/);
    expect(result.made).toBeGreaterThan(5);
    expect(result.growth).toBeLessThan(result.limit + SLACK);
  });

  it('keeps each session’s rules within its share: three sessions adding rules of about 500 KB (finding 10)', {
    timeout: 180_000,
  }, async () => {
    const result = await runInSmallHeap<{
      created: number[];
      refusals: string[];
      limit: number;
      share: number;
      growth: number;
    }>(
      `${MOCK}
      const tags = Array.from({ length: 900 }, (_, i) => (i + '-').padEnd(250, 't'));
      const rule = (name) => ({
        createdBy: 'b'.repeat(24), name, type: 'tag', severity: 3,
        scope: { workspaces: { include: ['*'], exclude: [] }, repositories: { include: [], exclude: [] }, branches: { include: [], exclude: [] }, labels: { include: [], exclude: [] } },
        criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: tags } },
      });
      const base = heapAfterGc();
      const created = [];
      const refusals = [];
      for (let s = 0; s < 3; s++) {
        const session = await core.control.createSession();
        const extra = { 'x-iacm-mock-session': session.id };
        const keys = session.accounts[0];
        const login = await core.handle({ method: 'POST', path: '/v2/login', headers: extra, body: { accessKey: keys.accessKey, secretKey: keys.secretKey } });
        const auth = { ...extra, authorization: 'Bearer ' + login.body.accessToken };
        let n = 0;
        for (let i = 0; i < 400; i++) {
          const res = await send('POST', '/v2/guardrails', rule('r-' + s + '-' + i), auth);
          if (res.status !== 200) { refusals.push(res.body.code + ': ' + res.body.message); break; }
          n += 1;
        }
        created.push(n);
      }
      const growth = heapAfterGc() - base;
      const view = core.control.budget();
      return { created, refusals, limit, share: core.control.budget().limit / 4, growth };
    `,
      { heapMb: 256 },
    );
    expect(result.refusals).toHaveLength(3);
    for (const refusal of result.refusals) {
      expect(refusal).toMatch(
        /^budget_exceeded: data .* past this session's memory budget .*\(budget\.sessionBytes\)/,
      );
    }
    for (const n of result.created) expect(n).toBeGreaterThan(3);
    expect(result.growth).toBeLessThan(3 * result.share + SLACK);
  });
  it('refuses scenario steps past the budget: sessions playing 2,000 and 1,000 pending steps of 40 plan changes each (the scenario store)', {
    timeout: 180_000,
  }, async () => {
    const result = await runInSmallHeap<{
      statuses: number[];
      refusals: string[];
      byStore: number;
      played: number;
      limit: number;
      used: number;
      growth: number;
    }>(
      `${MOCK}
      const scene = { seed: 5, accounts: [{ name: 'Acme', workspaces: [{ name: 'payments-prod', runs: [] }] }] };
      const changes = Array.from({ length: 40 }, (_, i) => ({ address: ('aws_s3_bucket.b' + i).padEnd(120, 'b'), assetType: 'aws_s3_bucket', actions: ['create'] }));
      const steps = (n) => Array.from({ length: n }, (_, i) => ({ at: 3600000 + i, simulateRun: { workspace: 'payments-prod', changes } }));
      // Twice what a session's share holds, then what it holds.
      const [large, timeline] = [steps(2000), steps(1000)];
      const base = heapAfterGc();
      const statuses = new Set();
      const refusals = [];
      let played = 0;
      for (let s = 0; s < 32; s++) {
        let session;
        try {
          session = await core.control.createSession();
        } catch (error) {
          refusals.push(error.code + ': ' + error.message);
          continue;
        }
        const tooLarge = await send('POST', '/__mock/scenario', { scene, timeline: large }, { 'x-iacm-mock-session': session.id });
        statuses.add(tooLarge.status);
        if (tooLarge.status !== 200) refusals.push(tooLarge.body.code + ': ' + tooLarge.body.message);
        const res = await send('POST', '/__mock/scenario', { scene, timeline }, { 'x-iacm-mock-session': session.id });
        statuses.add(res.status);
        if (res.status === 200) played += 1;
        else refusals.push(res.body.code + ': ' + res.body.message);
      }
      const growth = heapAfterGc() - base;
      const view = core.control.budget();
      const byStore = refusals.filter((r) => r.startsWith('budget_exceeded: scenario (')).length;
      return { statuses: [...statuses], refusals: refusals.slice(-3), byStore, played, limit, used: view.used, growth };
    `,
      { heapMb: 256 },
    );
    expect(result.statuses.every((status) => status === 200 || status === 409)).toBe(true);
    expect(result.played).toBeGreaterThan(1);
    expect(result.refusals.length).toBeGreaterThan(0);
    expect(result.refusals.every((r) => r.startsWith('budget_exceeded: '))).toBe(true);
    // Each session's large scenario is refused at its share, naming the store; the mock's budget bounds them all.
    expect(result.byStore).toBeGreaterThanOrEqual(result.played);
    expect(result.used).toBeLessThanOrEqual(result.limit);
    expect(result.growth).toBeLessThan(result.limit + SLACK);
  });
});
