import { z } from 'zod';
import { IAC_TYPES, STACK_PROVIDER_TYPES, STACK_STATUSES, VCS_TYPES } from './enums.js';
import { AggregationBucket, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, openEnum, Timestamp } from './primitives.js';

/** A non-negative integer paging member of an IaC explorer body. */
const pageNumber = z.number().int().min(0);
/** A page size member of an IaC explorer body: 1 to {@link MAX_PAGE_SIZE}. */
const pageSize = z.number().int().min(1).max(MAX_PAGE_SIZE);
const strings = z.array(z.string());

/**
 * Paging members of the IaC explorer bodies. `page` is zero-based; `pageNumber` is an alias of
 * `page` and `tablePageSize` of `pageSize` (the console's names); when both of a pair are given they
 * must be equal. Default page 0, page size 25, maximum {@link MAX_PAGE_SIZE}.
 */
const paging = {
  page: pageNumber.optional(),
  pageSize: pageSize.optional(),
  pageNumber: pageNumber.optional(),
  tablePageSize: pageSize.optional(),
};

/**
 * Reads the page and page size an IaC explorer body asks for, aliases included (`pageNumber` for
 * `page`; `tablePageSize` and, on modules, `size` for `pageSize`), with the defaults: page 0, 25 items.
 */
export function explorerPage(body: {
  page?: unknown;
  pageNumber?: unknown;
  pageSize?: unknown;
  tablePageSize?: unknown;
  size?: unknown;
}): { page: number; pageSize: number } {
  const page = (body.page ?? body.pageNumber ?? 0) as number;
  const pageSize = (body.pageSize ?? body.tablePageSize ?? body.size ?? DEFAULT_PAGE_SIZE) as number;
  return { page, pageSize };
}

function checkPagingAliases(body: { [K in keyof typeof paging]?: number | undefined }, ctx: z.RefinementCtx) {
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
 * The shared `screenFilters` object of the IaC explorer queries (spec §4.3). Additional members of
 * any type are accepted (and ignored by the mock).
 */
export const ScreenFilters = z.looseObject({
  stateType: strings.optional(),
  providerIntegrationId: strings.optional(),
  providerType: strings.optional(),
  providerAccountId: strings.optional(),
  stackAssetTypes: strings.optional(),
  status: strings.optional(),
  iacState: strings.optional(),
  vcsRepo: strings.optional(),
  backendLocation: strings.optional(),
  hasIntegratedProviders: z.boolean().optional(),
  hasNotIntegratedProviders: z.boolean().optional(),
});
/** The shared `screenFilters` object. */
export type ScreenFilters = z.input<typeof ScreenFilters>;

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
    screenFilters: ScreenFilters.optional(),
    freeTextSearch: z.string().max(256).optional(),
    sorting: z.looseObject({ field: z.enum(STACK_SORT_FIELDS), order: TextSortOrder }).optional(),
  })
  .superRefine(checkPagingAliases);
/** The body of the stack query. */
export type StackQueryBody = z.input<typeof StackQueryBody>;

/** A provider of an IaC stack. */
export const StackProvider = z.looseObject({
  providerType: openEnum(STACK_PROVIDER_TYPES),
  providerAccountId: z.string(),
  providerIntegrationId: z.string(),
  isIntegrated: z.boolean(),
});
/** A provider of an IaC stack. */
export type StackProvider = z.infer<typeof StackProvider>;

/** An IaC stack, the hit of the stack query (spec §2.5). */
export const IacStack = z.looseObject({
  id: z.string(),
  name: z.string(),
  stateType: openEnum(IAC_TYPES),
  status: openEnum(STACK_STATUSES),
  version: z.string(),
  backend: z.string(),
  lastApplied: Timestamp.nullish(),
  assetCount: z.number().int().min(0),
  stackProviders: z.array(StackProvider),
  metadata: z.looseObject({ vcsRepo: z.string(), vcsPath: z.string(), branch: z.string() }),
});
/** An IaC stack. */
export type IacStack = z.infer<typeof IacStack>;

/** The answer of the stack query: the page's hits and the number of matching stacks. */
export const StackQueryResponse = z.looseObject({
  hits: z.array(IacStack),
  total: z.number().int().min(0),
});
/** The answer of the stack query. */
export type StackQueryResponse = z.infer<typeof StackQueryResponse>;

/** The body of `POST /api/iacStacks/backends`. Additional members are accepted. */
export const BackendQueryBody = z
  .looseObject({
    ...paging,
    screenFilters: ScreenFilters.optional(),
    freeTextSearch: z.string().max(256).optional(),
  })
  .superRefine(checkPagingAliases);
/** The body of the backend query. */
export type BackendQueryBody = z.input<typeof BackendQueryBody>;

