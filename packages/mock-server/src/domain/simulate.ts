import {
  CHANGED_FILE_TYPES,
  CI_TOOLS,
  type GuardrailRule,
  POLICY_SEVERITIES,
  pathIdToObjectId,
  RESOURCE_ACTIONS,
  type RunStatus,
  type RunTask,
  severityName,
  toTimestamp,
  type WorkspaceRun,
  type WorkspaceSummary,
} from '@iacm/sdk/contract';
import { generateNotification } from '@iacm/webhook-receiver';
import * as z from 'zod';
import { type NumberRange, rangeSchema } from '../errors/ranges.js';
import { notFound } from '../errors.js';
import { heapBytes, type Ledger } from '../store/budget.js';
import type { AccountStore } from '../store/store.js';
import { evaluateGuardrails, type GuardrailEvaluation, summarise } from './evaluate.js';
import { type EventRecorder, PLATFORM_INTEGRATION_ID } from './events.js';
import type { PlanContent, RunScope } from './plan.js';

const PlanChangeSchema = z.strictObject({
  address: z.string().min(1).max(512),
  assetType: z.string().min(1).max(256),
  region: z.string().max(64).optional(),
  actions: z
    .array(z.enum(RESOURCE_ACTIONS))
    .min(1, { error: 'expected at least one action, like ["create"]' }),
  tags: z.record(z.string(), z.string()).optional(),
  monthlyCost: z.strictObject({ before: z.number().min(0), after: z.number().min(0) }).optional(),
});

const PolicyFindingSchema = z.strictObject({
  policy: z.string().min(1).max(256),
  severity: z.enum(POLICY_SEVERITIES),
  address: z.string().max(512).optional(),
});

/** The scope a plan is evaluated in (the dry-run endpoint). */
export const RunScopeSchema = z.strictObject({
  workspaceName: z.string().min(1).max(512),
  repository: z.string().min(1).max(1024),
  branch: z.string().min(1).max(256),
  labels: z.array(z.string().max(256)).max(100).default([]),
});

/** What a plan proposes (the dry-run endpoint). */
export const PlanContentSchema = z.strictObject({
  changes: z.array(PlanChangeSchema).max(10_000).default([]),
  policyFindings: z.array(PolicyFindingSchema).max(10_000).default([]),
});

/**
 * The range of each duration of a run's `timing`: 0 to 604,800,000 milliseconds (7 days).
 */
export const RUN_TIMING_RANGE: NumberRange = Object.freeze({
  min: 0,
  max: 604_800_000,
  unit: 'milliseconds',
});

/**
 * A simulated run's `timing`, on the mock's clock (each {@link RUN_TIMING_RANGE}, default 0): the run
 * starts (`planning`) `startAfterMs` after the request, its plan ends `planningMs` later, and its
 * apply (when there is one) `applyingMs` after that.
 */
export const RunTimingBody = z.strictObject({
  startAfterMs: rangeSchema(RUN_TIMING_RANGE).default(0),
  planningMs: rangeSchema(RUN_TIMING_RANGE).default(0),
  applyingMs: rangeSchema(RUN_TIMING_RANGE).default(0),
});
/** A run's timing as sent (each duration optional). */
export type RunTimingInput = z.input<typeof RunTimingBody>;
/** A run's timing as {@link RunTimingBody} parsed it (each duration filled in). */
export type RunTiming = z.output<typeof RunTimingBody>;

/**
 * The most characters of a changed file's `path` in a simulated run's body (`changedFiles[].path`):
 * 1,024. The run keeps every path (in its plan and apply tasks) for as long as it is kept, so that a
 * run's size is bounded by its body's bounds (10,000 files of at most 1,024 characters).
 */
export const MAX_CHANGED_FILE_PATH_LENGTH = 1024;

/**
 * The body of `POST /__mock/workspaces/{workspaceId}/runs`: a description of a CI plan (and apply).
 * Member names are a contract with other-language clients of the standalone mock.
 */
