import * as z from 'zod/mini';
import {
  IAC_TYPES,
  type IacType,
  STACK_PROVIDER_TYPES,
  STACK_STATUSES,
  type StackProviderType,
  type StackStatus,
  VCS_TYPES,
  type VcsType,
} from './enums.js';
import { count } from './formats.js';
import { MAX_PAGE_SIZE, MAX_REQUEST_LIST_ITEMS, MAX_REQUEST_LIST_VALUES } from './limits.js';
import { AggregationBucket, openEnum, Timestamp } from './primitives.js';
import { looseObject, withMeta } from './zod.js';

/** A non-negative integer paging member of an IaC explorer body. */
const pageNumber = count();
/** A page size member of an IaC explorer body: 1 to {@link MAX_PAGE_SIZE}. */
const pageSize = z.number().check(z.int()).check(z.gte(1)).check(z.lte(MAX_PAGE_SIZE));
/** A list of strings of a request's `screenFilters`. */
const strings = z.array(z.string()).check(z.maxLength(MAX_REQUEST_LIST_VALUES));

/**
 * Paging members of the IaC explorer bodies. `page` is zero-based; `pageNumber` is an alias of
 * `page` and `tablePageSize` of `pageSize` (the console's names); when both of a pair are given they
 * must be equal. Default page 0, page size 25, maximum {@link MAX_PAGE_SIZE}.
 */
const paging = {
  page: z.optional(pageNumber),
  pageSize: z.optional(pageSize),
  pageNumber: z.optional(pageNumber),
  tablePageSize: z.optional(pageSize),
};

/**
 * Paging members of the IaC explorer bodies: `page` is zero-based (default 0), `pageSize` 1 to 500
 * (default 25); `pageNumber` and `tablePageSize` are the console's names for them (equal when both
 * of a pair are given).
 */
export interface ExplorerPaging {
  /** Zero-based page. Default 0. */
  page?: number | undefined;
  /** Items per page, 1 to 500. Default 25. */
  pageSize?: number | undefined;
  /** Alias of `page`. */
  pageNumber?: number | undefined;
  /** Alias of `pageSize`. */
  tablePageSize?: number | undefined;
}

function checkPagingAliases(
  body: { [K in keyof typeof paging]?: number | undefined },
  ctx: z.core.$RefinementCtx,
) {
  for (const [a, b] of [
    ['page', 'pageNumber'],
    ['pageSize', 'tablePageSize'],
  ] as const) {
    if (body[a] !== undefined && body[b] !== undefined && body[a] !== body[b]) {
      ctx.addIssue({
        code: 'custom',
        path: [b],
        message: `${b} is an alias of ${a}; give one, or the same value in both`,
      });
    }
  }
}

/**
 * The shared `screenFilters` object of the IaC explorer queries (spec §4.3). Lists are any-of,
 * members combine with AND, and an empty list adds no constraint. Each member means a field of a
 * stack; on backends, repositories and modules it selects the records related to matching stacks
 * (see `docs/api-semantics.md`, "IaC explorer"). Additional members of any type are accepted (and
 * ignored by the mock).
 */
export const ScreenFilters = looseObject({
  stateType: z.optional(strings),
  providerIntegrationId: z.optional(strings),
  providerType: z.optional(strings),
  providerAccountId: z.optional(strings),
  stackAssetTypes: z.optional(strings),
  status: z.optional(strings),
  iacState: z.optional(strings),
  vcsRepo: z.optional(strings),
  backendLocation: z.optional(strings),
  hasIntegratedProviders: z.optional(z.boolean()),
  hasNotIntegratedProviders: z.optional(z.boolean()),
});
/**
 * The shared `screenFilters` object of the IaC explorer queries. Lists are any-of, members combine
 * with AND, an empty list adds no constraint. Additional members are accepted.
 */
