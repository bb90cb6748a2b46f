/**
 * Workspaces and their runs (with tasks, changed files and guardrail summaries).
 */
import type {
  ChangedFilesCodeSummary,
  ChangedFileType,
  CiTool,
  GuardrailRule,
  GuardrailsSummary,
  GuardrailViolation,
  RunStatus,
  RunTask,
  TaskBackendSummary,
  TaskResultStatus,
  TaskStatus,
  VcsType,
  WorkspaceBackendSummary,
  WorkspaceRun,
  WorkspaceSummary,
} from '@iacm/sdk/contract';
import { severityName } from '@iacm/sdk/contract';
import { IdFactory, type IdState } from '../ids.js';
import { Random, type RandomState } from '../random.js';
import { SEED_EPOCH } from '../state.js';
import type { AccountContext, ChangedFile, RepoInfo, ViolatingRun, WsInfo } from './context.js';
import { violationMessage } from './guardrails.js';
import {
  type BackendSummaries,
  backendSummaries,
  DAY,
  type Described,
  described,
  HISTORY,
  iso,
  MINUTE,
  repoUrl,
  SECOND,
  semver,
  Weighted,
} from './helpers.js';
import {
  APPLIED,
  AREA_LABELS,
  AREAS,
  BUILD_NAMES,
  CFN_FILES,
  CLOUD_REGIONS,
  type CloudProvider,
  DOMINANT_VCS,
  ENV_ORDER,
  ENVS,
  FILE_TYPES,
  IAC_VERSIONS,
  type IacKind,
  LARGE_BUILD_IDS,
  OBJECTS,
  PROVIDERS,
  REGION_CODES,
  REPO_STYLES,
  type RegionCode,
  RUN_STATUS_TABLE,
  RUNNERS,
  SERVICE_SUFFIXES,
  TEAMS,
  TF_FILES,
  VCS_TYPES_ALL,
  VERBS,
} from './vocabulary.js';

// --- workspaces -------------------------------------------------------------------------------------

/** The repository of a new workspace: an existing one of its area, or a new one. */
function repoFor(
  g: AccountContext,
  rng: Random,
  area: string,
  provider: CloudProvider,
  cloudFormation: boolean,
  vcsTable: Weighted<VcsType>,
) {
  const style = REPO_STYLES[g.index % REPO_STYLES.length] as (area: string) => string;
  const roll = rng.next();
  const name = cloudFormation
    ? roll < 0.5
      ? 'cloudformation-templates'
      : `${area}-cfn`
    : roll < 0.15
      ? 'platform-infrastructure'
      : roll < 0.75
        ? style(area)
        : `${area}-${rng.pick(SERVICE_SUFFIXES)}`;
  const fullName = `${g.org}/${name}`;
  let repo = g.repos.get(fullName);
  if (!repo) {
    const vcs = vcsTable.pick(rng);
    const url = repoUrl(vcs, g.org, name);
    repo = {
      fullName,
      name,
      vcs,
      url,
      vcsPath: moduleVcsPrefix(vcs, g.org, name),
      runner: RUNNERS[vcs].pick(rng),
      providers: new Set(),
      onlyCloudFormation: cloudFormation,
      maxUpdated: 0,
      resources: 0,
      modules: 0,
    };
    g.repos.set(fullName, repo);
  }
  repo.providers.add(provider);
  if (!cloudFormation) repo.onlyCloudFormation = false;
  return repo;
}

