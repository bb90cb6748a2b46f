/**
 * Scenes: what a scene names is exactly there, derived records agree with its names, what it leaves
 * out is generated from its seed, and reset returns to the scene the mock started with.
 */
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { generateSceneState } from '../../src/store/seed/index.js';
import { checkScene, type Scene, scene } from '../../src/store/seed/scene.js';
import { loginToken } from '../helpers.js';

const DRIFT_SCENE: Scene = scene.define({
  seed: 7,
  accounts: [
    scene.account({
      name: 'Acme Payments',
      workspaces: [
        scene.workspace({
          name: 'payments-prod',
          repo: 'acme/payments',
          vcsType: 'gitlab',
          runnerType: 'gitlab-pipelines',
          labels: ['prod', 'pci'],
          guardrails: ['no public buckets'],
          runs: [
            scene.run({ status: 'apply_success', branch: 'main' }),
            scene.run({ status: 'blocked', title: 'Open the bucket' }),
          ],
        }),
        scene.workspace({ name: 'payments-dev', repo: 'acme/payments', runs: [] }),
        scene.workspace({}),
      ],
      rules: [
        scene.rule({ name: 'no public buckets', type: 'resource', severity: 2 }),
        scene.rule({ name: 'tag owners', type: 'tag', severity: 1, isEnabled: false }),
      ],
      stacks: [scene.stack({ workspace: 'payments-prod', findings: { drifts: 2, unmanaged: 1 } })],
      events: [
        scene.event({ event_type: 'iac_status_change', asset_type: 'aws_s3_bucket' }),
        scene.event({}),
      ],
      webhooks: [scene.webhook({ nickname: 'drift-bot', url: 'https://hooks.example.com/drift' })],
    }),
  ],
});

