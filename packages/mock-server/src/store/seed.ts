/**
 * The seeded data generator: a realistic, mutually consistent and fully deterministic mock state.
 *
 * Everything comes from {@link Random} seeded with the state's seed, and every timestamp is derived from
 * {@link SEED_EPOCH} going back in time, so one seed and one set of sizes always yield the same bytes.
 * Each account and each kind of record draws from its own stream (`<seed>:<account>:<kind>`), so
 * changing one size leaves the other kinds of record of the same seed mostly unchanged.
 */
import type {
  Backend,
  ChangedFilesCodeSummary,
  ChangedFileType,
  CiTool,
  Event,
  EventAttribute,
  EventType,
  GuardrailRule,
  GuardrailsSummary,
  GuardrailType,
  GuardrailViolation,
  IacStack,
  Module,
  MutationType,
  PolicySeverity,
  Repository,
  RunStatus,
  RunTask,
  StackProvider,
  StackStatus,
  TaskBackendSummary,
  TaskResultStatus,
  TaskStatus,
  VcsType,
  WorkspaceBackendSummary,
  WorkspaceRun,
  WorkspaceSummary,
} from '@iacm/sdk/contract';
import { STACK_STATUSES } from '@iacm/sdk/contract';
import { Random } from './random.js';
import {
  type AccountState,
  DEFAULT_SEED,
  DEFAULT_SIZES,
  type MockAccount,
  type MockState,
  type NotificationConfig,
  SEED_EPOCH,
  type SeedSizes,
} from './state.js';

// ---------------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------------

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How far back workspaces, runs and rules go. */
const HISTORY = 90 * DAY;
/** How far back events go. */
const EVENT_WINDOW = 30 * DAY;

const ISO_CODES = new Array<number>(24).fill(48);
const ISO_DAYS = new Map<number, number[]>();

/**
 * The API's timestamp form of epoch milliseconds: exactly `new Date(ms).toISOString()` (the date
 * part comes from it, once per day), built twice as fast, which matters for millions of records.
 */
function iso(value: number): string {
  const ms = Math.trunc(value);
  const day = Math.floor(ms / DAY);
  let prefix = ISO_DAYS.get(day);
  if (prefix === undefined) {
    prefix = Array.from(new Date(day * DAY).toISOString().slice(0, 11), (c) => c.charCodeAt(0));
    ISO_DAYS.set(day, prefix);
  }
  const codes = ISO_CODES;
  for (let i = 0; i < 11; i++) codes[i] = prefix[i] as number;
  let rest = ms - day * DAY;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  const minute = rest % 60;
  const hour = (rest - minute) / 60;
  codes[11] = 48 + Math.floor(hour / 10);
  codes[12] = 48 + (hour % 10);
  codes[13] = 58;
  codes[14] = 48 + Math.floor(minute / 10);
  codes[15] = 48 + (minute % 10);
  codes[16] = 58;
  codes[17] = 48 + Math.floor(second / 10);
  codes[18] = 48 + (second % 10);
  codes[19] = 46;
  codes[20] = 48 + Math.floor(milli / 100);
  codes[21] = 48 + (Math.floor(milli / 10) % 10);
  codes[22] = 48 + (milli % 10);
  codes[23] = 90;
  return String.fromCharCode.apply(null, codes);
}

/** A weighted choice table, built once and sampled many times. */
class Weighted<T> {
  readonly #items: T[];
  readonly #cumulative: number[];
  readonly #total: number;

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    this.#items = entries.map(([item]) => item);
    let sum = 0;
    this.#cumulative = entries.map(([, weight]) => {
      sum += weight;
      return sum;
    });
    this.#total = sum;
  }

  pick(rng: Random): T {
    const x = rng.next() * this.#total;
    const cumulative = this.#cumulative;
    for (let i = 0; i < cumulative.length; i++) {
      if (x < (cumulative[i] as number)) return this.#items[i] as T;
    }
    return this.#items[this.#items.length - 1] as T;
  }
}

/** `n` random digits (the first one non-zero). */
function digits(rng: Random, n: number): string {
  let out = String(rng.int(1, 9));
  while (out.length < n) out += String(rng.int(0, 9));
  return out;
}

/** A `major.minor.patch` version. */
function semver(rng: Random, maxMajor: number): string {
  return `${rng.int(0, maxMajor)}.${rng.int(0, 12)}.${rng.int(0, 9)}`;
}

const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/** Writes `count` hex digits of `value` (most significant first) into `codes` at `at`. */
function writeHex(codes: number[], at: number, value: number, count: number): void {
  let rest = value;
  for (let i = at + count - 1; i >= at; i--) {
    codes[i] = HEX_CODES[rest & 15] as number;
    rest >>>= 4;
  }
}

/** 32 random bits. */
function word(rng: Random): number {
  return Math.floor(rng.next() * 0x100000000);
}

/**
 * Globally unique identifiers, built as flat strings (cheap to keep a million of).
 *
 * - Record ids are 24-hex, shaped like MongoDB object ids: 8 hex digits of the record's creation
 *   second, 8 random hex digits, and 8 hex digits of a state-wide counter XOR a per-seed mask (a
 *   bijection, so two ids never collide).
 * - UUIDs are lower-case version-4 UUIDs whose random digits come from the PRNG and whose last 8
 *   digits carry a counter the same way, so they are unique within the state by construction.
 */
class IdFactory {
  #objects = 0;
  #uuids = 0;
  readonly #mask: number;
  readonly #id: number[] = new Array<number>(24).fill(48);
  readonly #uuid: number[] = new Array<number>(36).fill(45);
  readonly #mutation: number[] = Array.from('mut-000000000000', (c) => c.charCodeAt(0));

  constructor(rng: Random) {
    this.#mask = word(rng);
  }

