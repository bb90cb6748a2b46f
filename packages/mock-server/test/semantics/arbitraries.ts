/**
 * Random data and random queries for the semantics properties. Data is generated as small
 * descriptions (a few records whose members come from small pools, so that ties, shared values,
 * case and Unicode traps come up often) and built into full, schema-valid records inside the
 * property, so that a shrunk counterexample stays short.
 */
import type {
  Backend,
  Event,
  GuardrailRule,
  IacStack,
  Module,
  Repository,
  WorkspaceRun,
  WorkspaceSummary,
} from '@iacm/sdk/contract';
import fc from 'fast-check';
import { type AccountState, DEFAULT_SIZES, type MockState } from '../../src/store/state.js';

// --- pools ---------------------------------------------------------------------------------------------

/** Names: case, `ß`, dotted capital I, a combining accent and its precomposed form, spaces. */
export const NAMES = [
  'api',
  'API-prod',
  'billing',
  'Straße',
  'STRASSE',
  'İzmir',
  'izmir',
  'e\u0301clair',
  'éclair',
  'net core',
  'zeta',
] as const;
/** Repositories (`<org>/<repo>`). */
export const REPOS = ['acme/api', 'acme/Net', 'beta/infra', 'acme/İnfra'] as const;
/** Labels. */
export const LABELS = ['prod', 'Prod', 'team-a', 'pci', 'ünï'] as const;
/** Timestamps, with ties among records. */
export const TIMES = [
  '2025-12-01T00:00:00.000Z',
  '2025-12-01T00:00:00.001Z',
  '2025-12-05T10:00:00.000Z',
  '2025-12-20T23:59:59.999Z',
  '2026-01-02T08:30:00.000Z',
] as const;
/**
 * Versions and strings that are not versions: numeric segments of two digits, a leading `v` or `V`,
 * pre-releases in semver order (`RC` before `rc`, a prefix first), build metadata, missing
 * segments, leading zeros, numbers beyond 2^64, CloudFormation's dated versions.
 */
export const VERSIONS = [
  '1.9.0',
  '1.10.5',
  'v1.10.5',
  '1.10.5+build.7',
  '1.10.5-rc.1',
  '1.10.5-rc.2',
  '1.10.5-rc.10',
  '1.10.5-beta',
  '1.10.5-1',
  '1.10.5-alpha.beta',
  '1.10',
  '1.10.0',
  '2',
  '0.15.4',
  '1.02.0',
  'latest',
  '~> 3.0',
  '>= 1.2',
  'Latest',
  '',
  '1.10.x',
  'v',
  'V1.10.5',
  '1.10.5-RC.1',
  '1.10.5-rc',
  '1.10.5-alpha',
  '1.18446744073709551616',
  '1.18446744073709551615.9',
  '2010-09-09',
] as const;
/** Search texts: blanks, case, Unicode traps, padding (including a no-break space). */
export const NEEDLES = [
  '',
  '   ',
  ' \t',
  'api',
  ' API ',
  'ss',
  'ß',
  'i',
  'İ',
  'izmir',
  'éclair',
  'e\u0301',
  'prod',
  'acme/',
  '\u00a0api\u00a0',
  'no-such-text',
  '0123456789ab',
  'd2c1b0a9',
] as const;
/** A filter value no record holds. */
export const ABSENT = 'no-such-value';