async function loggedIn(core: MockCore) {
  const token = await loginToken(core);
  return (path: string, body: unknown = {}) =>
    core.handle({
      method: 'POST',
      path,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
}

describe('a scene', async () => {
  const core = new MockCore({ scene: DRIFT_SCENE });
  const [account] = (await core.control.getState()).accounts;
  if (!account) throw new Error('no account');

  it('holds exactly the accounts and workspaces it names, in its order', () => {
    expect(core.accounts().map((a) => a.name)).toEqual(['Acme Payments']);
    const names = account.workspaces.map((w) => w.workspaceName);
    expect(names.slice(0, 2)).toEqual(['payments-prod', 'payments-dev']);
    expect(names).toHaveLength(3);
    expect(new Set(names).size).toBe(3);
  });

  it('keeps to the members it gives, and derives the rest to agree', () => {
    const prod = account.workspaces[0];
    expect(prod).toMatchObject({
      repo: 'acme/payments',
      repoUrl: 'https://gitlab.com/acme/payments',
      vcsType: 'gitlab',
      runnerType: 'gitlab-pipelines',
      labels: ['prod', 'pci'],
      runsCount: 2,
      lastRunStatus: { description: 'blocked' },
    });
    const rule = account.rules.find((r) => r.name === 'no public buckets');
    expect(prod?.guardrails).toEqual([rule?.id]);
    expect(account.workspaces[1]).toMatchObject({ repo: 'acme/payments', runsCount: 0 });
    expect(account.workspaces[1]?.lastRunStatus).toBeUndefined();
  });

  it('gives a workspace exactly its runs, oldest first, with the statuses, branches and titles it names', () => {
    const runs = account.runs.filter((r) => r.workspaceName === 'payments-prod');
    expect(runs.map((r) => r.status)).toEqual(['apply_success', 'blocked']);
    expect(runs[0]?.branch).toBe('main');
    expect(runs[1]?.title).toBe('Open the bucket');
    expect(runs[0]?.apply.length).toBe(1);
    expect(runs[1]?.apply.length).toBe(0);
    expect(runs.every((r) => r.repo === 'acme/payments' && r.vcsType === 'gitlab')).toBe(true);
  });

  it('names its stacks after their workspaces, with the findings counted and the status they mean', () => {
    expect(account.stacks).toHaveLength(1);
    expect(account.stacks[0]).toMatchObject({
      name: 'payments-prod',
      status: 'contains_drifts',
      findings: { drifts: 2, ghosts: 0, unmanaged: 1, insights: 0 },
      metadata: { vcsRepo: 'acme/payments' },
    });
  });

  it('lists the repositories its workspaces use, and no other', () => {
    const repos = account.repositories.map((r) => r.repoFullName).sort();
    const used = [...new Set(account.workspaces.map((w) => w.repo))].sort();
    expect(repos).toEqual(used);
  });

  it('holds exactly its rules and events, with the members it gives', () => {
    expect(account.rules.map((r) => [r.name, r.type, r.severity, r.isEnabled])).toEqual([
      ['no public buckets', 'resource', 2, true],
      ['tag owners', 'tag', 1, false],
    ]);
    expect(account.events).toHaveLength(2);
    expect(account.events[0]).toMatchObject({ event_type: 'iac_status_change', asset_type: 'aws_s3_bucket' });
  });

  it('has its webhook integrations from the start, with no test delivery', () => {
    expect(core.webhooks.list().map((w) => [w.nickname, w.accountId])).toEqual([
      ['drift-bot', account.account.id],
    ]);
    expect(core.webhooks.attempts()).toEqual([]);
  });

  it('answers the API as it says: search finds its workspaces, the explorer its stacks', async () => {
    const post = await loggedIn(core);
    const search = await post('/v2/workspaces/search', { searchValue: 'payments' });
    expect(search.status).toBe(200);
    expect(JSON.stringify(search.body)).toContain('payments-prod');
    const stacks = await post('/api/iacStacks', {});
    expect(stacks.status).toBe(200);
    expect(JSON.stringify(stacks.body)).toContain('contains_drifts');
  });

  it('is the same state each time (deterministic), and another seed changes only what it left out', () => {
    const again = generateSceneState(checkScene(DRIFT_SCENE));
    const first = generateSceneState(checkScene(DRIFT_SCENE));
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    const other = generateSceneState(checkScene({ ...DRIFT_SCENE, seed: 8 }));
    expect(other.accounts[0]?.workspaces.slice(0, 2).map((w) => w.workspaceName)).toEqual([
      'payments-prod',
      'payments-dev',
    ]);
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(first));
  });

  it('moves a generated name aside when the scene gives it to another workspace or rule', () => {
    const generated = generateSceneState(
      checkScene({ accounts: [{ workspaces: [{}, {}], rules: [{}, {}] }] }),
    );
    const [first] = generated.accounts[0]?.workspaces ?? [];
    const [rule] = generated.accounts[0]?.rules ?? [];
    const state = generateSceneState(
      checkScene({
        accounts: [{ workspaces: [{}, { name: first?.workspaceName }], rules: [{}, { name: rule?.name }] }],
      }),
    );
    const names = state.accounts[0]?.workspaces.map((w) => w.workspaceName) ?? [];
    expect(names[1]).toBe(first?.workspaceName);
    expect(names[0]).toBe(`${first?.workspaceName}-2`);
    const rules = state.accounts[0]?.rules.map((r) => r.name) ?? [];
    expect(rules[1]).toBe(rule?.name);
    expect(new Set(rules).size).toBe(2);
  });

  it('draws a rule of the type it names, with criteria of that type', () => {
    const state = generateSceneState(
      checkScene({ accounts: [{ rules: [{ type: 'cost' }, { type: 'cost' }] }] }),
    );
    for (const rule of state.accounts[0]?.rules ?? []) {
      expect(rule.type).toBe('cost');
      expect(Object.keys(rule.criteria)).toEqual(['cost']);
    }
  });

  it('holds exactly its modules, in the repositories it names, which count them', () => {
    const state = generateSceneState(
      checkScene({
        accounts: [
          {
            workspaces: [
              { name: 'net', repo: 'acme/network' },
              { name: 'app', repo: 'acme/app' },
            ],
            modules: [
              scene.module({ name: 'vpc', repo: 'acme/network', origin: 'registry' }),
              scene.module({ name: 'service', repo: 'acme/app', origin: 'git', version: '2.1.0' }),
              scene.module({ name: 'dns' }),
            ],
          },
        ],
      }),
    );
    const [account] = state.accounts;
    const modules = account?.modules.map((m) => [
      m.repoFullName,
      m.moduleFolderPath,
      m.moduleOriginType,
      m.version,
    ]);
    expect(modules?.slice(0, 2)).toEqual([
      ['acme/network', 'modules/vpc', 'registry', '5.8.1'],
      ['acme/app', 'modules/service', 'git', '2.1.0'],
    ]);
    expect(account?.modules).toHaveLength(3);
    expect(account?.modules[1]?.moduleOrigin).toContain('2.1.0');
    const counts = Object.fromEntries(
      account?.repositories.map((r) => [r.repoFullName, r.topHit.modulesCount]) ?? [],
    );
    expect((counts['acme/network'] ?? 0) + (counts['acme/app'] ?? 0)).toBe(3);
  });

  it('generates the collections and accounts it leaves out at the default sizes', () => {
    const state = generateSceneState(checkScene({}));
    expect(state.accounts).toHaveLength(3);
    expect(state.accounts[0]?.workspaces).toHaveLength(120);
    const partial = generateSceneState(checkScene({ accounts: [{ workspaces: [{ name: 'only' }] }] }));
    expect(partial.accounts).toHaveLength(1);
    expect(partial.accounts[0]?.workspaces.map((w) => w.workspaceName)).toEqual(['only']);
    expect(partial.accounts[0]?.rules).toHaveLength(12);
    expect(partial.accounts[0]?.events).toHaveLength(1000);
  });
});

describe('reset and control.scene', () => {
  it('reset returns to the scene of the option, its webhook integrations included', async () => {
    const core = new MockCore({ scene: DRIFT_SCENE });
    const before = JSON.stringify(await core.control.getState());
    await core.control.seed(3, { accounts: 1, workspaces: 5 });
    expect(core.webhooks.list()).toEqual([]);
    await core.control.reset();
    expect(JSON.stringify(await core.control.getState())).toBe(before);
    expect(core.webhooks.list().map((w) => w.nickname)).toEqual(['drift-bot']);
  });

  it('control.scene replaces the data until the next reset, which returns to the start data', async () => {
    const core = new MockCore({ scene: { accounts: [{ name: 'Start', workspaces: [{ name: 'start' }] }] } });
    await core.control.scene({
      accounts: [
        {
          name: 'Solo',
          workspaces: [{ name: 'one' }, { name: 'two' }],
          webhooks: [{ nickname: 'test-only', url: 'https://hooks.example.com/t' }],
        },
      ],
    });
    const names = async () =>
      (await core.control.getState()).accounts.flatMap((a) => a.workspaces.map((w) => w.workspaceName));
    expect(await names()).toEqual(['one', 'two']);
    expect(core.webhooks.list().map((w) => w.nickname)).toEqual(['test-only']);
    await core.control.reset();
    expect(await names()).toEqual(['start']);
    expect(core.accounts().map((a) => a.name)).toEqual(['Start']);
    expect(core.webhooks.list()).toEqual([]);
  });

  it('POST /__mock/scene loads a scene over HTTP', async () => {
    const core = new MockCore({ sizes: { accounts: 1, workspaces: 2, events: 0 } });
    const res = await core.handle({
      method: 'POST',
      path: '/__mock/scene',
      headers: { 'content-type': 'application/json' },
      body: { accounts: [{ workspaces: [{ name: 'over-http', runs: [{ status: 'plan_error' }] }] }] },
    });
    expect(res.status).toBe(200);
    const [account] = (await core.control.getState()).accounts;
    expect(account?.workspaces.map((w) => [w.workspaceName, w.lastRunStatus?.description])).toEqual([
      ['over-http', 'plan_error'],
    ]);
  });

  it('the seed option is the seed of a scene without one', async () => {
    const a = await new MockCore({ seed: 5, scene: { accounts: [{}] } }).control.getState();
    const b = await new MockCore({ scene: { seed: 5, accounts: [{}] } }).control.getState();
    expect(a.accounts[0]?.workspaces).toEqual(b.accounts[0]?.workspaces);
    expect(() => new MockCore({ scene: {}, sizes: { accounts: 1 } })).toThrow(
      /MockOptions scene: expected a scene alone/,
    );
  });
});