/** The account's workspaces (working forms; records are made with their runs). */
export function generateWorkspaces(g: AccountContext): void {
  const rng = g.rng('workspaces');
  const dominant = DOMINANT_VCS[g.index % DOMINANT_VCS.length] as VcsType;
  const vcsTable = new Weighted<VcsType>(
    VCS_TYPES_ALL.map((vcs): [VcsType, number] => [
      vcs,
      vcs === dominant ? 70 : vcs === 'gitlab' || vcs === 'github' ? 12 : vcs === 'codecommit' ? 3 : 5,
    ]),
  );
  const names = new Set<string>();
  const suffixes = new Map<string, number>();
  const total = g.plan.workspaces;
  while (g.workspaces.length < total) {
    // A group: one area of one repository, deployed to a few environments (and maybe regions).
    const area = rng.pick(AREAS);
    let provider = g.areaProviders.get(area);
    if (!provider) {
      provider = PROVIDERS.pick(rng);
      g.areaProviders.set(area, provider);
    }
    const iacType: IacKind =
      provider === 'aws' && rng.chance(0.15) ? 'cloudformation' : rng.chance(0.27) ? 'opentofu' : 'terraform';
    const repo = repoFor(g, rng, area, provider, iacType === 'cloudformation', vcsTable);
    const monorepo = repo.name === 'platform-infrastructure' || repo.name === 'cloudformation-templates';
    const iacVersion = IAC_VERSIONS[iacType].pick(rng);
    const groupCreated = SEED_EPOCH - HISTORY + rng.int(0, 80 * DAY);
    const envs = rng.sample(ENV_ORDER, rng.int(1, 4));
    if (envs.length === 1 && rng.chance(0.5)) envs[0] = ENVS.pick(rng);
    const regions: Array<RegionCode | undefined> = rng.chance(0.3)
      ? rng.sample(REGION_CODES, rng.int(1, 2))
      : [undefined];
    for (const env of envs) {
      for (const regionCode of regions) {
        if (g.workspaces.length >= total) break;
        const stem = env === area ? area : `${area}-${env}`;
        let name = regionCode ? `${stem}-${regionCode}` : stem;
        if (names.has(name)) {
          const base = name;
          let n = suffixes.get(base) ?? 2;
          while (names.has(`${base}-${n}`)) n++;
          suffixes.set(base, n + 1);
          name = `${base}-${n}`;
        }
        names.add(name);
        const createdAt = Math.min(
          groupCreated + rng.int(0, 3 * DAY),
          SEED_EPOCH - 2 * DAY - rng.int(0, DAY),
        );
        const envPath = regionCode ? `${env}/${regionCode}` : env;
        const vcsPath =
          iacType === 'cloudformation'
            ? `stacks/${area}/${envPath}`
            : monorepo
              ? `${area}/envs/${envPath}`
              : `envs/${envPath}`;
        g.workspaces.push({
          id: g.objectId(rng, createdAt),
          name,
          area,
          env,
          region: CLOUD_REGIONS[provider][regionCode ?? 'us'],
          provider,
          repo,
          runner: rng.chance(0.9) ? repo.runner : RUNNERS[repo.vcs].pick(rng),
          iacType,
          iacVersion: rng.chance(0.85) ? iacVersion : IAC_VERSIONS[iacType].pick(rng),
          labels: workspaceLabels(rng, area, env),
          createdAt,
          isWorkflowManaged: rng.chance(0.6),
          vcsPath,
          stack: undefined,
          guardrails: [],
          files: [],
        });
      }
    }
  }
}

function workspaceLabels(rng: Random, area: string, env: string): string[] {
  const labels: string[] = [];
  const domain = AREA_LABELS[area];
  if (rng.chance(0.8)) labels.push(env);
  if (domain && rng.chance(0.45)) labels.push(domain);
  const team = domain ? TEAMS[domain] : undefined;
  if (team && rng.chance(0.45)) labels.push(team);
  if (labels.length < 3 && env === 'prod' && rng.chance(0.12))
    labels.push(domain === 'payments' ? 'pci' : 'critical');
  if (labels.length === 0 && rng.chance(0.5))
    labels.push(rng.pick(['team-core', 'team-web', 'team-platform']));
  return labels.slice(0, 3);
}

// --- runs ---------------------------------------------------------------------------------------------

/**
 * Where the random streams stood when one workspace's runs were made, so that
 * {@link replayRuns} makes the same runs again on demand (a lazily stored seed keeps these instead of
 * the runs).
 */
export interface RunReplay {
  /** The workspace's position in the account's workspaces. */
  readonly workspace: number;
  /** The `runs` stream before the workspace's runs. */
  readonly rng: RandomState;
  /** The shared id factory before the workspace's runs. */
  readonly ids: IdState;
}

