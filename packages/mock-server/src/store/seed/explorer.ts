/**
 * IaC explorer records: stacks, backends, modules and repositories.
 */
import type { Backend, IacStack, Module, Repository, StackProvider } from '@iacm/sdk/contract';
import type { Random } from '../random.js';
import { SEED_EPOCH } from '../state.js';
import { integrationFor } from './accounts.js';
import type { AccountContext, RepoInfo, StackInfo, WsInfo } from './context.js';
import {
  backendSummaries,
  DAY,
  digits,
  HISTORY,
  HOUR,
  iso,
  MINUTE,
  STEP_RECORDS,
  type Steps,
  semver,
  slug,
} from './helpers.js';
import { moduleGitSource } from './urls.js';
import { type CloudProvider, MODULE_ORIGINS, MODULES, STACK_STATUS_TABLE } from './vocabulary.js';

// --- stacks -------------------------------------------------------------------------------------------

/**
 * Picks the workspaces that own a stack and makes the stacks' working forms, in steps of
 * {@link STEP_RECORDS} workspaces.
 */
export function* generateStacks(g: AccountContext): Steps {
  const rng = g.rng('stacks');
  // A scene's stacks are those of the workspaces it names; else they are spread over the workspaces.
  const owners = g.pins?.stacks && new Map(g.pins.stacks.map((pin) => [pin.workspace, pin]));
  const count = owners ? owners.size : Math.min(g.plan.stacks, g.workspaces.length);
  const total = g.workspaces.length;
  const byRepo = new Map<string, StackInfo[]>();
  const byRepoAndTool = new Map<string, StackInfo[]>();
  const byArea = new Map<string, StackInfo[]>();
  const byAreaAndEnv = new Map<string, StackInfo[]>();
  const add = (map: Map<string, StackInfo[]>, key: string, stack: StackInfo) => {
    const list = map.get(key);
    if (list) list.push(stack);
    else map.set(key, [stack]);
  };
  // Spread stack owners evenly over the workspaces, so most repositories have some.
  for (let i = 0; i < total; i++) {
    if (i > 0 && i % STEP_RECORDS === 0) yield;
    const ws = g.workspaces[i] as WsInfo;
    const owns = owners
      ? owners.has(ws.name)
      : count > 0 && Math.floor(((i + 1) * count) / total) > Math.floor((i * count) / total);
    if (!owns) continue;
    const stack = stackInfo(g, rng, ws);
    const pin = owners?.get(ws.name);
    if (pin?.status !== undefined) {
      stack.status = pin.status;
      if (pin.status === 'empty') stack.assetCount = 0;
    }
    if (pin?.assetCount !== undefined) stack.assetCount = pin.assetCount;
    ws.stack = stack;
    g.stacks.push(stack);
    add(byRepo, ws.repo.fullName, stack);
    add(byRepoAndTool, `${ws.repo.fullName} ${ws.iacType}`, stack);
    add(byArea, `${ws.repo.fullName} ${ws.iacType} ${ws.area}`, stack);
    add(byAreaAndEnv, `${ws.repo.fullName} ${ws.iacType} ${ws.area} ${ws.env}`, stack);
    ws.repo.resources += stack.assetCount;
  }
  // Workspaces without a stack of their own share one: of their area and environment when there is
  // one, else of their area, else of their repository and IaC tool, else of their repository, else
  // a nearby one.
  for (let i = 0; i < total; i++) {
    if (i > 0 && i % STEP_RECORDS === 0) yield;
    const ws = g.workspaces[i] as WsInfo;
    if (ws.stack || count === 0) continue;
    const tool = `${ws.repo.fullName} ${ws.iacType}`;
    const candidates =
      byAreaAndEnv.get(`${tool} ${ws.area} ${ws.env}`) ??
      byArea.get(`${tool} ${ws.area}`) ??
      byRepoAndTool.get(tool) ??
      byRepo.get(ws.repo.fullName);
    ws.stack = candidates
      ? rng.pick(candidates)
      : g.stacks[Math.min(count - 1, Math.floor((i * count) / total))];
  }
}