export const SimulatedRunBody = z.strictObject({
  branch: z.string().min(1).max(256).default('main'),
  commitId: z
    .string()
    .regex(/^[0-9a-f]{7,40}$/, { error: 'expected 7 to 40 lower-case hex digits, like 9f1c2e7' })
    .optional(),
  title: z.string().min(1).max(512).default('Simulated run'),
  pullRequestId: z.string().min(1).max(64).optional(),
  runName: z.string().min(1).max(256).optional(),
  ciTool: z.enum(CI_TOOLS).optional(),
  owner: z.strictObject({ name: z.string().min(1), email: z.string().min(3) }).optional(),
  changedFiles: z
    .array(
      z.strictObject({
        path: z.string().min(1).max(MAX_CHANGED_FILE_PATH_LENGTH),
        type: z.enum(CHANGED_FILE_TYPES),
      }),
    )
    .max(10_000)
    .default([]),
  changes: z.array(PlanChangeSchema).max(10_000).default([]),
  policyFindings: z.array(PolicyFindingSchema).max(10_000).default([]),
  apply: z.boolean().default(false),
  failPlan: z.boolean().default(false),
  failApply: z.boolean().default(false),
  timing: RunTimingBody.optional(),
});
/** The body of a simulated run, as sent. */
export type SimulatedRunInput = z.input<typeof SimulatedRunBody>;
/** The body of a simulated run as {@link SimulatedRunBody} parsed it (defaults filled in). */
export type CheckedSimulatedRun = z.output<typeof SimulatedRunBody>;

/** What the domain engine needs from the mock. */
export interface DomainServices {
  /** The clock, epoch milliseconds. */
  now(): number;
  /** A new unique 24-hex id, its time part from `at` (epoch milliseconds; default: `now()`). */
  newId(at?: number): string;
  /** A deterministic number for build ids. */
  nextBuild(): number;
  /** Event and notification recorder. */
  events: EventRecorder;
  /**
   * The data's ledger in the mock's memory budget (`store/budget.ts`): each run a simulated run keeps
   * is charged its heap measure (`heapBytes`) before it is stored (a 409 `budget_exceeded` past the
   * budget, before any id is drawn), and labels that grow are charged the difference. When absent,
   * nothing is charged.
   */
  records?: Ledger | undefined;
  /**
   * Told of each status a run takes (a run finished at once, each step of a timed run), after the
   * run is stored: what `control.waitForRun` waits on. Must not throw.
   */
  onRunStatus?: ((change: RunStatusChange) => void) | undefined;
}

/** A status a run just took (`DomainServices.onRunStatus`). */
export interface RunStatusChange {
  /** The account's id. */
  readonly accountId: string;
  /** The workspace's id. */
  readonly workspaceId: string;
  /** The run's id. */
  readonly runId: string;
  /** The status it had (`none` for a new run). */
  readonly from: string;
  /** The status it took. */
  readonly to: RunStatus;
  /** The run as it is now (read when asked), or `undefined` when it is gone. */
  readonly run: () => WorkspaceRun | undefined;
}

/** Whether a plan changes anything: some change creates, updates or deletes. */
function hasChanges(input: CheckedSimulatedRun): boolean {
  return input.changes.some((c) => c.actions.some((a) => a !== 'no-op' && a !== 'read'));
}

/**
 * How a plan ends: `plan_error` when `failPlan`, `blocked` when a strict rule failed, else
 * `plan_success` (`plan_no_changes` when nothing is created, updated or deleted); `applies` when an
 * apply follows (asked, and the plan neither failed nor was blocked).
 */
export function planOutcome(
  input: CheckedSimulatedRun,
  evaluation: GuardrailEvaluation,
): { status: RunStatus; applies: boolean } {
  if (input.failPlan) return { status: 'plan_error', applies: false };
  if (evaluation.blocked) return { status: 'blocked', applies: false };
  return { status: hasChanges(input) ? 'plan_success' : 'plan_no_changes', applies: input.apply };
}