const CI = ['github-actions', 'jenkins', 'atlantis'] as const;
const VCS = ['github', 'gitlab', 'bitbucket'] as const;
const RUN_STATUS = ['plan_success', 'apply_error', 'Acknowledged'] as const;
const BRANCHES = ['main', 'Main', 'feature/x'] as const;
const COMMITS = ['58417e3', 'a1b2c3d', 'ffff000'] as const;
const TITLES = ['Rotate keys', 'rotate KEYS', 'Add İ bucket', 'Straße fix'] as const;
const RUN_IDS = ['100', '2000', '300'] as const;
const BUILD_NAMES = ['Terraform', 'plan'] as const;
const PR_URLS = ['https://vcs.example/pr/1', 'https://vcs.example/pr/2'] as const;
const USERS = ['cccccccccccccccccccccccc', 'dddddddddddddddddddddddd', 'DDDDDDDDDDDDDDDDDDDDDDDD'] as const;
const RULE_TYPES = ['policy', 'cost', 'resource', 'tag'] as const;
const SCOPE_VALUES = ['*', 'prod', 'main', 'acme/api', 'api'] as const;
const STACK_STATUS = ['active', 'contains_drifts', 'empty', 'scanning'] as const;
const IAC = ['terraform', 'opentofu', 'cloudformation'] as const;
const PROVIDER_TYPES = ['aws', 'gcp', 'k8s', 'github'] as const;
const PROVIDER_ACCOUNTS = ['111111111111', 'acme', 'eks-prod'] as const;
const INTEGRATIONS = ['int-aws-1', 'int-gcp-1', ''] as const;
/** Backend locations, as `/backends` lists them (and as backend configurations give them). */
export const LOCATIONS = [
  's3://acme-state',
  's3://Acme-legacy',
  'gs://acme-state',
  'app.terraform.io/acme',
  'tfe.example/acme',
  'https://acmesa.blob.core.windows.net/tfstate',
] as const;
const BACKEND_TYPES = ['s3', 'gcs', 'remote', 'azurerm'] as const;
/**
 * Backend configurations of workspaces, by kind: each locates a backend of {@link LOCATIONS}, or
 * none (a missing member, another kind).
 */
const BACKEND_CONFIGS: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['s3', { bucket: 'acme-state', key: 'a/terraform.tfstate', region: 'us-east-1' }],
  ['s3', { bucket: 'Acme-legacy' }],
  ['s3', { key: 'no-bucket' }],
  ['gcs', { bucket: 'acme-state', prefix: 'x' }],
  ['azurerm', { storage_account_name: 'acmesa', container_name: 'tfstate', key: 'k' }],
  ['azurerm', { storage_account_name: 'acmesa' }],
  ['remote', { organization: 'acme', workspaces: { name: 'w' } }],
  ['remote', { hostname: 'tfe.example', organization: 'acme' }],
  ['remote', { hostname: 'app.terraform.io' }],
  ['local', { path: 'terraform.tfstate' }],
];
const VCS_PATHS = ['envs/prod', 'envs/İzmir', 'modules/net'] as const;
const MODULE_ORIGIN_TYPES = ['registry', 'git', 'local'] as const;
const MODULE_NAMES = ['vpc', 'VPC', 'eks', 'straße'] as const;
const PEOPLE = ['ana@acme.example', 'Bo@acme.example', 'cy@acme.example'] as const;
const EVENT_TYPES = ['mutation', 'guardrails_violation', 'clickops'] as const;
const EVENT_PROVIDERS = ['aws', 'gcp', 'iacm'] as const;
const EVENT_INTEGRATIONS = ['int-aws-1', 'int-gcp-1', 'iacm-platform'] as const;
const ASSET_TYPES = ['aws_s3_bucket', 'AWS_IAM_role', 'iacm_workspace', 'ABCDEF0123456789abcdef01'] as const;
/** Asset ids: an ARN, resource paths, and internal ids (24-hex, UUID) that free text must not read. */
const ASSET_IDS = [
  'arn:aws:s3:::acme-logs',
  'projects/acme/İzmir',
  'bucket-Straße',
  '0123456789abcdef01234567',
  'D2C1B0A9-0000-4000-8000-00000000ABCD',
] as const;
const MUTATION_TYPES = ['create', 'update', 'delete'] as const;
const ATTRIBUTES = [
  ['policyName', 'Public bucket'],
  ['severity', 'HIGH'],
  ['user', 'İlker'],
  ['note', 'e\u0301clair'],
  ['ruleId', '0123456789ABCDEF01234567'],
  ['stackId', 'd2c1b0a9-0000-4000-8000-00000000abcd'],
  ['runId', '0123456789ab'],
] as const;