/** What one workspace's runs came to. */
interface WorkspaceRuns {
  /** The runs, when they were built. */
  runs: WorkspaceRun[];
  count: number;
  backends: BackendSummaries;
  /** The newest run's draws. */
  newest: RunDraws | undefined;
  /** When the newest run that applied finished applying. */
  lastApply: number | undefined;
}

/** The rules a workspace without strict rules of its own is blocked by. */
function strictRulesOf(g: AccountContext): string[] {
  return g.rules.filter((rule) => rule.severity === 2 && rule.isEnabled).map((rule) => rule.id);
}

/**
 * One workspace's runs, oldest first. Draws from `rng` and `ids` only; `violating` (when given) gets
 * the runs that failed guardrails.
 */
function workspaceRuns(
  g: AccountContext,
  rng: Random,
  ids: IdFactory,
  ws: WsInfo,
  strictRules: string[],
  violating: ViolatingRun[] | undefined,
  build: boolean,
): WorkspaceRuns {
  const max = g.plan.runsPerWorkspace;
  const count = max > 0 && rng.chance(0.86) ? rng.int(1, max) : 0;
  // The backend summaries are the stack's, frozen and shared by its workspaces, their runs and tasks.
  const backends = ws.stack ?? detachedBackend(ws);
  const enabled = ws.guardrails.filter((id) => g.rulesById.get(id)?.isEnabled);
  const wsStrict = enabled.filter((id) => g.rulesById.get(id)?.severity === 2);
  const wsSoft = enabled.filter((id) => g.rulesById.get(id)?.severity !== 2);
  const context: RunContext = {
    ws,
    runBackend: backends.backendSummary,
    taskBackend: backends.taskBackend,
    passed: passedSummary(enabled.length),
    enabled,
    strict: wsStrict.length > 0 ? wsStrict : strictRules,
    soft: wsSoft,
    vcsType: VCS_DESCRIPTIONS.get(ws.repo.vcs) as Described<VcsType>,
    runnerType: RUNNER_DESCRIPTIONS.get(ws.runner) as Described<CiTool>,
    buildName: rng.pick(BUILD_NAMES[ws.runner]),
    buildBase: LARGE_BUILD_IDS.has(ws.runner) ? rng.int(4_000_000_000, 12_000_000_000) : rng.int(10, 2000),
    prBase: rng.int(5, 900),
    envUuid: ws.runner === 'env0' || ws.runner === 'semaphore' ? rng.uuid() : '',
  };
  const start = ws.createdAt + 10 * MINUTE;
  const end = SEED_EPOCH - 15 * MINUTE;
  const slot = (end - start) / Math.max(count, 1);
  const runs: WorkspaceRun[] = [];
  let newest: RunDraws | undefined;
  let lastApply: number | undefined;
  for (let k = 0; k < count; k++) {
    const runStart = Math.floor(start + k * slot + rng.next() * slot * 0.55);
    const budget = Math.max(3, Math.floor(slot * 0.4));
    const draws = drawRun(g, rng, ids, context, k, k === count - 1, runStart, budget, violating, build);
    if (build) runs.push(runRecord(g, context, draws));
    newest = draws;
    if (draws.applied) lastApply = draws.applyEnd;
  }
  return { runs, count, backends, newest, lastApply };
}

/**
 * One workspace's runs made again, equal to the ones {@link generateRuns} made when it recorded
 * `replay`. The account context must be the one they were made in.
 */
export function replayRuns(g: AccountContext, replay: RunReplay): WorkspaceRun[] {
  const ws = g.workspaces[replay.workspace] as WsInfo;
  const rng = Random.fromState(replay.rng);
  const ids = IdFactory.fromState(replay.ids);
  return workspaceRuns(g, rng, ids, ws, strictRulesOf(g), undefined, true).runs;
}

/**
 * The account's runs, and the workspace records that summarise them. With `replays`, the runs are
 * not kept: each workspace that has runs gets a {@link RunReplay} there instead, and `runs` is empty.
 */
