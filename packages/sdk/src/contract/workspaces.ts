import * as z from 'zod/mini';
import {
  CHANGED_FILE_TYPES,
  type ChangedFileType,
  CI_TOOLS,
  type CiTool,
  IAC_TYPES,
  type IacType,
  RUN_STATUSES,
  type RunStatus,
  TASK_RESULT_STATUSES,
  TASK_STATUSES,
  TASK_TYPES,
  type TaskResultStatus,
  type TaskStatus,
  type TaskType,
  VCS_TYPES,
  type VcsType,
} from './enums.js';
import { count, unknownRecord, webUrl } from './formats.js';
import { MAX_LABEL_LENGTH, MAX_REQUEST_LIST_ITEMS, MAX_WORKSPACE_LABELS } from './limits.js';
import {
  type Described,
  filterValues,
  ObjectId,
  openEnum,
  PathId,
  type SortSpec,
  sortSchema,
  Timestamp,
} from './primitives.js';
import { looseObject, strictObject, withMeta } from './zod.js';

/** A label: 1 to {@link MAX_LABEL_LENGTH} (128) characters. */
const Label = z.string().check(z.minLength(1)).check(z.maxLength(MAX_LABEL_LENGTH));

/** `{ description }`, the wrapper the spec uses for several enumerated members. */
function described<T extends z.ZodMiniType<string, string>>(value: T) {
  return looseObject({ description: value });
}

/** A workspace's backend summary (spec §2.1). */
export const WorkspaceBackendSummary = looseObject({
  backendType: z.string(),
  backendConfig: unknownRecord(),
  iacStackId: z.string(),
  managedResourceCount: count(),
});
/** A workspace's backend summary: where its state lives and how many resources it manages. */
export interface WorkspaceBackendSummary {
  /** The backend kind (`s3`, `gcs`, `azurerm`, `remote`...). */
  backendType: string;
  /** The backend's configuration, as in the IaC code (bucket, key, region...). */
  backendConfig: Record<string, unknown>;
  /** The IaC stack the backend holds. */
  iacStackId: string;
  /** How many resources the state manages. */
  managedResourceCount: number;
}

/**
 * A workspace summary, the item of workspace search (spec §2.1). `id` and `workspaceId` hold the
 * same 24-hex id; either can be used in a path. Members that exist only once something has happened
 * (`lastRunTime` before the first run, ...) may be absent or null.
 */
export const WorkspaceSummary = looseObject({
  id: ObjectId,
  accountId: ObjectId,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  workspaceId: ObjectId,
  workspaceName: z.string(),
  repo: z.string(),
  repoUrl: webUrl(),
  vcsType: openEnum(VCS_TYPES),
  runnerType: openEnum(CI_TOOLS),
  lastRunStatus: z.nullish(described(openEnum(RUN_STATUSES))),
  lastApplyTime: z.nullish(Timestamp),
  lastPlanTime: z.nullish(Timestamp),
  lastRunTime: z.nullish(Timestamp),
  iacType: openEnum(IAC_TYPES),
  iacTypeVersion: z.nullish(z.string()),
  backendSummary: z.nullish(WorkspaceBackendSummary),
  labels: z.array(z.string()),
  runsCount: count(),
  isWorkflowManaged: z.boolean(),
  guardrails: z.array(z.string()),
});
/**
 * A workspace summary, the item of workspace search. `id` and `workspaceId` hold the same 24-hex
 * id. Members that exist only once something has happened may be absent or null. Enumerated members
 * are typed with their documented values (answers are read tolerantly: other values can arrive at
 * run time, see `docs/validation.md`).
 */
