/**
 * Seeded runs: the generation of each workspace's runs (with their plan and apply tasks and changed
 * files), every random draw in a fixed order, and their replay: {@link replayRuns} makes one
 * workspace's runs again from a {@link RunReplay}, so a lazily stored seed keeps replay points
 * instead of runs (`store/runs.ts`).
 *
 * Not here: the workspaces themselves and the records that summarise their runs (`workspaces.ts`),
 * a run's guardrails summary (`guardrails.ts`), the run's URLs (`urls.ts`).
 *
 * @module
 */
import type {
  ChangedFilesCodeSummary,
  ChangedFileType,
  CiTool,
  GuardrailsSummary,
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
import { IdFactory, type IdState } from '../ids.js';
import { Random, type RandomState } from '../random.js';
import { SEED_EPOCH } from '../state.js';
import type { AccountContext, ChangedFile, ViolatingRun, WsInfo } from './context.js';
import { type RunRules, runGuardrailsSummary, runRules, strictRulesOf } from './guardrails.js';
import {
  type Described,
  described,
  iso,
  MINUTE,
  SECOND,
  STEP_RECORDS,
  StepCounter,
  type Steps,
  semver,
} from './helpers.js';
import { buildUrl, commitUrl, pullRequestUrl } from './urls.js';
import {
  APPLIED,
  BUILD_NAMES,
  CFN_FILES,
  FILE_TYPES,
  LARGE_BUILD_IDS,
  OBJECTS,
  RUN_STATUS_TABLE,
  TF_FILES,
  VCS_TYPES_ALL,
  VERBS,
} from './vocabulary.js';
import { type RunsOutcome, workspaceBackends, workspaceRecord } from './workspaces.js';

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
interface WorkspaceRuns extends RunsOutcome {
  /** The runs, when they were built. */
  runs: WorkspaceRun[];
  /** The newest run's draws. */
  newest: RunDraws | undefined;
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
  const count = ws.runPins ? ws.runPins.length : max > 0 && rng.chance(0.86) ? rng.int(1, max) : 0;
  // The backend summaries are the stack's, frozen and shared by its workspaces, their runs and tasks.
  const backends = workspaceBackends(ws);
  const context: RunContext = {
    ws,
    runBackend: backends.backendSummary,
    taskBackend: backends.taskBackend,
    ...runRules(g, ws, strictRules),
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
  const runs: WorkspaceRun[] = build ? [] : NOT_BUILT;
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
 * Replay points of an account's workspaces that have runs ({@link RunReplay}s), packed in typed
 * arrays as {@link generateRuns} records them (a few dozen bytes per workspace, no object each).
 */
export class RunReplays {
  #count = 0;
  #positions: Int32Array;
  /** Per replay, the `runs` stream's four words. */
  #words: Int32Array;
  /** Per replay, the id factory's two counters. */
  #counters: Float64Array;
  readonly #mask: number;

  /** Room for `capacity` replay points, of the id factory `ids`. */
  constructor(capacity: number, ids: IdFactory) {
    this.#positions = new Int32Array(capacity);
    this.#words = new Int32Array(capacity * 4);
    this.#counters = new Float64Array(capacity * 2);
    this.#mask = ids.state().mask;
  }

  /** How many replay points there are. */
  get length(): number {
    return this.#count;
  }

  /** Records where `rng` and `ids` stand before the runs of the workspace at `position`. */
  add(position: number, rng: Random, ids: IdFactory): void {
    const i = this.#count++;
    this.#positions[i] = position;
    rng.saveState(this.#words, i * 4);
    ids.saveCounters(this.#counters, i * 2);
  }

  /** Forgets the last replay point recorded (its workspace had no runs). */
  drop(): void {
    this.#count -= 1;
  }

  /** Drops the room left over once all are recorded. */
  trim(): void {
    const n = this.#count;
    this.#positions = this.#positions.slice(0, n);
    this.#words = this.#words.slice(0, n * 4);
    this.#counters = this.#counters.slice(0, n * 2);
  }

  /** The workspace position of replay point `i`. */
  position(i: number): number {
    return this.#positions[i] as number;
  }

  /** Replay point `i`. */
  at(i: number): RunReplay {
    const words = this.#words;
    const counters = this.#counters;
    return {
      workspace: this.#positions[i] as number,
      rng: [
        (words[i * 4] as number) >>> 0,
        (words[i * 4 + 1] as number) >>> 0,
        (words[i * 4 + 2] as number) >>> 0,
        (words[i * 4 + 3] as number) >>> 0,
      ],
      ids: { mask: this.#mask, objects: counters[i * 2] as number, uuids: counters[i * 2 + 1] as number },
    };
  }
}

/**
 * The account's runs, and the workspace records that summarise them. With `replays`, the runs are
 * not kept: each workspace that has runs gets a {@link RunReplay} there instead, and `runs` is empty.
 * In steps of about {@link STEP_RECORDS} runs and workspaces (the rules that cover a workspace
 * counting too, a 32nd each: its runs' rules are read from them).
 */
export function* generateRuns(
  g: AccountContext,
  replays?: RunReplays,
): Steps<{ workspaces: WorkspaceSummary[]; runs: WorkspaceRun[] }> {
  const rng = g.rng('runs');
  const n = g.workspaces.length;
  const workspaces: WorkspaceSummary[] = [];
  const runs: WorkspaceRun[] = [];
  const strictRules = strictRulesOf(g);
  const ids = g.shared.ids;
  const progress = g.shared.progress;
  const work = new StepCounter();
  for (let index = 0; index < n; index++) {
    const ws = g.workspaces[index] as WsInfo;
    // Stored lazily, the runs are only drawn (for the summary and the streams); `replayRuns` builds
    // them from the point recorded here, kept only for a workspace that has runs.
    if (replays) replays.add(index, rng, ids);
    const made = workspaceRuns(g, rng, ids, ws, strictRules, g.violatingRuns, !replays);
    progress?.add();
    if (replays) {
      if (made.count === 0) replays.drop();
    } else for (const run of made.runs) runs.push(run);
    workspaces.push(workspaceRecord(g, rng, ws, made));
    if (work.add(1 + made.count + (ws.guardrails.length >> 5))) yield;
  }
  replays?.trim();
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
  /** The build number as text (empty when the run is not built and failed no guardrail). */
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
  const pin = ws.runPins?.[k];
  let status: RunStatus =
    newest && rng.chance(0.05) ? (rng.chance(0.6) ? 'planning' : 'applying') : RUN_STATUS_TABLE.pick(rng);
  if (pin?.status !== undefined) status = pin.status;
  if ((status === 'blocked' || status === 'Acknowledged') && c.strict.length === 0) {
    // A scene's check makes sure a blocked run it names has a strict rule over it.
    if (pin?.status !== undefined)
      throw new Error(`scene: run ${k} of "${ws.name}" is ${status} without a strict rule`);
    status = 'plan_error';
  }
  const applied = APPLIED.has(status);
  const renovate = !applied && rng.chance(0.08);
  const drawnBranch =
    applied || (!renovate && rng.chance(0.45))
      ? 'main'
      : renovate
        ? rng.pick(RENOVATE_BRANCHES)
        : rng.pick(FEATURE_BRANCHES);
  const drawnTitle = renovate
    ? `Update Terraform ${rng.pick(RENOVATE_PROVIDERS)} to v${semver(rng, 6)}`
    : rng.pick(TITLES);
  const title = pin?.title ?? drawnTitle;
  const branch = pin?.branch ?? drawnBranch;
  const owner = rng.pick(g.people);
  // rng.hex(7) draws one number; without building, draw it all the same.
  let commitId = '';
  if (build) commitId = rng.hex(7);
  else rng.next();
  const buildNumber = LARGE_BUILD_IDS.has(ws.runner)
    ? c.buildBase + k * rng.int(50_000, 4_000_000)
    : c.buildBase + k * rng.int(1, 6);

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
  // Without building, the ids' draws are made all the same, and texts only a record needs are not.
  let planId = '';
  let applyId: string | undefined;
  let runRecordId = '';
  if (build) {
    planId = ids.objectId(rng, start);
    // The apply task exists only for runs that applied.
    if (applied) applyId = ids.objectId(rng, applyStart);
    runRecordId = ids.objectId(rng, start);
  } else {
    ids.skipObjectId(rng);
    if (applied) {
      ids.skipObjectId(rng);
      applyId = '';
    }
    ids.skipObjectId(rng);
  }
  let pr: string | undefined;
  if (branch !== 'main' && rng.chance(0.85)) {
    const number = c.prBase + k * rng.int(1, 9);
    pr = build ? String(number) : '';
  }
  const buildId = build || guardrailsSummary.failed > 0 ? String(buildNumber) : '';
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

/** What the runs of one workspace share: the rules they answer to (`guardrails.ts`), backends, CI ids. */
interface RunContext extends RunRules {
  ws: WsInfo;
  /** The runs' backend summary (frozen, shared by the workspace's runs). */
  runBackend: WorkspaceBackendSummary;
  /** The tasks' backend summary (frozen, shared). */
  taskBackend: TaskBackendSummary;
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
/** The runs of a workspace whose runs are drawn but not built (frozen, shared). */
const NOT_BUILT = Object.freeze([]) as unknown as WorkspaceRun[];
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