/** How an apply ends: `apply_error` when `failApply`, else `apply_success` (or `apply_no_changes`). */
export function applyOutcome(input: CheckedSimulatedRun): RunStatus {
  if (input.failApply) return 'apply_error';
  return hasChanges(input) ? 'apply_success' : 'apply_no_changes';
}

/** The run status a plan ends in, and whether an apply follows. */
function outcome(
  body: CheckedSimulatedRun,
  evaluation: GuardrailEvaluation,
): { status: RunStatus; applied: boolean } {
  const plan = planOutcome(body, evaluation);
  if (!plan.applies) return { status: plan.status, applied: false };
  return { status: applyOutcome(body), applied: true };
}

/** The scope a run on `workspace` is evaluated in: the workspace's name, repository and labels, the run's branch. */
export function runScope(workspace: WorkspaceSummary, branch: string): RunScope {
  return {
    workspaceName: workspace.workspaceName,
    repository: workspace.repo,
    branch,
    labels: workspace.labels,
  };
}

/** The guardrail evaluation of a run's plan against the account's rules as they are now. */
export function evaluateRun(
  account: AccountStore,
  workspace: WorkspaceSummary,
  input: CheckedSimulatedRun,
): GuardrailEvaluation {
  const plan: PlanContent = { changes: input.changes, policyFindings: input.policyFindings };
  return evaluateGuardrails(account.rules.values(), runScope(workspace, input.branch), plan);
}

/** A workspace's backend, or the local one a workspace without a backend runs with. */
export function backendOf(workspace: WorkspaceSummary): NonNullable<WorkspaceSummary['backendSummary']> {
  return (
    workspace.backendSummary ?? {
      backendType: 'local',
      backendConfig: {},
      iacStackId: '',
      managedResourceCount: 0,
    }
  );
}

/** How many resources the backend manages after a run that ended in `status` (creates minus deletes after a successful apply). */
export function managedAfter(
  workspace: WorkspaceSummary,
  input: CheckedSimulatedRun,
  status: RunStatus,
): number {
  const creates = input.changes.filter((c) => c.actions.includes('create')).length;
  const deletes = input.changes.filter((c) => c.actions.includes('delete')).length;
  const before = backendOf(workspace).managedResourceCount;
  return Math.max(0, before + (status === 'apply_success' ? creates - deletes : 0));
}

/** What one run task says: its kind, id, times, progress and outcome. */
export interface RunTaskFacts {
  /** `post-plan` or `post-apply`. */
  kind: 'post-plan' | 'post-apply';
  /** The task's id. */
  id: string;
  /** When the task was created, epoch milliseconds. */
  createdAt: number;
  /** When it last changed, epoch milliseconds. */
  updatedAt: number;
  /** The run's status the task reports: `planning`/`applying` while it runs. */
  status: RunStatus;
  /** The evaluation, once the plan has ended. */
  evaluation?: GuardrailEvaluation | undefined;
  /** The resources the backend manages, as the task reports them. */
  resources: number;
}

/** The task `resultStatus` for a run status: `pending` while it runs. */
function resultOf(kind: RunTaskFacts['kind'], status: RunStatus): RunTask['resultStatus'] {
  if (status === 'planning' || status === 'applying') return 'pending';
  if (kind === 'post-plan' && status === 'blocked') return 'blocked';
  const failed = kind === 'post-plan' ? status === 'plan_error' : status === 'apply_error';
  if (failed) return 'failure';
  if (status === 'plan_no_changes' || status === 'apply_no_changes') return 'no_changes';
  return 'success';
}