/** A member that may be absent (undefined), null, or a value; values are the most frequent. */
function maybe<T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | null | undefined> {
  return fc.oneof({ arbitrary: value, weight: 4 }, fc.constant(undefined), fc.constant(null));
}

/**
 * A record holding a few of the members of `model` (at most `maxKeys`), so that queries combine a
 * few filters at a time and still match some records.
 */
export function sparseRecord<T extends Record<string, unknown>>(
  model: { [K in keyof T]: fc.Arbitrary<T[K]> },
  maxKeys = 3,
): fc.Arbitrary<Partial<T>> {
  const keys = Object.keys(model) as Array<keyof T & string>;
  return fc
    .uniqueArray(fc.constantFrom(...keys), { maxLength: maxKeys })
    .chain((chosen) =>
      fc.record(
        Object.fromEntries(chosen.map((k) => [k, model[k]])) as { [K in keyof T]: fc.Arbitrary<T[K]> },
      ),
    ) as fc.Arbitrary<Partial<T>>;
}

/** A filter value list from a pool: possibly empty (no constraint), possibly a value no record holds. */
export function valueList<T extends string>(pool: readonly T[]): fc.Arbitrary<string[]> {
  return fc.array(fc.constantFrom<string>(...pool, ABSENT), { maxLength: 3 });
}

// --- ids -----------------------------------------------------------------------------------------------

/** A 24-hex id, unique per (prefix, index); `salt` decorrelates id order from record order. */
export function hexId(prefix: string, index: number, salt: number): string {
  const mixed = (Math.imul(index + 1, 0x9e3779b1) + salt) >>> 0;
  return `${prefix}${mixed.toString(16).padStart(8, '0')}`.padEnd(24, '0');
}

/** A lower-case UUID, unique per (prefix, index). */
export function uuidId(prefix: string, index: number, salt: number): string {
  const mixed = ((Math.imul(index + 1, 0x9e3779b1) + salt) >>> 0).toString(16).padStart(8, '0');
  return `${mixed}-${prefix.padStart(4, '0')}-4000-8000-${'0'.repeat(12)}`;
}

const url = (...parts: string[]) => `https://vcs.example/${parts.map(encodeURIComponent).join('/')}`;

// --- accounts and the state ----------------------------------------------------------------------------

/** The primary account (the one the properties query). */
export const PRIMARY = {
  id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  name: 'Primary',
  accessKey: 'ak-primary',
  secretKey: 'sk-primary-secret',
};
/** A second account holding look-alike records, which no answer of the primary may show. */
export const OTHER = {
  id: 'bbbbbbbbbbbbbbbbbbbbbbbb',
  name: 'Other',
  accessKey: 'ak-other',
  secretKey: 'sk-other-secret',
};

/** An account's records; missing kinds are empty. */
export type Records = Partial<Omit<AccountState, 'account'>>;

function accountState(account: AccountState['account'], records: Records): AccountState {
  return {
    account,
    workspaces: records.workspaces ?? [],
    runs: records.runs ?? [],
    rules: records.rules ?? [],
    notifications: records.notifications ?? [],
    stacks: records.stacks ?? [],
    backends: records.backends ?? [],
    modules: records.modules ?? [],
    repositories: records.repositories ?? [],
    events: records.events ?? [],
  };
}

/** A snapshot with the primary account's records and the other account's look-alikes. */
export function stateOf(primary: Records, other: Records = {}): MockState {
  return {
    version: 1,
    seed: 'semantics',
    sizes: DEFAULT_SIZES,
    accounts: [accountState(PRIMARY, primary), accountState(OTHER, other)],
  };
}

// --- workspaces and runs -------------------------------------------------------------------------------

