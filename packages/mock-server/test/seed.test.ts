import {
  Backend,
  CI_TOOLS,
  EVENT_TYPES,
  Event,
  GUARDRAIL_TYPES,
  GuardrailCreateBody,
  GuardrailRule,
  IacStack,
  Module,
  MUTATION_TYPES,
  OBJECT_ID_PATTERN,
  Repository,
  RUN_STATUSES,
  STACK_STATUSES,
  TIMESTAMP_PATTERN,
  UUID_PATTERN,
  WorkspaceRun,
  WorkspaceSummary,
} from '@iacm/sdk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod/mini';
import { generateState } from '../src/store/seed.js';
import {
  type AccountState,
  DEFAULT_SEED,
  DEFAULT_SIZES,
  type MockState,
  SEED_EPOCH,
} from '../src/store/state.js';

const DAY = 24 * 60 * 60 * 1000;

/** The default state, generated once and only read by the tests. */
const state = generateState();
const primary = state.accounts[0] as AccountState;

/** Every string in a JSON value that looks like a timestamp, with where it is. */
function timestamps(value: unknown, path = '$', out: Array<[string, string]> = []): Array<[string, string]> {
  if (typeof value === 'string') {
    if (TIMESTAMP_PATTERN.test(value)) out.push([path, value]);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      timestamps(item, `${path}[${i}]`, out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) timestamps(member, `${path}.${key}`, out);
  }
  return out;
}

/**
 * Parses every record with a schema; reports the first failure with its index and issues. With
 * `roundTrip`, also checks that the parsed record serialises exactly like the record (members in the
 * contract's order, nothing added or dropped), so a snapshot read back through the schemas is
 * byte-identical.
 */
function expectAllParse(
  schema: z.ZodMiniType,
  records: readonly unknown[],
  label: string,
  roundTrip = true,
): void {
  for (const [i, record] of records.entries()) {
    const result = schema.safeParse(record);
    if (!result.success) {
      expect.fail(`${label}[${i}] does not parse: ${JSON.stringify(result.error.issues, null, 1)}`);
    }
    if (roundTrip) expect(JSON.stringify(result.data), `${label}[${i}]`).toBe(JSON.stringify(record));
  }
}

function newestRun(runs: WorkspaceRun[]): WorkspaceRun | undefined {
  let newest: WorkspaceRun | undefined;
  for (const run of runs) if (!newest || run.createdAt > newest.createdAt) newest = run;
  return newest;
}

function runsByWorkspace(account: AccountState): Map<string, WorkspaceRun[]> {
  const map = new Map<string, WorkspaceRun[]>();
  for (const run of account.runs) {
    const list = map.get(run.workspaceId);
    if (list) list.push(run);
    else map.set(run.workspaceId, [run]);
  }
  return map;
}

/** Every id of the state that must be unique across it. */
function allIds(s: MockState): string[] {
  const ids: string[] = [];
  for (const a of s.accounts) {
    ids.push(a.account.id);
    for (const w of a.workspaces) ids.push(w.id);
    for (const r of a.runs) {
      ids.push(r.id);
      for (const task of [...r.plan, ...r.apply]) ids.push(task.id);
    }
    for (const r of a.rules) ids.push(r.id);
    for (const n of a.notifications) ids.push(n.id);
    for (const x of a.stacks) ids.push(x.id);
    for (const b of a.backends) ids.push(b.id);
    for (const m of a.modules) ids.push(m.id);
    for (const e of a.events) ids.push(e.id);
  }
  return ids;
}