export interface ScreenFilters {
  /** IaC tools of the stack (`terraform`...). */
  stateType?: string[] | undefined;
  /** Integration ids of the stack's providers. */
  providerIntegrationId?: string[] | undefined;
  /** Kinds of the stack's providers (`aws`...). */
  providerType?: string[] | undefined;
  /** Account ids of the stack's providers. */
  providerAccountId?: string[] | undefined;
  /** Asset types in the stacks (accepted; the mock keeps no asset types, so it adds no constraint). */
  stackAssetTypes?: string[] | undefined;
  /** Stack statuses. */
  status?: string[] | undefined;
  /** Stack statuses, like `status`: a stack's only state is its status. */
  iacState?: string[] | undefined;
  /** The stack's repository, `<org>/<repo>`. */
  vcsRepo?: string[] | undefined;
  /** Where the stack's state lives: a backend's `mainLocation` (`s3://bucket`...). */
  backendLocation?: string[] | undefined;
  /** `true`: stacks with at least one integrated provider; `false`: stacks with none. */
  hasIntegratedProviders?: boolean | undefined;
  /** `true`: stacks with at least one provider that is not integrated; `false`: stacks with none. */
  hasNotIntegratedProviders?: boolean | undefined;
  /** Other members the console sends; accepted. */
  [member: string]: unknown;
}

/** Sortable fields of the stack query. */
export const STACK_SORT_FIELDS = [
  'name',
  'stateType',
  'status',
  'version',
  'backend',
  'lastApplied',
  'assetCount',
] as const;
/** A sortable field of the stack query. */
export type StackSortField = (typeof STACK_SORT_FIELDS)[number];

/** Text sort direction of the IaC explorer: `asc` or `desc`. */
export const TextSortOrder = z.enum(['asc', 'desc']);
/** Text sort direction. */
export type TextSortOrder = z.infer<typeof TextSortOrder>;

/** The body of `POST /api/iacStacks`. Additional members are accepted. */
export const StackQueryBody = z
  .looseObject({
    ...paging,
    screenFilters: z.optional(ScreenFilters),
    freeTextSearch: z.optional(z.string().check(z.maxLength(256))),
    sorting: z.optional(looseObject({ field: z.enum(STACK_SORT_FIELDS), order: TextSortOrder })),
  })
  .check(z.superRefine(checkPagingAliases));
/** The `sorting` member of the stack query. */
export interface StackSorting {
  /** The field to sort by. */
  field: StackSortField;
  /** The direction. */
  order: TextSortOrder;
  /** Other members; accepted. */
  [member: string]: unknown;
}

/** The body of `POST /api/iacStacks`. Additional members are accepted. */
export interface StackQueryBody extends ExplorerPaging {
  /** Filters. */
  screenFilters?: ScreenFilters | undefined;
  /** Free text to search for (at most 256 characters). */
  freeTextSearch?: string | undefined;
  /** Sort order. */
  sorting?: StackSorting | undefined;
  /** Other members the console sends; accepted. */
  [member: string]: unknown;
}

/** A provider of an IaC stack. */
export const StackProvider = looseObject({
  providerType: openEnum(STACK_PROVIDER_TYPES),
  providerAccountId: z.string(),
  providerIntegrationId: z.string(),
  isIntegrated: z.boolean(),
});
/** A provider of an IaC stack. */
export interface StackProvider {
  /** The provider kind. */
  providerType: StackProviderType;
  /** The provider account's id. */
  providerAccountId: string;
  /** The provider integration's id. */
  providerIntegrationId: string;
  /** Whether the provider is integrated. */
  isIntegrated: boolean;
}

/**
 * Counts of findings on an IaC stack: an addition of the mock, not in the spec. The mock sets it on a
 * stack when a finding is recorded (`control.recordFinding`, `POST /__mock/stacks/{stackId}/findings`;
 * `docs/mock-server.md`, "Findings on IaC stacks"), and answers it with the stack from then on.
 */
export const StackFindings = looseObject({
  drifts: count(),
  ghosts: count(),
  unmanaged: count(),
  insights: count(),
});
/**
 * Counts of findings on an IaC stack: an addition of the mock, not in the spec (see
 * `docs/mock-server.md`, "Findings on IaC stacks").
 */
export interface StackFindings {
  /** Drifted resources. */
  drifts: number;
  /** Ghost resources (in the state, gone from the cloud). */
  ghosts: number;
  /** Unmanaged resources (in the cloud, in no state). */
  unmanaged: number;
  /** Insights detected. */
  insights: number;
}

/** An IaC stack, the hit of the stack query (spec §2.5), with the mock's `findings` addition. */
export const IacStack = looseObject({
  id: z.string(),
  name: z.string(),
  stateType: openEnum(IAC_TYPES),
  status: openEnum(STACK_STATUSES),
  version: z.string(),
  backend: z.string(),
  lastApplied: z.nullish(Timestamp),
  assetCount: count(),
  stackProviders: z.array(StackProvider),
  metadata: looseObject({ vcsRepo: z.string(), vcsPath: z.string(), branch: z.string() }),
  findings: withMeta(z.optional(StackFindings), {
    description:
      'An addition of the mock, not in the spec: counts of the findings recorded on the stack (docs/mock-server.md, "Findings on IaC stacks").',
  }),
});
/** Where an IaC stack's code lives. */
export interface IacStackMetadata {
  /** The repository. */
  vcsRepo: string;
  /** The path in the repository. */
  vcsPath: string;
  /** The branch. */
  branch: string;
}

