import { z } from 'zod';
import {
  CHANGED_FILE_TYPES,
  CI_TOOLS,
  IAC_TYPES,
  RUN_STATUSES,
  TASK_RESULT_STATUSES,
  TASK_STATUSES,
  TASK_TYPES,
  VCS_TYPES,
} from './enums.js';
import { filterValues, ObjectId, openEnum, PathId, sortSchema, Timestamp } from './primitives.js';

/** A label: 1 to 128 characters. */
const Label = z.string().min(1).max(128);

/** `{ description }`, the wrapper the spec uses for several enumerated members. */
function described<T extends z.ZodType<string, string>>(value: T) {
  return z.looseObject({ description: value });
}

/** A workspace's backend summary (spec §2.1). */
export const WorkspaceBackendSummary = z.looseObject({
  backendType: z.string(),
  backendConfig: z.record(z.string(), z.unknown()),
  iacStackId: z.string(),
  managedResourceCount: z.number().int().min(0),
});
/** A workspace's backend summary. */
export type WorkspaceBackendSummary = z.infer<typeof WorkspaceBackendSummary>;

/**
 * A workspace summary, the item of workspace search (spec §2.1). `id` and `workspaceId` hold the
 * same 24-hex id; either can be used in a path. Members that exist only once something has happened
 * (`lastRunTime` before the first run, ...) may be absent or null.
 */
export const WorkspaceSummary = z.looseObject({
  id: ObjectId,
  accountId: ObjectId,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  workspaceId: ObjectId,
  workspaceName: z.string(),
  repo: z.string(),
  repoUrl: z.url(),
  vcsType: openEnum(VCS_TYPES),
  runnerType: openEnum(CI_TOOLS),
  lastRunStatus: described(openEnum(RUN_STATUSES)).nullish(),
  lastApplyTime: Timestamp.nullish(),
  lastPlanTime: Timestamp.nullish(),
  lastRunTime: Timestamp.nullish(),
  iacType: openEnum(IAC_TYPES),
  iacTypeVersion: z.string().nullish(),
  backendSummary: WorkspaceBackendSummary.nullish(),
  labels: z.array(z.string()),
  runsCount: z.number().int().min(0),
  isWorkflowManaged: z.boolean(),
  guardrails: z.array(z.string()),
});
/** A workspace summary. */
export type WorkspaceSummary = z.infer<typeof WorkspaceSummary>;

/** Names of the top-level members of a workspace summary (what `projection` may name). */
export const WORKSPACE_FIELDS = Object.keys(WorkspaceSummary.shape) as [
  keyof typeof WorkspaceSummary.shape,
  ...Array<keyof typeof WorkspaceSummary.shape>,
];

/** A guardrail violation as a run task reports it. */
export const GuardrailViolation = z.looseObject({
  id: z.string(),
  severity: z.string(),
  message: z.string(),
});
/** A guardrail violation as a run task reports it. */
export type GuardrailViolation = z.infer<typeof GuardrailViolation>;

/** A run task's guardrails summary (spec §2.3). */
export const GuardrailsSummary = z.looseObject({
  total: z.number().int().min(0),
  passed: z.number().int().min(0),
  failed: z.number().int().min(0),
  violations: z.array(GuardrailViolation),
  description: z.string(),
});
/** A run task's guardrails summary. */
export type GuardrailsSummary = z.infer<typeof GuardrailsSummary>;

/** A run task's backend summary (spec §2.3). */
export const TaskBackendSummary = z.looseObject({
  type: z.string(),
  config: z.record(z.string(), z.unknown()),
  resources: z.number().int().min(0),
  description: z.string(),
});
/** A run task's backend summary. */
export type TaskBackendSummary = z.infer<typeof TaskBackendSummary>;

/** A run task's changed-files summary (spec §2.3). */
export const ChangedFilesCodeSummary = z.looseObject({
  total: z.number().int().min(0),
  added: z.number().int().min(0),
  modified: z.number().int().min(0),
  deleted: z.number().int().min(0),
  files: z.array(z.looseObject({ path: z.string(), type: openEnum(CHANGED_FILE_TYPES) })),
  description: z.string(),
});
/** A run task's changed-files summary. */
export type ChangedFilesCodeSummary = z.infer<typeof ChangedFilesCodeSummary>;