export interface WorkspaceSummary {
  /** The workspace's 24-hex id (usable in paths). */
  id: string;
  /** The owning account's id. */
  accountId: string;
  /** When the workspace was created. */
  createdAt: string;
  /** When the workspace last changed. */
  updatedAt: string;
  /** The same id as `id`. */
  workspaceId: string;
  /** The workspace's name. */
  workspaceName: string;
  /** The repository, `<org>/<repo>`. */
  repo: string;
  /** The repository's URL. */
  repoUrl: string;
  /** The version-control system. */
  vcsType: VcsType;
  /** The CI tool that runs the workspace. */
  runnerType: CiTool;
  /** The status of the last run, absent or null before the first run. */
  lastRunStatus?: Described<RunStatus> | null | undefined;
  /** When the last apply ran. */
  lastApplyTime?: string | null | undefined;
  /** When the last plan ran. */
  lastPlanTime?: string | null | undefined;
  /** When the last run ran. */
  lastRunTime?: string | null | undefined;
  /** The IaC tool. */
  iacType: IacType;
  /** The IaC tool's version, like `1.7.5`. */
  iacTypeVersion?: string | null | undefined;
  /** The backend, once known. */
  backendSummary?: WorkspaceBackendSummary | null | undefined;
  /** The workspace's labels. */
  labels: string[];
  /** How many runs the workspace has. */
  runsCount: number;
  /** Whether a managed workflow runs the workspace. */
  isWorkflowManaged: boolean;
  /** Ids of the guardrail rules that apply to the workspace. */
  guardrails: string[];
}

/** A member of a workspace summary: what workspace search's `projection` may name. */
export type WorkspaceField = keyof WorkspaceSummary;

/** Names of the top-level members of a workspace summary (what `projection` may name). */
export const WORKSPACE_FIELDS = Object.keys(WorkspaceSummary.shape) as [WorkspaceField, ...WorkspaceField[]];

/** A guardrail violation as a run task reports it. */
export const GuardrailViolation = looseObject({
  id: z.string(),
  severity: z.string(),
  message: z.string(),
});
/** A guardrail violation as a run task reports it. */
export interface GuardrailViolation {
  /** The violated rule's id. */
  id: string;
  /** The rule's severity, as text. */
  severity: string;
  /** What is wrong. */
  message: string;
}

/** A run task's guardrails summary (spec §2.3). */
export const GuardrailsSummary = looseObject({
  total: count(),
  passed: count(),
  failed: count(),
  violations: z.array(GuardrailViolation),
  description: z.string(),
});
/** A run task's guardrails summary: how many rules were checked, passed and failed. */
export interface GuardrailsSummary {
  /** Rules checked. */
  total: number;
  /** Rules passed. */
  passed: number;
  /** Rules failed. */
  failed: number;
  /** One entry per failed rule. */
  violations: GuardrailViolation[];
  /** A one-line summary. */
  description: string;
}

/** A run task's backend summary (spec §2.3). */
export const TaskBackendSummary = looseObject({
  type: z.string(),
  config: unknownRecord(),
  resources: count(),
  description: z.string(),
});
/** A run task's backend summary. */
export interface TaskBackendSummary {
  /** The backend kind. */
  type: string;
  /** The backend's configuration. */
  config: Record<string, unknown>;
  /** How many resources the state holds. */
  resources: number;
  /** A one-line summary. */
  description: string;
}

/** A run task's changed-files summary (spec §2.3). */
export const ChangedFilesCodeSummary = looseObject({
  total: count(),
  added: count(),
  modified: count(),
  deleted: count(),
  files: z.array(looseObject({ path: z.string(), type: openEnum(CHANGED_FILE_TYPES) })),
  description: z.string(),
});
/** A file a run changed. */
export interface ChangedFile {
  /** The file's path in the repository. */
  path: string;
  /** How it changed. */
  type: ChangedFileType;
}

/** A run task's changed-files summary. */
export interface ChangedFilesCodeSummary {
  /** Files changed. */
  total: number;
  /** Files added. */
  added: number;
  /** Files modified. */
  modified: number;
  /** Files deleted. */
  deleted: number;
  /** The files. */
  files: ChangedFile[];
  /** A one-line summary. */
  description: string;
}

