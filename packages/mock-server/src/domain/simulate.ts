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
import { notFound } from '../errors.js';
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
    .array(z.strictObject({ path: z.string().min(1), type: z.enum(CHANGED_FILE_TYPES) }))
    .max(10_000)
    .default([]),
  changes: z.array(PlanChangeSchema).max(10_000).default([]),
  policyFindings: z.array(PolicyFindingSchema).max(10_000).default([]),
  apply: z.boolean().default(false),
  failPlan: z.boolean().default(false),
  failApply: z.boolean().default(false),
});
/** The body of a simulated run, as sent. */
export type SimulatedRunInput = z.input<typeof SimulatedRunBody>;
/** The body of a simulated run as {@link SimulatedRunBody} parsed it (defaults filled in). */
export type CheckedSimulatedRun = z.output<typeof SimulatedRunBody>;

/** What the domain engine needs from the mock. */
export interface DomainServices {
  /** The clock, epoch milliseconds. */
  now(): number;
  /** A new unique 24-hex id. */
  newId(): string;
  /** A deterministic number for build ids. */
  nextBuild(): number;
  /** Event and notification recorder. */
  events: EventRecorder;
}

/** The run status a plan ends in, and whether an apply follows. */
function outcome(
  body: CheckedSimulatedRun,
  evaluation: GuardrailEvaluation,
): { status: RunStatus; applied: boolean } {
  if (body.failPlan) return { status: 'plan_error', applied: false };
  if (evaluation.blocked) return { status: 'blocked', applied: false };
  const hasChanges = body.changes.some((c) => c.actions.some((a) => a !== 'no-op' && a !== 'read'));
  if (!body.apply) return { status: hasChanges ? 'plan_success' : 'plan_no_changes', applied: false };
  if (body.failApply) return { status: 'apply_error', applied: true };
  return { status: hasChanges ? 'apply_success' : 'apply_no_changes', applied: true };
}

/**
 * Simulates a CI run on a workspace: evaluates every enabled in-scope guardrail rule against the
 * plan, creates the run with its plan task (and apply task when the plan is allowed and `apply` is
 * asked), updates the workspace, records the events (violations, status change) and queues a
 * notification for each violation through the rule's notification configuration.
 */
export function simulateRun(
  account: AccountStore,
  workspace: WorkspaceSummary,
  input: CheckedSimulatedRun,
  services: DomainServices,
): { run: WorkspaceRun; evaluation: GuardrailEvaluation } {
  const now = services.now();
  const scope: RunScope = {
    workspaceName: workspace.workspaceName,
    repository: workspace.repo,
    branch: input.branch,
    labels: workspace.labels,
  };
  const plan: PlanContent = { changes: input.changes, policyFindings: input.policyFindings };
  const evaluation = evaluateGuardrails(account.rules.values(), scope, plan);
  const { status, applied } = outcome(input, evaluation);
  const runnerType = input.ciTool ?? workspace.runnerType;
  const commitId = input.commitId ?? services.newId().slice(0, 7);
  const build = String(services.nextBuild());
  const runId = services.newId();
  const repoUrl = workspace.repoUrl;
  const backend = workspace.backendSummary ?? {
    backendType: 'local',
    backendConfig: {},
    iacStackId: '',
    managedResourceCount: 0,
  };
  const creates = input.changes.filter((c) => c.actions.includes('create')).length;
  const deletes = input.changes.filter((c) => c.actions.includes('delete')).length;
  const managed = Math.max(
    0,
    backend.managedResourceCount + (applied && status === 'apply_success' ? creates - deletes : 0),
  );
  const files = input.changedFiles;
  const count = (type: string) => files.filter((f) => f.type === type).length;
  const task = (kind: 'post-plan' | 'post-apply', at: number): RunTask => {
    const failed = kind === 'post-plan' ? status === 'plan_error' : status === 'apply_error';
    const resultStatus =
      kind === 'post-plan'
        ? status === 'blocked'
          ? 'blocked'
          : failed
            ? 'failure'
            : status === 'plan_no_changes' || status === 'apply_no_changes'
              ? 'no_changes'
              : 'success'
        : failed
          ? 'failure'
          : status === 'apply_no_changes'
            ? 'no_changes'
            : 'success';
    const id = services.newId();
    return {
      id,
      accountId: account.account.id,
      createdAt: toTimestamp(at),
      updatedAt: toTimestamp(at),
      contentKeys: {
        [kind === 'post-plan' ? 'plan' : 'apply']: `${kind === 'post-plan' ? 'plans' : 'applies'}/${id}.json`,
      },
      status: failed ? 'failed' : 'completed',
      resultStatus,
      type: { description: kind },
      guardrailsSummary: summarise(evaluation),
      backendSummary: {
        type: backend.backendType,
        config: backend.backendConfig,
        resources: kind === 'post-plan' ? backend.managedResourceCount : managed,
        description: `${backend.backendType} backend, ${kind === 'post-plan' ? backend.managedResourceCount : managed} resources`,
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
      runnerType: { description: runnerType },
    };
  };
  const planTask = task('post-plan', now);
  const applyTask = applied ? task('post-apply', now) : undefined;
  const owner = input.owner ?? { name: 'Mock User', email: 'mock.user@example.com' };
  const initials = owner.name
    .split(/\s+/)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('')
    .slice(0, 2);
  const run: WorkspaceRun = {
    id: runId,
    accountId: account.account.id,
    createdAt: toTimestamp(now),
    updatedAt: toTimestamp(now),
    workspaceId: workspace.id,
    workspaceName: workspace.workspaceName,
    runId: build,
    runName: input.runName ?? input.title,
    status,
    ...(input.pullRequestId
      ? {
          pullRequestId: input.pullRequestId,
          pullRequestUrl: `${repoUrl}/pull/${encodeURIComponent(input.pullRequestId)}`,
        }
      : {}),
    branch: input.branch,
    commitId,
    commitUrl: `${repoUrl}/commit/${commitId}`,
    runnerType,
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
    backendSummary: { ...backend, managedResourceCount: managed },
    planTaskId: planTask.id,
    ...(applyTask ? { applyTaskId: applyTask.id } : {}),
    plan: [planTask],
    apply: applyTask ? [applyTask] : [],
  };

  const runs = account.runs.get(workspace.id) ?? [];
  account.runs.set(workspace.id, [...runs, run]);
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

  for (const violation of evaluation.violations) {
    const rule = account.rules.get(violation.id) as GuardrailRule;
    services.events.record(account, {
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
        branch: input.branch,
        message: violation.message,
      },
    });
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
    );
  }
  services.events.record(account, {
    type: 'iac_status_change',
    mutation: 'update',
    assetId: run.id,
    assetType: 'iacm_run',
    attributes: {
      workspaceId: workspace.id,
      workspaceName: workspace.workspaceName,
      runId: run.id,
      from: previous ?? 'none',
      to: status,
    },
  });
  return { run, evaluation };
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
  const id = pathIdToObjectId(workspaceId);
  for (const account of accounts) {
    const workspace = id === undefined ? undefined : account.workspaces.get(id);
    if (workspace) return simulateRun(account, workspace, input, services);
  }
  throw notFound('workspace', workspaceId);
}