/** A run task, the item of a run's `plan` and `apply` arrays (spec §2.3). */
export const RunTask = z.looseObject({
  id: ObjectId,
  accountId: ObjectId,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  contentKeys: z.record(z.string(), z.string()),
  status: openEnum(TASK_STATUSES),
  resultStatus: openEnum(TASK_RESULT_STATUSES),
  type: described(openEnum(TASK_TYPES)),
  guardrailsSummary: GuardrailsSummary.nullish(),
  backendSummary: TaskBackendSummary.nullish(),
  changedFilesCodeSummary: ChangedFilesCodeSummary.nullish(),
  vcsType: described(openEnum(VCS_TYPES)),
  runnerType: described(openEnum(CI_TOOLS)),
});
/** A run task. */
export type RunTask = z.infer<typeof RunTask>;

/** The owner of a run (spec §2.2). */
export const OwnerSummary = z.looseObject({
  email: z.string(),
  name: z.string(),
  initials: z.string(),
  customColor: z
    .string()
    .regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, { error: 'expected a hex colour like #1f6feb' }),
});
/** The owner of a run. */
export type OwnerSummary = z.infer<typeof OwnerSummary>;

/**
 * A workspace run, the item of run search (spec §2.2). Pull-request members are absent (or null)
 * for runs not started by a pull request; `applyTaskId` is absent until an apply task exists.
 */
export const WorkspaceRun = z.looseObject({
  id: ObjectId,
  accountId: ObjectId,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  workspaceId: ObjectId,
  workspaceName: z.string(),
  runId: z.string(),
  runName: z.string(),
  status: openEnum(RUN_STATUSES),
  pullRequestId: z.string().nullish(),
  pullRequestUrl: z.url().nullish(),
  branch: z.string(),
  commitId: z.string(),
  commitUrl: z.url(),
  runnerType: openEnum(CI_TOOLS),
  buildId: z.string(),
  buildName: z.string(),
  buildUrl: z.url(),
  vcsType: openEnum(VCS_TYPES),
  repo: z.string(),
  repoUrl: z.url(),
  ownerSummary: OwnerSummary,
  title: z.string(),
  terraformVersion: z.string(),
  iacType: openEnum(IAC_TYPES),
  backendSummary: WorkspaceBackendSummary,
  planTaskId: ObjectId,
  applyTaskId: ObjectId.nullish(),
  plan: z.array(RunTask),
  apply: z.array(RunTask),
});
/** A workspace run. */
export type WorkspaceRun = z.infer<typeof WorkspaceRun>;

/** Names of the top-level members of a workspace run (what `projection` may name). */
export const RUN_FIELDS = Object.keys(WorkspaceRun.shape) as [
  keyof typeof WorkspaceRun.shape,
  ...Array<keyof typeof WorkspaceRun.shape>,
];

/** Sortable fields of workspace search (spec §4.1). */
export const WORKSPACE_SORT_FIELDS = [
  'lastRunTime',
  'workspaceName',
  'repository',
  'terraformVersion',
  'lastRunStatus',
  'ciTool',
] as const;
/** A sortable field of workspace search. */
export type WorkspaceSortField = (typeof WORKSPACE_SORT_FIELDS)[number];

/** Sortable fields of run search (spec §4.1). */
export const RUN_SORT_FIELDS = [
  'updatedAt',
  'title',
  'commitId',
  'branch',
  'status',
  'ciTool',
  'vcsType',
  'repository',
] as const;
/** A sortable field of run search. */
export type RunSortField = (typeof RUN_SORT_FIELDS)[number];

const workspaceFilterShape = {
  workspaceName: filterValues(z.string()).optional(),
  repositories: filterValues(z.string()).optional(),
  ciTool: filterValues(z.enum(CI_TOOLS)).optional(),
  labels: filterValues(z.string()).optional(),
  status: filterValues(z.enum(RUN_STATUSES)).optional(),
  isManagedWorkflow: z.boolean().optional(),
  vcsType: filterValues(z.enum(VCS_TYPES)).optional(),
};

/**
 * Filters of workspace search. Values of one member are any-of; members combine with AND; `$or`
 * holds the same members and matches when at least one of them matches.
 */
export const WorkspaceFilters = z.strictObject({
  ...workspaceFilterShape,
  $or: z.strictObject(workspaceFilterShape).optional(),
});
/** Filters of workspace search. */
export type WorkspaceFilters = z.input<typeof WorkspaceFilters>;

