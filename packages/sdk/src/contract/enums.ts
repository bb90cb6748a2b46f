/**
 * Every enumeration of the API in one place. Values come from the public record
 * (`known-values.md`); where nothing is published, the set below is this project's documented
 * choice (see `docs/api-semantics.md`, "Enumerations").
 *
 * Requests accept only these values. Responses accept these and any other string, so a value the
 * service adds later does not break a reader.
 */

/** Run `status` values (as published; `Acknowledged` has a capital A). */
export const RUN_STATUSES = [
  'init_error',
  'planning',
  'plan_success',
  'plan_error',
  'applying',
  'apply_error',
  'apply_success',
  'blocked',
  'Acknowledged',
  'plan_no_changes',
  'apply_no_changes',
] as const;
/** A run status. */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** CI tools: a workspace's or run's `runnerType`, and the `ciTool` filter. */
export const CI_TOOLS = [
  'github-actions',
  'gitlab-pipelines',
  'bitbucket-pipelines',
  'azure-pipelines',
  'jenkins',
  'semaphore',
  'atlantis',
  'env0',
  'unrecognized',
] as const;
/** A CI tool. */
export type CiTool = (typeof CI_TOOLS)[number];

/** Version-control types (`vcsType`). */
export const VCS_TYPES = ['github', 'gitlab', 'bitbucket', 'codecommit', 'azuredevops'] as const;
/** A version-control type. */
export type VcsType = (typeof VCS_TYPES)[number];

/** IaC tools (`iacType`). The first three are documented; the others exist in the service. */
export const IAC_TYPES = ['terraform', 'opentofu', 'cloudformation', 'helm', 'kustomize', 'argocd'] as const;
/** An IaC tool. */
export type IacType = (typeof IAC_TYPES)[number];

/** Run task kinds (`type.description` of a run task). */
export const TASK_TYPES = ['post-plan', 'post-apply'] as const;
/** A run task kind. */
export type TaskType = (typeof TASK_TYPES)[number];

/** Run task `status` values. Not published: this project's choice. */
export const TASK_STATUSES = ['queued', 'running', 'completed', 'failed', 'skipped'] as const;
/** A run task status. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Run task `resultStatus` values. Not published: this project's choice. */
export const TASK_RESULT_STATUSES = ['success', 'failure', 'blocked', 'no_changes', 'pending'] as const;
/** A run task result status. */
export type TaskResultStatus = (typeof TASK_RESULT_STATUSES)[number];

/** Kinds of changed file in `changedFilesCodeSummary.files[].type`. Not published: this project's choice. */
export const CHANGED_FILE_TYPES = ['added', 'modified', 'deleted'] as const;
/** A changed-file kind. */
export type ChangedFileType = (typeof CHANGED_FILE_TYPES)[number];

/** Guardrail rule kinds (`type`). */
export const GUARDRAIL_TYPES = ['policy', 'cost', 'resource', 'tag'] as const;
/** A guardrail rule kind. */
export type GuardrailType = (typeof GUARDRAIL_TYPES)[number];

/** Guardrail rule severities (integer): 1 flexible, 2 strict, 3 warning. */
export const GUARDRAIL_SEVERITIES = { flexible: 1, strict: 2, warning: 3 } as const;
/** A guardrail rule severity: 1 flexible, 2 strict, 3 warning. */
export type GuardrailSeverity = (typeof GUARDRAIL_SEVERITIES)[keyof typeof GUARDRAIL_SEVERITIES];
/** The name of a guardrail rule severity. */
export type GuardrailSeverityName = keyof typeof GUARDRAIL_SEVERITIES;

/** The name of a severity (`2` → `strict`), or `undefined` for a number the service does not define. */
export function severityName(severity: number): GuardrailSeverityName | undefined {
  for (const [name, value] of Object.entries(GUARDRAIL_SEVERITIES)) {
    if (value === severity) return name as GuardrailSeverityName;
  }
  return undefined;
}

