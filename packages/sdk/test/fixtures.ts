/**
 * Realistic examples of every resource and request of the contract, shaped as the spec shows them.
 * Tests clone and break them.
 */

export const ids = {
  account: '65a1f0c2e4b0a1b2c3d4e5f6',
  workspace: '65a1f0c2e4b0a1b2c3d4e600',
  run: '65a1f0c2e4b0a1b2c3d4e610',
  planTask: '65a1f0c2e4b0a1b2c3d4e611',
  applyTask: '65a1f0c2e4b0a1b2c3d4e612',
  rule: '65a1f0c2e4b0a1b2c3d4e620',
  notification: '65a1f0c2e4b0a1b2c3d4e621',
  user: '65a1f0c2e4b0a1b2c3d4e630',
} as const;

export const backendSummary = {
  backendType: 's3',
  backendConfig: { bucket: 'acme-tf-state', key: 'network/prod.tfstate', region: 'us-east-1' },
  iacStackId: 'stack-network-prod',
  managedResourceCount: 42,
};

export const workspaceSummary = {
  id: ids.workspace,
  accountId: ids.account,
  createdAt: '2024-03-01T09:00:00.000Z',
  updatedAt: '2024-05-01T12:30:00.000Z',
  workspaceId: ids.workspace,
  workspaceName: 'network-prod',
  repo: 'acme/infra-network',
  repoUrl: 'https://github.com/acme/infra-network',
  vcsType: 'github',
  runnerType: 'github-actions',
  lastRunStatus: { description: 'apply_success' },
  lastApplyTime: '2024-05-01T12:29:00.000Z',
  lastPlanTime: '2024-05-01T12:25:00.000Z',
  lastRunTime: '2024-05-01T12:29:00.000Z',
  iacType: 'terraform',
  iacTypeVersion: '1.7.5',
  backendSummary,
  labels: ['prod', 'network'],
  runsCount: 17,
  isWorkflowManaged: true,
  guardrails: [ids.rule],
};

export const planTask = {
  id: ids.planTask,
  accountId: ids.account,
  createdAt: '2024-05-01T12:25:00.000Z',
  updatedAt: '2024-05-01T12:26:00.000Z',
  contentKeys: { plan: 'plans/65a1f0c2e4b0a1b2c3d4e611.json' },
  status: 'completed',
  resultStatus: 'success',
  type: { description: 'post-plan' },
  guardrailsSummary: {
    total: 2,
    passed: 1,
    failed: 1,
    violations: [
      { id: ids.rule, severity: 'flexible', message: 'Cost rises by $120.00 (threshold $100.00)' },
    ],
    description: '1 of 2 guardrails failed',
  },
  backendSummary: {
    type: 's3',
    config: { bucket: 'acme-tf-state' },
    resources: 42,
    description: 's3 backend, 42 resources',
  },
  changedFilesCodeSummary: {
    total: 2,
    added: 1,
    modified: 1,
    deleted: 0,
    files: [
      { path: 'logs.tf', type: 'added' },
      { path: 'main.tf', type: 'modified' },
    ],
    description: '2 files changed',
  },
  vcsType: { description: 'github' },
  runnerType: { description: 'github-actions' },
};

export const workspaceRun = {
  id: ids.run,
  accountId: ids.account,
  createdAt: '2024-05-01T12:25:00.000Z',
  updatedAt: '2024-05-01T12:29:00.000Z',
  workspaceId: ids.workspace,
  workspaceName: 'network-prod',
  runId: '8812345678',
  runName: 'Add log bucket',
  status: 'apply_success',
  pullRequestId: '42',
  pullRequestUrl: 'https://github.com/acme/infra-network/pull/42',
  branch: 'main',
  commitId: '9f1c2e7',
  commitUrl: 'https://github.com/acme/infra-network/commit/9f1c2e7',
  runnerType: 'github-actions',
  buildId: '8812345678',
  buildName: 'terraform',
  buildUrl: 'https://github.com/acme/infra-network/actions/runs/8812345678',
  vcsType: 'github',
  repo: 'acme/infra-network',
  repoUrl: 'https://github.com/acme/infra-network',
  ownerSummary: { email: 'dana@acme.example', name: 'Dana Reyes', initials: 'DR', customColor: '#1f6feb' },
  title: 'Add log bucket',
  terraformVersion: '1.7.5',
  iacType: 'terraform',
  backendSummary,
  planTaskId: ids.planTask,
  applyTaskId: ids.applyTask,
  plan: [planTask],
  apply: [{ ...planTask, id: ids.applyTask, type: { description: 'post-apply' } }],
};

export const scope = {
  workspaces: { include: ['*'], exclude: ['sandbox-*'] },
  repositories: { include: ['acme/*'], exclude: [] },
  branches: { include: ['main'], exclude: [] },
  labels: { include: [], exclude: [] },
};

export const guardrailRule = {
  id: ids.rule,
  accountId: ids.account,
  createdBy: ids.user,
  name: 'Monthly cost increase',
  type: 'cost',
  scope,
  criteria: { cost: { thresholdAmount: 100, thresholdPercentage: 10 } },
  isEnabled: true,
  createdAt: '2024-04-01T08:00:00.000Z',
  updatedAt: '2024-04-01T08:00:00.000Z',
  notificationId: ids.notification,
  severity: 2,
};