/** A run task, the item of a run's `plan` and `apply` arrays (spec §2.3). */
export const RunTask = looseObject({
  id: ObjectId,
  accountId: ObjectId,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  contentKeys: z.record(z.string(), z.string()),
  status: openEnum(TASK_STATUSES),
  resultStatus: openEnum(TASK_RESULT_STATUSES),
  type: described(openEnum(TASK_TYPES)),
  guardrailsSummary: z.nullish(GuardrailsSummary),
  backendSummary: z.nullish(TaskBackendSummary),
  changedFilesCodeSummary: z.nullish(ChangedFilesCodeSummary),
  vcsType: described(openEnum(VCS_TYPES)),
  runnerType: described(openEnum(CI_TOOLS)),
});
/** A run task, the item of a run's `plan` and `apply` arrays. */
export interface RunTask {
  /** The task's 24-hex id. */
  id: string;
  /** The owning account's id. */
  accountId: string;
  /** When the task was created. */
  createdAt: string;
  /** When the task last changed. */
  updatedAt: string;
  /** Storage keys of the task's outputs (plan, logs...). */
  contentKeys: Record<string, string>;
  /** The task's progress. */
  status: TaskStatus;
  /** The task's outcome. */
  resultStatus: TaskResultStatus;
  /** The task's kind: `post-plan` or `post-apply`. */
  type: Described<TaskType>;
  /** The guardrails checked on the task. */
  guardrailsSummary?: GuardrailsSummary | null | undefined;
  /** The backend the task ran against. */
  backendSummary?: TaskBackendSummary | null | undefined;
  /** The files the run changed. */
  changedFilesCodeSummary?: ChangedFilesCodeSummary | null | undefined;
  /** The version-control system. */
  vcsType: Described<VcsType>;
  /** The CI tool. */
  runnerType: Described<CiTool>;
}

/** The owner of a run (spec §2.2). */
export const OwnerSummary = looseObject({
  email: z.string(),
  name: z.string(),
  initials: z.string(),
  customColor: z
    .string()
    .check(z.regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, { error: 'expected a hex colour like #1f6feb' })),
});
/** The owner of a run: who started it. */
export interface OwnerSummary {
  /** The owner's e-mail address. */
  email: string;
  /** The owner's name. */
  name: string;
  /** The owner's initials. */
  initials: string;
  /** The owner's avatar colour, like `#1f6feb`. */
  customColor: string;
}

/**
 * A workspace run, the item of run search (spec §2.2). Pull-request members are absent (or null)
 * for runs not started by a pull request; `applyTaskId` is absent until an apply task exists.
 */
export const WorkspaceRun = looseObject({
  id: ObjectId,
  accountId: ObjectId,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  workspaceId: ObjectId,
  workspaceName: z.string(),
  runId: z.string(),
  runName: z.string(),
  status: openEnum(RUN_STATUSES),
  pullRequestId: z.nullish(z.string()),
  pullRequestUrl: z.nullish(webUrl()),
  branch: z.string(),
  commitId: z.string(),
  commitUrl: webUrl(),
  runnerType: openEnum(CI_TOOLS),
  buildId: z.string(),
  buildName: z.string(),
  buildUrl: webUrl(),
  vcsType: openEnum(VCS_TYPES),
  repo: z.string(),
  repoUrl: webUrl(),
  ownerSummary: OwnerSummary,
  title: z.string(),
  terraformVersion: z.string(),
  iacType: openEnum(IAC_TYPES),
  backendSummary: WorkspaceBackendSummary,
  planTaskId: ObjectId,
  applyTaskId: z.nullish(ObjectId),
  plan: z.array(RunTask),
  apply: z.array(RunTask),
});
/**
 * A workspace run, the item of run search. Pull-request members are absent (or null) for runs not
 * started by a pull request; `applyTaskId` is absent until an apply task exists. Enumerated members
 * are typed with their documented values (answers are read tolerantly: other values can arrive at
 * run time, see `docs/validation.md`).
 */