/**
 * The stack records, once the runs have told when each stack was last applied, in steps of
 * {@link STEP_RECORDS} stacks.
 */
export function* stackRecords(g: AccountContext): Steps<IacStack[]> {
  const rng = g.rng('stack-records');
  const records: IacStack[] = [];
  for (const stack of g.stacks) {
    if (records.length > 0 && records.length % STEP_RECORDS === 0) yield;
    const { owner } = stack;
    const lastApplied =
      stack.lastApplied ??
      (stack.status === 'empty'
        ? undefined
        : owner.createdAt - rng.int(HOUR, Math.max(HOUR, owner.createdAt - (SEED_EPOCH - HISTORY))));
    records.push({
      id: stack.id,
      name: owner.name,
      stateType: owner.iacType,
      status: stack.status,
      version: owner.iacVersion,
      backend: stack.backendType,
      ...(lastApplied === undefined ? {} : { lastApplied: iso(lastApplied) }),
      assetCount: stack.assetCount,
      stackProviders: stack.providers,
      metadata: { vcsRepo: owner.repo.fullName, vcsPath: owner.vcsPath, branch: 'main' },
    });
  }
  return records;
}

/** The working form of the stack a workspace owns. */
function stackInfo(g: AccountContext, rng: Random, ws: WsInfo): StackInfo {
  const provider = ws.iacType === 'cloudformation' ? 'aws' : ws.provider;
  const remote = ws.iacType !== 'cloudformation' && rng.chance(0.12);
  const tier = ws.env === 'prod' ? 'prod' : 'nonprod';
  let backendType: string;
  let location: string;
  let backendConfig: Record<string, unknown>;
  const key = `${ws.repo.name}/${ws.vcsPath}/terraform.tfstate`;
  if (remote) {
    backendType = 'remote';
    location = `app.terraform.io/${g.org}`;
    backendConfig = {
      hostname: 'app.terraform.io',
      organization: g.org,
      workspaces: { name: ws.name },
    };
  } else if (ws.iacType === 'cloudformation') {
    backendType = 's3';
    const bucket = `${g.org}-cfn-templates`;
    location = `s3://${bucket}`;
    backendConfig = { bucket, key: `${ws.vcsPath}/template.yaml`, region: ws.region };
  } else if (provider === 'aws') {
    backendType = 's3';
    const bucket = `${g.org}-tf-state-${tier}`;
    location = `s3://${bucket}`;
    backendConfig = {
      bucket,
      key,
      region: 'us-east-1',
      dynamodb_table: `${g.org}-tf-locks`,
      encrypt: true,
    };
  } else if (provider === 'gcp') {
    backendType = 'gcs';
    const bucket = `${g.org}-tfstate-${tier}`;
    location = `gs://${bucket}`;
    backendConfig = { bucket, prefix: `${ws.repo.name}/${ws.vcsPath}` };
  } else {
    backendType = 'azurerm';
    const account = `${g.org.replace(/[^a-z0-9]/g, '')}tfstate${tier}`.slice(0, 24);
    location = `https://${account}.blob.core.windows.net/tfstate`;
    backendConfig = {
      resource_group_name: `rg-tfstate-${tier}`,
      storage_account_name: account,
      container_name: 'tfstate',
      key: `${ws.name}.tfstate`,
    };
  }
  const status = STACK_STATUS_TABLE.pick(rng);
  const assetCount = status === 'empty' ? 0 : Math.floor(3 + rng.next() ** 2 * 400);
  const id = g.shared.ids.uuid(rng);
  return {
    id,
    owner: ws,
    status,
    assetCount,
    providers: stackProviders(g, rng, ws, provider),
    ...backendSummaries({ backendType, backendConfig, iacStackId: id, managedResourceCount: assetCount }),
    location,
    backendType,
    provider,
    lastApplied: undefined,
  };
}