const runDesc = fc.record({
  runName: fc.constantFrom(...TITLES),
  title: fc.constantFrom(...TITLES),
  branch: fc.constantFrom(...BRANCHES),
  commitId: fc.constantFrom(...COMMITS),
  runId: fc.constantFrom(...RUN_IDS),
  status: fc.constantFrom(...RUN_STATUS),
  runnerType: fc.constantFrom(...CI),
  vcsType: fc.constantFrom(...VCS),
  repo: fc.constantFrom(...REPOS),
  buildName: fc.constantFrom(...BUILD_NAMES),
  pullRequestUrl: maybe(fc.constantFrom(...PR_URLS)),
  createdAt: fc.constantFrom(...TIMES),
  updatedAt: fc.constantFrom(...TIMES),
});
/** A run, as generated. */
export type RunDesc = typeof runDesc extends fc.Arbitrary<infer T> ? T : never;

const workspaceDesc = fc.record({
  name: fc.constantFrom(...NAMES),
  repo: fc.constantFrom(...REPOS),
  runnerType: fc.constantFrom(...CI),
  vcsType: fc.constantFrom(...VCS),
  status: maybe(fc.constantFrom(...RUN_STATUS)),
  lastRunTime: maybe(fc.constantFrom(...TIMES)),
  version: maybe(fc.constantFrom(...VERSIONS)),
  labels: fc.uniqueArray(fc.constantFrom(...LABELS), { maxLength: 3 }),
  managed: fc.boolean(),
  runs: fc.array(runDesc, { maxLength: 5 }),
});
/** A workspace, as generated. */
export type WorkspaceDesc = typeof workspaceDesc extends fc.Arbitrary<infer T> ? T : never;

/** Workspaces (with their runs) of the primary account; the other account gets look-alikes. */
export const workspacesWorld = fc.record({
  salt: fc.nat(),
  workspaces: fc.array(workspaceDesc, { maxLength: 8 }),
});
/** A workspaces world, as generated. */
export type WorkspacesWorld = typeof workspacesWorld extends fc.Arbitrary<infer T> ? T : never;

function optional<K extends string, V>(key: K, value: V | null | undefined): Partial<Record<K, V | null>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V | null>);
}

function buildRun(
  d: RunDesc,
  ws: WorkspaceSummary,
  index: number,
  prefix: string,
  salt: number,
): WorkspaceRun {
  const id = hexId(`${prefix}1`, index, salt);
  return {
    id,
    accountId: ws.accountId,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    workspaceId: ws.id,
    workspaceName: ws.workspaceName,
    runId: d.runId,
    runName: d.runName,
    status: d.status,
    ...optional('pullRequestUrl', d.pullRequestUrl),
    branch: d.branch,
    commitId: d.commitId,
    commitUrl: url(d.repo, 'commit', d.commitId),
    runnerType: d.runnerType,
    buildId: d.runId,
    buildName: d.buildName,
    buildUrl: url(d.repo, 'build', d.runId),
    vcsType: d.vcsType,
    repo: d.repo,
    repoUrl: url(d.repo),
    ownerSummary: { email: 'ana@acme.example', name: 'Ana', initials: 'A', customColor: '#1f6feb' },
    title: d.title,
    terraformVersion: '1.9.0',
    iacType: 'terraform',
    backendSummary: { backendType: 's3', backendConfig: {}, iacStackId: 'stack', managedResourceCount: 1 },
    planTaskId: hexId(`${prefix}3`, index, salt),
    plan: [],
    apply: [],
  } as WorkspaceRun;
}