/** A valid create body for each rule kind. */
export const createBodies = {
  cost: {
    createdBy: ids.user,
    name: 'Monthly cost increase',
    type: 'cost',
    scope,
    criteria: { cost: { thresholdAmount: 100, thresholdPercentage: 10 } },
    isEnabled: true,
    severity: 2,
  },
  policy: {
    createdBy: ids.user,
    name: 'No high policy findings',
    type: 'policy',
    scope,
    criteria: { policy: { severity: 'high', policies: { include: ['*'], exclude: [] } } },
    severity: 1,
  },
  resource: {
    createdBy: ids.user,
    name: 'No deletes of databases',
    type: 'resource',
    scope,
    criteria: {
      resource: {
        actions: ['delete'],
        regions: { include: ['*'], exclude: [] },
        assetTypes: { include: ['aws_db_instance'], exclude: [] },
        specificResources: [],
      },
    },
    severity: 2,
  },
  tag: {
    createdBy: ids.user,
    name: 'Team tag required',
    type: 'tag',
    scope,
    criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['team'] } },
    severity: 3,
  },
} as const;

export const stack = {
  id: 'stack-network-prod',
  name: 'network-prod',
  stateType: 'terraform',
  status: 'active',
  version: '1.7.5',
  backend: 's3',
  lastApplied: '2024-05-01T12:29:00.000Z',
  assetCount: 42,
  stackProviders: [
    {
      providerType: 'aws',
      providerAccountId: '123456789012',
      providerIntegrationId: 'int-aws-prod',
      isIntegrated: true,
    },
  ],
  metadata: { vcsRepo: 'acme/infra-network', vcsPath: 'envs/prod', branch: 'main' },
};

export const backend = {
  id: 'backend-s3-acme-tf-state',
  type: 's3',
  mainLocation: 's3://acme-tf-state',
  lastScan: '2024-05-01T11:00:00.000Z',
  isDeleted: false,
  remoteIntegrationId: 'int-aws-prod',
};

export const repository = {
  repoFullName: 'acme/infra-network',
  maxTimestamp: 1714566540000,
  topHit: { vcsId: 'vcs-github-acme', vcsType: 'github', modulesCount: 3, resourcesCount: 42 },
};

export const iacModule = {
  id: 'module-vpc',
  moduleFolderPath: 'modules/vpc',
  repoFullName: 'acme/infra-network',
  moduleVcsPath: 'github.com/acme/infra-network//modules/vpc',
  vcsType: 'github',
  updateAt: '2024-04-20T10:00:00.000Z',
  lastContributor: 'dana@acme.example',
  firstContributor: 'lee@acme.example',
  usageCount: 4,
  version: '2.1.0',
  moduleOrigin: 'terraform-aws-modules/vpc/aws',
  moduleOriginType: 'registry',
};

export const providerAggregation = {
  types: {
    aws: { '123456789012': { count: 3, isIntegrated: true } },
    gcp: { 'acme-prod': { count: 1, isIntegrated: false } },
  },
  urls: { buckets: [{ key: 'registry.terraform.io/hashicorp/aws', doc_count: 3 }] },
};

export const event = {
  id: '3f0b9a4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b',
  account_id: ids.account,
  integration_id: 'int-aws-prod',
  event_timestamp: '2024-05-01T12:26:00.000Z',
  event_type: 'guardrails_violation',
  provider_type: 'aws',
  asset_id: 'arn:aws:s3:::acme-logs',
  asset_type: 'aws_s3_bucket',
  event: {
    mutation_id: 'mut-0001',
    mutation_type: 'create',
    attributes: [
      { key: 'ruleId', value: ids.rule },
      { key: 'workspaceId', value: ids.workspace },
    ],
  },
};

export const facetResult = {
  field: 'integrationId',
  size: 2,
  values: [
    { value: 'int-aws-prod', count: 12 },
    { value: 'int-gcp-prod', count: 3 },
  ],
};

export const sample = {
  ARN: 'arn:aws:s3:::acme-logs',
  FRN: 'frn:aws:s3:123456789012:us-east-1:acme-logs',
  crawlerId: 'crawler-aws-prod',
  name: 'acme-logs',
  firstSeen: '2024-05-01T12:00:00.123456789Z',
  inventoryUpdateTime: '2024-05-01T12:10:00.000000001Z',
  lastResourceStateChange: '2024-05-01T12:05:00.500000000Z',
  isChild: false,
  isCrawlerEventDriven: true,
  isExcluded: false,
  isLocked: false,
  ownerData: {
    ActionType: 'Update',
    eventName: 'PutBucketPolicy',
    eventTime: '2024-05-01T12:04:59.999999999Z',
    otherOwnerData: null,
    userIdentity: { displayName: 'Dana Reyes', initials: 'DR', type: 'IAMUser' },
    workflowId: 'wf-001',
  },
};

export const payloadBase = {
  accountId: ids.account,
  accountName: 'Acme',
  assetType: 'aws_s3_bucket',
  integrationId: 'int-aws-prod',
  integrationIdentifier: '123456789012',
  integrationName: 'AWS prod',
  providerType: 'aws',
  region: 'us-east-1',
  workflowId: 'wf-001',
};

export const driftPayload = {
  ...payloadBase,
  notificationType: 'Drift',
  samples: [
    {
      ...sample,
      drifts: [{ iacType: 'terraform', iacValue: 'private', keyName: 'acl', providerValue: 'public-read' }],
    },
  ],
};

/** Deep-clones a fixture so a test can break it without touching others. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}
