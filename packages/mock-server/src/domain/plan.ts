import type { PolicySeverity, ResourceAction } from '@iacm/sdk/contract';

/** One planned resource change of a simulated run. */
export interface PlanChange {
  /** The resource address, like `aws_s3_bucket.logs`. */
  address: string;
  /** The asset type, like `aws_s3_bucket`. */
  assetType: string;
  /** The region, like `us-east-1` (absent for global resources). */
  region?: string | undefined;
  /** The planned actions, like `["create"]` or `["delete", "create"]` for a replacement. */
  actions: ResourceAction[];
  /** The resource's tags after the change. */
  tags?: Record<string, string> | undefined;
  /** Monthly cost before and after the change, in dollars. */
  monthlyCost?: { before: number; after: number } | undefined;
}

/** A policy finding of a simulated plan. */
export interface PolicyFinding {
  /** The policy's name, like `s3-bucket-encryption`. */
  policy: string;
  /** How severe the finding is. */
  severity: PolicySeverity;
  /** The resource address the finding is about, if any. */
  address?: string | undefined;
}

/** Where a run happens: what a rule's scope is matched against. */
export interface RunScope {
  /** The workspace's name. */
  workspaceName: string;
  /** The repository, `<org>/<repo>`. */
  repository: string;
  /** The run's branch. */
  branch: string;
  /** The workspace's labels. */
  labels: string[];
}

/** What a plan proposes: the changes and the policy findings. */
export interface PlanContent {
  /** Planned resource changes. */
  changes: PlanChange[];
  /** Policy findings. */
  policyFindings: PolicyFinding[];
}