/** A run's plan or apply task, as run search answers it. */
export function runTask(
  account: AccountStore,
  workspace: WorkspaceSummary,
  input: CheckedSimulatedRun,
  facts: RunTaskFacts,
): RunTask {
  const { kind, id, status } = facts;
  const backend = backendOf(workspace);
  const files = input.changedFiles;
  const count = (type: string) => files.filter((f) => f.type === type).length;
  const running = status === 'planning' || status === 'applying';
  const failed = kind === 'post-plan' ? status === 'plan_error' : status === 'apply_error';
  return {
    id,
    accountId: account.account.id,
    createdAt: toTimestamp(facts.createdAt),
    updatedAt: toTimestamp(facts.updatedAt),
    contentKeys: {
      [kind === 'post-plan' ? 'plan' : 'apply']: `${kind === 'post-plan' ? 'plans' : 'applies'}/${id}.json`,
    },
    status: running ? 'running' : failed ? 'failed' : 'completed',
    resultStatus: resultOf(kind, status),
    type: { description: kind },
    ...(facts.evaluation ? { guardrailsSummary: summarise(facts.evaluation) } : {}),
    backendSummary: {
      type: backend.backendType,
      config: backend.backendConfig,
      resources: facts.resources,
      description: `${backend.backendType} backend, ${facts.resources} resources`,
    },
    changedFilesCodeSummary: {
      total: files.length,
      added: count('added'),
      modified: count('modified'),
      deleted: count('deleted'),
      files: files.map((f) => ({ path: f.path, type: f.type })),
      description: `${files.length} file${files.length === 1 ? '' : 's'} changed`,
    },
    vcsType: { description: workspace.vcsType },
    runnerType: { description: input.ciTool ?? workspace.runnerType },
  };
}

/** What a new run is made of, beside the body: its ids, build number and commit, and its status. */
export interface RunFacts {
  /** The run's id. */
  id: string;
  /** The build number. */
  build: string;
  /** The commit (the body's, or a made-up one). */
  commitId: string;
  /** When the run was created, epoch milliseconds. */
  createdAt: number;
  /** When it last changed, epoch milliseconds. */
  updatedAt: number;
  /** Its status. */
  status: RunStatus;
  /** The resources the backend manages. */
  managed: number;
  /** Its plan task. */
  plan: RunTask;
  /** Its apply task, when there is one. */
  apply?: RunTask | undefined;
}

/** A run record, as run search answers it. */
export function runRecord(
  account: AccountStore,
  workspace: WorkspaceSummary,
  input: CheckedSimulatedRun,
  facts: RunFacts,
): WorkspaceRun {
  const repoUrl = workspace.repoUrl;
  const owner = input.owner ?? { name: 'Mock User', email: 'mock.user@example.com' };
  const initials = owner.name
    .split(/\s+/)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('')
    .slice(0, 2);
  const { build, commitId } = facts;
  return {
    id: facts.id,
    accountId: account.account.id,
    createdAt: toTimestamp(facts.createdAt),
    updatedAt: toTimestamp(facts.updatedAt),
    workspaceId: workspace.id,
    workspaceName: workspace.workspaceName,
    runId: build,
    runName: input.runName ?? input.title,
    status: facts.status,
    ...(input.pullRequestId
      ? {
          pullRequestId: input.pullRequestId,
          pullRequestUrl: `${repoUrl}/pull/${encodeURIComponent(input.pullRequestId)}`,
        }
      : {}),
    branch: input.branch,
    commitId,
    commitUrl: `${repoUrl}/commit/${commitId}`,
    runnerType: input.ciTool ?? workspace.runnerType,
    buildId: build,
    buildName: 'iacm-simulated',
    buildUrl: `${repoUrl}/actions/runs/${build}`,
    vcsType: workspace.vcsType,
    repo: workspace.repo,
    repoUrl,
    ownerSummary: {
      email: owner.email,
      name: owner.name,
      initials: initials || 'MU',
      customColor: '#6e40c9',
    },
    title: input.title,
    terraformVersion: workspace.iacTypeVersion ?? '1.7.5',
    iacType: workspace.iacType,
    backendSummary: { ...backendOf(workspace), managedResourceCount: facts.managed },
    planTaskId: facts.plan.id,
    ...(facts.apply ? { applyTaskId: facts.apply.id } : {}),
    plan: [facts.plan],
    apply: facts.apply ? [facts.apply] : [],
  };
}