/**
 * An IaC stack, the hit of the stack query. Enumerated members are typed with their documented
 * values (answers are read tolerantly: other values can arrive at run time, see
 * `docs/validation.md`).
 */
export interface IacStack {
  /** The stack's id. */
  id: string;
  /** The stack's name. */
  name: string;
  /** The IaC tool. */
  stateType: IacType;
  /** The stack's status. */
  status: StackStatus;
  /** The IaC tool's version. */
  version: string;
  /** Where the state lives. */
  backend: string;
  /** When the stack was last applied. */
  lastApplied?: string | null | undefined;
  /** How many assets the stack manages. */
  assetCount: number;
  /** The stack's providers. */
  stackProviders: StackProvider[];
  /** Where the stack's code lives. */
  metadata: IacStackMetadata;
  /**
   * Counts of the findings recorded on the stack: an addition of the mock, not in the spec, present
   * once a finding was recorded (`control.recordFinding`).
   */
  findings?: StackFindings | undefined;
}

/** The answer of the stack query: the page's hits and the number of matching stacks. */
export const StackQueryResponse = looseObject({
  hits: z.array(IacStack),
  total: count(),
});
/** The answer of the stack query: the page's hits and the number of matching stacks. */
export interface StackQueryResponse {
  /** The page's stacks. */
  hits: IacStack[];
  /** How many stacks match, across pages. */
  total: number;
}

/** The body of `POST /api/iacStacks/backends`. Additional members are accepted. */
export const BackendQueryBody = z
  .looseObject({
    ...paging,
    screenFilters: z.optional(ScreenFilters),
    freeTextSearch: z.optional(z.string().check(z.maxLength(256))),
  })
  .check(z.superRefine(checkPagingAliases));
/** The body of `POST /api/iacStacks/backends`. Additional members are accepted. */
export interface BackendQueryBody extends ExplorerPaging {
  /** Filters. */
  screenFilters?: ScreenFilters | undefined;
  /** Free text to search for (at most 256 characters). */
  freeTextSearch?: string | undefined;
  /** Other members the console sends; accepted. */
  [member: string]: unknown;
}

/** A backend, the hit of the backend query (spec §2.6). */
export const Backend = looseObject({
  id: z.string(),
  type: z.string(),
  mainLocation: z.string(),
  lastScan: z.nullish(Timestamp),
  isDeleted: z.boolean(),
  remoteIntegrationId: z.string(),
});
/** A backend, the hit of the backend query. */
export interface Backend {
  /** The backend's id. */
  id: string;
  /** The backend kind (`s3`...). */
  type: string;
  /** Where it is (bucket, container...). */
  mainLocation: string;
  /** When it was last scanned. */
  lastScan?: string | null | undefined;
  /** Whether it was deleted. */
  isDeleted: boolean;
  /** The integration that reads it. */
  remoteIntegrationId: string;
}

/** The answer of the backend query: hits, `aggs` buckets by backend type over all matches, and `total`. */
export const BackendQueryResponse = looseObject({
  hits: z.array(Backend),
  aggs: z.array(AggregationBucket),
  total: count(),
});
/** The answer of the backend query: hits, buckets by backend type over all matches, and `total`. */
export interface BackendQueryResponse {
  /** The page's backends. */
  hits: Backend[];
  /** How many matching backends there are of each type. */
  aggs: AggregationBucket[];
  /** How many backends match, across pages. */
  total: number;
}

/** The body of `POST /api/iacStacks/repositories`. Additional members are accepted. */
export const RepositoryQueryBody = looseObject({
  screenFilters: z.optional(ScreenFilters),
  freeTextSearch: z.optional(z.string().check(z.maxLength(256))),
});
/** The body of `POST /api/iacStacks/repositories`. Additional members are accepted. */
export interface RepositoryQueryBody {
  /** Filters. */
  screenFilters?: ScreenFilters | undefined;
  /** Free text to search for (at most 256 characters). */
  freeTextSearch?: string | undefined;
  /** Other members the console sends; accepted. */
  [member: string]: unknown;
}