  objectId(rng: Random, ms: number): string {
    const codes = this.#id;
    writeHex(codes, 0, Math.floor(ms / 1000), 8);
    writeHex(codes, 8, word(rng), 8);
    writeHex(codes, 16, (this.#objects++ ^ this.#mask) >>> 0, 8);
    return String.fromCharCode.apply(null, codes);
  }

  uuid(rng: Random): string {
    const codes = this.#uuid;
    const a = word(rng);
    const b = word(rng);
    const c = word(rng);
    writeHex(codes, 0, a, 8);
    writeHex(codes, 9, b >>> 16, 4);
    codes[14] = 52; // version 4
    writeHex(codes, 15, b & 0xfff, 3);
    codes[19] = HEX_CODES[8 | (c >>> 30)] as number; // variant 10xx
    writeHex(codes, 20, (c >>> 16) & 0xfff, 3);
    writeHex(codes, 24, c & 0xffff, 4);
    writeHex(codes, 28, (this.#uuids++ ^ this.#mask) >>> 0, 8);
    return String.fromCharCode.apply(null, codes);
  }

  /** An event's `mutation_id`: `mut-` and 12 random hex digits (not unique). */
  mutationId(rng: Random): string {
    const codes = this.#mutation;
    writeHex(codes, 4, word(rng), 8);
    writeHex(codes, 12, word(rng), 4);
    return String.fromCharCode.apply(null, codes);
  }
}

/** Compiles a scope pattern with `*` wildcards. */
function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`);
}

// ---------------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------------

const ACCOUNTS: ReadonlyArray<readonly [name: string, org: string]> = [
  ['Acme Platform', 'acme'],
  ['Globex', 'globex'],
  ['Initech', 'initech'],
  ['Umbrella Corp', 'umbrella'],
  ['Hooli', 'hooli'],
  ['Stark Industries', 'stark'],
  ['Wayne Enterprises', 'wayne'],
  ['Wonka Industries', 'wonka'],
  ['Soylent', 'soylent'],
  ['Cyberdyne Systems', 'cyberdyne'],
  ['Tyrell Corp', 'tyrell'],
  ['Vandelay Industries', 'vandelay'],
];

const FIRST_NAMES = [
  'Dana',
  'Lee',
  'Priya',
  'Marco',
  'Aisha',
  'Tomás',
  'Yuki',
  'Noah',
  'Fatima',
  'Liam',
  'Chen',
  'Olga',
  'Kwame',
  'Sofia',
  'Ravi',
  'Emma',
  'Jonas',
  'Mei',
  'Diego',
  'Hana',
  'Omar',
  'Ingrid',
  'Samir',
  'Lucia',
  'Kenji',
  'Zara',
  'Mateo',
  'Nina',
  'Arjun',
  'Elif',
];
const LAST_NAMES = [
  'Reyes',
  'Nguyen',
  'Patel',
  'Rossi',
  'Okafor',
  'García',
  'Tanaka',
  'Schmidt',
  'Haddad',
  'Murphy',
  'Wang',
  'Ivanova',
  'Mensah',
  'Silva',
  'Iyer',
  'Johansson',
  'Weber',
  'Lin',
  'Torres',
  'Kim',
  'Farouk',
  'Berg',
  'Khan',
  'Moreau',
  'Sato',
  'Ali',
  'López',
  'Novak',
  'Rao',
  'Demir',
];
const COLORS = [
  '#1f6feb',
  '#8250df',
  '#bf3989',
  '#cf222e',
  '#bc4c00',
  '#1a7f37',
  '#0969da',
  '#9a6700',
  '#6e7781',
  '#2da44e',
  '#fb8500',
  '#219ebc',
  '#e63946',
  '#7209b7',
  '#3a86ff',
  '#ff006e',
];

const AREAS = [
  'network',
  'payments',
  'identity',
  'data-platform',
  'analytics',
  'billing',
  'checkout',
  'search',
  'observability',
  'security',
  'iam',
  'dns',
  'edge',
  'k8s-platform',
  'ml-training',
  'notifications',
  'orders',
  'inventory',
  'catalog',
  'auth',
  'api-gateway',
  'messaging',
  'storage',
  'backup',
  'logging',
  'ci-runners',
  'vault',
  'web',
  'mobile-backend',
  'reporting',
  'warehouse',
  'streaming',
  'cdn',
  'email',
  'ledger',
  'fraud',
  'recommendations',
  'shipping',
  'support',
  'sandbox',
];

/** A label for an area, when the area belongs to a well-known domain. */
const AREA_LABELS: Readonly<Record<string, string>> = {
  network: 'network',
  dns: 'network',
  edge: 'network',
  cdn: 'network',
  'api-gateway': 'network',
  payments: 'payments',
  billing: 'payments',
  checkout: 'payments',
  ledger: 'payments',
  fraud: 'payments',
  'data-platform': 'data',
  analytics: 'data',
  warehouse: 'data',
  streaming: 'data',
  reporting: 'data',
  'ml-training': 'data',
  security: 'security',
  iam: 'security',
  vault: 'security',
  identity: 'security',
  auth: 'security',
  'k8s-platform': 'platform',
  'ci-runners': 'platform',
  observability: 'platform',
  logging: 'platform',
  storage: 'platform',
  backup: 'platform',
};
const TEAMS: Readonly<Record<string, string>> = {
  network: 'team-netops',
  payments: 'team-payments',
  data: 'team-data',
  security: 'team-secops',
  platform: 'team-platform',
};

const ENVS = new Weighted<string>([
  ['prod', 30],
  ['staging', 24],
  ['dev', 24],
  ['qa', 8],
  ['sandbox', 6],
  ['shared', 8],
]);
const ENV_ORDER = ['dev', 'qa', 'staging', 'prod', 'sandbox', 'shared'];
const REGION_CODES = ['us', 'eu', 'apac', 'us-west'] as const;
type RegionCode = (typeof REGION_CODES)[number];
type CloudProvider = 'aws' | 'gcp' | 'azurerm';
const CLOUD_REGIONS: Readonly<Record<CloudProvider, Readonly<Record<RegionCode, string>>>> = {
  aws: { us: 'us-east-1', eu: 'eu-west-1', apac: 'ap-southeast-1', 'us-west': 'us-west-2' },
  gcp: { us: 'us-central1', eu: 'europe-west1', apac: 'asia-southeast1', 'us-west': 'us-west1' },
  azurerm: { us: 'eastus', eu: 'westeurope', apac: 'southeastasia', 'us-west': 'westus2' },
};
const PROVIDERS = new Weighted<CloudProvider>([
  ['aws', 65],
  ['gcp', 20],
  ['azurerm', 15],
]);
const INTEGRATION_TYPES: CloudProvider[] = ['aws', 'gcp', 'azurerm', 'aws', 'aws', 'gcp', 'azurerm', 'aws'];
const INTEGRATION_ENVS = ['prod', 'staging', 'dev', 'shared', 'sandbox', 'security', 'logging'];

const REPO_STYLES = [
  (area: string) => `infra-${area}`,
  (area: string) => `${area}-infra`,
  (area: string) => `terraform-${area}`,
  (area: string) => `${area}-iac`,
];
const SERVICE_SUFFIXES = ['service', 'api', 'worker', 'core'];

const DOMINANT_VCS: VcsType[] = ['github', 'gitlab', 'github', 'azuredevops', 'bitbucket'];
const VCS_TYPES_ALL: VcsType[] = ['github', 'gitlab', 'bitbucket', 'azuredevops', 'codecommit'];
const RUNNERS: Readonly<Record<VcsType, Weighted<CiTool>>> = {
  github: new Weighted<CiTool>([
    ['github-actions', 76],
    ['atlantis', 7],
    ['env0', 5],
    ['jenkins', 5],
    ['semaphore', 4],
    ['unrecognized', 3],
  ]),
  gitlab: new Weighted<CiTool>([
    ['gitlab-pipelines', 80],
    ['atlantis', 6],
    ['jenkins', 6],
    ['env0', 4],
    ['unrecognized', 4],
  ]),
  bitbucket: new Weighted<CiTool>([
    ['bitbucket-pipelines', 80],
    ['jenkins', 15],
    ['unrecognized', 5],
  ]),
  azuredevops: new Weighted<CiTool>([
    ['azure-pipelines', 88],
    ['jenkins', 8],
    ['env0', 4],
  ]),
  codecommit: new Weighted<CiTool>([
    ['jenkins', 70],
    ['unrecognized', 30],
  ]),
};
const BUILD_NAMES: Readonly<Record<CiTool, readonly string[]>> = {
  'github-actions': ['terraform', 'Terraform', 'iac', 'plan-and-apply'],
  'gitlab-pipelines': ['terraform', 'iac-pipeline', 'deploy'],
  'bitbucket-pipelines': ['terraform', 'deployment'],
  'azure-pipelines': ['infra-ci', 'terraform-deploy'],
  jenkins: ['terraform-pipeline', 'infra-deploy'],
  semaphore: ['terraform', 'infra'],
  atlantis: ['atlantis'],
  env0: ['env0-deployment'],
  unrecognized: ['ci'],
};
/** CI tools whose build ids are large opaque numbers (others count builds from a small number). */
const LARGE_BUILD_IDS = new Set<CiTool>(['github-actions', 'gitlab-pipelines', 'azure-pipelines']);

type IacKind = 'terraform' | 'opentofu' | 'cloudformation';
const IAC_VERSIONS: Readonly<Record<IacKind, Weighted<string>>> = {
  terraform: new Weighted([
    ['1.5.7', 10],
    ['1.6.6', 10],
    ['1.7.5', 18],
    ['1.8.5', 18],
    ['1.9.8', 20],
    ['1.10.5', 14],
    ['1.11.4', 10],
  ]),
  opentofu: new Weighted([
    ['1.6.2', 15],
    ['1.7.3', 25],
    ['1.8.8', 35],
    ['1.9.1', 25],
  ]),
  cloudformation: new Weighted([['2010-09-09', 1]]),
};

const RUN_STATUS_TABLE = new Weighted<RunStatus>([
  ['apply_success', 34],
  ['plan_success', 18],
  ['plan_no_changes', 14],
  ['apply_no_changes', 5],
  ['plan_error', 7],
  ['apply_error', 4],
  ['blocked', 7],
  ['Acknowledged', 3],
  ['init_error', 3],
]);
const APPLIED = new Set<RunStatus>(['applying', 'apply_success', 'apply_no_changes', 'apply_error']);

const VERBS = ['Add', 'Update', 'Remove', 'Refactor', 'Tighten', 'Enable', 'Rotate', 'Resize', 'Fix', 'Tag'];
const OBJECTS = [
  'log bucket',
  'security group rules',
  'RDS instance class',
  'NAT gateway',
  'IAM role for CI',
  'KMS key policy',
  'EKS node group',
  'VPC peering',
  'DNS records',
  'CloudFront cache policy',
  'alerting thresholds',
  'backup retention',
  'subnet layout',
  'load balancer listeners',
  'module inputs',
  'cost allocation tags',
  'WAF rules',
  'Lambda memory',
  'Redis cluster',
  'state bucket versioning',
];
const TF_FILES = [
  'main.tf',
  'variables.tf',
  'outputs.tf',
  'versions.tf',
  'providers.tf',
  'locals.tf',
  'data.tf',
  'iam.tf',
  'network.tf',
  'security.tf',
  '.terraform.lock.hcl',
  'terraform.tfvars',
];
const CFN_FILES = ['template.yaml', 'parameters.json', 'nested/vpc.yaml', 'nested/iam.yaml', 'outputs.yaml'];
const FILE_TYPES = new Weighted<ChangedFileType>([
  ['modified', 70],
  ['added', 20],
  ['deleted', 10],
]);

const STACK_STATUS_TABLE = new Weighted<StackStatus>([
  ['active', 60],
  ['contains_drifts', 18],
  ['contains_ghosts', 10],
  ['scanning', 4],
  ['empty', 3],
  ['unavailable', 2],
  ['not_supported', 1],
  ['corrupted', 2],
]);

const MODULES: Readonly<
  Record<CloudProvider, ReadonlyArray<readonly [name: string, source: string, version: string]>>
> = {
  aws: [
    ['vpc', 'terraform-aws-modules/vpc/aws', '5.8.1'],
    ['eks', 'terraform-aws-modules/eks/aws', '20.8.5'],
    ['rds', 'terraform-aws-modules/rds/aws', '6.5.4'],
    ['s3-bucket', 'terraform-aws-modules/s3-bucket/aws', '4.1.2'],
    ['iam', 'terraform-aws-modules/iam/aws', '5.39.0'],
    ['security-group', 'terraform-aws-modules/security-group/aws', '5.1.2'],
    ['alb', 'terraform-aws-modules/alb/aws', '9.9.0'],
    ['lambda', 'terraform-aws-modules/lambda/aws', '7.4.0'],
    ['kms', 'terraform-aws-modules/kms/aws', '3.0.0'],
  ],
  gcp: [
    ['network', 'terraform-google-modules/network/google', '9.1.0'],
    ['gke', 'terraform-google-modules/kubernetes-engine/google', '31.0.0'],
    ['sql-db', 'GoogleCloudPlatform/sql-db/google', '20.0.0'],
    ['cloud-storage', 'terraform-google-modules/cloud-storage/google', '6.0.0'],
    ['project-factory', 'terraform-google-modules/project-factory/google', '15.0.1'],
  ],
  azurerm: [
    ['vnet', 'Azure/vnet/azurerm', '4.1.0'],
    ['aks', 'Azure/aks/azurerm', '8.0.0'],
    ['network-security-group', 'Azure/network-security-group/azurerm', '4.1.0'],
    ['compute', 'Azure/compute/azurerm', '5.3.0'],
  ],
};
const MODULE_ORIGINS = new Weighted<'registry' | 'git' | 'local'>([
  ['registry', 50],
  ['git', 30],
  ['local', 20],
]);

/** Asset kinds per cloud, with how their ids look. */
const ASSET_KINDS: Readonly<
  Record<CloudProvider, ReadonlyArray<readonly [type: string, id: (a: AssetContext) => string]>>
> = {
  aws: [
    ['aws_s3_bucket', (a) => `arn:aws:s3:::${a.org}-${a.word}-${a.hex.slice(0, 6)}`],
    ['aws_instance', (a) => `arn:aws:ec2:${a.region}:${a.account}:instance/i-${a.hex.slice(0, 17)}`],
    [
      'aws_security_group',
      (a) => `arn:aws:ec2:${a.region}:${a.account}:security-group/sg-${a.hex.slice(0, 17)}`,
    ],
    ['aws_iam_role', (a) => `arn:aws:iam::${a.account}:role/${a.word}-role`],
    ['aws_db_instance', (a) => `arn:aws:rds:${a.region}:${a.account}:db:${a.word}-db-${a.hex.slice(0, 4)}`],
    ['aws_lambda_function', (a) => `arn:aws:lambda:${a.region}:${a.account}:function:${a.word}-handler`],
    ['aws_eks_cluster', (a) => `arn:aws:eks:${a.region}:${a.account}:cluster/${a.word}-eks`],
    ['aws_vpc', (a) => `arn:aws:ec2:${a.region}:${a.account}:vpc/vpc-${a.hex.slice(0, 17)}`],
    [
      'aws_kms_key',
      (a) => `arn:aws:kms:${a.region}:${a.account}:key/${a.hex.slice(0, 8)}-${a.hex.slice(8, 12)}`,
    ],
  ],
  gcp: [
    [
      'google_storage_bucket',
      (a) => `//storage.googleapis.com/projects/_/buckets/${a.org}-${a.word}-${a.hex.slice(0, 6)}`,
    ],
    [
      'google_compute_instance',
      (a) =>
        `//compute.googleapis.com/projects/${a.account}/zones/${a.region}-b/instances/${a.word}-${a.hex.slice(0, 4)}`,
    ],
    [
      'google_container_cluster',
      (a) => `//container.googleapis.com/projects/${a.account}/locations/${a.region}/clusters/${a.word}-gke`,
    ],
    [
      'google_sql_database_instance',
      (a) => `//cloudsql.googleapis.com/projects/${a.account}/instances/${a.word}-sql-${a.hex.slice(0, 4)}`,
    ],
    [
      'google_service_account',
      (a) =>
        `//iam.googleapis.com/projects/${a.account}/serviceAccounts/${a.word}@${a.account}.iam.gserviceaccount.com`,
    ],
  ],
  azurerm: [
    [
      'azurerm_storage_account',
      (a) =>
        `/subscriptions/${a.account}/resourceGroups/rg-${a.word}/providers/Microsoft.Storage/storageAccounts/${a.org}${a.hex.slice(0, 8)}`,
    ],
    [
      'azurerm_linux_virtual_machine',
      (a) =>
        `/subscriptions/${a.account}/resourceGroups/rg-${a.word}/providers/Microsoft.Compute/virtualMachines/vm-${a.word}-${a.hex.slice(0, 4)}`,
    ],
    [
      'azurerm_kubernetes_cluster',
      (a) =>
        `/subscriptions/${a.account}/resourceGroups/rg-${a.word}/providers/Microsoft.ContainerService/managedClusters/aks-${a.word}`,
    ],
    [
      'azurerm_key_vault',
      (a) =>
        `/subscriptions/${a.account}/resourceGroups/rg-${a.word}/providers/Microsoft.KeyVault/vaults/kv-${a.word}-${a.hex.slice(0, 4)}`,
    ],
  ],
};
/** A rule's scope and criteria, as the (tolerant) rule record types them. */
type GuardrailScope = GuardrailRule['scope'];
type GuardrailCriteria = GuardrailRule['criteria'];

interface AssetContext {
  org: string;
  account: string;
  region: string;
  word: string;
  hex: string;
}

const EVENT_TYPE_TABLE = new Weighted<EventType>([
  ['mutation', 45],
  ['clickops', 14],
  ['iac_status_change', 14],
  ['guardrails_violation', 13],
  ['governance_violation', 14],
]);
const EVENT_TYPES_ORDER: EventType[] = [
  'mutation',
  'guardrails_violation',
  'iac_status_change',
  'governance_violation',
  'clickops',
];
const MUTATION_TABLE = new Weighted<MutationType>([
  ['update', 55],
  ['create', 30],
  ['delete', 15],
]);
const MUTATION_FIELDS = [
  'tags',
  'tags.team',
  'versioning.enabled',
  'instance_type',
  'ingress',
  'policy',
  'encryption',
  'public_access_block',
  'desired_size',
  'engine_version',
  'deletion_protection',
];
const MUTATION_SOURCES = ['terraform', 'console', 'api', 'cli'];
/** Console actions a person takes on each kind of asset (ClickOps events). */
const CLICKOPS_EVENTS: Readonly<Record<string, readonly string[]>> = {
  aws_s3_bucket: ['PutBucketPolicy', 'PutBucketAcl', 'DeleteBucketEncryption'],
  aws_instance: ['ModifyInstanceAttribute', 'StopInstances'],
  aws_security_group: ['AuthorizeSecurityGroupIngress', 'RevokeSecurityGroupEgress'],
  aws_iam_role: ['UpdateAssumeRolePolicy', 'AttachRolePolicy'],
  aws_db_instance: ['ModifyDBInstance', 'RebootDBInstance'],
  aws_lambda_function: ['UpdateFunctionConfiguration', 'UpdateFunctionCode'],
  aws_eks_cluster: ['UpdateClusterConfig', 'UpdateNodegroupConfig'],
  aws_vpc: ['ModifyVpcAttribute', 'CreateRoute'],
  aws_kms_key: ['PutKeyPolicy', 'DisableKeyRotation'],
  google_storage_bucket: ['storage.setIamPermissions', 'storage.buckets.update'],
  google_compute_instance: ['compute.instances.setMachineType', 'compute.instances.setMetadata'],
  google_container_cluster: ['container.clusters.update'],
  google_sql_database_instance: ['cloudsql.instances.update'],
  google_service_account: ['iam.serviceAccounts.update', 'iam.serviceAccountKeys.create'],
  azurerm_storage_account: ['Microsoft.Storage/storageAccounts/write'],
  azurerm_linux_virtual_machine: ['Microsoft.Compute/virtualMachines/write'],
  azurerm_kubernetes_cluster: ['Microsoft.ContainerService/managedClusters/write'],
  azurerm_key_vault: ['Microsoft.KeyVault/vaults/accessPolicies/write'],
};
const CONSOLES: Readonly<Record<CloudProvider, string>> = {
  aws: 'console.aws.amazon.com',
  gcp: 'console.cloud.google.com',
  azurerm: 'portal.azure.com',
};
/** Governance policies: id, name, framework, and the asset types they check (all, when absent). */
type GovernancePolicy = readonly [
  id: string,
  name: string,
  framework: string,
  assetTypes?: readonly string[],
];
const GOVERNANCE_POLICIES: readonly GovernancePolicy[] = [
  ['s3-bucket-public-read', 'S3 bucket allows public read', 'CIS AWS 1.4', ['aws_s3_bucket']],
  ['s3-bucket-no-encryption', 'S3 bucket without default encryption', 'SOC 2', ['aws_s3_bucket']],
  ['ec2-imdsv1', 'Instance allows IMDSv1', 'CIS AWS 1.4', ['aws_instance']],
  ['sg-open-ssh', 'Security group allows SSH from 0.0.0.0/0', 'CIS AWS 1.4', ['aws_security_group']],
  ['iam-role-admin-access', 'IAM role with administrator access', 'CIS AWS 1.4', ['aws_iam_role']],
  ['rds-backup-disabled', 'Database without automated backups', 'PCI DSS 4.0', ['aws_db_instance']],
  ['rds-public', 'Database is publicly accessible', 'PCI DSS 4.0', ['aws_db_instance']],
  ['eks-public-endpoint', 'Cluster API endpoint is public', 'CIS EKS 1.4', ['aws_eks_cluster']],
  ['vpc-flow-logs-disabled', 'VPC without flow logs', 'CIS AWS 1.4', ['aws_vpc']],
  ['kms-rotation-disabled', 'KMS key rotation disabled', 'CIS AWS 1.4', ['aws_kms_key']],
  [
    'lambda-no-dlq',
    'Function without a dead-letter queue',
    'Internal reliability policy',
    ['aws_lambda_function'],
  ],
  [
    'gcs-uniform-access-disabled',
    'Bucket without uniform bucket-level access',
    'CIS GCP 1.3',
    ['google_storage_bucket'],
  ],
  ['gce-public-ip', 'VM instance with a public IP address', 'CIS GCP 1.3', ['google_compute_instance']],
  ['gke-legacy-abac', 'Cluster with legacy ABAC enabled', 'CIS GKE 1.4', ['google_container_cluster']],
  ['sql-no-backups', 'Cloud SQL instance without backups', 'PCI DSS 4.0', ['google_sql_database_instance']],
  [
    'sa-user-managed-keys',
    'Service account with user-managed keys',
    'CIS GCP 1.3',
    ['google_service_account'],
  ],
  ['storage-account-https-only', 'Storage account allows HTTP', 'CIS Azure 2.0', ['azurerm_storage_account']],
  [
    'vm-unmanaged-disks',
    'Virtual machine with unencrypted disks',
    'CIS Azure 2.0',
    ['azurerm_linux_virtual_machine'],
  ],
  ['aks-rbac-disabled', 'Cluster without Kubernetes RBAC', 'CIS AKS 1.3', ['azurerm_kubernetes_cluster']],
  ['key-vault-no-purge-protection', 'Key vault without purge protection', 'SOC 2', ['azurerm_key_vault']],
  ['missing-owner-tag', 'Resource without owner tag', 'Internal tagging policy'],
  ['missing-cost-center-tag', 'Resource without cost-center tag', 'Internal tagging policy'],
];

/** The governance policies that check an asset type, as indices into {@link GOVERNANCE_POLICIES}. */
const GOVERNANCE_BY_ASSET = new Map<string, number[]>();
function governancePolicies(assetType: string): number[] {
  let list = GOVERNANCE_BY_ASSET.get(assetType);
  if (!list) {
    list = [];
    for (const [i, [, , , types]] of GOVERNANCE_POLICIES.entries()) {
      if (types === undefined || types.includes(assetType)) list.push(i);
    }
    GOVERNANCE_BY_ASSET.set(assetType, list);
  }
  return list;
}
const POLICY_SEVERITY_LIST: PolicySeverity[] = ['critical', 'high', 'medium', 'low', 'info'];
/** Severities of governance findings, as indices into {@link POLICY_SEVERITY_LIST}. */
const POLICY_SEVERITY_TABLE = new Weighted<number>([
  [0, 15],
  [1, 35],
  [2, 30],
  [3, 15],
  [4, 5],
]);
const SEVERITY_NAMES: Readonly<Record<number, string>> = { 1: 'flexible', 2: 'strict', 3: 'warning' };

// ---------------------------------------------------------------------------------------------------
// Generation context
// ---------------------------------------------------------------------------------------------------

interface Person {
  id: string;
  name: string;
  email: string;
  /** The person as a run's `ownerSummary` (frozen, shared by their runs). */
  summary: WorkspaceRun['ownerSummary'];
}

interface Integration {
  id: string;
  type: CloudProvider;
  env: string;
  providerAccountId: string;
}

interface RepoInfo {
  fullName: string;
  name: string;
  vcs: VcsType;
  url: string;
  /** Host-relative path prefix of module sources (`github.com/acme/infra-network`). */
  vcsPath: string;
  runner: CiTool;
  providers: Set<CloudProvider>;
  onlyCloudFormation: boolean;
  maxUpdated: number;
  resources: number;
  modules: number;
}

interface StackInfo extends BackendSummaries {
  id: string;
  owner: WsInfo;
  status: StackStatus;
  assetCount: number;
  providers: StackProvider[];
  location: string;
  backendType: string;
  provider: CloudProvider;
  /** The newest apply of a workspace on this stack (epoch ms). */
  lastApplied: number | undefined;
}

interface WsInfo {
  id: string;
  name: string;
  area: string;
  env: string;
  region: string;
  provider: CloudProvider;
  repo: RepoInfo;
  runner: CiTool;
  iacType: IacKind;
  iacVersion: string;
  labels: string[];
  createdAt: number;
  isWorkflowManaged: boolean;
  vcsPath: string;
  stack: StackInfo | undefined;
  guardrails: string[];
  /** Changed-file records of the workspace's runs, by file and change kind (made on first use). */
  files: Array<ChangedFile | undefined>;
}

interface ViolatingRun {
  time: number;
  run: WorkspaceRun;
  ruleIds: string[];
  /** Attribute lists of guardrail violation events about this run, by rule id (made on first use). */
  lists: Map<string, EventAttribute[]> | undefined;
}

interface AccountPlan {
  workspaces: number;
  runsPerWorkspace: number;
  rules: number;
  stacks: number;
  events: number;
  integrations: number;
}

interface Shared {
  seed: number | string;
  ids: IdFactory;
  /** Counts generated records for `onProgress`; never read by the generation itself. */
  progress: Progress | undefined;
}

/**
 * Counts the records {@link generateState} has generated and reports every `every` of them. It reads
 * no random numbers and changes no record, so the generated state is the same with or without it.
 */
class Progress {
  #done = 0;
  #next: number;
  #reported = -1;
  readonly #total: number;
  readonly #every: number;
  readonly #report: (done: number, total: number) => void;