const VCS_HOSTS: Record<string, string> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
  azuredevops: 'dev.azure.com',
  codecommit: 'console.aws.amazon.com',
};

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('generateState: determinism', () => {
  it('gives the same state, byte for byte, for the same seed and sizes', () => {
    const sizes = { workspaces: 40, events: 300 };
    const a = JSON.stringify(generateState({ seed: 7, sizes }));
    const b = JSON.stringify(generateState({ seed: 7, sizes }));
    expect(a).toBe(b);
    expect(JSON.stringify(generateState())).toBe(JSON.stringify(state));
    expect(JSON.stringify(generateState({ seed: DEFAULT_SEED }))).toBe(JSON.stringify(state));
  });

  it('gives different data for different seeds', () => {
    const other = generateState({ seed: 2 });
    const named = generateState({ seed: 'demo' });
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(state));
    expect(JSON.stringify(named)).not.toBe(JSON.stringify(other));
    const otherPrimary = other.accounts[0] as AccountState;
    expect(otherPrimary.account.id).not.toBe(primary.account.id);
    expect(otherPrimary.account.secretKey).not.toBe(primary.account.secretKey);
    const names = (a: AccountState) => a.workspaces.map((w) => w.workspaceName).join(',');
    expect(names(otherPrimary)).not.toBe(names(primary));
    expect(other.seed).toBe(2);
    expect(named.seed).toBe('demo');
  });

  it('depends neither on the clock nor on Math.random', () => {
    const random = vi.spyOn(Math, 'random');
    vi.useFakeTimers({ now: new Date('2031-07-04T12:00:00.000Z') });
    const later = generateState();
    expect(random).not.toHaveBeenCalled();
    expect(JSON.stringify(later)).toBe(JSON.stringify(state));
  });

  it('derives every timestamp from SEED_EPOCH, in the 90-odd days before it', () => {
    const found = timestamps(state);
    expect(found.length).toBeGreaterThan(1000);
    for (const [path, value] of found) {
      const ms = Date.parse(value);
      expect(new Date(ms).toISOString(), path).toBe(value);
      expect(ms, path).toBeLessThanOrEqual(SEED_EPOCH);
      expect(ms, path).toBeGreaterThan(SEED_EPOCH - 130 * DAY);
    }
    // Events lie in the last 30 days.
    for (const event of primary.events) {
      expect(Date.parse(event.event_timestamp)).toBeGreaterThanOrEqual(SEED_EPOCH - 30 * DAY);
    }
  });
});

describe('generateState: default sizes', () => {
  it('makes the default number of accounts, the first being the primary one', () => {
    expect(state.version).toBe(1);
    expect(state.seed).toBe(DEFAULT_SEED);
    expect(state.sizes).toEqual(DEFAULT_SIZES);
    expect(state.accounts).toHaveLength(DEFAULT_SIZES.accounts);
    expect(primary.account.name).toBe('Acme Platform');
    const names = state.accounts.map((a) => a.account.name);
    expect(new Set(names).size).toBe(names.length);
    for (const { account } of state.accounts) {
      expect(account.id).toMatch(OBJECT_ID_PATTERN);
      expect(account.accessKey).toMatch(/^iacm_ak_[0-9a-f]{16}$/);
      expect(account.secretKey).toMatch(/^iacm_sk_[0-9a-f]{32}$/);
    }
  });

  it('gives the primary account workspaces, most of them with runs', () => {
    expect(DEFAULT_SIZES.workspaces).toBeGreaterThanOrEqual(100);
    expect(primary.workspaces).toHaveLength(DEFAULT_SIZES.workspaces);
    const withRuns = primary.workspaces.filter((w) => w.runsCount > 0).length;
    expect(withRuns / primary.workspaces.length).toBeGreaterThanOrEqual(0.75);
    for (const w of primary.workspaces)
      expect(w.runsCount).toBeLessThanOrEqual(DEFAULT_SIZES.runsPerWorkspace);
  });

  it('makes runs with mostly successful statuses from the published list', () => {
    const statuses = primary.runs.map((r) => r.status);
    for (const status of statuses) expect(RUN_STATUSES).toContain(status);
    expect(new Set(statuses).size).toBeGreaterThanOrEqual(6);
    const ok = statuses.filter((s) =>
      ['apply_success', 'plan_success', 'plan_no_changes', 'apply_no_changes'].includes(s),
    );
    expect(ok.length / statuses.length).toBeGreaterThan(0.5);
    expect(statuses).toContain('blocked');
  });

  it('uses mostly GitHub Actions / GitLab pipelines and Terraform / OpenTofu', () => {
    const ws = primary.workspaces;
    for (const w of ws) expect(CI_TOOLS).toContain(w.runnerType);
    const mainstream = ws.filter(
      (w) => w.runnerType === 'github-actions' || w.runnerType === 'gitlab-pipelines',
    );
    expect(mainstream.length / ws.length).toBeGreaterThan(0.5);
    const tf = ws.filter((w) => w.iacType === 'terraform' || w.iacType === 'opentofu');
    expect(tf.length / ws.length).toBeGreaterThan(0.7);
  });

  it('makes exactly the default number of events, over several integrations, of every type', () => {
    expect(primary.events).toHaveLength(DEFAULT_SIZES.events);
    const integrations = new Set(primary.events.map((e) => e.integration_id));
    expect(integrations.size).toBeGreaterThanOrEqual(3);
    expect(integrations.size).toBeLessThanOrEqual(DEFAULT_SIZES.integrations);
    const types = new Set(primary.events.map((e) => e.event_type));
    for (const type of EVENT_TYPES) expect(types, type).toContain(type);
    for (const e of primary.events) expect(MUTATION_TYPES).toContain(e.event.mutation_type);
  });

  it('makes the default number of rules, of all four kinds, in every account', () => {
    expect(primary.rules).toHaveLength(DEFAULT_SIZES.rules);
    for (const account of state.accounts) {
      const kinds = new Set(account.rules.map((r) => r.type));
      for (const kind of GUARDRAIL_TYPES) expect(kinds, `${account.account.name} ${kind}`).toContain(kind);
    }
  });

  it('makes one stack per workspace up to the stack count, and scales the other accounts down', () => {
    expect(primary.stacks).toHaveLength(Math.min(DEFAULT_SIZES.stacks, DEFAULT_SIZES.workspaces));
    for (const account of state.accounts.slice(1)) {
      expect(account.workspaces).toHaveLength(Math.max(3, Math.floor(DEFAULT_SIZES.workspaces / 10)));
      expect(account.workspaces.length).toBeLessThan(primary.workspaces.length);
      expect(account.runs.length).toBeGreaterThan(0);
      expect(account.stacks.length).toBeGreaterThanOrEqual(3);
      expect(account.events.length).toBeGreaterThan(0);
      expect(account.events.length).toBeLessThan(primary.events.length);
      expect(account.backends.length).toBeGreaterThan(0);
      expect(account.repositories.length).toBeGreaterThan(0);
    }
  });
});