/**
 * Records a `guardrails_violation` event for each violation of a run's evaluation and queues a
 * notification through the rule's notification configuration, at `at` (default: now).
 */
export function recordViolations(
  account: AccountStore,
  workspace: WorkspaceSummary,
  run: WorkspaceRun,
  evaluation: GuardrailEvaluation,
  services: DomainServices,
  at?: number,
): void {
  for (const violation of evaluation.violations) {
    const rule = account.rules.get(violation.id) as GuardrailRule;
    services.events.record(
      account,
      {
        type: 'guardrails_violation',
        mutation: 'create',
        assetId: run.id,
        assetType: 'iacm_run',
        attributes: {
          ruleId: rule.id,
          ruleName: rule.name,
          severity: severityName(rule.severity) ?? String(rule.severity),
          workspaceId: workspace.id,
          workspaceName: workspace.workspaceName,
          runId: run.id,
          branch: run.branch,
          message: violation.message,
        },
      },
      at,
    );
    const notification = rule.notificationId ? account.notifications.get(rule.notificationId) : undefined;
    services.events.queue(
      account,
      { kind: 'guardrail_violation', ruleId: rule.id, notificationId: notification?.id, runId: run.id },
      generateNotification('InsightDetected', {
        accountId: account.account.id,
        accountName: account.account.name,
        assetType: 'iacm_run',
        integrationId: PLATFORM_INTEGRATION_ID,
        integrationIdentifier: workspace.workspaceName,
        integrationName: `Guardrail: ${rule.name}`,
        providerType: '',
        region: '',
        workflowId: run.id,
      }),
      at,
    );
  }
}

/** Records a run's `iac_status_change` event (`from` → `to`), at `at` (default: now). */
export function recordStatusChange(
  account: AccountStore,
  workspace: WorkspaceSummary,
  runId: string,
  change: { from: string; to: RunStatus },
  services: DomainServices,
  at?: number,
): void {
  services.events.record(
    account,
    {
      type: 'iac_status_change',
      mutation: 'update',
      assetId: runId,
      assetType: 'iacm_run',
      attributes: {
        workspaceId: workspace.id,
        workspaceName: workspace.workspaceName,
        runId,
        from: change.from,
        to: change.to,
      },
    },
    at,
  );
  services.onRunStatus?.({
    accountId: account.account.id,
    workspaceId: workspace.id,
    runId,
    from: change.from,
    to: change.to,
    run: () => account.runs.find(workspace.id, runId)?.run,
  });
}

/**
 * Simulates a CI run on a workspace: evaluates every enabled in-scope guardrail rule against the
 * plan, creates the run with its plan task (and apply task when the plan is allowed and `apply` is
 * asked), updates the workspace, records the events (violations, status change) and queues a
 * notification for each violation through the rule's notification configuration. The run is finished
 * at once (its `timing`, if any, is the caller's: `TimedRuns` in `timed-runs.ts`). The run is kept
 * for good: its measure is charged to `services.records` first (409 `budget_exceeded` past the
 * budget, nothing changed).
 */
