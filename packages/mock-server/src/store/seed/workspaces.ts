/**
 * Seeded workspaces: their working forms (name, repository, environment, region, IaC tool, labels),
 * their backends when no stack holds them, and their records, which summarise their runs.
 *
 * Not here: the runs and their replay (`runs.ts`, which calls {@link workspaceRecord} once a
 * workspace's runs are drawn), repository and CI URLs (`urls.ts`), stacks (`explorer.ts`), which
 * rules cover a workspace (`guardrails.ts`).
 *
 * @module
 */
import type { RunStatus, VcsType, WorkspaceSummary } from '@iacm/sdk/contract';
import type { Random } from '../random.js';
import { SEED_EPOCH } from '../state.js';
import type { AccountContext, WsInfo } from './context.js';
import {
  type BackendSummaries,
  backendSummaries,
  DAY,
  HISTORY,
  iso,
  MINUTE,
  SECOND,
  STEP_RECORDS,
  type Steps,
  Weighted,
} from './helpers.js';
import { moduleVcsPrefix, repoUrl } from './urls.js';
import {
  AREA_LABELS,
  AREAS,
  CLOUD_REGIONS,
  type CloudProvider,
  DOMINANT_VCS,
  ENV_ORDER,
  ENVS,
  IAC_VERSIONS,
  type IacKind,
  PROVIDERS,
  REGION_CODES,
  REPO_STYLES,
  type RegionCode,
  RUNNERS,
  SERVICE_SUFFIXES,
  TEAMS,
  VCS_TYPES_ALL,
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

/**
 * The account's workspaces (working forms; records are made with their runs), in steps of about
 * {@link STEP_RECORDS} workspaces.
 */
export function* generateWorkspaces(g: AccountContext): Steps {
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
  let stop = STEP_RECORDS;
  while (g.workspaces.length < total) {
    if (g.workspaces.length >= stop) {
      stop = g.workspaces.length + STEP_RECORDS;
      yield;
    }
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

/**
 * A workspace's backend summaries (frozen, shared by the workspace's record, its runs and their
 * tasks): its stack's, or, when the account has no stacks at all, a local state file.
 */
export function workspaceBackends(ws: WsInfo): BackendSummaries {
  return (
    ws.stack ??
    backendSummaries({
      backendType: 'local',
      backendConfig: { path: `${ws.vcsPath}/terraform.tfstate` },
      iacStackId: '',
      managedResourceCount: 0,
    })
  );
}

/** What a workspace's runs came to, as its record summarises them. */
export interface RunsOutcome {
  /** How many runs the workspace has. */
  count: number;
  /** The workspace's backend summaries ({@link workspaceBackends}). */
  backends: BackendSummaries;
  /** The newest run: its status, plan start and last update (epoch ms). */
  newest: { status: RunStatus; start: number; updatedAt: number } | undefined;
  /** When the newest run that applied finished applying (epoch ms). */
  lastApply: number | undefined;
}

/**
 * The record of workspace `ws`, once its runs are drawn: its last update is drawn from `rng` (the
 * account's `runs` stream, right after the workspace's runs); the newest update of its repository
 * and the newest apply on its stack follow.
 */
export function workspaceRecord(
  g: AccountContext,
  rng: Random,
  ws: WsInfo,
  runs: RunsOutcome,
): WorkspaceSummary {
  const { count, backends, newest, lastApply } = runs;
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
  return summary;
}
