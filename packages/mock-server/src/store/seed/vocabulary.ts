/**
 * The seed generator's vocabulary: names, word lists and weighted tables the records draw from.
 * Only constant data (and the tables built from it once), no generation.
 */
import type {
  ChangedFileType,
  CiTool,
  EventType,
  GuardrailRule,
  MutationType,
  PolicySeverity,
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

/** Asset kinds per cloud, with how their ids look. */
export const ASSET_KINDS: Readonly<
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
export type GuardrailScope = GuardrailRule['scope'];
/** A rule's criteria, as the (tolerant) rule record types them. */
export type GuardrailCriteria = GuardrailRule['criteria'];

/** What an asset id is made from. */
export interface AssetContext {
  org: string;
  account: string;
  region: string;
  word: string;
  hex: string;
}

/** Event types, weighted. */
export const EVENT_TYPE_TABLE = new Weighted<EventType>([
  ['mutation', 45],
  ['clickops', 14],
  ['iac_status_change', 14],
  ['guardrails_violation', 13],
  ['governance_violation', 14],
]);
/** Event types in a fixed order. */
export const EVENT_TYPES_ORDER: EventType[] = [
  'mutation',
  'guardrails_violation',
  'iac_status_change',
  'governance_violation',
  'clickops',
];
/** Mutation types of drift events, weighted. */
export const MUTATION_TABLE = new Weighted<MutationType>([
  ['update', 55],
  ['create', 30],
  ['delete', 15],
]);
/** Fields that drift events change. */
export const MUTATION_FIELDS = [
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
/** Sources of mutations. */
export const MUTATION_SOURCES = ['terraform', 'console', 'api', 'cli'];
/** Console actions a person takes on each kind of asset (ClickOps events). */
export const CLICKOPS_EVENTS: Readonly<Record<string, readonly string[]>> = {
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
/** Each cloud's web console, as ClickOps events name it. */
export const CONSOLES: Readonly<Record<CloudProvider, string>> = {
  aws: 'console.aws.amazon.com',
  gcp: 'console.cloud.google.com',
  azurerm: 'portal.azure.com',
};
/** Governance policies: id, name, framework, and the asset types they check (all, when absent). */
export type GovernancePolicy = readonly [
  id: string,
  name: string,
  framework: string,
  assetTypes?: readonly string[],
];
/** The governance policies that governance findings name. */
export const GOVERNANCE_POLICIES: readonly GovernancePolicy[] = [
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
/** The governance policies that check an asset type, as indices into {@link GOVERNANCE_POLICIES}. */
export function governancePolicies(assetType: string): number[] {
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
/** Severities of governance findings. */
export const POLICY_SEVERITY_LIST: PolicySeverity[] = ['critical', 'high', 'medium', 'low', 'info'];
/** Severities of governance findings, as indices into {@link POLICY_SEVERITY_LIST}. */
export const POLICY_SEVERITY_TABLE = new Weighted<number>([
  [0, 15],
  [1, 35],
  [2, 30],
  [3, 15],
  [4, 5],
]);
