/**
 * The seed generator's vocabulary: names, word lists and weighted tables the records draw from.
 * Only constant data (and the tables built from it once), no generation.
 */
import type {
  ChangedFileType,
  CiTool,
  GuardrailRule,
  RunStatus,
  StackStatus,
  VcsType,
} from '@iacm/sdk/contract';
import { Weighted } from './helpers.js';

// ---------------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------------

/** Account names and organisation slugs, in account order. */
export const ACCOUNTS: ReadonlyArray<readonly [name: string, org: string]> = [
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

/** First names of the accounts' people. */
export const FIRST_NAMES = [
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
/** Last names of the accounts' people. */
export const LAST_NAMES = [
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
/** People's avatar colours. */
export const COLORS = [
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

/** Areas of infrastructure that workspaces, repositories and stacks are named after. */
export const AREAS = [
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
export const AREA_LABELS: Readonly<Record<string, string>> = {
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
/** Teams by domain (the labels of {@link AREA_LABELS}). */
export const TEAMS: Readonly<Record<string, string>> = {
  network: 'team-netops',
  payments: 'team-payments',
  data: 'team-data',
  security: 'team-secops',
  platform: 'team-platform',
};

/** Environments of workspaces, weighted. */
export const ENVS = new Weighted<string>([
  ['prod', 30],
  ['staging', 24],
  ['dev', 24],
  ['qa', 8],
  ['sandbox', 6],
  ['shared', 8],
]);
/** Environments in the order workspace labels list them. */
export const ENV_ORDER = ['dev', 'qa', 'staging', 'prod', 'sandbox', 'shared'];
/** Region codes, mapped to each cloud by {@link CLOUD_REGIONS}. */
export const REGION_CODES = ['us', 'eu', 'apac', 'us-west'] as const;
/** A region code. */
export type RegionCode = (typeof REGION_CODES)[number];
/** A cloud, as its Terraform provider names it. */
export type CloudProvider = 'aws' | 'gcp' | 'azurerm';
/** Each cloud's region for each region code. */
export const CLOUD_REGIONS: Readonly<Record<CloudProvider, Readonly<Record<RegionCode, string>>>> = {
  aws: { us: 'us-east-1', eu: 'eu-west-1', apac: 'ap-southeast-1', 'us-west': 'us-west-2' },
  gcp: { us: 'us-central1', eu: 'europe-west1', apac: 'asia-southeast1', 'us-west': 'us-west1' },
  azurerm: { us: 'eastus', eu: 'westeurope', apac: 'southeastasia', 'us-west': 'westus2' },
};
/** Clouds of workspaces, weighted. */
export const PROVIDERS = new Weighted<CloudProvider>([
  ['aws', 65],
  ['gcp', 20],
  ['azurerm', 15],
]);
/** Clouds of integrations, in the order an account gets them. */
export const INTEGRATION_TYPES: CloudProvider[] = [
  'aws',
  'gcp',
  'azurerm',
  'aws',
  'aws',
  'gcp',
  'azurerm',
  'aws',
];
/** Environments of integrations, in the order each cloud gets them. */
export const INTEGRATION_ENVS = ['prod', 'staging', 'dev', 'shared', 'sandbox', 'security', 'logging'];

/** How an account names its repositories after an area. */
export const REPO_STYLES = [
  (area: string) => `infra-${area}`,
  (area: string) => `${area}-infra`,
  (area: string) => `terraform-${area}`,
  (area: string) => `${area}-iac`,
];
/** Suffixes of service repositories. */
export const SERVICE_SUFFIXES = ['service', 'api', 'worker', 'core'];

/** Each account's main VCS host, by account index. */
export const DOMINANT_VCS: VcsType[] = ['github', 'gitlab', 'github', 'azuredevops', 'bitbucket'];
/** Every VCS host. */
export const VCS_TYPES_ALL: VcsType[] = ['github', 'gitlab', 'bitbucket', 'azuredevops', 'codecommit'];
/** CI tools per VCS host, weighted. */
export const RUNNERS: Readonly<Record<VcsType, Weighted<CiTool>>> = {
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
/** Build (pipeline) names per CI tool. */
export const BUILD_NAMES: Readonly<Record<CiTool, readonly string[]>> = {
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
export const LARGE_BUILD_IDS = new Set<CiTool>(['github-actions', 'gitlab-pipelines', 'azure-pipelines']);

/** An IaC tool. */
export type IacKind = 'terraform' | 'opentofu' | 'cloudformation';
/** Versions per IaC tool, weighted. */
export const IAC_VERSIONS: Readonly<Record<IacKind, Weighted<string>>> = {
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

/** Run statuses, weighted. */
export const RUN_STATUS_TABLE = new Weighted<RunStatus>([
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
/** Run statuses of runs that reached the apply step. */
export const APPLIED = new Set<RunStatus>(['applying', 'apply_success', 'apply_no_changes', 'apply_error']);

/** Verbs of run titles. */
export const VERBS = [
  'Add',
  'Update',
  'Remove',
  'Refactor',
  'Tighten',
  'Enable',
  'Rotate',
  'Resize',
  'Fix',
  'Tag',
];
/** Objects of run titles. */
export const OBJECTS = [
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
/** Files a Terraform run changes. */
export const TF_FILES = [
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
/** Files a CloudFormation run changes. */
export const CFN_FILES = [
  'template.yaml',
  'parameters.json',
  'nested/vpc.yaml',
  'nested/iam.yaml',
  'outputs.yaml',
];
/** Kinds of file change, weighted. */
export const FILE_TYPES = new Weighted<ChangedFileType>([
  ['modified', 70],
  ['added', 20],
  ['deleted', 10],
]);

/** Stack statuses, weighted. */
export const STACK_STATUS_TABLE = new Weighted<StackStatus>([
  ['active', 60],
  ['contains_drifts', 18],
  ['contains_ghosts', 10],
  ['scanning', 4],
  ['empty', 3],
  ['unavailable', 2],
  ['not_supported', 1],
  ['corrupted', 2],
]);

/** Modules workspaces use, per cloud. */
export const MODULES: Readonly<
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
/** Where modules come from, weighted. */
export const MODULE_ORIGINS = new Weighted<'registry' | 'git' | 'local'>([
  ['registry', 50],
  ['git', 30],
  ['local', 20],
]);

/** A rule's scope and criteria, as the (tolerant) rule record types them. */
export type GuardrailScope = GuardrailRule['scope'];
/** A rule's criteria, as the (tolerant) rule record types them. */
export type GuardrailCriteria = GuardrailRule['criteria'];