export function simulateRun(
  account: AccountStore,
  workspace: WorkspaceSummary,
  input: CheckedSimulatedRun,
  services: DomainServices,
): { run: WorkspaceRun; evaluation: GuardrailEvaluation } {
  const now = services.now();
  const evaluation = evaluateRun(account, workspace, input);
  const { status, applied } = outcome(input, evaluation);
  // Charged before any id is drawn: a 409 leaves the ids and the build numbers as they were.
  services.records?.charge(simulatedRunBytes(account, workspace, input, now, status, evaluation, applied));
  const commitId = input.commitId ?? services.newId().slice(0, 7);
  const build = String(services.nextBuild());
  const runId = services.newId();
  const backend = backendOf(workspace);
  const managed = managedAfter(workspace, input, status);
  const task = (kind: 'post-plan' | 'post-apply') =>
    runTask(account, workspace, input, {
      kind,
      id: services.newId(),
      createdAt: now,
      updatedAt: now,
      status,
      evaluation,
      resources: kind === 'post-plan' ? backend.managedResourceCount : managed,
    });
  const planTask = task('post-plan');
  const applyTask = applied ? task('post-apply') : undefined;
  const run = runRecord(account, workspace, input, {
    id: runId,
    build,
    commitId,
    createdAt: now,
    updatedAt: now,
    status,
    managed,
    plan: planTask,
    apply: applyTask,
  });

  account.runs.append(workspace.id, run);
  const previous = workspace.lastRunStatus?.description;
  const updated: WorkspaceSummary = {
    ...workspace,
    updatedAt: toTimestamp(now),
    lastRunStatus: { description: status },
    lastPlanTime: toTimestamp(now),
    lastRunTime: toTimestamp(now),
    ...(applied ? { lastApplyTime: toTimestamp(now) } : {}),
    runsCount: workspace.runsCount + 1,
    guardrails: evaluation.outcomes.map((o) => o.ruleId),
    backendSummary: { ...backend, managedResourceCount: managed },
  };
  account.workspaces.update(updated);
  recordViolations(account, workspace, run, evaluation, services);
  recordStatusChange(account, workspace, run.id, { from: previous ?? 'none', to: status }, services);
  return { run, evaluation };
}

/** Ids, build numbers and counts as long as the longest: a run measured before they are drawn. */
const PLACEHOLDER = Object.freeze({
  id: '0'.repeat(24),
  commitId: '0'.repeat(40),
  build: String(Number.MAX_SAFE_INTEGER),
});

/**
 * What the run {@link simulateRun} keeps takes, by the heap's measure (`heapBytes`), measured before
 * its ids are drawn: the same run with ids and a build number as long as the longest (so at least
 * the real run's measure).
 */
function simulatedRunBytes(
  account: AccountStore,
  workspace: WorkspaceSummary,
  input: CheckedSimulatedRun,
  now: number,
  status: RunStatus,
  evaluation: GuardrailEvaluation,
  applied: boolean,
): number {
  const task = (kind: 'post-plan' | 'post-apply') =>
    runTask(account, workspace, input, {
      kind,
      id: PLACEHOLDER.id,
      createdAt: now,
      updatedAt: now,
      status,
      evaluation,
      resources: Number.MAX_SAFE_INTEGER,
    });
  const plan = task('post-plan');
  const run = runRecord(account, workspace, input, {
    id: PLACEHOLDER.id,
    build: PLACEHOLDER.build,
    commitId: input.commitId ?? PLACEHOLDER.commitId,
    createdAt: now,
    updatedAt: now,
    status,
    managed: Number.MAX_SAFE_INTEGER,
    plan,
    apply: applied ? task('post-apply') : undefined,
  });
  return heapBytes(run);
}

/**
 * The workspace of id `workspaceId` (any id form the API takes) in whichever account holds it, with
 * that account; a 404 otherwise.
 */
export function findWorkspace(
  accounts: Iterable<AccountStore>,
  workspaceId: string,
): { account: AccountStore; workspace: WorkspaceSummary } {
  const id = pathIdToObjectId(workspaceId);
  for (const account of accounts) {
    const workspace = id === undefined ? undefined : account.workspaces.get(id);
    if (workspace) return { account, workspace };
  }
  throw notFound('workspace', workspaceId);
}

/**
 * `POST /__mock/workspaces/{id}/runs`: finds the workspace in whichever account holds it (404
 * otherwise) and simulates the run there. The run comes checked (by the route, or by
 * `control.simulateRun`, with {@link SimulatedRunBody}).
 */
export function simulateRunOnWorkspace(
  accounts: Iterable<AccountStore>,
  workspaceId: string,
  input: CheckedSimulatedRun,
  services: DomainServices,
): { run: WorkspaceRun; evaluation: GuardrailEvaluation } {
  const { account, workspace } = findWorkspace(accounts, workspaceId);
  return simulateRun(account, workspace, input, services);
}