export function generateRuns(
  g: AccountContext,
  replays?: RunReplay[],
): { workspaces: WorkspaceSummary[]; runs: WorkspaceRun[] } {
  const rng = g.rng('runs');
  const workspaces: WorkspaceSummary[] = [];
  const runs: WorkspaceRun[] = [];
  const strictRules = strictRulesOf(g);
  g.workspaces.forEach((ws, index) => {
    const before = replays ? { rng: rng.state(), ids: g.shared.ids.state() } : undefined;
    // Stored lazily, the runs are only drawn (for the summary and the streams); `replayRuns` builds them.
    const made = workspaceRuns(g, rng, g.shared.ids, ws, strictRules, g.violatingRuns, !replays);
    g.shared.progress?.add();
    const { count, backends, newest, lastApply } = made;
    if (replays && before) {
      if (count > 0) replays.push({ workspace: index, ...before });
    } else for (const run of made.runs) runs.push(run);
    const updatedAt = newest
      ? newest.updatedAt + rng.int(SECOND, 5 * SECOND)
      : ws.createdAt + rng.int(MINUTE, DAY);
    ws.repo.maxUpdated = Math.max(ws.repo.maxUpdated, updatedAt);
    if (lastApply !== undefined && ws.stack) {
      ws.stack.lastApplied = Math.max(ws.stack.lastApplied ?? 0, lastApply);
    }
    const summary = {
      id: ws.id,
      accountId: g.accountId,
      createdAt: iso(ws.createdAt),
      updatedAt: iso(updatedAt),
      workspaceId: ws.id,
      workspaceName: ws.name,
      repo: ws.repo.fullName,
      repoUrl: ws.repo.url,
      vcsType: ws.repo.vcs,
      runnerType: ws.runner,
    } as WorkspaceSummary;
    // Members that exist only once something has happened are left out, not set to undefined.
    if (newest) {
      summary.lastRunStatus = { description: newest.status };
      if (lastApply !== undefined) summary.lastApplyTime = iso(lastApply);
      summary.lastPlanTime = iso(newest.start);
      summary.lastRunTime = iso(newest.updatedAt);
    }
    summary.iacType = ws.iacType;
    summary.iacTypeVersion = ws.iacVersion;
    summary.backendSummary = backends.backendSummary;
    summary.labels = ws.labels;
    summary.runsCount = count;
    summary.isWorkflowManaged = ws.isWorkflowManaged;
    summary.guardrails = ws.guardrails;
    workspaces.push(summary);
  });
  return { workspaces, runs };
}

/** A run's random draws (in the order they are drawn) and the times they fix: what a run is made of. */
interface RunDraws {
  k: number;
  status: RunStatus;
  applied: boolean;
  branch: string;
  title: string;
  owner: { summary: WorkspaceRun['ownerSummary'] };
  commitId: string;
  buildId: string;
  /** Plan start, plan end, apply start, apply end and last update (epoch ms). */
  start: number;
  planEnd: number;
  applyStart: number;
  applyEnd: number;
  updatedAt: number;
  guardrailsSummary: GuardrailsSummary;
  changed: ChangedFilesCodeSummary;
  planId: string;
  applyId: string | undefined;
  runRecordId: string;
  pr: string | undefined;
}

/**
 * Draws one run of a workspace: every random number and id the run takes, in a fixed order. A run
 * that failed guardrails is added to `violating` (when given). Without `build`, the draws are the
 * same but the texts and objects only a run record needs (ids, commit, changed files) are not made.
 */
