/**
 * The event generator's vocabulary (`events.ts`): asset kinds and how their ids look, event and
 * mutation types, ClickOps event names, consoles, governance policies and severities. Only constant
 * data (and the tables built from it once), no generation.
 */
import type { EventType, MutationType, PolicySeverity } from '@iacm/sdk/contract';
import { Weighted } from './helpers.js';
import type { CloudProvider } from './vocabulary.js';

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