/** Resource actions in resource criteria (`criteria.resource.actions`). */
export const RESOURCE_ACTIONS = ['no-op', 'create', 'read', 'update', 'delete'] as const;
/** A resource action. */
export type ResourceAction = (typeof RESOURCE_ACTIONS)[number];

/** Tag enforcement modes (`criteria.tag.tagEnforcementMode`). */
export const TAG_ENFORCEMENT_MODES = ['requiredTags', 'anyTags', 'requiredValues'] as const;
/** A tag enforcement mode. */
export type TagEnforcementMode = (typeof TAG_ENFORCEMENT_MODES)[number];

/** Policy finding severities, lowest first (`criteria.policy.severity`). */
export const POLICY_SEVERITIES = ['trace', 'info', 'low', 'medium', 'high', 'critical'] as const;
/** A policy finding severity. */
export type PolicySeverity = (typeof POLICY_SEVERITIES)[number];

/**
 * IaC stack `status` values. The service shows them to users as "contains drifts", "contains
 * ghosts", "active", "scanning", "empty", "unavailable", "not supported", "corrupted"; the machine
 * values are this project's choice.
 */
export const STACK_STATUSES = [
  'contains_drifts',
  'contains_ghosts',
  'active',
  'scanning',
  'empty',
  'unavailable',
  'not_supported',
  'corrupted',
] as const;
/** An IaC stack status. */
export type StackStatus = (typeof STACK_STATUSES)[number];

/** Cloud provider codes in webhooks (`providerType`), or `""`. */
export const WEBHOOK_PROVIDER_TYPES = ['aws', 'gcp', 'azurerm', ''] as const;
/** A webhook provider code. */
export type WebhookProviderType = (typeof WEBHOOK_PROVIDER_TYPES)[number];

/** Webhook notification kinds (`notificationType`). */
export const NOTIFICATION_TYPES = ['Drift', 'UnmanagedResource', 'GhostResource', 'InsightDetected'] as const;
/** A webhook notification kind. */
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * Event center `event_type` values: one per source the spec names (mutations, guardrail
 * violations, IaC status changes, governance violations, ClickOps). Only `guardrails_violation` is
 * published; the others are this project's choice.
 */
export const EVENT_TYPES = [
  'mutation',
  'guardrails_violation',
  'iac_status_change',
  'governance_violation',
  'clickops',
] as const;
/** An event center event type. */
export type EventType = (typeof EVENT_TYPES)[number];

/** Event center `mutation_type` values. Only `create` is published; the others are this project's choice. */
export const MUTATION_TYPES = ['create', 'update', 'delete'] as const;
/** An event center mutation type. */
export type MutationType = (typeof MUTATION_TYPES)[number];

/**
 * Event center filter keys and facet fields, and the event member each reads. Only
 * `integrationId` is published; the others are this project's choice.
 */
export const EVENT_FIELDS = {
  integrationId: 'integration_id',
  eventType: 'event_type',
  providerType: 'provider_type',
  assetType: 'asset_type',
  assetId: 'asset_id',
  mutationType: 'event.mutation_type',
} as const;
/** The names of the event center filter keys and facet fields. */
export const EVENT_FIELD_NAMES = Object.keys(EVENT_FIELDS) as [
  keyof typeof EVENT_FIELDS,
  ...Array<keyof typeof EVENT_FIELDS>,
];
/** An event center filter key or facet field. */
export type EventField = keyof typeof EVENT_FIELDS;

/** Cloud providers of IaC stacks (`stackProviders[].providerType`, `screenFilters.providerType`). */
export const STACK_PROVIDER_TYPES = ['aws', 'gcp', 'azurerm', 'k8s', 'github', 'datadog'] as const;
/** An IaC stack provider kind. */
export type StackProviderType = (typeof STACK_PROVIDER_TYPES)[number];