function drawRun(
  g: AccountContext,
  rng: Random,
  ids: IdFactory,
  c: RunContext,
  k: number,
  newest: boolean,
  start: number,
  budget: number,
  violating: ViolatingRun[] | undefined,
  build: boolean,
): RunDraws {
  const { ws } = c;
  let status: RunStatus =
    newest && rng.chance(0.05) ? (rng.chance(0.6) ? 'planning' : 'applying') : RUN_STATUS_TABLE.pick(rng);
  if ((status === 'blocked' || status === 'Acknowledged') && c.strict.length === 0) status = 'plan_error';
  const applied = APPLIED.has(status);
  const renovate = !applied && rng.chance(0.08);
  const branch =
    applied || (!renovate && rng.chance(0.45))
      ? 'main'
      : renovate
        ? rng.pick(RENOVATE_BRANCHES)
        : rng.pick(FEATURE_BRANCHES);
  const title = renovate
    ? `Update Terraform ${rng.pick(RENOVATE_PROVIDERS)} to v${semver(rng, 6)}`
    : rng.pick(TITLES);
  const owner = rng.pick(g.people);
  // rng.hex(7) draws one number; without building, draw it all the same.
  let commitId = '';
  if (build) commitId = rng.hex(7);
  else rng.next();
  const buildId = String(
    LARGE_BUILD_IDS.has(ws.runner)
      ? c.buildBase + k * rng.int(50_000, 4_000_000)
      : c.buildBase + k * rng.int(1, 6),
  );

  // Task timing, scaled down to fit the run's slot.
  const planDuration =
    status === 'init_error' ? rng.int(5 * SECOND, 40 * SECOND) : rng.int(20 * SECOND, 6 * MINUTE);
  const wait = applied ? rng.int(5 * SECOND, 10 * MINUTE) : 0;
  const applyDuration = applied ? rng.int(20 * SECOND, 15 * MINUTE) : 0;
  const scale = Math.min(1, budget / (planDuration + wait + applyDuration));
  const planEnd = start + Math.max(1, Math.floor(planDuration * scale));
  const applyStart = planEnd + Math.floor(wait * scale);
  const applyEnd = applyStart + Math.max(1, Math.floor(applyDuration * scale));

  const guardrailsSummary = runGuardrailsSummary(g, rng, c, status);
  const changed = changedFiles(rng, ws, build);
  const objectId = (ms: number) => {
    if (build) return ids.objectId(rng, ms);
    ids.skipObjectId(rng);
    return '';
  };
  const planId = objectId(start);
  // The apply task exists only for runs that applied.
  const applyId = applied ? objectId(applyStart) : undefined;
  const runRecordId = objectId(start);
  const pr = branch !== 'main' && rng.chance(0.85) ? String(c.prBase + k * rng.int(1, 9)) : undefined;
  if (guardrailsSummary.failed > 0) {
    violating?.push({
      time: planEnd,
      run: { workspaceId: ws.id, runId: buildId },
      ruleIds: guardrailsSummary.violations.map((violation) => violation.id),
      lists: undefined,
    });
  }
  return {
    k,
    status,
    applied,
    branch,
    title,
    owner,
    commitId,
    buildId,
    start,
    planEnd,
    applyStart,
    applyEnd,
    updatedAt: applied ? applyEnd : planEnd,
    guardrailsSummary,
    changed,
    planId,
    applyId,
    runRecordId,
    pr,
  };
}

/** One run of a workspace, made from its draws (draws nothing). */
function runRecord(g: AccountContext, c: RunContext, d: RunDraws): WorkspaceRun {
  const { ws } = c;
  const startedAt = iso(d.start);
  const plannedAt = iso(d.planEnd);
  const { guardrailsSummary, changed, planId, applyId, buildId, commitId, title, pr } = d;
  const [planStatus, planResult] = planOutcome(d.status);
  const plan: RunTask = {
    id: planId,
    accountId: g.accountId,
    createdAt: startedAt,
    updatedAt: plannedAt,
    contentKeys: { plan: `plans/${planId}.json` },
    status: planStatus,
    resultStatus: planResult,
    type: POST_PLAN,
    guardrailsSummary,
    backendSummary: c.taskBackend,
    changedFilesCodeSummary: changed,
    vcsType: c.vcsType,
    runnerType: c.runnerType,
  };
  let apply: RunTask[] = NO_TASKS;
  let updatedAt = plannedAt;
  if (applyId !== undefined) {
    const [applyStatus, applyResult] = applyOutcome(d.status);
    updatedAt = iso(d.applyEnd);
    apply = [
      {
        id: applyId,
        accountId: g.accountId,
        createdAt: iso(d.applyStart),
        updatedAt,
        contentKeys: { apply: `applies/${applyId}.json` },
        status: applyStatus,
        resultStatus: applyResult,
        type: POST_APPLY,
        guardrailsSummary,
        backendSummary: c.taskBackend,
        changedFilesCodeSummary: changed,
        vcsType: c.vcsType,
        runnerType: c.runnerType,
      },
    ];
  }
  // Members in the contract's order (a snapshot read back through the schemas is then identical);
  // optional members are present only when they apply, never set to undefined: pull-request members
  // on runs a pull request started, `applyTaskId` on runs that applied.
  const run = {
    id: d.runRecordId,
    accountId: g.accountId,
    createdAt: startedAt,
    updatedAt,
    workspaceId: ws.id,
    workspaceName: ws.name,
    runId: buildId,
    runName: title,
    status: d.status,
  } as WorkspaceRun;
  if (pr !== undefined) {
    run.pullRequestId = pr;
    run.pullRequestUrl = pullRequestUrl(ws.repo, pr);
  }
  run.branch = d.branch;
  run.commitId = commitId;
  run.commitUrl = commitUrl(ws.repo, commitId);
  run.runnerType = ws.runner;
  run.buildId = buildId;
  run.buildName = c.buildName;
  run.buildUrl = buildUrl(ws, g.org, buildId, c.envUuid, commitId);
  run.vcsType = ws.repo.vcs;
  run.repo = ws.repo.fullName;
  run.repoUrl = ws.repo.url;
  run.ownerSummary = d.owner.summary;
  run.title = title;
  run.terraformVersion = ws.iacVersion;
  run.iacType = ws.iacType;
  run.backendSummary = c.runBackend;
  run.planTaskId = planId;
  if (applyId !== undefined) run.applyTaskId = applyId;
  run.plan = [plan];
  run.apply = apply;
  return run;
}