/** A stack's providers: the workspace's cloud first, then a few others. */
function stackProviders(
  g: AccountContext,
  rng: Random,
  ws: WsInfo,
  provider: CloudProvider,
): StackProvider[] {
  const cloud = (type: CloudProvider): StackProvider => {
    const integration = integrationFor(g, type, ws.env);
    const integrated = integration !== undefined && rng.chance(0.92);
    return {
      providerType: type,
      providerAccountId: integration?.providerAccountId ?? externalAccountId(rng, type, g.org, ws.env),
      providerIntegrationId: integrated ? integration.id : '',
      isIntegrated: integrated,
    };
  };
  const providers = [cloud(provider)];
  if (ws.iacType === 'cloudformation') return providers;
  const extras = rng.int(0, 2);
  const kinds = rng.sample(['k8s', 'github', 'datadog', 'cloud'] as const, extras);
  for (const kind of kinds) {
    if (kind === 'cloud') {
      const other = rng.pick((['aws', 'gcp', 'azurerm'] as const).filter((type) => type !== provider));
      providers.push(cloud(other));
    } else {
      const accountId =
        kind === 'k8s'
          ? `${ws.provider === 'gcp' ? 'gke' : ws.provider === 'azurerm' ? 'aks' : 'eks'}-${ws.env}-${ws.region}`
          : kind === 'github'
            ? g.org
            : `datadoghq.com/${g.org}`;
      providers.push({
        providerType: kind,
        providerAccountId: accountId,
        providerIntegrationId: '',
        isIntegrated: false,
      });
    }
  }
  return providers;
}

// --- backends -----------------------------------------------------------------------------------------

/**
 * The account's backend records, one per stack location, in steps of {@link STEP_RECORDS} stacks
 * read.
 */
export function* generateBackends(g: AccountContext): Steps<Backend[]> {
  const rng = g.rng('backends');
  const seen = new Map<string, StackInfo>();
  let read = 0;
  for (const stack of g.stacks) {
    if (++read % STEP_RECORDS === 0) yield;
    if (!seen.has(stack.location)) seen.set(stack.location, stack);
  }
  const backends: Backend[] = [];
  for (const [location, stack] of seen) {
    // The integration that reads the backend: the cloud account of its tier (prod or not).
    const integration =
      stack.backendType === 'remote'
        ? undefined
        : integrationFor(g, stack.provider, stack.owner.env === 'prod' ? 'prod' : 'staging');
    backends.push({
      id: `backend-${stack.backendType}-${slug(location)}`,
      type: stack.backendType,
      mainLocation: location,
      lastScan: iso(SEED_EPOCH - rng.int(10 * MINUTE, 2 * DAY)),
      isDeleted: false,
      remoteIntegrationId: integration?.id ?? '',
    });
  }
  if (backends.length > 0 && rng.chance(0.5)) {
    const location = `s3://${g.org}-terraform-state-legacy`;
    backends.push({
      id: `backend-s3-${slug(location)}`,
      type: 's3',
      mainLocation: location,
      lastScan: iso(SEED_EPOCH - rng.int(20 * DAY, 80 * DAY)),
      isDeleted: true,
      remoteIntegrationId: integrationFor(g, 'aws', 'prod')?.id ?? '',
    });
  }
  return backends;
}

// --- modules and repositories -----------------------------------------------------------------------

/**
 * The account's module and repository records, in steps of {@link STEP_RECORDS} repositories (and
 * of workspaces counted).
 */
export function* generateModules(
  g: AccountContext,
): Steps<{ modules: Module[]; repositories: Repository[] }> {
  const rng = g.rng('modules');
  const modules: Module[] = [];
  const repositories: Repository[] = [];
  const usage = new Map<string, number>();
  let counted = 0;
  for (const ws of g.workspaces) {
    if (++counted % STEP_RECORDS === 0) yield;
    usage.set(ws.repo.fullName, (usage.get(ws.repo.fullName) ?? 0) + 1);
  }
  const add = (repo: RepoInfo, name: string, registry: readonly [string, string], pin?: ModulePin) => {
    modules.push(moduleRecord(g, rng, repo, name, registry, usage.get(repo.fullName) ?? 1, pin));
    repo.modules++;
  };
  if (g.pins?.modules) {
    pinnedModules(g, g.pins.modules, add);
    for (const repo of g.repos.values()) repositories.push(repositoryRecord(repo, g.org));
    return { modules, repositories };
  }
  for (const repo of g.repos.values()) {
    if (repositories.length > 0 && repositories.length % STEP_RECORDS === 0) yield;
    if (repo.onlyCloudFormation) {
      repositories.push(repositoryRecord(repo, g.org));
      continue;
    }
    const pool = [...repo.providers].flatMap((provider) => MODULES[provider]);
    const chosen = rng.sample(pool, rng.int(1, 4));
    for (const [name, source, version] of chosen) add(repo, name, [source, version]);
    repositories.push(repositoryRecord(repo, g.org));
  }
  return { modules, repositories };
}