/** The records of a workspaces world for one account (`prefix` keeps ids apart across accounts). */
export function buildWorkspaces(
  world: WorkspacesWorld,
  accountId: string,
  prefix: string,
): { workspaces: WorkspaceSummary[]; runs: WorkspaceRun[] } {
  const runs: WorkspaceRun[] = [];
  const workspaces = world.workspaces.map((d, i) => {
    const id = hexId(`${prefix}0`, i, world.salt);
    const ws = {
      id,
      accountId,
      createdAt: TIMES[0],
      updatedAt: TIMES[0],
      workspaceId: id,
      workspaceName: d.name,
      repo: d.repo,
      repoUrl: url(d.repo),
      vcsType: d.vcsType,
      runnerType: d.runnerType,
      ...optional(
        'lastRunStatus',
        d.status === null || d.status === undefined ? d.status : { description: d.status },
      ),
      ...optional('lastRunTime', d.lastRunTime),
      iacType: 'terraform',
      ...optional('iacTypeVersion', d.version),
      labels: [...d.labels],
      runsCount: d.runs.length,
      isWorkflowManaged: d.managed,
      guardrails: [],
    } as WorkspaceSummary;
    d.runs.forEach((r, j) => {
      runs.push(buildRun(r, ws, i * 10 + j, prefix, world.salt));
    });
    return ws;
  });
  return { workspaces, runs };
}

/** The state of a workspaces world: the primary's records and the other account's look-alikes. */
export function workspacesState(world: WorkspacesWorld): MockState {
  return stateOf(buildWorkspaces(world, PRIMARY.id, 'a'), buildWorkspaces(world, OTHER.id, 'b'));
}

// --- guardrails ----------------------------------------------------------------------------------------

const includeList = fc.uniqueArray(fc.constantFrom(...SCOPE_VALUES), { maxLength: 2 });
const ruleDesc = fc.record({
  name: fc.constantFrom(...NAMES),
  type: fc.constantFrom(...RULE_TYPES),
  createdBy: fc.constantFrom(...USERS),
  severity: fc.constantFrom(1, 2, 3),
  createdAt: fc.constantFrom(...TIMES),
  scope: fc.record({
    workspaces: includeList,
    repositories: includeList,
    branches: includeList,
    labels: includeList,
  }),
});

/** Guardrail rules of the primary account. */
export const rulesWorld = fc.record({ salt: fc.nat(), rules: fc.array(ruleDesc, { maxLength: 8 }) });
/** A rules world, as generated. */
export type RulesWorld = typeof rulesWorld extends fc.Arbitrary<infer T> ? T : never;

const CRITERIA: Record<(typeof RULE_TYPES)[number], GuardrailRule['criteria']> = {
  policy: { policy: { severity: 'high', policies: { include: ['p1'], exclude: [] } } },
  cost: { cost: { thresholdAmount: 10 } },
  resource: {
    resource: { regions: { include: ['*'], exclude: [] }, assetTypes: { include: ['*'], exclude: [] } },
  },
  tag: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['team'] } },
};

/** The rules of a rules world for one account. */
export function buildRules(world: RulesWorld, accountId: string, prefix: string): GuardrailRule[] {
  return world.rules.map((d, i) => ({
    id: hexId(`${prefix}2`, i, world.salt),
    accountId,
    createdBy: d.createdBy,
    name: d.name,
    type: d.type,
    scope: {
      workspaces: { include: [...d.scope.workspaces], exclude: [] },
      repositories: { include: [...d.scope.repositories], exclude: [] },
      branches: { include: [...d.scope.branches], exclude: [] },
      labels: { include: [...d.scope.labels], exclude: [] },
    },
    criteria: CRITERIA[d.type],
    isEnabled: true,
    createdAt: d.createdAt,
    updatedAt: d.createdAt,
    notificationId: null,
    severity: d.severity,
  }));
}

/** The state of a rules world. */
export function rulesState(world: RulesWorld): MockState {
  return stateOf({ rules: buildRules(world, PRIMARY.id, 'a') }, { rules: buildRules(world, OTHER.id, 'b') });
}

// --- IaC explorer --------------------------------------------------------------------------------------