/** A run's guardrails summary (and, on violations, the run's entry in `g.violatingRuns`). */
function runGuardrailsSummary(
  g: AccountContext,
  rng: Random,
  c: RunContext,
  status: RunStatus,
): GuardrailsSummary {
  if (status === 'init_error') return NOT_EVALUATED;
  if (status === 'planning') return PENDING;
  const failing: string[] = [];
  if (status === 'blocked' || status === 'Acknowledged') {
    failing.push(rng.pick(c.strict));
    if (c.soft.length > 0 && rng.chance(0.3)) failing.push(rng.pick(c.soft));
  } else if (c.soft.length > 0 && rng.chance(0.12)) {
    failing.push(rng.pick(c.soft));
  }
  if (failing.length === 0) return c.passed;
  const violations = failing.map((id) => {
    const rule = g.rulesById.get(id) as GuardrailRule;
    return {
      id,
      severity: severityName(rule.severity) ?? 'warning',
      message: violationMessage(rng, rule),
    };
  });
  let total = c.enabled.length;
  for (const id of failing) if (!c.enabled.includes(id)) total++;
  const failed = violations.length;
  return Object.freeze({
    total,
    passed: total - failed,
    failed,
    violations: Object.freeze(violations) as GuardrailViolation[],
    description: failedDescription(failed, total),
  });
}

/** What the runs of one workspace share. */
interface RunContext {
  ws: WsInfo;
  /** The runs' backend summary (frozen, shared by the workspace's runs). */
  runBackend: WorkspaceBackendSummary;
  /** The tasks' backend summary (frozen, shared). */
  taskBackend: TaskBackendSummary;
  /** The guardrails summary of a run that passed them all (frozen, shared). */
  passed: GuardrailsSummary;
  enabled: string[];
  strict: string[];
  soft: string[];
  vcsType: Described<VcsType>;
  runnerType: Described<CiTool>;
  buildName: string;
  buildBase: number;
  prBase: number;
  envUuid: string;
}

const VCS_DESCRIPTIONS = described(VCS_TYPES_ALL);
const RUNNER_DESCRIPTIONS = described(Object.keys(BUILD_NAMES) as CiTool[]);
const POST_PLAN: Described<'post-plan'> = Object.freeze({ description: 'post-plan' });
const POST_APPLY: Described<'post-apply'> = Object.freeze({ description: 'post-apply' });
const NO_VIOLATIONS = Object.freeze([]) as unknown as GuardrailViolation[];
/** The `apply` list of a run that did not apply (frozen, shared). */
const NO_TASKS = Object.freeze([]) as unknown as RunTask[];
/** What a run drawn without being built has for changed files (never part of a record). */
const NO_FILES: ChangedFilesCodeSummary = Object.freeze({
  total: 0,
  added: 0,
  modified: 0,
  deleted: 0,
  files: Object.freeze([]) as unknown as ChangedFile[],
  description: '',
});
const NOT_EVALUATED: GuardrailsSummary = Object.freeze({
  total: 0,
  passed: 0,
  failed: 0,
  violations: NO_VIOLATIONS,
  description: 'Guardrails not evaluated',
});
const PENDING: GuardrailsSummary = Object.freeze({
  total: 0,
  passed: 0,
  failed: 0,
  violations: NO_VIOLATIONS,
  description: 'Guardrails pending',
});