/** What a scene says of a module. */
type ModulePin = NonNullable<NonNullable<AccountContext['pins']>['modules']>[number];

/**
 * A scene's modules: each in the repository it names, or in the repositories in turn (the next one
 * without a module of that name); a registry module the vocabulary knows keeps its source.
 */
function pinnedModules(
  g: AccountContext,
  pins: readonly ModulePin[],
  add: (repo: RepoInfo, name: string, registry: readonly [string, string], pin: ModulePin) => void,
): void {
  const repos = [...g.repos.values()];
  const used = new Set<string>();
  pins.forEach((pin, i) => {
    let repo = pin.repo === undefined ? undefined : g.repos.get(pin.repo);
    for (let k = 0; !repo && k < repos.length; k++) {
      const candidate = repos[(i + k) % repos.length] as RepoInfo;
      if (!used.has(`${candidate.fullName} ${pin.name}`)) repo = candidate;
    }
    if (!repo || used.has(`${repo.fullName} ${pin.name}`)) return;
    used.add(`${repo.fullName} ${pin.name}`);
    const provider = [...repo.providers][0] ?? 'aws';
    const known = MODULES[provider].find(([name]) => name === pin.name);
    add(repo, pin.name, known ? [known[1], known[2]] : [`${g.org}/${pin.name}/${provider}`, '1.0.0'], pin);
  });
}

/** One module record of `repo`; `registry` is its registry source and version. */
function moduleRecord(
  g: AccountContext,
  rng: Random,
  repo: RepoInfo,
  name: string,
  [source, registryVersion]: readonly [string, string],
  workspaces: number,
  pin?: ModulePin,
): Module {
  const drawn = MODULE_ORIGINS.pick(rng);
  const origin = pin?.origin ?? drawn;
  const gitVersion = semver(rng, 3);
  const first = rng.pick(g.people);
  const last = rng.chance(0.6) ? rng.pick(g.people) : first;
  const updated = Math.max(SEED_EPOCH - HISTORY, repo.maxUpdated - rng.int(0, 30 * DAY));
  const usageCount = rng.int(0, workspaces * 2);
  const version = pin?.version ?? (origin === 'registry' ? registryVersion : gitVersion);
  return {
    id: `module-${slug(repo.fullName)}-${name}`,
    moduleFolderPath: `modules/${name}`,
    repoFullName: repo.fullName,
    moduleVcsPath: `${repo.vcsPath}//modules/${name}`,
    vcsType: repo.vcs,
    updateAt: iso(updated),
    lastContributor: last.email,
    firstContributor: first.email,
    usageCount,
    version,
    moduleOrigin:
      origin === 'registry'
        ? source
        : origin === 'git'
          ? moduleGitSource(repo.vcs, g.org, name, version)
          : `./modules/${name}`,
    moduleOriginType: origin,
  };
}

function externalAccountId(rng: Random, type: CloudProvider, org: string, env: string): string {
  if (type === 'aws') return digits(rng, 12);
  if (type === 'gcp') return `${org}-${env}-${rng.hex(4)}`;
  return rng.uuid();
}

function repositoryRecord(repo: RepoInfo, org: string): Repository {
  return {
    repoFullName: repo.fullName,
    maxTimestamp: repo.maxUpdated,
    topHit: {
      vcsId: `vcs-${repo.vcs}-${org}`,
      vcsType: repo.vcs,
      modulesCount: repo.modules,
      resourcesCount: repo.resources,
    },
  };
}