const providerDesc = fc.record({
  providerType: fc.constantFrom(...PROVIDER_TYPES),
  providerAccountId: fc.constantFrom(...PROVIDER_ACCOUNTS),
  providerIntegrationId: fc.constantFrom(...INTEGRATIONS),
  isIntegrated: fc.boolean(),
});
const stackDesc = fc.record({
  name: fc.constantFrom(...NAMES),
  stateType: fc.constantFrom(...IAC),
  status: fc.constantFrom(...STACK_STATUS),
  version: fc.constantFrom(...VERSIONS),
  backend: fc.constantFrom(...BACKEND_TYPES),
  lastApplied: maybe(fc.constantFrom(...TIMES)),
  assetCount: fc.constantFrom(0, 3, 12),
  providers: fc.array(providerDesc, { maxLength: 3 }),
  vcsRepo: fc.constantFrom(...REPOS),
  vcsPath: fc.constantFrom(...VCS_PATHS),
});
const backendDesc = fc.record({
  type: fc.constantFrom(...BACKEND_TYPES),
  lastScan: maybe(fc.constantFrom(...TIMES)),
  isDeleted: fc.boolean(),
  remoteIntegrationId: fc.constantFrom(...INTEGRATIONS),
});
const repositoryDesc = fc.record({
  maxTimestamp: fc.constantFrom(1_700_000_000_000, 1_700_000_000_001, 1_760_000_000_000),
  modulesCount: fc.nat(3),
});
const moduleDesc = fc.record({
  name: fc.constantFrom(...MODULE_NAMES),
  repo: fc.constantFrom(...REPOS),
  vcsType: fc.constantFrom(...VCS),
  updateAt: fc.constantFrom(...TIMES),
  lastContributor: fc.constantFrom(...PEOPLE),
  firstContributor: fc.constantFrom(...PEOPLE),
  usageCount: fc.constantFrom(0, 2, 10),
  version: fc.constantFrom(...VERSIONS),
  originType: fc.constantFrom(...MODULE_ORIGIN_TYPES),
});

/**
 * IaC explorer records of the primary account: stacks, backends (at most one per location, some
 * with no stack), repositories (at most one per name, some with no stack) and modules.
 */
export const explorerWorld = fc.record({
  salt: fc.nat(),
  stacks: fc.array(stackDesc, { maxLength: 8 }),
  backends: fc.uniqueArray(fc.tuple(fc.constantFrom(...LOCATIONS), backendDesc), {
    maxLength: 4,
    selector: ([location]) => location,
  }),
  repositories: fc.uniqueArray(fc.tuple(fc.constantFrom(...REPOS), repositoryDesc), {
    maxLength: 4,
    selector: ([name]) => name,
  }),
  modules: fc.array(moduleDesc, { maxLength: 8 }),
  /** Workspaces bound to stacks (by index; past the end: bound to no stack) and their backend configuration. */
  bindings: fc.array(
    fc.record({
      stack: fc.oneof({ arbitrary: fc.nat(3), weight: 4 }, fc.nat(9)),
      config: fc.nat(BACKEND_CONFIGS.length - 1),
    }),
    { maxLength: 10 },
  ),
});
/** An explorer world, as generated. */
export type ExplorerWorld = typeof explorerWorld extends fc.Arbitrary<infer T> ? T : never;