export interface WorkspaceRun {
  /** The run's 24-hex id. */
  id: string;
  /** The owning account's id. */
  accountId: string;
  /** When the run was created. */
  createdAt: string;
  /** When the run last changed. */
  updatedAt: string;
  /** The workspace's id. */
  workspaceId: string;
  /** The workspace's name. */
  workspaceName: string;
  /** The CI system's id of the run. */
  runId: string;
  /** The CI system's name of the run. */
  runName: string;
  /** The run's status. */
  status: RunStatus;
  /** The pull request that started the run. */
  pullRequestId?: string | null | undefined;
  /** The pull request's URL. */
  pullRequestUrl?: string | null | undefined;
  /** The branch. */
  branch: string;
  /** The commit's hash. */
  commitId: string;
  /** The commit's URL. */
  commitUrl: string;
  /** The CI tool. */
  runnerType: CiTool;
  /** The CI build's id. */
  buildId: string;
  /** The CI build's name. */
  buildName: string;
  /** The CI build's URL. */
  buildUrl: string;
  /** The version-control system. */
  vcsType: VcsType;
  /** The repository, `<org>/<repo>`. */
  repo: string;
  /** The repository's URL. */
  repoUrl: string;
  /** Who started the run. */
  ownerSummary: OwnerSummary;
  /** The run's title (the commit or pull request title). */
  title: string;
  /** The IaC tool's version. */
  terraformVersion: string;
  /** The IaC tool. */
  iacType: IacType;
  /** The backend the run used. */
  backendSummary: WorkspaceBackendSummary;
  /** The plan task's id. */
  planTaskId: string;
  /** The apply task's id, once there is one. */
  applyTaskId?: string | null | undefined;
  /** The plan tasks. */
  plan: RunTask[];
  /** The apply tasks. */
  apply: RunTask[];
}

/** A member of a workspace run: what run search's `projection` may name. */
export type RunField = keyof WorkspaceRun;

/** Names of the top-level members of a workspace run (what `projection` may name). */
export const RUN_FIELDS = Object.keys(WorkspaceRun.shape) as [RunField, ...RunField[]];

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
  workspaceName: z.optional(filterValues(z.string())),
  repositories: z.optional(filterValues(z.string())),
  ciTool: z.optional(filterValues(z.enum(CI_TOOLS))),
  labels: z.optional(filterValues(z.string())),
  status: z.optional(filterValues(z.enum(RUN_STATUSES))),
  isManagedWorkflow: z.optional(z.boolean()),
  vcsType: z.optional(filterValues(z.enum(VCS_TYPES))),
};

/**
 * Filters of workspace search. Values of one member are any-of; members combine with AND; `$or`
 * holds the same members and matches when at least one of them matches.
 */
export const WorkspaceFilters = strictObject({
  ...workspaceFilterShape,
  $or: z.optional(strictObject(workspaceFilterShape)),
});
/** The members of workspace search's filters (and of their `$or`). Each list is any-of. */
export interface WorkspaceFilterMembers {
  /** Workspace names. */
  workspaceName?: string[] | undefined;
  /** Repositories, `<org>/<repo>`. */
  repositories?: string[] | undefined;
  /** CI tools. */
  ciTool?: CiTool[] | undefined;
  /** Labels. */
  labels?: string[] | undefined;
  /** Statuses of the last run. */
  status?: RunStatus[] | undefined;
  /** Whether a managed workflow runs the workspace. */
  isManagedWorkflow?: boolean | undefined;
  /** Version-control systems. */
  vcsType?: VcsType[] | undefined;
}

/**
 * Filters of workspace search. Values of one member are any-of (an empty list adds no constraint);
 * members combine with AND; `$or` matches when at least one of its members matches (an empty `$or`
 * adds no constraint).
 */