  constructor(total: number, every: number, report: (done: number, total: number) => void) {
    this.#total = total;
    this.#every = every;
    this.#next = every;
    this.#report = report;
  }

  /** One more record generated. */
  add(): void {
    if (this.#done < this.#total) this.#done += 1;
    if (this.#done >= this.#next) {
      this.#next = this.#done + this.#every;
      this.#reported = this.#done;
      this.#report(this.#done, this.#total);
    }
  }

  /** Reports `total` of `total`, unless that was the last report. */
  finish(): void {
    if (this.#reported === this.#total) return;
    this.#done = this.#total;
    this.#reported = this.#total;
    this.#report(this.#total, this.#total);
  }
}

class AccountGenerator {
  readonly #shared: Shared;
  readonly #index: number;
  readonly #plan: AccountPlan;
  readonly #org: string;
  readonly #name: string;
  #accountId = '';
  #people: Person[] = [];
  #integrations: Integration[] = [];
  #repos = new Map<string, RepoInfo>();
  #areaProviders = new Map<string, CloudProvider>();
  #workspaces: WsInfo[] = [];
  #rules: GuardrailRule[] = [];
  #rulesById = new Map<string, GuardrailRule>();
  #stacks: StackInfo[] = [];
  #violatingRuns: ViolatingRun[] = [];
  /** Attribute lists of guardrail violation events that name no run, by rule id. */
  #ruleLists = new Map<string, EventAttribute[]>();

  constructor(shared: Shared, index: number, plan: AccountPlan) {
    this.#shared = shared;
    this.#index = index;
    this.#plan = plan;
    const base = ACCOUNTS[index % ACCOUNTS.length] as readonly [string, string];
    const round = Math.floor(index / ACCOUNTS.length);
    this.#name = round === 0 ? base[0] : `${base[0]} ${round + 1}`;
    this.#org = round === 0 ? base[1] : `${base[1]}${round + 1}`;
  }

  #rng(kind: string): Random {
    return new Random(`${String(this.#shared.seed)}:${this.#index}:${kind}`);
  }

  #objectId(rng: Random, ms: number): string {
    return this.#shared.ids.objectId(rng, ms);
  }