/** The explorer records of an explorer world for one account. */
export function buildExplorer(world: ExplorerWorld, prefix: string): Records {
  const stacks: IacStack[] = world.stacks.map((d, i) => ({
    id: uuidId(`${prefix}5`, i, world.salt),
    name: d.name,
    stateType: d.stateType,
    status: d.status,
    version: d.version,
    backend: d.backend,
    ...optional('lastApplied', d.lastApplied),
    assetCount: d.assetCount,
    stackProviders: d.providers.map((p) => ({ ...p })),
    metadata: { vcsRepo: d.vcsRepo, vcsPath: d.vcsPath, branch: 'main' },
  }));
  const backends: Backend[] = world.backends.map(([location, d], i) => ({
    id: `backend-${prefix}-${hexId('', i, world.salt).slice(0, 8)}`,
    type: d.type,
    mainLocation: location,
    ...optional('lastScan', d.lastScan),
    isDeleted: d.isDeleted,
    remoteIntegrationId: d.remoteIntegrationId,
  }));
  const repositories: Repository[] = world.repositories.map(([name, d]) => ({
    repoFullName: name,
    maxTimestamp: d.maxTimestamp,
    topHit: { vcsId: `vcs-${name}`, vcsType: 'github', modulesCount: d.modulesCount, resourcesCount: 1 },
  }));
  const modules: Module[] = world.modules.map((d, i) => ({
    id: `module-${prefix}-${hexId('', i, world.salt).slice(0, 8)}`,
    moduleFolderPath: `modules/${d.name}`,
    repoFullName: d.repo,
    moduleVcsPath: `vcs.example/${d.repo}//modules/${d.name}`,
    vcsType: d.vcsType,
    updateAt: d.updateAt,
    lastContributor: d.lastContributor,
    firstContributor: d.firstContributor,
    usageCount: d.usageCount,
    version: d.version,
    moduleOrigin: d.originType === 'local' ? `./modules/${d.name}` : `registry.example/${d.name}`,
    moduleOriginType: d.originType,
  }));
  const workspaces = world.bindings.map((b, i) => {
    const [backendType, backendConfig] = BACKEND_CONFIGS[b.config] as (typeof BACKEND_CONFIGS)[number];
    const id = hexId(`${prefix}4`, i, world.salt);
    return {
      id,
      accountId: prefix === 'a' ? PRIMARY.id : OTHER.id,
      createdAt: TIMES[0],
      updatedAt: TIMES[0],
      workspaceId: id,
      workspaceName: `ws-${i}`,
      repo: 'acme/api',
      repoUrl: url('acme/api'),
      vcsType: 'github',
      runnerType: 'atlantis',
      iacType: 'terraform',
      backendSummary: {
        backendType,
        backendConfig: structuredClone(backendConfig),
        iacStackId: stacks[b.stack]?.id ?? uuidId(`${prefix}9`, b.stack, world.salt),
        managedResourceCount: 1,
      },
      labels: [],
      runsCount: 0,
      isWorkflowManaged: false,
      guardrails: [],
    } as WorkspaceSummary;
  });
  return { stacks, backends, repositories, modules, workspaces };
}

/** The state of an explorer world. */
export function explorerState(world: ExplorerWorld): MockState {
  return stateOf(buildExplorer(world, 'a'), buildExplorer(world, 'b'));
}

// --- events --------------------------------------------------------------------------------------------

const eventDesc = fc.record({
  timestamp: fc.constantFrom(...TIMES),
  eventType: fc.constantFrom(...EVENT_TYPES),
  providerType: fc.constantFrom(...EVENT_PROVIDERS),
  integrationId: fc.constantFrom(...EVENT_INTEGRATIONS),
  assetType: fc.constantFrom(...ASSET_TYPES),
  assetId: fc.constantFrom(...ASSET_IDS),
  mutationType: fc.constantFrom(...MUTATION_TYPES),
  attributes: fc.uniqueArray(fc.constantFrom(...ATTRIBUTES), { maxLength: 2 }),
});

/** Events of the primary account, many sharing a timestamp. */
export const eventsWorld = fc.record({ salt: fc.nat(), events: fc.array(eventDesc, { maxLength: 24 }) });
/** An events world, as generated. */
export type EventsWorld = typeof eventsWorld extends fc.Arbitrary<infer T> ? T : never;

/** The events of an events world for one account. */
export function buildEvents(world: EventsWorld, accountId: string, prefix: string): Event[] {
  return world.events.map((d, i) => ({
    id: uuidId(`${prefix}6`, i, world.salt),
    account_id: accountId,
    integration_id: d.integrationId,
    event_timestamp: d.timestamp,
    event_type: d.eventType,
    provider_type: d.providerType,
    asset_id: d.assetId,
    asset_type: d.assetType,
    event: {
      mutation_id: `mut-${i}`,
      mutation_type: d.mutationType,
      attributes: d.attributes.map(([key, value]) => ({ key, value })),
    },
  }));
}