export interface WorkspaceFilters extends WorkspaceFilterMembers {
  /** Members of which at least one must match. */
  $or?: WorkspaceFilterMembers | undefined;
}

/** The body of `POST /v2/workspaces/search`. Every member is optional. */
export const WorkspaceSearchBody = strictObject({
  projection: z.optional(z.array(z.enum(WORKSPACE_FIELDS)).check(z.maxLength(MAX_REQUEST_LIST_ITEMS))),
  searchValue: z.optional(z.string().check(z.maxLength(256))),
  filters: z.optional(WorkspaceFilters),
  sort: z.optional(sortSchema(WORKSPACE_SORT_FIELDS)),
});
/** The body of `POST /v2/workspaces/search`. Every member is optional. */
export interface WorkspaceSearchBody {
  /** Only these members of each workspace (plus `id`). */
  projection?: WorkspaceField[] | undefined;
  /** Free text to search for (at most 256 characters). */
  searchValue?: string | undefined;
  /** Filters. */
  filters?: WorkspaceFilters | undefined;
  /** Sort keys. */
  sort?: SortSpec<WorkspaceSortField> | undefined;
}

/** The answer of `POST /v2/workspaces/search`: a bare array of workspace summaries, no total. */
export const WorkspaceSearchResponse = z.array(WorkspaceSummary);
/** The answer of workspace search: one page of workspace summaries. */
export type WorkspaceSearchResponse = WorkspaceSummary[];

/** Path parameters of the workspace endpoints. */
export const WorkspacePathParams = strictObject({ workspaceId: PathId });
/** Path parameters of the workspace endpoints. */
export interface WorkspacePathParams {
  /** The workspace's id: 24-hex, or a lower-case UUID. */
  workspaceId: string;
}

/** The answer of `DELETE /v2/workspaces/{workspaceId}`: `{ status, data: { message } }`. */
export const WorkspaceDeleteResponse = looseObject({
  status: z.number().check(z.int()),
  data: looseObject({ message: z.string() }),
});
/** The answer of workspace delete: `{ status, data: { message } }`. */
export interface WorkspaceDeleteResponse {
  /** The HTTP status, repeated. */
  status: number;
  /** What was done. */
  data: {
    /** A human-readable confirmation. */
    message: string;
  };
}

/**
 * The body of `PUT /v2/workspaces/{workspaceId}/labels`: the complete new label list (it replaces
 * the old one). At most 50 labels, each 1 to 128 characters, no duplicates; `[]` removes all labels.
 */
export const WorkspaceLabelsBody = strictObject({
  labels: z
    .array(Label)
    .check(z.maxLength(MAX_WORKSPACE_LABELS))
    .check(
      z.refine((labels) => new Set(labels).size === labels.length, {
        error: 'expected each label once; remove duplicates',
      }),
    ),
});
/** The body of the labels endpoint: the complete new label list. */
export interface WorkspaceLabelsBody {
  /** At most 50 labels, each 1 to 128 characters, no duplicates; `[]` removes them all. */
  labels: string[];
}

/** The answer of `PUT /v2/workspaces/{workspaceId}/labels`. */
export const WorkspaceLabelsResponse = looseObject({
  id: ObjectId,
  workspaceName: z.string(),
  labels: z.array(z.string()),
  updatedAt: Timestamp,
});
/** The answer of the labels endpoint. */
export interface WorkspaceLabelsResponse {
  /** The workspace's id. */
  id: string;
  /** The workspace's name. */
  workspaceName: string;
  /** The labels now set. */
  labels: string[];
  /** When the labels changed. */
  updatedAt: string;
}