  generate(): AccountState {
    const account = this.#account();
    this.#generatePeople();
    this.#generateIntegrations();
    this.#generateWorkspaces();
    const { rules, notifications } = this.#generateRules();
    this.#assignGuardrails();
    this.#generateStacks();
    const { workspaces, runs } = this.#generateRuns();
    const stacks = this.#stackRecords();
    const backends = this.#generateBackends();
    const { modules, repositories } = this.#generateModules();
    const events = this.#generateEvents();
    return {
      account,
      workspaces,
      runs,
      rules,
      notifications,
      stacks,
      backends,
      modules,
      repositories,
      events,
    };
  }

  // --- account, people, integrations ----------------------------------------------------------------

  #account(): MockAccount {
    const rng = this.#rng('account');
    this.#accountId = this.#objectId(rng, SEED_EPOCH - rng.int(400, 900) * DAY);
    return {
      id: this.#accountId,
      name: this.#name,
      accessKey: `iacm_ak_${rng.hex(16)}`,
      secretKey: `iacm_sk_${rng.hex(32)}`,
    };
  }

  #generatePeople(): void {
    const rng = this.#rng('people');
    const count = Math.min(60, 8 + Math.floor(this.#plan.workspaces / 8));
    const seen = new Set<string>();
    while (this.#people.length < count && seen.size < FIRST_NAMES.length * LAST_NAMES.length) {
      const first = rng.pick(FIRST_NAMES);
      const last = rng.pick(LAST_NAMES);
      const key = `${first} ${last}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const local = `${first}.${last}`
        .toLowerCase()
        .normalize('NFD')
        .replace(/[^a-z.]/g, '');
      const email = `${local}@${this.#org}.example`;
      this.#people.push({
        id: this.#objectId(rng, SEED_EPOCH - rng.int(120, 700) * DAY),
        name: key,
        email,
        summary: Object.freeze({
          email,
          name: key,
          initials: `${first[0]}${last[0]}`,
          customColor: rng.pick(COLORS),
        }),
      });
    }
  }