/** The body of `POST /v2/workspaces/search`. Every member is optional. */
export const WorkspaceSearchBody = z.strictObject({
  projection: z.array(z.enum(WORKSPACE_FIELDS)).optional(),
  searchValue: z.string().max(256).optional(),
  filters: WorkspaceFilters.optional(),
  sort: sortSchema(WORKSPACE_SORT_FIELDS).optional(),
});
/** The body of `POST /v2/workspaces/search`. */
export type WorkspaceSearchBody = z.input<typeof WorkspaceSearchBody>;

/** The answer of `POST /v2/workspaces/search`: a bare array of workspace summaries, no total. */
export const WorkspaceSearchResponse = z.array(WorkspaceSummary);
/** The answer of workspace search. */
export type WorkspaceSearchResponse = z.infer<typeof WorkspaceSearchResponse>;

/** Path parameters of the workspace endpoints. */
export const WorkspacePathParams = z.strictObject({ workspaceId: PathId });
/** Path parameters of the workspace endpoints. */
export type WorkspacePathParams = z.infer<typeof WorkspacePathParams>;

/** The answer of `DELETE /v2/workspaces/{workspaceId}`: `{ status, data: { message } }`. */
export const WorkspaceDeleteResponse = z.looseObject({
  status: z.number().int(),
  data: z.looseObject({ message: z.string() }),
});
/** The answer of workspace delete. */
export type WorkspaceDeleteResponse = z.infer<typeof WorkspaceDeleteResponse>;

/**
 * The body of `PUT /v2/workspaces/{workspaceId}/labels`: the complete new label list (it replaces
 * the old one). At most 50 labels, each 1 to 128 characters, no duplicates; `[]` removes all labels.
 */
export const WorkspaceLabelsBody = z.strictObject({
  labels: z
    .array(Label)
    .max(50)
    .refine((labels) => new Set(labels).size === labels.length, {
      error: 'expected each label once; remove duplicates',
    }),
});
/** The body of the labels endpoint. */
export type WorkspaceLabelsBody = z.input<typeof WorkspaceLabelsBody>;

/** The answer of `PUT /v2/workspaces/{workspaceId}/labels`. */
export const WorkspaceLabelsResponse = z.looseObject({
  id: ObjectId,
  workspaceName: z.string(),
  labels: z.array(z.string()),
  updatedAt: Timestamp,
});
/** The answer of the labels endpoint. */
export type WorkspaceLabelsResponse = z.infer<typeof WorkspaceLabelsResponse>;

const runFilterShape = {
  runId: filterValues(z.string()).optional(),
  runName: filterValues(z.string()).optional(),
  status: filterValues(z.enum(RUN_STATUSES)).optional(),
  pullRequestUrl: filterValues(z.string()).optional(),
  branch: filterValues(z.string()).optional(),
  commitId: filterValues(z.string()).optional(),
  ciTool: filterValues(z.enum(CI_TOOLS)).optional(),
  buildId: filterValues(z.string()).optional(),
  buildName: filterValues(z.string()).optional(),
  buildUrl: filterValues(z.string()).optional(),
  vcsType: filterValues(z.enum(VCS_TYPES)).optional(),
  repository: filterValues(z.string()).optional(),
  repositoryUrl: filterValues(z.string()).optional(),
  title: filterValues(z.string()).optional(),
  createdAt: Timestamp.optional().meta({ description: 'Only runs created at or after this instant.' }),
  updatedAt: Timestamp.optional().meta({ description: 'Only runs updated at or after this instant.' }),
};

/**
 * Filters of run search. Values of one member are any-of; members combine with AND; `createdAt` and
 * `updatedAt` keep runs at or after the instant; `$or` holds the same members.
 */
export const RunFilters = z.strictObject({
  ...runFilterShape,
  $or: z.strictObject(runFilterShape).optional(),
});
/** Filters of run search. */
export type RunFilters = z.input<typeof RunFilters>;

/** The body of `POST /v2/workspaces/{workspaceId}/runs/search`. Every member is optional. */
export const RunSearchBody = z.strictObject({
  projection: z.array(z.enum(RUN_FIELDS)).optional(),
  searchValue: z.string().max(256).optional(),
  filters: RunFilters.optional(),
  sort: sortSchema(RUN_SORT_FIELDS).optional(),
});
/** The body of run search. */
export type RunSearchBody = z.input<typeof RunSearchBody>;

/** The answer of run search: a bare array of runs, no total. */
export const RunSearchResponse = z.array(WorkspaceRun);
/** The answer of run search. */
export type RunSearchResponse = z.infer<typeof RunSearchResponse>;