/** A backend, the hit of the backend query (spec §2.6). */
export const Backend = z.looseObject({
  id: z.string(),
  type: z.string(),
  mainLocation: z.string(),
  lastScan: Timestamp.nullish(),
  isDeleted: z.boolean(),
  remoteIntegrationId: z.string(),
});
/** A backend. */
export type Backend = z.infer<typeof Backend>;

/** The answer of the backend query: hits, `aggs` buckets by backend type over all matches, and `total`. */
export const BackendQueryResponse = z.looseObject({
  hits: z.array(Backend),
  aggs: z.array(AggregationBucket),
  total: z.number().int().min(0),
});
/** The answer of the backend query. */
export type BackendQueryResponse = z.infer<typeof BackendQueryResponse>;

/** The body of `POST /api/iacStacks/repositories`. Additional members are accepted. */
export const RepositoryQueryBody = z.looseObject({
  screenFilters: ScreenFilters.optional(),
  freeTextSearch: z.string().max(256).optional(),
});
/** The body of the repository query. */
export type RepositoryQueryBody = z.input<typeof RepositoryQueryBody>;

/** A repository that holds IaC code (spec §2.7). */
export const Repository = z.looseObject({
  repoFullName: z.string(),
  maxTimestamp: z.number(),
  topHit: z.looseObject({
    vcsId: z.string(),
    vcsType: openEnum(VCS_TYPES),
    modulesCount: z.number().int().min(0),
    resourcesCount: z.number().int().min(0),
  }),
});
/** A repository that holds IaC code. */
export type Repository = z.infer<typeof Repository>;

/** The answer of the repository query: a bare array. */
export const RepositoryQueryResponse = z.array(Repository);
/** The answer of the repository query. */
export type RepositoryQueryResponse = z.infer<typeof RepositoryQueryResponse>;

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

/** The `screenFilters` of the module query. Additional members are accepted. */
export const ModuleScreenFilters = z.looseObject({
  repoFullName: strings.optional(),
  moduleOriginType: strings.optional(),
  misconfigurations: strings.optional(),
});
/** The `screenFilters` of the module query. */
export type ModuleScreenFilters = z.input<typeof ModuleScreenFilters>;

/**
 * The body of `POST /api/iacStacks/modules`. `size` is an alias of `pageSize`. `sort` (items
 * `{ field, order }`) and `sortArr` (items `{ field, sort }`) are two spellings of the same thing;
 * give one. Additional members are accepted.
 */
export const ModuleQueryBody = z
  .looseObject({
    ...paging,
    screenFilters: ModuleScreenFilters.optional(),
    freeTextSearch: z.string().max(256).optional(),
    size: pageSize.optional(),
    sort: z.array(z.looseObject({ field: z.enum(MODULE_SORT_FIELDS), order: TextSortOrder })).optional(),
    sortArr: z.array(z.looseObject({ field: z.enum(MODULE_SORT_FIELDS), sort: TextSortOrder })).optional(),
  })
  .superRefine((body, ctx) => {
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
  });
/** The body of the module query. */
export type ModuleQueryBody = z.input<typeof ModuleQueryBody>;

/** A module (spec §2.8). */
export const Module = z.looseObject({
  id: z.string(),
  moduleFolderPath: z.string(),
  repoFullName: z.string(),
  moduleVcsPath: z.string(),
  vcsType: openEnum(VCS_TYPES),
  updateAt: Timestamp,
  lastContributor: z.string(),
  firstContributor: z.string(),
  usageCount: z.number().int().min(0),
  version: z.string(),
  moduleOrigin: z.string(),
  moduleOriginType: z.string(),
});
/** A module. */
export type Module = z.infer<typeof Module>;

/** The answer of the module query. */
export const ModuleQueryResponse = z.looseObject({
  modules: z.array(Module),
  total: z.number().int().min(0),
});
/** The answer of the module query. */
export type ModuleQueryResponse = z.infer<typeof ModuleQueryResponse>;

/** The body of `POST /api/iacStacks/providers`. Additional members are accepted. */
export const ProviderQueryBody = z.looseObject({
  screenFilters: ScreenFilters.optional(),
});
/** The body of the provider query. */
export type ProviderQueryBody = z.input<typeof ProviderQueryBody>;

/** A leaf of the provider aggregation: how many stacks, and whether the provider is integrated. */
export const ProviderCount = z.looseObject({
  count: z.number().int().min(0),
  isIntegrated: z.boolean(),
});
/** A leaf of the provider aggregation. */
export type ProviderCount = z.infer<typeof ProviderCount>;

/**
 * The provider aggregation (spec §2.9): `types[providerType][providerAccountId]` counts, and
 * `urls.buckets` of provider source addresses.
 */
export const ProviderAggregation = z.looseObject({
  types: z.record(z.string(), z.record(z.string(), ProviderCount)),
  urls: z.looseObject({ buckets: z.array(AggregationBucket) }),
});
/** The provider aggregation. */
export type ProviderAggregation = z.infer<typeof ProviderAggregation>;