/** A repository that holds IaC code (spec §2.7). */
export const Repository = looseObject({
  repoFullName: z.string(),
  maxTimestamp: z.number(),
  topHit: looseObject({
    vcsId: z.string(),
    vcsType: openEnum(VCS_TYPES),
    modulesCount: count(),
    resourcesCount: count(),
  }),
});
/** What a repository holds, in a repository query's answer. */
export interface RepositoryTopHit {
  /** The version-control system's id of the repository. */
  vcsId: string;
  /** The version-control system. */
  vcsType: VcsType;
  /** How many modules the repository holds. */
  modulesCount: number;
  /** How many resources the repository's code declares. */
  resourcesCount: number;
}

/** A repository that holds IaC code. */
export interface Repository {
  /** `<org>/<repo>`. */
  repoFullName: string;
  /** When the repository was last updated, as an epoch number. */
  maxTimestamp: number;
  /** What it holds. */
  topHit: RepositoryTopHit;
}

/** The answer of the repository query: a bare array. */
export const RepositoryQueryResponse = z.array(Repository);
/** The answer of the repository query: every matching repository. */
export type RepositoryQueryResponse = Repository[];

/** Sortable fields of the module query. */
export const MODULE_SORT_FIELDS = [
  'moduleFolderPath',
  'repoFullName',
  'moduleVcsPath',
  'vcsType',
  'updateAt',
  'lastContributor',
  'firstContributor',
  'usageCount',
  'version',
  'moduleOrigin',
  'moduleOriginType',
] as const;
/** A sortable field of the module query. */
export type ModuleSortField = (typeof MODULE_SORT_FIELDS)[number];

/**
 * The `screenFilters` of the module query: the module's own members (`repoFullName`,
 * `moduleOriginType`, `misconfigurations`) and the shared {@link ScreenFilters} members, which select
 * the modules of the repositories of matching stacks. Additional members are accepted.
 */
export const ModuleScreenFilters = looseObject({
  ...ScreenFilters.shape,
  repoFullName: z.optional(strings),
  moduleOriginType: z.optional(strings),
  misconfigurations: z.optional(strings),
});
/**
 * The `screenFilters` of the module query: the module's own members and the shared
 * {@link ScreenFilters} members. Additional members are accepted.
 */
export interface ModuleScreenFilters extends ScreenFilters {
  /** Repositories, `<org>/<repo>`. */
  repoFullName?: string[] | undefined;
  /** Module origin kinds. */
  moduleOriginType?: string[] | undefined;
  /** Misconfiguration kinds (accepted; the mock keeps none, so it adds no constraint). */
  misconfigurations?: string[] | undefined;
}

/**
 * The body of `POST /api/iacStacks/modules`. `size` is an alias of `pageSize`. `sort` (items
 * `{ field, order }`) and `sortArr` (items `{ field, sort }`) are two spellings of the same thing;
 * give one. Additional members are accepted.
 */
export const ModuleQueryBody = z
  .looseObject({
    ...paging,
    screenFilters: z.optional(ModuleScreenFilters),
    freeTextSearch: z.optional(z.string().check(z.maxLength(256))),
    size: z.optional(pageSize),
    sort: z.optional(
      z
        .array(looseObject({ field: z.enum(MODULE_SORT_FIELDS), order: TextSortOrder }))
        .check(z.maxLength(MAX_REQUEST_LIST_ITEMS)),
    ),
    sortArr: z.optional(
      z
        .array(looseObject({ field: z.enum(MODULE_SORT_FIELDS), sort: TextSortOrder }))
        .check(z.maxLength(MAX_REQUEST_LIST_ITEMS)),
    ),
  })
  .check(
    z.superRefine((body, ctx) => {
      checkPagingAliases(body, ctx);
      if (body.size !== undefined && body.pageSize !== undefined && body.size !== body.pageSize) {
        ctx.addIssue({
          code: 'custom',
          path: ['size'],
          message: 'size is an alias of pageSize; give one, or the same value in both',
        });
      }
      if (body.sort !== undefined && body.sortArr !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['sortArr'],
          message: 'sort and sortArr say the same thing; give one',
        });
      }
    }),
  );
/** A sort key of the module query, spelled for `sort`. */
export interface ModuleSortKey {
  /** The field to sort by. */
  field: ModuleSortField;
  /** The direction. */
  order: TextSortOrder;
  /** Other members; accepted. */
  [member: string]: unknown;
}