/** The state of an events world. */
export function eventsState(world: EventsWorld): MockState {
  return stateOf(
    { events: buildEvents(world, PRIMARY.id, 'a') },
    { events: buildEvents(world, OTHER.id, 'b') },
  );
}

/** Pools the query generators draw from. */
export const POOLS = {
  CI,
  VCS,
  RUN_STATUS,
  BRANCHES,
  COMMITS,
  TITLES,
  RUN_IDS,
  BUILD_NAMES,
  PR_URLS,
  USERS,
  RULE_TYPES,
  SCOPE_VALUES,
  STACK_STATUS,
  IAC,
  PROVIDER_TYPES,
  PROVIDER_ACCOUNTS,
  INTEGRATIONS,
  BACKEND_TYPES,
  MODULE_ORIGIN_TYPES,
  EVENT_TYPES,
  EVENT_PROVIDERS,
  EVENT_INTEGRATIONS,
  ASSET_TYPES,
  ASSET_IDS,
  MUTATION_TYPES,
} as const;

// --- search text ---------------------------------------------------------------------------------------

/**
 * A search text, as a description resolved against the built records inside the property: from
 * {@link NEEDLES}, or a piece of a string member of one record (any member, ids and URLs included,
 * so that fields free text must not search come up), case changed and padded with spaces.
 */
export const needleDesc = fc.oneof(
  fc.record({ kind: fc.constant('pool' as const), text: fc.constantFrom(...NEEDLES) }),
  fc.record({
    kind: fc.constant('piece' as const),
    record: fc.nat(),
    member: fc.nat(),
    start: fc.nat(),
    length: fc.integer({ min: 1, max: 8 }),
    upper: fc.boolean(),
    pad: fc.boolean(),
  }),
);
/** A search text description. */
export type NeedleDesc = typeof needleDesc extends fc.Arbitrary<infer T> ? T : never;

/** The string members of a record, nested ones included. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** Resolves a search text description against records. */
export function needleText(desc: NeedleDesc, records: readonly unknown[]): string {
  if (desc.kind === 'pool') return desc.text;
  const record = records.length > 0 ? records[desc.record % records.length] : undefined;
  const texts = strings(record).filter((t) => t.length > 0);
  const text = texts.length > 0 ? (texts[desc.member % texts.length] as string) : 'x';
  const start = desc.start % text.length;
  const piece = text.slice(start, start + desc.length);
  const cased = desc.upper ? piece.toUpperCase() : piece;
  return desc.pad ? `  ${cased} ` : cased;
}

/** A sort of a workspace, run or guardrail search in either published form, or none. */
export function sortDesc(fields: readonly string[]): fc.Arbitrary<unknown> {
  return fc.option(
    fc
      .tuple(
        fc.uniqueArray(fc.constantFrom(...fields), { minLength: 1, maxLength: 3 }),
        fc.array(fc.constantFrom(1 as const, -1 as const), { minLength: 3, maxLength: 3 }),
        fc.boolean(),
      )
      .map(([names, orders, asObject]) => {
        const keys = names.map((name, i) => [name, { order: orders[i] as 1 | -1 }] as const);
        return asObject ? Object.fromEntries(keys) : keys.map(([name, order]) => ({ [name]: order }));
      }),
    { nil: undefined },
  );
}

/** A projection: absent, empty, or some members (duplicates allowed). */
export function projectionDesc(fields: readonly string[]): fc.Arbitrary<string[] | undefined> {
  if (fields.length === 0) return fc.constant(undefined);
  return fc.option(fc.array(fc.constantFrom(...fields), { maxLength: 4 }), { nil: undefined });
}

/** Removes undefined members, so that a body holds only what is sent. */
export function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