/** The backend summaries of a workspace when the account has no stacks at all: a local state file. */
function detachedBackend(ws: WsInfo): BackendSummaries {
  return backendSummaries({
    backendType: 'local',
    backendConfig: { path: `${ws.vcsPath}/terraform.tfstate` },
    iacStackId: '',
    managedResourceCount: 0,
  });
}

const PASSED = new Map<number, GuardrailsSummary>();

/** The guardrails summary of a run that passed all of its `total` guardrails (frozen, shared). */
function passedSummary(total: number): GuardrailsSummary {
  let summary = PASSED.get(total);
  if (!summary) {
    summary = Object.freeze({
      total,
      passed: total,
      failed: 0,
      violations: NO_VIOLATIONS,
      description: total === 0 ? 'No guardrails apply' : `All ${total} guardrails passed`,
    });
    PASSED.set(total, summary);
  }
  return summary;
}

function moduleVcsPrefix(vcs: VcsType, org: string, name: string): string {
  switch (vcs) {
    case 'github':
      return `github.com/${org}/${name}`;
    case 'gitlab':
      return `gitlab.com/${org}/${name}`;
    case 'bitbucket':
      return `bitbucket.org/${org}/${name}`;
    case 'azuredevops':
      return `dev.azure.com/${org}/infrastructure/_git/${name}`;
    default:
      return `git-codecommit.us-east-1.amazonaws.com/v1/repos/${name}`;
  }
}

function commitUrl(repo: RepoInfo, sha: string): string {
  switch (repo.vcs) {
    case 'github':
      return `${repo.url}/commit/${sha}`;
    case 'gitlab':
      return `${repo.url}/-/commit/${sha}`;
    case 'bitbucket':
      return `${repo.url}/commits/${sha}`;
    case 'azuredevops':
      return `${repo.url}/commit/${sha}`;
    default:
      return `https://us-east-1.console.aws.amazon.com/codesuite/codecommit/repositories/${repo.name}/commit/${sha}?region=us-east-1`;
  }
}

function pullRequestUrl(repo: RepoInfo, id: string): string {
  switch (repo.vcs) {
    case 'github':
      return `${repo.url}/pull/${id}`;
    case 'gitlab':
      return `${repo.url}/-/merge_requests/${id}`;
    case 'bitbucket':
      return `${repo.url}/pull-requests/${id}`;
    case 'azuredevops':
      return `${repo.url}/pullrequest/${id}`;
    default:
      return `https://us-east-1.console.aws.amazon.com/codesuite/codecommit/repositories/${repo.name}/pull-requests/${id}/details?region=us-east-1`;
  }
}

function buildUrl(ws: WsInfo, org: string, buildId: string, envUuid: string, sha: string): string {
  switch (ws.runner) {
    case 'github-actions':
      return `${ws.repo.url}/actions/runs/${buildId}`;
    case 'gitlab-pipelines':
      return `${ws.repo.url}/-/pipelines/${buildId}`;
    case 'bitbucket-pipelines':
      return `${ws.repo.url}/pipelines/results/${buildId}`;
    case 'azure-pipelines':
      return `https://dev.azure.com/${org}/infrastructure/_build/results?buildId=${buildId}`;
    case 'jenkins':
      return `https://jenkins.${org}.example/job/${ws.name}/${buildId}/`;
    case 'semaphore':
      return `https://${org}.semaphoreci.com/workflows/${envUuid}?pipeline_id=${buildId}`;
    case 'atlantis':
      return `https://atlantis.${org}.example/jobs/${ws.name}-${sha}-${buildId}`;
    case 'env0':
      return `https://app.env0.com/p/${envUuid}/environments/${ws.id}/deployments/${buildId}`;
    default:
      return `https://ci.${org}.example/builds/${buildId}`;
  }
}