describe('generateState: every record fits the contract', () => {
  for (const [index, account] of state.accounts.entries()) {
    describe(`account ${index} (${account.account.name})`, () => {
      it('workspaces and runs', () => {
        expectAllParse(WorkspaceSummary, account.workspaces, 'workspaces');
        expectAllParse(WorkspaceRun, account.runs, 'runs');
      });

      it('guardrail rules, and their create members', () => {
        expectAllParse(GuardrailRule, account.rules, 'rules');
        const bodies = account.rules.map(({ id: _id, ...body }) => body);
        expectAllParse(GuardrailCreateBody, bodies, 'rule create bodies', false);
      });

      it('IaC explorer records', () => {
        expectAllParse(IacStack, account.stacks, 'stacks');
        expectAllParse(Backend, account.backends, 'backends');
        expectAllParse(Module, account.modules, 'modules');
        expectAllParse(Repository, account.repositories, 'repositories');
      });

      it('events', () => {
        expectAllParse(Event, account.events, 'events');
      });
    });
  }
});

describe('generateState: consistency', () => {
  it('uses ids that are unique across the whole state', () => {
    const ids = allIds(state);
    expect(new Set(ids).size).toBe(ids.length);
    for (const a of state.accounts) {
      for (const e of a.events) expect(e.id).toMatch(UUID_PATTERN);
      for (const w of a.workspaces) expect(w.id).toMatch(OBJECT_ID_PATTERN);
    }
  });

  for (const [index, account] of state.accounts.entries()) {
    describe(`account ${index} (${account.account.name})`, () => {
      const accountId = account.account.id;
      const byWorkspace = runsByWorkspace(account);
      const ruleIds = new Set(account.rules.map((r) => r.id));
      const stacks = new Map(account.stacks.map((s) => [s.id, s]));

      it('workspaces belong to the account and have unique names and sensible members', () => {
        const names = new Set<string>();
        for (const w of account.workspaces) {
          expect(w.accountId).toBe(accountId);
          expect(w.workspaceId).toBe(w.id);
          expect(names.has(w.workspaceName), w.workspaceName).toBe(false);
          names.add(w.workspaceName);
          expect(w.createdAt < w.updatedAt, w.workspaceName).toBe(true);
          expect(w.repo).toMatch(/^[a-z0-9-]+\/[a-z0-9-]+$/);
          expect(new URL(w.repoUrl).host.endsWith(VCS_HOSTS[w.vcsType] ?? '?'), w.repoUrl).toBe(true);
          expect(w.labels.length).toBeLessThanOrEqual(3);
          for (const id of w.guardrails) expect(ruleIds.has(id), id).toBe(true);
        }
      });

      it('runsCount, lastRunStatus and the last*Time members follow the runs', () => {
        const workspaceIds = new Set(account.workspaces.map((w) => w.id));
        for (const run of account.runs) expect(workspaceIds.has(run.workspaceId)).toBe(true);
        for (const w of account.workspaces) {
          const runs = byWorkspace.get(w.id) ?? [];
          expect(w.runsCount, w.workspaceName).toBe(runs.length);
          const newest = newestRun(runs);
          if (!newest) {
            for (const member of ['lastRunStatus', 'lastRunTime', 'lastPlanTime', 'lastApplyTime']) {
              expect(member in w, `${w.workspaceName}.${member}`).toBe(false);
            }
            continue;
          }
          expect(w.lastRunStatus?.description).toBe(newest.status);
          expect(w.lastRunTime).toBe(newest.updatedAt);
          expect(w.lastPlanTime).toBe(newest.plan[0]?.createdAt);
          const applies = runs.flatMap((r) => r.apply.map((task) => task.updatedAt)).sort();
          if (applies.length === 0) expect('lastApplyTime' in w).toBe(false);
          else expect(w.lastApplyTime).toBe(applies[applies.length - 1]);
          for (const run of runs) expect(run.updatedAt <= (w.lastRunTime as string)).toBe(true);
          expect((w.lastRunTime as string) <= w.updatedAt).toBe(true);
        }
      });

      it('runs are internally consistent', () => {
        const workspaces = new Map(account.workspaces.map((w) => [w.id, w]));
        for (const run of account.runs) {
          const w = workspaces.get(run.workspaceId) as WorkspaceSummary;
          expect(run.accountId).toBe(accountId);
          expect(run.workspaceName).toBe(w.workspaceName);
          expect(run.repo).toBe(w.repo);
          expect(run.vcsType).toBe(w.vcsType);
          expect(run.createdAt <= run.updatedAt).toBe(true);
          expect(run.createdAt >= w.createdAt).toBe(true);
          expect(run.runId).toMatch(/^\d+$/);
          expect(run.buildId).toMatch(/^\d+$/);
          expect(run.commitId).toMatch(/^[0-9a-f]{7}$/);
          expect(run.commitUrl).toContain(run.commitId);
          expect(run.ownerSummary.customColor).toMatch(/^#[0-9a-f]{6}$/i);
          expect(run.backendSummary.iacStackId).toBe(w.backendSummary?.iacStackId);
          expect('pullRequestId' in run).toBe('pullRequestUrl' in run);
          if (run.pullRequestUrl) expect(run.pullRequestUrl).toContain(run.pullRequestId as string);
          // One plan task, an apply task only on runs that applied.
          expect(run.plan).toHaveLength(1);
          const plan = run.plan[0] as WorkspaceRun['plan'][number];
          expect(plan.type.description).toBe('post-plan');
          expect(run.planTaskId).toBe(plan.id);
          const applied = ['applying', 'apply_success', 'apply_no_changes', 'apply_error'].includes(
            run.status,
          );
          expect(run.apply).toHaveLength(applied ? 1 : 0);
          if (applied) {
            expect(run.applyTaskId).toBe(run.apply[0]?.id);
            expect(run.apply[0]?.type.description).toBe('post-apply');
            expect(run.branch).toBe('main');
          } else {
            expect('applyTaskId' in run).toBe(false);
          }
          for (const task of [...run.plan, ...run.apply]) {
            expect(task.accountId).toBe(accountId);
            expect(task.vcsType.description).toBe(run.vcsType);
            expect(task.runnerType.description).toBe(run.runnerType);
            expect(task.createdAt >= run.createdAt && task.updatedAt <= run.updatedAt).toBe(true);
            const g = task.guardrailsSummary;
            if (g) {
              expect(g.passed + g.failed).toBe(g.total);
              expect(g.violations).toHaveLength(g.failed);
              for (const v of g.violations) expect(ruleIds.has(v.id), v.id).toBe(true);
            }
            const files = task.changedFilesCodeSummary;
            if (files) {
              expect(files.total).toBe(files.files.length);
              expect(files.added + files.modified + files.deleted).toBe(files.total);
              expect(files.files.filter((f) => f.type === 'added')).toHaveLength(files.added);
              expect(files.files.filter((f) => f.type === 'deleted')).toHaveLength(files.deleted);
            }
          }
          if (run.status === 'blocked') {
            expect(plan.resultStatus).toBe('blocked');
            expect(plan.guardrailsSummary?.failed).toBeGreaterThanOrEqual(1);
            expect(plan.guardrailsSummary?.violations.some((v) => v.severity === 'strict')).toBe(true);
          }
          if (run.status === 'apply_success') {
            expect(plan.resultStatus).toBe('success');
            expect(run.apply[0]?.resultStatus).toBe('success');
          }
          if (run.status === 'plan_error' || run.status === 'init_error') expect(plan.status).toBe('failed');
        }
      });

      it('workspaces refer to existing stacks, and stacks to their workspaces', () => {
        const names = new Map(account.workspaces.map((w) => [w.workspaceName, w]));
        for (const w of account.workspaces) {
          const stackId = w.backendSummary?.iacStackId as string;
          const stack = stacks.get(stackId);
          expect(stack, `${w.workspaceName} -> ${stackId}`).toBeDefined();
          expect(w.backendSummary?.managedResourceCount).toBe(stack?.assetCount);
          expect(w.backendSummary?.backendType).toBe(stack?.backend);
        }
        for (const stack of account.stacks) {
          expect(STACK_STATUSES).toContain(stack.status);
          const owner = names.get(stack.name) as WorkspaceSummary;
          expect(owner, stack.name).toBeDefined();
          expect(owner.backendSummary?.iacStackId).toBe(stack.id);
          expect(stack.stateType).toBe(owner.iacType);
          expect(stack.metadata.vcsRepo).toBe(owner.repo);
          expect(stack.stackProviders.length).toBeGreaterThanOrEqual(1);
          expect(stack.stackProviders.length).toBeLessThanOrEqual(3);
          for (const p of stack.stackProviders) {
            if (p.isIntegrated)
              expect(p.providerIntegrationId).toMatch(new RegExp(`^int-${p.providerType}-`));
            else expect(p.providerIntegrationId).toBe('');
          }
          if (owner.lastApplyTime) expect((stack.lastApplied as string) >= owner.lastApplyTime).toBe(true);
        }
      });

      it('backends cover the stacks', () => {
        const types = new Set(account.backends.filter((b) => !b.isDeleted).map((b) => b.type));
        for (const stack of account.stacks) expect(types.has(stack.backend), stack.backend).toBe(true);
        const ids = account.backends.map((b) => b.id);
        expect(new Set(ids).size).toBe(ids.length);
      });

      it('repositories and modules agree with workspaces and stacks', () => {
        const repos = new Map(account.repositories.map((r) => [r.repoFullName, r]));
        expect(new Set(account.workspaces.map((w) => w.repo))).toEqual(new Set(repos.keys()));
        for (const repo of account.repositories) {
          const modules = account.modules.filter((m) => m.repoFullName === repo.repoFullName);
          expect(repo.topHit.modulesCount, repo.repoFullName).toBe(modules.length);
          const resources = account.stacks
            .filter((s) => s.metadata.vcsRepo === repo.repoFullName)
            .reduce((sum, s) => sum + s.assetCount, 0);
          expect(repo.topHit.resourcesCount, repo.repoFullName).toBe(resources);
          const inRepo = account.workspaces.filter((w) => w.repo === repo.repoFullName);
          expect(repo.maxTimestamp).toBe(Math.max(...inRepo.map((w) => Date.parse(w.updatedAt))));
          for (const w of inRepo) expect(w.vcsType).toBe(repo.topHit.vcsType);
          for (const m of modules) {
            expect(['registry', 'git', 'local']).toContain(m.moduleOriginType);
            expect(m.vcsType).toBe(repo.topHit.vcsType);
            expect(Date.parse(m.updateAt)).toBeLessThanOrEqual(repo.maxTimestamp);
          }
        }
        for (const m of account.modules) expect(repos.has(m.repoFullName)).toBe(true);
      });

      it('every rule has its notification configuration', () => {
        expect(account.notifications).toHaveLength(account.rules.length);
        const notifications = new Map(account.notifications.map((n) => [n.id, n]));
        for (const rule of account.rules) {
          expect(rule.accountId).toBe(accountId);
          expect(rule.createdBy).toMatch(OBJECT_ID_PATTERN);
          expect([1, 2, 3]).toContain(rule.severity);
          const notification = notifications.get(rule.notificationId as string);
          expect(notification?.ruleId).toBe(rule.id);
          expect(notification?.integrationIds).toEqual([]);
        }
      });

      it('events refer to the account, its integrations, rules, workspaces, runs and stacks', () => {
        const runIds = new Map([...byWorkspace].map(([id, runs]) => [id, new Set(runs.map((r) => r.runId))]));
        for (const e of account.events) {
          expect(e.account_id).toBe(accountId);
          expect(e.integration_id.startsWith(`int-${e.provider_type}-`), e.integration_id).toBe(true);
          const attrs = new Map(e.event.attributes.map((a) => [a.key, a.value]));
          if (e.event_type === 'guardrails_violation') {
            expect(ruleIds.has(attrs.get('ruleId') as string)).toBe(true);
            expect(attrs.has('ruleName')).toBe(true);
            const workspaceId = attrs.get('workspaceId');
            if (workspaceId !== undefined) {
              expect(runIds.get(workspaceId)?.has(attrs.get('runId') as string)).toBe(true);
            }
          }
          if (e.event_type === 'iac_status_change') {
            expect(stacks.has(attrs.get('stackId') as string)).toBe(true);
            expect(attrs.get('from')).not.toBe(attrs.get('to'));
          }
          if (e.event_type === 'mutation') expect(attrs.has('actor') && attrs.has('field')).toBe(true);
        }
      });
    });
  }
});

describe('generateState: configurable sizes', () => {
  it('makes the requested counts', () => {
    const sizes = {
      accounts: 2,
      workspaces: 7,
      runsPerWorkspace: 2,
      rules: 5,
      stacks: 4,
      events: 33,
      integrations: 2,
    };
    const small = generateState({ seed: 11, sizes });
    expect(small.sizes).toEqual(sizes);
    expect(small.accounts).toHaveLength(2);
    const [first, second] = small.accounts as [AccountState, AccountState];
    expect(first.workspaces).toHaveLength(7);
    expect(first.rules).toHaveLength(5);
    expect(first.notifications).toHaveLength(5);
    expect(first.stacks).toHaveLength(4);
    expect(first.events).toHaveLength(33);
    expect(new Set(first.events.map((e) => e.integration_id)).size).toBeLessThanOrEqual(2);
    for (const w of first.workspaces) expect(w.runsCount).toBeLessThanOrEqual(2);
    expect(first.runs.length).toBe(first.workspaces.reduce((sum, w) => sum + w.runsCount, 0));
    expect(second.workspaces).toHaveLength(3);
    expect(new Set(second.rules.map((r) => r.type))).toEqual(new Set(GUARDRAIL_TYPES));
  });

  it('keeps the defaults of sizes that are not given', () => {
    const s = generateState({ sizes: { events: 10 } });
    expect(s.sizes).toEqual({ ...DEFAULT_SIZES, events: 10 });
    expect(s.accounts[0]?.events).toHaveLength(10);
    expect(s.accounts[0]?.workspaces).toHaveLength(DEFAULT_SIZES.workspaces);
  });

  it('handles zero runs, stacks, rules and events', () => {
    const s = generateState({
      sizes: { accounts: 1, workspaces: 5, runsPerWorkspace: 0, stacks: 0, rules: 0, events: 0 },
    });
    const [only] = s.accounts as [AccountState];
    expect(only.workspaces).toHaveLength(5);
    expect(only.runs).toHaveLength(0);
    expect(only.stacks).toHaveLength(0);
    expect(only.rules).toHaveLength(0);
    expect(only.events).toHaveLength(0);
    for (const w of only.workspaces) {
      expect(w.runsCount).toBe(0);
      expect('lastRunTime' in w).toBe(false);
      expect(w.guardrails).toEqual([]);
    }
    expectAllParse(WorkspaceSummary, only.workspaces, 'workspaces');
  });

  it('refuses sizes that are not non-negative integers', () => {
    expect(() => generateState({ sizes: { workspaces: -1 } })).toThrow(RangeError);
    expect(() => generateState({ sizes: { events: 1.5 } })).toThrow(RangeError);
    expect(() => generateState({ sizes: { rules: Number.NaN } })).toThrow(RangeError);
    expect(() => generateState({ sizes: { accounts: 0 } })).toThrow(RangeError);
  });
});