  #generateIntegrations(): void {
    const rng = this.#rng('integrations');
    const perKind = new Map<string, number>();
    for (let i = 0; i < this.#plan.integrations; i++) {
      const type = INTEGRATION_TYPES[i % INTEGRATION_TYPES.length] as CloudProvider;
      const ofType = this.#integrations.filter((integration) => integration.type === type).length;
      const env = INTEGRATION_ENVS[ofType % INTEGRATION_ENVS.length] as string;
      const key = `${type}-${env}`;
      const n = (perKind.get(key) ?? 0) + 1;
      perKind.set(key, n);
      const providerAccountId =
        type === 'aws' ? digits(rng, 12) : type === 'gcp' ? `${this.#org}-${env}-${rng.hex(4)}` : rng.uuid();
      this.#integrations.push({ id: `int-${key}-${n}`, type, env, providerAccountId });
    }
  }

  /** The account's integration of a cloud, preferring one of the given environment. */
  #integrationFor(type: CloudProvider, env: string): Integration | undefined {
    let fallback: Integration | undefined;
    for (const integration of this.#integrations) {
      if (integration.type !== type) continue;
      if (integration.env === env) return integration;
      fallback ??= integration;
    }
    return fallback;
  }

  // --- workspaces -------------------------------------------------------------------------------------

  #repoFor(
    rng: Random,
    area: string,
    provider: CloudProvider,
    cloudFormation: boolean,
    vcsTable: Weighted<VcsType>,
  ) {
    const style = REPO_STYLES[this.#index % REPO_STYLES.length] as (area: string) => string;
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
    const fullName = `${this.#org}/${name}`;
    let repo = this.#repos.get(fullName);
    if (!repo) {
      const vcs = vcsTable.pick(rng);
      const url = repoUrl(vcs, this.#org, name);
      repo = {
        fullName,
        name,
        vcs,
        url,
        vcsPath: moduleVcsPrefix(vcs, this.#org, name),
        runner: RUNNERS[vcs].pick(rng),
        providers: new Set(),
        onlyCloudFormation: cloudFormation,
        maxUpdated: 0,
        resources: 0,
        modules: 0,
      };
      this.#repos.set(fullName, repo);
    }
    repo.providers.add(provider);
    if (!cloudFormation) repo.onlyCloudFormation = false;
    return repo;
  }

  #generateWorkspaces(): void {
    const rng = this.#rng('workspaces');
    const dominant = DOMINANT_VCS[this.#index % DOMINANT_VCS.length] as VcsType;
    const vcsTable = new Weighted<VcsType>(
      VCS_TYPES_ALL.map((vcs): [VcsType, number] => [
        vcs,
        vcs === dominant ? 70 : vcs === 'gitlab' || vcs === 'github' ? 12 : vcs === 'codecommit' ? 3 : 5,
      ]),
    );
    const names = new Set<string>();
    const suffixes = new Map<string, number>();
    const total = this.#plan.workspaces;
    while (this.#workspaces.length < total) {
      // A group: one area of one repository, deployed to a few environments (and maybe regions).
      const area = rng.pick(AREAS);
      let provider = this.#areaProviders.get(area);
      if (!provider) {
        provider = PROVIDERS.pick(rng);
        this.#areaProviders.set(area, provider);
      }
      const iacType: IacKind =
        provider === 'aws' && rng.chance(0.15)
          ? 'cloudformation'
          : rng.chance(0.27)
            ? 'opentofu'
            : 'terraform';
      const repo = this.#repoFor(rng, area, provider, iacType === 'cloudformation', vcsTable);
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
          if (this.#workspaces.length >= total) break;
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
          this.#workspaces.push({
            id: this.#objectId(rng, createdAt),
            name,
            area,
            env,
            region: CLOUD_REGIONS[provider][regionCode ?? 'us'],
            provider,
            repo,
            runner: rng.chance(0.9) ? repo.runner : RUNNERS[repo.vcs].pick(rng),
            iacType,
            iacVersion: rng.chance(0.85) ? iacVersion : IAC_VERSIONS[iacType].pick(rng),
            labels: this.#labels(rng, area, env),
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

  #labels(rng: Random, area: string, env: string): string[] {
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

  // --- guardrail rules -------------------------------------------------------------------------------

  #generateRules(): { rules: GuardrailRule[]; notifications: NotificationConfig[] } {
    const rng = this.#rng('rules');
    const typeTable = new Weighted<GuardrailType>([
      ['policy', 35],
      ['cost', 25],
      ['resource', 20],
      ['tag', 20],
    ]);
    const severityTable = new Weighted<1 | 2 | 3>([
      [1, 35],
      [2, 35],
      [3, 30],
    ]);
    const usedNames = new Set<string>();
    const repoNames = [...this.#repos.keys()];
    const notifications: NotificationConfig[] = [];
    const order: GuardrailType[] = ['policy', 'cost', 'resource', 'tag'];
    for (let i = 0; i < this.#plan.rules; i++) {
      const type = i < order.length ? (order[i] as GuardrailType) : typeTable.pick(rng);
      const template = ruleTemplate(rng, type, this.#org);
      let name = template.name;
      for (let n = 2; usedNames.has(name); n++) name = `${template.name} #${n}`;
      usedNames.add(name);
      const scope = i === 0 ? globalScope(rng) : this.#scope(rng, repoNames);
      const createdAt = SEED_EPOCH - HISTORY - rng.int(0, 20 * DAY) + rng.int(0, 85 * DAY);
      const updatedAt = rng.chance(0.4)
        ? createdAt
        : Math.min(createdAt + rng.int(MINUTE, 30 * DAY), SEED_EPOCH - rng.int(HOUR, 3 * DAY));
      const id = this.#objectId(rng, createdAt);
      const notificationId = this.#objectId(rng, createdAt);
      const rule: GuardrailRule = {
        id,
        accountId: this.#accountId,
        createdBy: rng.pick(this.#people).id,
        name,
        type,
        scope,
        criteria: template.criteria,
        isEnabled: i === 0 || rng.chance(0.85),
        createdAt: iso(createdAt),
        updatedAt: iso(updatedAt),
        notificationId,
        severity: i === 0 ? 2 : severityTable.pick(rng),
      };
      this.#rules.push(rule);
      this.#rulesById.set(id, rule);
      notifications.push({ id: notificationId, ruleId: id, integrationIds: [], createdAt: iso(createdAt) });
    }
    return { rules: this.#rules, notifications };
  }

  #scope(rng: Random, repoNames: string[]): GuardrailScope {
    const none = () => ({ include: [] as string[], exclude: [] as string[] });
    const branches = rng.chance(0.6)
      ? { include: ['main'], exclude: [] }
      : { include: ['*'], exclude: rng.chance(0.5) ? ['renovate/*'] : [] };
    const kind = rng.int(0, 4);
    if (kind === 0) return { ...globalScope(rng), branches };
    if (kind === 1) {
      return rng.chance(0.5)
        ? { workspaces: none(), repositories: none(), branches, labels: { include: ['prod'], exclude: [] } }
        : {
            workspaces: { include: ['*-prod', '*-prod-*'], exclude: [] },
            repositories: none(),
            branches,
            labels: none(),
          };
    }
    if (kind === 2 && repoNames.length > 0) {
      return {
        workspaces: none(),
        repositories: { include: rng.sample(repoNames, rng.int(1, 3)), exclude: [] },
        branches,
        labels: none(),
      };
    }
    if (kind === 3) {
      const label = rng.pick([
        'payments',
        'data',
        'network',
        'security',
        'team-platform',
        'team-payments',
        'team-data',
      ]);
      return {
        workspaces: none(),
        repositories: none(),
        branches,
        labels: { include: [label], exclude: [] },
      };
    }
    return {
      workspaces: { include: ['*'], exclude: ['sandbox-*', '*-sandbox', '*-sandbox-*'] },
      repositories: { include: [`${this.#org}/*`], exclude: [] },
      branches,
      labels: { include: [], exclude: ['sandbox'] },
    };
  }

  #assignGuardrails(): void {
    const matchers = this.#rules.map((rule) => ({ id: rule.id, match: scopeMatcher(rule.scope) }));
    for (const ws of this.#workspaces) {
      for (const { id, match } of matchers)
        if (match(ws.name, ws.repo.fullName, ws.labels)) ws.guardrails.push(id);
    }
  }

  // --- stacks -------------------------------------------------------------------------------------------

  #generateStacks(): void {
    const rng = this.#rng('stacks');
    const count = Math.min(this.#plan.stacks, this.#workspaces.length);
    const total = this.#workspaces.length;
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
      const ws = this.#workspaces[i] as WsInfo;
      const owns = count > 0 && Math.floor(((i + 1) * count) / total) > Math.floor((i * count) / total);
      if (!owns) continue;
      const stack = this.#stack(rng, ws);
      ws.stack = stack;
      this.#stacks.push(stack);
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
      const ws = this.#workspaces[i] as WsInfo;
      if (ws.stack || count === 0) continue;
      const tool = `${ws.repo.fullName} ${ws.iacType}`;
      const candidates =
        byAreaAndEnv.get(`${tool} ${ws.area} ${ws.env}`) ??
        byArea.get(`${tool} ${ws.area}`) ??
        byRepoAndTool.get(tool) ??
        byRepo.get(ws.repo.fullName);
      ws.stack = candidates
        ? rng.pick(candidates)
        : this.#stacks[Math.min(count - 1, Math.floor((i * count) / total))];
    }
  }

  /** The stack records, once the runs have told when each stack was last applied. */
  #stackRecords(): IacStack[] {
    const rng = this.#rng('stack-records');
    return this.#stacks.map((stack) => {
      const { owner } = stack;
      const lastApplied =
        stack.lastApplied ??
        (stack.status === 'empty'
          ? undefined
          : owner.createdAt - rng.int(HOUR, Math.max(HOUR, owner.createdAt - (SEED_EPOCH - HISTORY))));
      return {
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
      };
    });
  }

  #stack(rng: Random, ws: WsInfo): StackInfo {
    const provider = ws.iacType === 'cloudformation' ? 'aws' : ws.provider;
    const remote = ws.iacType !== 'cloudformation' && rng.chance(0.12);
    const tier = ws.env === 'prod' ? 'prod' : 'nonprod';
    let backendType: string;
    let location: string;
    let backendConfig: Record<string, unknown>;
    const key = `${ws.repo.name}/${ws.vcsPath}/terraform.tfstate`;
    if (remote) {
      backendType = 'remote';
      location = `app.terraform.io/${this.#org}`;
      backendConfig = {
        hostname: 'app.terraform.io',
        organization: this.#org,
        workspaces: { name: ws.name },
      };
    } else if (ws.iacType === 'cloudformation') {
      backendType = 's3';
      const bucket = `${this.#org}-cfn-templates`;
      location = `s3://${bucket}`;
      backendConfig = { bucket, key: `${ws.vcsPath}/template.yaml`, region: ws.region };
    } else if (provider === 'aws') {
      backendType = 's3';
      const bucket = `${this.#org}-tf-state-${tier}`;
      location = `s3://${bucket}`;
      backendConfig = {
        bucket,
        key,
        region: 'us-east-1',
        dynamodb_table: `${this.#org}-tf-locks`,
        encrypt: true,
      };
    } else if (provider === 'gcp') {
      backendType = 'gcs';
      const bucket = `${this.#org}-tfstate-${tier}`;
      location = `gs://${bucket}`;
      backendConfig = { bucket, prefix: `${ws.repo.name}/${ws.vcsPath}` };
    } else {
      backendType = 'azurerm';
      const account = `${this.#org.replace(/[^a-z0-9]/g, '')}tfstate${tier}`.slice(0, 24);
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
    const id = this.#shared.ids.uuid(rng);
    return {
      id,
      owner: ws,
      status,
      assetCount,
      providers: this.#stackProviders(rng, ws, provider),
      ...backendSummaries({ backendType, backendConfig, iacStackId: id, managedResourceCount: assetCount }),
      location,
      backendType,
      provider,
      lastApplied: undefined,
    };
  }

  #stackProviders(rng: Random, ws: WsInfo, provider: CloudProvider): StackProvider[] {
    const cloud = (type: CloudProvider): StackProvider => {
      const integration = this.#integrationFor(type, ws.env);
      const integrated = integration !== undefined && rng.chance(0.92);
      return {
        providerType: type,
        providerAccountId: integration?.providerAccountId ?? externalAccountId(rng, type, this.#org, ws.env),
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
              ? this.#org
              : `datadoghq.com/${this.#org}`;
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

  // --- runs ---------------------------------------------------------------------------------------------

  #generateRuns(): { workspaces: WorkspaceSummary[]; runs: WorkspaceRun[] } {
    const rng = this.#rng('runs');
    const workspaces: WorkspaceSummary[] = [];
    const runs: WorkspaceRun[] = [];
    const strictRules = this.#rules
      .filter((rule) => rule.severity === 2 && rule.isEnabled)
      .map((rule) => rule.id);
    const max = this.#plan.runsPerWorkspace;
    for (const ws of this.#workspaces) {
      const count = max > 0 && rng.chance(0.86) ? rng.int(1, max) : 0;
      // The backend summaries are the stack's, frozen and shared by its workspaces, their runs and tasks.
      const backends = ws.stack ?? detachedBackend(ws);
      const enabled = ws.guardrails.filter((id) => this.#rulesById.get(id)?.isEnabled);
      const wsStrict = enabled.filter((id) => this.#rulesById.get(id)?.severity === 2);
      const wsSoft = enabled.filter((id) => this.#rulesById.get(id)?.severity !== 2);
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
        buildBase: LARGE_BUILD_IDS.has(ws.runner)
          ? rng.int(4_000_000_000, 12_000_000_000)
          : rng.int(10, 2000),
        prBase: rng.int(5, 900),
        envUuid: ws.runner === 'env0' || ws.runner === 'semaphore' ? rng.uuid() : '',
      };
      this.#shared.progress?.add();
      const start = ws.createdAt + 10 * MINUTE;
      const end = SEED_EPOCH - 15 * MINUTE;
      const slot = (end - start) / Math.max(count, 1);
      let newest: WorkspaceRun | undefined;
      let lastApply: string | undefined;
      for (let k = 0; k < count; k++) {
        const runStart = Math.floor(start + k * slot + rng.next() * slot * 0.55);
        const budget = Math.max(3, Math.floor(slot * 0.4));
        const run = this.#run(rng, context, k, k === count - 1, runStart, budget);
        runs.push(run);
        newest = run;
        const apply = run.apply[0];
        if (apply) lastApply = apply.updatedAt;
      }
      const updatedAt = newest
        ? Date.parse(newest.updatedAt) + rng.int(SECOND, 5 * SECOND)
        : ws.createdAt + rng.int(MINUTE, DAY);
      ws.repo.maxUpdated = Math.max(ws.repo.maxUpdated, updatedAt);
      if (lastApply !== undefined && ws.stack) {
        const applied = Date.parse(lastApply);
        ws.stack.lastApplied = Math.max(ws.stack.lastApplied ?? 0, applied);
      }
      const summary = {
        id: ws.id,
        accountId: this.#accountId,
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
        if (lastApply !== undefined) summary.lastApplyTime = lastApply;
        summary.lastPlanTime = (newest.plan[0] as RunTask).createdAt;
        summary.lastRunTime = newest.updatedAt;
      }
      summary.iacType = ws.iacType;
      summary.iacTypeVersion = ws.iacVersion;
      summary.backendSummary = backends.backendSummary;
      summary.labels = ws.labels;
      summary.runsCount = count;
      summary.isWorkflowManaged = ws.isWorkflowManaged;
      summary.guardrails = ws.guardrails;
      workspaces.push(summary);
    }
    return { workspaces, runs };
  }

  #run(rng: Random, c: RunContext, k: number, newest: boolean, start: number, budget: number): WorkspaceRun {
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
    const owner = rng.pick(this.#people);
    const commitId = rng.hex(7);
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
    const startedAt = iso(start);
    const plannedAt = iso(planEnd);

    const guardrailsSummary = this.#guardrailsSummary(rng, c, status);
    const changed = changedFiles(rng, ws);
    const [planStatus, planResult] = planOutcome(status);
    const ids = this.#shared.ids;
    const planId = ids.objectId(rng, start);
    const plan: RunTask = {
      id: planId,
      accountId: this.#accountId,
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
    let applyId: string | undefined;
    let updatedAt = plannedAt;
    if (applied) {
      // The apply task exists only for runs that applied.
      applyId = ids.objectId(rng, applyStart);
      const [applyStatus, applyResult] = applyOutcome(status);
      updatedAt = iso(applyEnd);
      apply = [
        {
          id: applyId,
          accountId: this.#accountId,
          createdAt: iso(applyStart),
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
    const runRecordId = ids.objectId(rng, start);
    const pr = branch !== 'main' && rng.chance(0.85) ? String(c.prBase + k * rng.int(1, 9)) : undefined;
    // Members in the contract's order (a snapshot read back through the schemas is then identical);
    // optional members are present only when they apply, never set to undefined: pull-request members
    // on runs a pull request started, `applyTaskId` on runs that applied.
    const run = {
      id: runRecordId,
      accountId: this.#accountId,
      createdAt: startedAt,
      updatedAt,
      workspaceId: ws.id,
      workspaceName: ws.name,
      runId: buildId,
      runName: title,
      status,
    } as WorkspaceRun;
    if (pr !== undefined) {
      run.pullRequestId = pr;
      run.pullRequestUrl = pullRequestUrl(ws.repo, pr);
    }
    run.branch = branch;
    run.commitId = commitId;
    run.commitUrl = commitUrl(ws.repo, commitId);
    run.runnerType = ws.runner;
    run.buildId = buildId;
    run.buildName = c.buildName;
    run.buildUrl = buildUrl(ws, this.#org, buildId, c.envUuid, commitId);
    run.vcsType = ws.repo.vcs;
    run.repo = ws.repo.fullName;
    run.repoUrl = ws.repo.url;
    run.ownerSummary = owner.summary;
    run.title = title;
    run.terraformVersion = ws.iacVersion;
    run.iacType = ws.iacType;
    run.backendSummary = c.runBackend;
    run.planTaskId = planId;
    if (applyId !== undefined) run.applyTaskId = applyId;
    run.plan = [plan];
    run.apply = apply;
    if (guardrailsSummary.failed > 0) {
      this.#violatingRuns.push({
        time: planEnd,
        run,
        ruleIds: guardrailsSummary.violations.map((violation) => violation.id),
        lists: undefined,
      });
    }
    return run;
  }

  #guardrailsSummary(rng: Random, c: RunContext, status: RunStatus): GuardrailsSummary {
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
      const rule = this.#rulesById.get(id) as GuardrailRule;
      return {
        id,
        severity: SEVERITY_NAMES[rule.severity] ?? 'warning',
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

  // --- backends -----------------------------------------------------------------------------------------

  #generateBackends(): Backend[] {
    const rng = this.#rng('backends');
    const seen = new Map<string, StackInfo>();
    for (const stack of this.#stacks) if (!seen.has(stack.location)) seen.set(stack.location, stack);
    const backends: Backend[] = [];
    for (const [location, stack] of seen) {
      // The integration that reads the backend: the cloud account of its tier (prod or not).
      const integration =
        stack.backendType === 'remote'
          ? undefined
          : this.#integrationFor(stack.provider, stack.owner.env === 'prod' ? 'prod' : 'staging');
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
      const location = `s3://${this.#org}-terraform-state-legacy`;
      backends.push({
        id: `backend-s3-${slug(location)}`,
        type: 's3',
        mainLocation: location,
        lastScan: iso(SEED_EPOCH - rng.int(20 * DAY, 80 * DAY)),
        isDeleted: true,
        remoteIntegrationId: this.#integrationFor('aws', 'prod')?.id ?? '',
      });
    }
    return backends;
  }

  // --- modules and repositories -----------------------------------------------------------------------

  #generateModules(): { modules: Module[]; repositories: Repository[] } {
    const rng = this.#rng('modules');
    const modules: Module[] = [];
    const repositories: Repository[] = [];
    const usage = new Map<string, number>();
    for (const ws of this.#workspaces) usage.set(ws.repo.fullName, (usage.get(ws.repo.fullName) ?? 0) + 1);
    for (const repo of this.#repos.values()) {
      if (repo.onlyCloudFormation) {
        repositories.push(repositoryRecord(repo, this.#org));
        continue;
      }
      const pool = [...repo.providers].flatMap((provider) => MODULES[provider]);
      const chosen = rng.sample(pool, rng.int(1, 4));
      for (const [name, source, version] of chosen) {
        const origin = MODULE_ORIGINS.pick(rng);
        const gitVersion = semver(rng, 3);
        const first = rng.pick(this.#people);
        const last = rng.chance(0.6) ? rng.pick(this.#people) : first;
        const updated = Math.max(SEED_EPOCH - HISTORY, repo.maxUpdated - rng.int(0, 30 * DAY));
        modules.push({
          id: `module-${slug(repo.fullName)}-${name}`,
          moduleFolderPath: `modules/${name}`,
          repoFullName: repo.fullName,
          moduleVcsPath: `${repo.vcsPath}//modules/${name}`,
          vcsType: repo.vcs,
          updateAt: iso(updated),
          lastContributor: last.email,
          firstContributor: first.email,
          usageCount: rng.int(0, (usage.get(repo.fullName) ?? 1) * 2),
          version: origin === 'registry' ? version : gitVersion,
          moduleOrigin:
            origin === 'registry'
              ? source
              : origin === 'git'
                ? `git::https://${repo.vcs === 'gitlab' ? 'gitlab.com' : 'github.com'}/${this.#org}/terraform-modules.git//${name}?ref=v${gitVersion}`
                : `./modules/${name}`,
          moduleOriginType: origin,
        });
        repo.modules++;
      }
      repositories.push(repositoryRecord(repo, this.#org));
    }
    return { modules, repositories };
  }

  // --- events -------------------------------------------------------------------------------------------

  #generateEvents(): Event[] {
    const rng = this.#rng('events');
    const count = this.#plan.events;
    const integrations = this.#integrations;
    if (count === 0 || integrations.length === 0) return [];
    const ids = this.#shared.ids;
    const integrationTable = new Weighted(
      integrations.map((integration, i): [Integration, number] => [integration, 1 / (1 + 0.35 * i)]),
    );
    // Each integration has a pool of assets that events happen to (some much more often than others).
    const poolSize = Math.min(4000, Math.max(12, Math.ceil(count / integrations.length / 15)));
    const pools = new Map<string, Asset[]>();
    const words = [...new Set(this.#workspaces.map((ws) => ws.area))];
    if (words.length === 0) words.push('shared');
    for (const integration of integrations) {
      const kinds = ASSET_KINDS[integration.type];
      const regions = Object.values(CLOUD_REGIONS[integration.type]);
      const pool: Asset[] = [];
      for (let i = 0; i < poolSize; i++) {
        const [type, makeId] = rng.pick(kinds);
        const context: AssetContext = {
          org: this.#org,
          account: integration.providerAccountId,
          region: rng.pick(regions),
          word: `${rng.pick(words)}-${integration.env}`,
          hex: rng.hex(20),
        };
        pool.push({ id: makeId(context), type, typeIndex: ASSET_TYPE_INDEX.get(type) as number });
      }
      pools.set(integration.id, pool);
    }
    // Timestamps first, sorted, so events come out newest first.
    const times = new Float64Array(count);
    for (let i = 0; i < count; i++) times[i] = SEED_EPOCH - 1 - Math.floor(rng.next() * EVENT_WINDOW);
    times.sort();
    const violating = this.#violatingRuns.sort((a, b) => a.time - b.time);
    const stacks = this.#stacks;
    // Attribute lists repeat a lot (same actor, field and source, say): each distinct list is made
    // once, frozen and shared, found by a number made of the indices of its values.
    const attribute = attributeCache();
    const lists = new Map<number, EventAttribute[]>();
    const people = this.#people.length;
    const actors = [...this.#people.map((person) => person.email), `terraform@${this.#org}.example`];
    const fields = [...MUTATION_FIELDS, '*'];
    // Every event type appears at least once (when there are enough events), at random positions.
    const forced = new Map<number, EventType>();
    if (count >= EVENT_TYPES_ORDER.length) {
      while (forced.size < EVENT_TYPES_ORDER.length) {
        const position = rng.int(0, count - 1);
        if (!forced.has(position)) forced.set(position, EVENT_TYPES_ORDER[forced.size] as EventType);
      }
    }
    const events: Event[] = new Array(count);
    const progress = this.#shared.progress;
    for (let i = 0; i < count; i++) {
      progress?.add();
      const time = times[count - 1 - i] as number;
      let type = forced.get(i) ?? EVENT_TYPE_TABLE.pick(rng);
      if (type === 'guardrails_violation' && this.#rules.length === 0) type = 'governance_violation';
      if (type === 'iac_status_change' && stacks.length === 0) type = 'mutation';
      const integration = integrationTable.pick(rng);
      const pool = pools.get(integration.id) as Asset[];
      const asset = pool[Math.floor(rng.next() ** 2 * pool.length)] as Asset;
      const mutationType: MutationType =
        type === 'iac_status_change' || type === 'governance_violation' || type === 'clickops'
          ? 'update'
          : MUTATION_TABLE.pick(rng);
      let attributes: EventAttribute[] | undefined;
      switch (type) {
        case 'mutation': {
          const actor = rng.chance(0.7) ? rng.int(0, people - 1) : people;
          const field =
            mutationType === 'update' ? rng.int(0, MUTATION_FIELDS.length - 1) : MUTATION_FIELDS.length;
          const source = rng.int(0, MUTATION_SOURCES.length - 1);
          const key = 1 + ((actor * fields.length + field) * MUTATION_SOURCES.length + source) * LIST_KINDS;
          attributes = lists.get(key);
          if (!attributes) {
            attributes = frozenList([
              attribute('actor', actors[actor] as string),
              attribute('field', fields[field] as string),
              attribute('source', MUTATION_SOURCES[source] as string),
            ]);
            lists.set(key, attributes);
          }
          break;
        }
        case 'guardrails_violation':
          attributes = this.#violationAttributes(rng, attribute, violating, time);
          break;
        case 'iac_status_change': {
          const stackIndex = rng.int(0, stacks.length - 1);
          const stack = stacks[stackIndex] as StackInfo;
          const to = rng.chance(0.6) ? STACK_STATUSES.indexOf(stack.status) : rng.int(0, 7);
          let from = rng.int(0, 7);
          if (from === to) from = (to + 1 + rng.int(0, 6)) % 8;
          const key = 2 + ((stackIndex * 8 + from) * 8 + to) * LIST_KINDS;
          attributes = lists.get(key);
          if (!attributes) {
            attributes = frozenList([
              attribute('stackId', stack.id),
              attribute('stackName', stack.owner.name),
              attribute('from', STACK_STATUSES[from] as string),
              attribute('to', STACK_STATUSES[to] as string),
            ]);
            lists.set(key, attributes);
          }
          break;
        }
        case 'governance_violation': {
          const candidates = governancePolicies(asset.type);
          const policy = candidates[rng.int(0, candidates.length - 1)] as number;
          const severity = POLICY_SEVERITY_TABLE.pick(rng);
          const key = 3 + (policy * POLICY_SEVERITY_LIST.length + severity) * LIST_KINDS;
          attributes = lists.get(key);
          if (!attributes) {
            const [policyId, policyName, framework] = GOVERNANCE_POLICIES[policy] as GovernancePolicy;
            attributes = frozenList([
              attribute('policyId', policyId),
              attribute('policyName', policyName),
              attribute('severity', POLICY_SEVERITY_LIST[severity] as string),
              attribute('framework', framework),
            ]);
            lists.set(key, attributes);
          }
          break;
        }
        default: {
          const actor = rng.int(0, people - 1);
          const names = CLICKOPS_EVENTS[asset.type] ?? CLICKOPS_FALLBACK;
          const name = rng.int(0, names.length - 1);
          const key = 4 + ((asset.typeIndex * 4 + name) * (people + 1) + actor) * LIST_KINDS;
          attributes = lists.get(key);
          if (!attributes) {
            attributes = frozenList([
              attribute('actor', actors[actor] as string),
              attribute('eventName', names[name] as string),
              attribute('userAgent', CONSOLES[integration.type]),
            ]);
            lists.set(key, attributes);
          }
        }
      }
      events[i] = {
        id: ids.uuid(rng),
        account_id: this.#accountId,
        integration_id: integration.id,
        event_timestamp: iso(time),
        event_type: type,
        provider_type: integration.type,
        asset_id: asset.id,
        asset_type: asset.type,
        event: { mutation_id: ids.mutationId(rng), mutation_type: mutationType, attributes },
      };
    }
    return events;
  }

  /**
   * Attributes of a guardrail violation event: a rule that the latest violating run at or before
   * `time` (or else the earliest one) failed, that run's workspace and its `runId`.
   */
  #violationAttributes(
    rng: Random,
    attribute: AttributeCache,
    violating: ViolatingRun[],
    time: number,
  ): EventAttribute[] {
    let lo = 0;
    let hi = violating.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if ((violating[mid] as ViolatingRun).time <= time) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const hit = violating[Math.max(found, 0)];
    const ruleId = hit ? rng.pick(hit.ruleIds) : (rng.pick(this.#rules) as GuardrailRule).id;
    if (hit && !hit.lists) hit.lists = new Map();
    const cache = hit?.lists ?? this.#ruleLists;
    let attributes = cache.get(ruleId);
    if (!attributes) {
      const rule = this.#rulesById.get(ruleId) as GuardrailRule;
      const list = [
        attribute('ruleId', rule.id),
        attribute('ruleName', rule.name),
        attribute('severity', SEVERITY_NAMES[rule.severity] ?? 'warning'),
      ];
      if (hit) list.push(attribute('workspaceId', hit.run.workspaceId), attribute('runId', hit.run.runId));
      attributes = frozenList(list);
      cache.set(ruleId, attributes);
    }
    return attributes;
  }
}

interface Asset {
  id: string;
  type: string;
  /** The asset type's index in {@link ASSET_TYPE_INDEX}. */
  typeIndex: number;
}

/** How many kinds of attribute list share the list cache (the key's remainder tells them apart). */
const LIST_KINDS = 5;
const CLICKOPS_FALLBACK = ['ConsoleUpdate'];
const ASSET_TYPE_INDEX = new Map(
  Object.values(ASSET_KINDS)
    .flat()
    .map(([type], i) => [type, i]),
);

function frozenList(attributes: EventAttribute[]): EventAttribute[] {
  return Object.freeze(attributes) as EventAttribute[];
}

type AttributeCache = (key: string, value: string) => EventAttribute;

/**
 * Event attributes are few distinct `{ key, value }` pairs repeated over many events: each pair is
 * made once, frozen, and shared.
 */
function attributeCache(): AttributeCache {
  const byKey = new Map<string, Map<string, EventAttribute>>();
  return (key, value) => {
    let byValue = byKey.get(key);
    if (!byValue) {
      byValue = new Map();
      byKey.set(key, byValue);
    }
    let attribute = byValue.get(value);
    if (!attribute) {
      attribute = Object.freeze({ key, value });
      byValue.set(value, attribute);
    }
    return attribute;
  };
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

// ---------------------------------------------------------------------------------------------------
// Record helpers
// ---------------------------------------------------------------------------------------------------

/** A `{ description }` wrapper, as runs and tasks carry enumerated members. */
type Described<T extends string = string> = { description: T };

function described<T extends string>(values: readonly T[]): Map<T, Described<T>> {
  return new Map(values.map((value) => [value, Object.freeze({ description: value })]));
}

const VCS_DESCRIPTIONS = described(VCS_TYPES_ALL);
const RUNNER_DESCRIPTIONS = described(Object.keys(BUILD_NAMES) as CiTool[]);
const POST_PLAN: Described<'post-plan'> = Object.freeze({ description: 'post-plan' });
const POST_APPLY: Described<'post-apply'> = Object.freeze({ description: 'post-apply' });
const NO_VIOLATIONS = Object.freeze([]) as unknown as GuardrailViolation[];
/** The `apply` list of a run that did not apply (frozen, shared). */
const NO_TASKS = Object.freeze([]) as unknown as RunTask[];
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

/** Freezes plain JSON data, all the way down. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

/** A workspace's (or a stack's) backend as workspaces and runs show it, and as run tasks show it. */
interface BackendSummaries {
  backendSummary: WorkspaceBackendSummary;
  taskBackend: TaskBackendSummary;
}

/** Both backend summaries of a backend, frozen, to be shared. */
function backendSummaries(summary: WorkspaceBackendSummary): BackendSummaries {
  const { backendType: type, backendConfig: config, managedResourceCount: resources } = deepFreeze(summary);
  return {
    backendSummary: summary,
    taskBackend: Object.freeze({
      type,
      config,
      resources,
      description: `${type} backend, ${resources} resources`,
    }),
  };
}

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

function slug(value: string): string {
  return value
    .replace(/^[a-z0-9]+:\/\//, '')
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
}

function repoUrl(vcs: VcsType, org: string, name: string): string {
  switch (vcs) {
    case 'github':
      return `https://github.com/${org}/${name}`;
    case 'gitlab':
      return `https://gitlab.com/${org}/${name}`;
    case 'bitbucket':
      return `https://bitbucket.org/${org}/${name}`;
    case 'azuredevops':
      return `https://dev.azure.com/${org}/infrastructure/_git/${name}`;
    default:
      return `https://us-east-1.console.aws.amazon.com/codesuite/codecommit/repositories/${name}/browse?region=us-east-1`;
  }
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

type ChangedFile = { path: string; type: ChangedFileType };

function changedFiles(rng: Random, ws: WsInfo): ChangedFilesCodeSummary {
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

function violationMessage(rng: Random, rule: GuardrailRule): string {
  const criteria = rule.criteria;
  switch (rule.type) {
    case 'cost': {
      const threshold = criteria.cost?.thresholdAmount;
      const percentage = criteria.cost?.thresholdPercentage;
      if (threshold !== undefined) {
        const over = threshold + rng.int(1, Math.max(2, Math.round(threshold))) + rng.int(0, 99) / 100;
        return `Monthly cost rises by $${over.toFixed(2)} (threshold $${threshold.toFixed(2)})`;
      }
      return `Monthly cost rises by ${(percentage ?? 10) + rng.int(1, 40)}% (threshold ${percentage ?? 10}%)`;
    }
    case 'policy': {
      const severity = criteria.policy?.severity ?? 'high';
      const n = rng.int(1, 6);
      return `${n} ${severity} policy finding${n === 1 ? '' : 's'} (${rule.name})`;
    }
    case 'resource': {
      const action = rng.pick(criteria.resource?.actions ?? ['delete']);
      const assetTypes = criteria.resource?.assetTypes.include ?? [];
      const assetType =
        assetTypes.length > 0 && assetTypes[0] !== '*' ? rng.pick(assetTypes) : 'aws_instance';
      return `Plan would ${action} ${assetType}.${rng.pick(['main', 'primary', 'this', 'replica'])} (not allowed)`;
    }
    default: {
      const tag = criteria.tag;
      const name =
        tag?.requiredTags && tag.requiredTags.length > 0
          ? rng.pick(tag.requiredTags)
          : (Object.keys(tag?.requiredValues ?? {})[0] ?? 'team');
      return `${rng.pick(['aws_s3_bucket.logs', 'aws_instance.app', 'google_storage_bucket.assets', 'azurerm_resource_group.main'])} is missing required tag "${name}"`;
    }
  }
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

function globalScope(rng: Random): GuardrailScope {
  return {
    workspaces: { include: ['*'], exclude: rng.chance(0.5) ? ['sandbox-*'] : [] },
    repositories: { include: ['*'], exclude: [] },
    branches: { include: ['main'], exclude: [] },
    labels: { include: [], exclude: [] },
  };
}

/** Whether a workspace (name, repository, labels) falls in a rule's scope; branches are a run matter. */
function scopeMatcher(scope: GuardrailScope): (name: string, repo: string, labels: string[]) => boolean {
  const compile = (patterns: string[]) => patterns.map(globToRegExp);
  const ws = { include: compile(scope.workspaces.include), exclude: compile(scope.workspaces.exclude) };
  const repos = {
    include: compile(scope.repositories.include),
    exclude: compile(scope.repositories.exclude),
  };
  const labels = { include: compile(scope.labels.include), exclude: compile(scope.labels.exclude) };
  const any = (patterns: RegExp[], value: string) => patterns.some((pattern) => pattern.test(value));
  return (name, repo, wsLabels) => {
    if (ws.include.length > 0 && !any(ws.include, name)) return false;
    if (any(ws.exclude, name)) return false;
    if (repos.include.length > 0 && !any(repos.include, repo)) return false;
    if (any(repos.exclude, repo)) return false;
    if (labels.include.length > 0 && !wsLabels.some((label) => any(labels.include, label))) return false;
    if (wsLabels.some((label) => any(labels.exclude, label))) return false;
    return true;
  };
}

function ruleTemplate(
  rng: Random,
  type: GuardrailType,
  org: string,
): { name: string; criteria: GuardrailCriteria } {
  switch (type) {
    case 'policy': {
      const options: Array<[string, PolicySeverity, string[], string[]]> = [
        ['No critical policy findings', 'critical', ['*'], []],
        ['Block high-severity misconfigurations', 'high', ['*'], ['aws-ec2-imdsv1']],
        ['CIS benchmark: medium and above', 'medium', ['cis-*'], []],
        [
          'S3 buckets must not be public',
          'high',
          ['aws-s3-public-read', 'aws-s3-public-write', 'aws-s3-block-public-access'],
          [],
        ],
        ['Encryption at rest required', 'medium', ['*-encryption-at-rest'], []],
        ['Kubernetes hardening', 'low', ['k8s-*'], ['k8s-default-namespace']],
      ];
      const [name, severity, include, exclude] = rng.pick(options);
      return { name, criteria: { policy: { severity, policies: { include, exclude } } } };
    }
    case 'cost': {
      const amount = rng.pick([50, 100, 250, 500, 1000, 5000]);
      const percentage = rng.pick([5, 10, 15, 20, 25]);
      const roll = rng.int(0, 2);
      if (roll === 0)
        return {
          name: `Monthly cost increase over $${amount}`,
          criteria: { cost: { thresholdAmount: amount } },
        };
      if (roll === 1)
        return {
          name: `Monthly cost increase over ${percentage}%`,
          criteria: { cost: { thresholdPercentage: percentage } },
        };
      return {
        name: `Budget guard ($${amount} or ${percentage}%)`,
        criteria: { cost: { thresholdAmount: amount, thresholdPercentage: percentage } },
      };
    }
    case 'resource': {
      const options: Array<{ name: string; criteria: NonNullable<GuardrailCriteria['resource']> }> = [
        {
          name: 'No deletes of databases',
          criteria: {
            actions: ['delete'],
            regions: { include: ['*'], exclude: [] },
            assetTypes: {
              include: [
                'aws_db_instance',
                'aws_rds_cluster',
                'google_sql_database_instance',
                'azurerm_mssql_database',
              ],
              exclude: [],
            },
            specificResources: [],
          },
        },
        {
          name: 'Approved regions only',
          criteria: {
            actions: ['create', 'update'],
            regions: {
              include: ['us-east-1', 'us-west-2', 'eu-west-1', 'europe-west1', 'westeurope'],
              exclude: [],
            },
            assetTypes: { include: ['*'], exclude: [] },
            specificResources: [],
          },
        },
        {
          name: 'Protect state buckets',
          criteria: {
            actions: ['update', 'delete'],
            regions: { include: ['*'], exclude: [] },
            assetTypes: { include: ['aws_s3_bucket', 'google_storage_bucket'], exclude: [] },
            specificResources: [`arn:aws:s3:::${org}-tf-state-prod`, `arn:aws:s3:::${org}-tf-state-nonprod`],
          },
        },
        {
          name: 'No IAM changes outside the platform team',
          criteria: {
            actions: ['create', 'update', 'delete'],
            regions: { include: ['*'], exclude: [] },
            assetTypes: {
              include: ['aws_iam_role', 'aws_iam_policy', 'google_service_account'],
              exclude: [],
            },
            specificResources: [],
          },
        },
        {
          name: 'No public load balancers',
          criteria: {
            actions: ['create'],
            regions: { include: ['*'], exclude: ['us-gov-west-1'] },
            assetTypes: { include: ['aws_lb', 'aws_elb'], exclude: [] },
            specificResources: [],
          },
        },
      ];
      const { name, criteria } = rng.pick(options);
      return { name, criteria: { resource: criteria } };
    }
    default: {
      const options: Array<{ name: string; criteria: NonNullable<GuardrailCriteria['tag']> }> = [
        {
          name: 'Team tag required',
          criteria: { tagEnforcementMode: 'requiredTags', requiredTags: ['team'] },
        },
        {
          name: 'Cost allocation tags',
          criteria: {
            tagEnforcementMode: 'requiredTags',
            requiredTags: ['cost-center', 'team', 'environment'],
          },
        },
        {
          name: 'Owner or team tag',
          criteria: { tagEnforcementMode: 'anyTags', requiredTags: ['owner', 'team'] },
        },
        {
          name: 'Environment tag values',
          criteria: {
            tagEnforcementMode: 'requiredValues',
            requiredValues: { environment: ['prod', 'staging', 'dev', 'qa', 'sandbox', 'shared'] },
          },
        },
        {
          name: 'Data classification tag values',
          criteria: {
            tagEnforcementMode: 'requiredValues',
            requiredValues: { 'data-classification': ['public', 'internal', 'confidential', 'restricted'] },
          },
        },
      ];
      const { name, criteria } = rng.pick(options);
      return { name, criteria: { tag: criteria } };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------------------

/** Options of {@link generateState}. */
export interface GenerateStateOptions {
  /** The seed (default {@link DEFAULT_SEED}); the same seed and sizes always give the same state. */
  seed?: number | string | undefined;
  /** Sizes to override (non-negative integers; `accounts` at least 1); the others come from {@link DEFAULT_SIZES}. */
  sizes?: { [K in keyof SeedSizes]?: SeedSizes[K] | undefined } | undefined;
  /**
   * Called while the state is generated, for a progress display: `done` records of `total` are
   * generated, counting the workspaces (each once its runs are made) and the events of every
   * account, the bulk of the work. Called each time `progressEvery` more records are done, and last
   * with `done === total` (also when `total` is 0); `done` never decreases. It runs synchronously,
   * inside `generateState`, and does not change the generated state.
   */
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** How many records between two calls of `onProgress` (a whole number, at least 1). Default 5,000. */
  progressEvery?: number | undefined;
}

/** How many records between two calls of {@link GenerateStateOptions.onProgress} by default. */
const DEFAULT_PROGRESS_EVERY = 5000;

/** Merges and checks the requested sizes. */
function resolveSizes(partial: GenerateStateOptions['sizes']): SeedSizes {
  const sizes: SeedSizes = { ...DEFAULT_SIZES };
  for (const key of Object.keys(DEFAULT_SIZES) as Array<keyof SeedSizes>) {
    const value = partial?.[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(
        `generateState: sizes.${key} must be a non-negative integer, received ${String(value)}`,
      );
    }
    sizes[key] = value;
  }
  if (sizes.accounts < 1) throw new RangeError('generateState: sizes.accounts must be at least 1');
  return sizes;
}

/** The progress counter `onProgress` asks for, if any. */
function progressOf(options: GenerateStateOptions, plans: AccountPlan[]): Progress | undefined {
  const { onProgress, progressEvery = DEFAULT_PROGRESS_EVERY } = options;
  if (!onProgress) return undefined;
  if (!Number.isSafeInteger(progressEvery) || progressEvery < 1) {
    throw new RangeError(
      `generateState: progressEvery must be a whole number of at least 1, received ${String(progressEvery)}`,
    );
  }
  const total = plans.reduce((sum, plan) => sum + plan.workspaces + plan.events, 0);
  return new Progress(total, progressEvery, onProgress);
}

/** What one account gets: the sizes for the primary account, scaled down for the others. */
function accountPlan(sizes: SeedSizes, index: number): AccountPlan {
  if (index === 0) {
    return {
      workspaces: sizes.workspaces,
      runsPerWorkspace: sizes.runsPerWorkspace,
      rules: sizes.rules,
      stacks: sizes.stacks,
      events: sizes.events,
      integrations: Math.max(1, sizes.integrations),
    };
  }
  return {
    workspaces: Math.max(3, Math.floor(sizes.workspaces / 10)),
    runsPerWorkspace: Math.max(1, sizes.runsPerWorkspace),
    rules: Math.max(4, Math.floor(sizes.rules / 10)),
    stacks: Math.max(3, Math.floor(sizes.stacks / 10)),
    events: Math.max(25, Math.floor(sizes.events / 10)),
    integrations: Math.max(2, Math.floor(sizes.integrations / 10)),
  };
}

/**
 * Generates the mock's whole state from a seed: accounts with their key pairs, workspaces and their
 * runs, guardrail rules and their notification configurations, IaC stacks, backends, repositories,
 * modules and event center events.
 *
 * - **Deterministic**: the same seed and sizes give the same state, byte for byte; timestamps lie in
 *   the 90 days before {@link SEED_EPOCH} (events in the last 30), never after it.
 * - **Sizes**: the primary account (the first) gets `sizes.workspaces` workspaces, `sizes.rules`
 *   rules (the first four are one of each kind), `min(sizes.stacks, workspaces)` stacks and
 *   `sizes.events` events over `max(1, sizes.integrations)` integrations; each workspace gets 0 to
 *   `sizes.runsPerWorkspace` runs (most get at least one). The other accounts get about a tenth, with
 *   small minimums (3 workspaces, 4 rules, 3 stacks, 25 events, 2 integrations).
 * - **Consistent**: `runsCount`, `lastRunStatus` and the `last*Time` members follow the runs;
 *   workspaces, stacks, backends, repositories and modules refer to each other; run violations and
 *   guardrail events name the account's rules. Ids are unique across the state.
 * - **Compact**: the state is plain JSON, but immutable leaves that many records repeat are shared
 *   between records and frozen: the `backendSummary` of workspaces and runs (one per stack), a
 *   run's `ownerSummary`, the tasks' `{ description }` wrappers, backend, guardrail and changed-file
 *   summaries (and the empty `apply` list), and event `attributes`. Replace such a member rather
 *   than mutating it. (100,000 workspaces and 1,000,000 events take about 8 to 10 s and about
 *   1 GB of heap.)
 *
 * - **Progress**: `onProgress` is told how many workspaces and events are done, every
 *   `progressEvery` (5,000) of them; it changes nothing in the state.
 *
 * @throws RangeError when a size is not a non-negative integer, `sizes.accounts` is 0, or
 *   `progressEvery` is not a whole number of at least 1.
 */
export function generateState(options: GenerateStateOptions = {}): MockState {
  const seed = options.seed ?? DEFAULT_SEED;
  const sizes = resolveSizes(options.sizes);
  const plans = Array.from({ length: sizes.accounts }, (_, index) => accountPlan(sizes, index));
  const shared: Shared = {
    seed,
    ids: new IdFactory(new Random(`${String(seed)}:ids`)),
    progress: progressOf(options, plans),
  };
  const accounts: AccountState[] = [];
  plans.forEach((plan, index) => {
    accounts.push(new AccountGenerator(shared, index, plan).generate());
  });
  shared.progress?.finish();
  return { version: 1, seed, sizes, accounts };
}