// Strings that many runs repeat are made once (a million runs would otherwise hold a million copies).
const TITLES = VERBS.flatMap((verb) => OBJECTS.map((object) => `${verb} ${object}`));
const FEATURE_BRANCHES = ['feature', 'feature', 'fix', 'chore'].flatMap((prefix) =>
  OBJECTS.map((object) => `${prefix}/${object.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`),
);
const RENOVATE_PROVIDERS = ['aws', 'google', 'azurerm', 'kubernetes'];
const RENOVATE_BRANCHES = RENOVATE_PROVIDERS.flatMap((provider) =>
  [3, 4, 5, 6].map((major) => `renovate/terraform-${provider}-${major}.x`),
);
const FILE_TYPE_INDEX: Readonly<Record<ChangedFileType, number>> = { added: 0, modified: 1, deleted: 2 };
const FILE_DESCRIPTIONS = Array.from({ length: 16 }, (_, n) => `${n} file${n === 1 ? '' : 's'} changed`);
const FAILED_DESCRIPTIONS = new Map<string, string>();

function failedDescription(failed: number, total: number): string {
  const key = `${failed}/${total}`;
  let description = FAILED_DESCRIPTIONS.get(key);
  if (description === undefined) {
    description = `${failed} of ${total} guardrails failed`;
    FAILED_DESCRIPTIONS.set(key, description);
  }
  return description;
}

/** The files a run changed; without `build`, only the draws (the answer is then a placeholder). */
function changedFiles(rng: Random, ws: WsInfo, build: boolean): ChangedFilesCodeSummary {
  const pool = ws.iacType === 'cloudformation' ? CFN_FILES : TF_FILES;
  // 1 to 5 distinct files of the pool (fewer than 32), in pool order.
  const count = Math.min(rng.int(1, 5), pool.length);
  let chosen = 0;
  for (let n = 0; n < count; ) {
    const bit = 1 << Math.floor(rng.next() * pool.length);
    if ((chosen & bit) === 0) {
      chosen |= bit;
      n++;
    }
  }
  if (!build) {
    for (let index = 0; index < pool.length; index++) if ((chosen & (1 << index)) !== 0) FILE_TYPES.pick(rng);
    return NO_FILES;
  }
  let added = 0;
  let modified = 0;
  let deleted = 0;
  const files: ChangedFile[] = [];
  for (let index = 0; index < pool.length; index++) {
    if ((chosen & (1 << index)) === 0) continue;
    const type = FILE_TYPES.pick(rng);
    if (type === 'added') added++;
    else if (type === 'deleted') deleted++;
    else modified++;
    // A workspace's changed-file records repeat over its runs: made once per workspace, frozen, shared.
    const slot = index * 3 + FILE_TYPE_INDEX[type];
    let file = ws.files[slot];
    if (!file) {
      file = Object.freeze({ path: `${ws.vcsPath}/${pool[index] as string}`, type });
      ws.files[slot] = file;
    }
    files.push(file);
  }
  // Shared by a run's plan and apply tasks, so frozen.
  return Object.freeze({
    total: files.length,
    added,
    modified,
    deleted,
    files: Object.freeze(files) as ChangedFile[],
    description: FILE_DESCRIPTIONS[files.length] ?? `${files.length} files changed`,
  });
}

function planOutcome(status: RunStatus): [TaskStatus, TaskResultStatus] {
  switch (status) {
    case 'init_error':
    case 'plan_error':
      return ['failed', 'failure'];
    case 'planning':
      return ['running', 'pending'];
    case 'blocked':
    case 'Acknowledged':
      return ['completed', 'blocked'];
    case 'plan_no_changes':
    case 'apply_no_changes':
      return ['completed', 'no_changes'];
    default:
      return ['completed', 'success'];
  }
}

function applyOutcome(status: RunStatus): [TaskStatus, TaskResultStatus] {
  switch (status) {
    case 'applying':
      return ['running', 'pending'];
    case 'apply_error':
      return ['failed', 'failure'];
    case 'apply_no_changes':
      return ['completed', 'no_changes'];
    default:
      return ['completed', 'success'];
  }
}