/** A sort key of the module query, spelled for `sortArr`. */
export interface ModuleSortArrKey {
  /** The field to sort by. */
  field: ModuleSortField;
  /** The direction. */
  sort: TextSortOrder;
  /** Other members; accepted. */
  [member: string]: unknown;
}

/**
 * The body of `POST /api/iacStacks/modules`. `size` is an alias of `pageSize`; `sort` and `sortArr`
 * are two spellings of the same thing (give one). Additional members are accepted.
 */
export interface ModuleQueryBody extends ExplorerPaging {
  /** Filters. */
  screenFilters?: ModuleScreenFilters | undefined;
  /** Free text to search for (at most 256 characters). */
  freeTextSearch?: string | undefined;
  /** Alias of `pageSize`. */
  size?: number | undefined;
  /** Sort keys. */
  sort?: ModuleSortKey[] | undefined;
  /** Sort keys, in the other spelling. */
  sortArr?: ModuleSortArrKey[] | undefined;
  /** Other members the console sends; accepted. */
  [member: string]: unknown;
}

/** A module (spec §2.8). */
export const Module = looseObject({
  id: z.string(),
  moduleFolderPath: z.string(),
  repoFullName: z.string(),
  moduleVcsPath: z.string(),
  vcsType: openEnum(VCS_TYPES),
  updateAt: Timestamp,
  lastContributor: z.string(),
  firstContributor: z.string(),
  usageCount: count(),
  version: z.string(),
  moduleOrigin: z.string(),
  moduleOriginType: z.string(),
});
/** An IaC module. Enumerated members are typed with their documented values. */
export interface Module {
  /** The module's id. */
  id: string;
  /** The module's folder in its repository. */
  moduleFolderPath: string;
  /** `<org>/<repo>`. */
  repoFullName: string;
  /** The module's path as the version-control system shows it. */
  moduleVcsPath: string;
  /** The version-control system. */
  vcsType: VcsType;
  /** When the module last changed. */
  updateAt: string;
  /** Who changed it last. */
  lastContributor: string;
  /** Who created it. */
  firstContributor: string;
  /** How many places use it. */
  usageCount: number;
  /** The module's version. */
  version: string;
  /** Where it comes from. */
  moduleOrigin: string;
  /** The kind of origin. */
  moduleOriginType: string;
}

/** The answer of the module query. */
export const ModuleQueryResponse = looseObject({
  modules: z.array(Module),
  total: count(),
});
/** The answer of the module query: the page's modules and how many match. */
export interface ModuleQueryResponse {
  /** The page's modules. */
  modules: Module[];
  /** How many modules match, across pages. */
  total: number;
}

/** The body of `POST /api/iacStacks/providers`. Additional members are accepted. */
export const ProviderQueryBody = looseObject({
  screenFilters: z.optional(ScreenFilters),
});
/** The body of `POST /api/iacStacks/providers`. Additional members are accepted. */
export interface ProviderQueryBody {
  /** Filters. */
  screenFilters?: ScreenFilters | undefined;
  /** Other members the console sends; accepted. */
  [member: string]: unknown;
}

/** A leaf of the provider aggregation: how many stacks, and whether the provider is integrated. */
export const ProviderCount = looseObject({
  count: count(),
  isIntegrated: z.boolean(),
});
/** A leaf of the provider aggregation: how many stacks, and whether the provider is integrated. */
export interface ProviderCount {
  /** How many stacks use the provider account. */
  count: number;
  /** Whether the provider account is integrated. */
  isIntegrated: boolean;
}

/**
 * The provider aggregation (spec §2.9): `types[providerType][providerAccountId]` counts, and
 * `urls.buckets` of provider source addresses.
 */
export const ProviderAggregation = looseObject({
  types: z.record(z.string(), z.record(z.string(), ProviderCount)),
  urls: looseObject({ buckets: z.array(AggregationBucket) }),
});
/**
 * The provider aggregation: `types[providerType][providerAccountId]` counts, and `urls.buckets` of
 * provider source addresses.
 */
export interface ProviderAggregation {
  /** Counts by provider kind, then by provider account id. */
  types: Record<string, Record<string, ProviderCount>>;
  /** Provider source addresses. */
  urls: {
    /** One bucket per address, with how many stacks use it. */
    buckets: AggregationBucket[];
  };
}