const runFilterShape = {
  runId: z.optional(filterValues(z.string())),
  runName: z.optional(filterValues(z.string())),
  status: z.optional(filterValues(z.enum(RUN_STATUSES))),
  pullRequestUrl: z.optional(filterValues(z.string())),
  branch: z.optional(filterValues(z.string())),
  commitId: z.optional(filterValues(z.string())),
  ciTool: z.optional(filterValues(z.enum(CI_TOOLS))),
  buildId: z.optional(filterValues(z.string())),
  buildName: z.optional(filterValues(z.string())),
  buildUrl: z.optional(filterValues(z.string())),
  vcsType: z.optional(filterValues(z.enum(VCS_TYPES))),
  repository: z.optional(filterValues(z.string())),
  repositoryUrl: z.optional(filterValues(z.string())),
  title: z.optional(filterValues(z.string())),
  createdAt: withMeta(z.optional(Timestamp), {
    description: 'Only runs created at or after this instant.',
  }),
  updatedAt: withMeta(z.optional(Timestamp), {
    description: 'Only runs updated at or after this instant.',
  }),
};

/**
 * Filters of run search. Values of one member are any-of; members combine with AND; `createdAt` and
 * `updatedAt` keep runs at or after the instant; `$or` holds the same members.
 */
export const RunFilters = strictObject({
  ...runFilterShape,
  $or: z.optional(strictObject(runFilterShape)),
});
/** The members of run search's filters (and of their `$or`). Each list is any-of. */
export interface RunFilterMembers {
  /** CI run ids. */
  runId?: string[] | undefined;
  /** CI run names. */
  runName?: string[] | undefined;
  /** Run statuses. */
  status?: RunStatus[] | undefined;
  /** Pull request URLs. */
  pullRequestUrl?: string[] | undefined;
  /** Branches. */
  branch?: string[] | undefined;
  /** Commit hashes. */
  commitId?: string[] | undefined;
  /** CI tools. */
  ciTool?: CiTool[] | undefined;
  /** CI build ids. */
  buildId?: string[] | undefined;
  /** CI build names. */
  buildName?: string[] | undefined;
  /** CI build URLs. */
  buildUrl?: string[] | undefined;
  /** Version-control systems. */
  vcsType?: VcsType[] | undefined;
  /** Repositories, `<org>/<repo>`. */
  repository?: string[] | undefined;
  /** Repository URLs. */
  repositoryUrl?: string[] | undefined;
  /** Run titles. */
  title?: string[] | undefined;
  /** Only runs created at or after this instant. */
  createdAt?: string | undefined;
  /** Only runs updated at or after this instant. */
  updatedAt?: string | undefined;
}

/**
 * Filters of run search. Values of one member are any-of; members combine with AND; `createdAt` and
 * `updatedAt` keep runs at or after the instant; `$or` matches when at least one of its members does.
 */
export interface RunFilters extends RunFilterMembers {
  /** Members of which at least one must match. */
  $or?: RunFilterMembers | undefined;
}

/** The body of `POST /v2/workspaces/{workspaceId}/runs/search`. Every member is optional. */
export const RunSearchBody = strictObject({
  projection: z.optional(z.array(z.enum(RUN_FIELDS)).check(z.maxLength(MAX_REQUEST_LIST_ITEMS))),
  searchValue: z.optional(z.string().check(z.maxLength(256))),
  filters: z.optional(RunFilters),
  sort: z.optional(sortSchema(RUN_SORT_FIELDS)),
});
/** The body of `POST /v2/workspaces/{workspaceId}/runs/search`. Every member is optional. */
export interface RunSearchBody {
  /** Only these members of each run (plus `id`). */
  projection?: RunField[] | undefined;
  /** Free text to search for (at most 256 characters). */
  searchValue?: string | undefined;
  /** Filters. */
  filters?: RunFilters | undefined;
  /** Sort keys. */
  sort?: SortSpec<RunSortField> | undefined;
}

/** The answer of run search: a bare array of runs, no total. */
export const RunSearchResponse = z.array(WorkspaceRun);
/** The answer of run search: one page of runs. */
export type RunSearchResponse = WorkspaceRun[];
