import {
  criteriaProblems,
  DEFAULT_EVENT_PAGE_SIZE,
  DEFAULT_FACET_SIZE,
  DEFAULT_PAGE_SIZE,
  type EndpointName,
  EVENT_FIELDS,
  type Event,
  type EventField,
  type EventQueryBody,
  explorerPage,
  type FacetQueryBody,
  type FacetResult,
  type GuardrailCreateBody,
  type GuardrailRule,
  type GuardrailSearchBody,
  type GuardrailUpdateBody,
  type IacStack,
  type ModuleQueryBody,
  pathIdToObjectId,
  type RunSearchBody,
  type ScreenFilters,
  sortKeys,
  toTimestamp,
  type WorkspaceLabelsBody,
  type WorkspaceRun,
  type WorkspaceSearchBody,
  type WorkspaceSummary,
} from '@iacm/sdk/contract';
import type { EventRecorder } from '../domain/events.js';
import { comparator, type SortKey, type SortValue } from '../query/compare.js';
import {
  allOf,
  anyOf,
  type FilterSpec,
  filterPredicate,
  pageOf,
  project,
  textPredicate,
} from '../query/search.js';
import type { AccountStore } from '../store/store.js';
import { HttpError, notFound, validationError } from './http.js';

/** What a handler gets: the caller's account, the validated inputs, and the mock's services. */
export interface HandlerContext {
  /** The caller's account (undefined only for endpoints without auth). */
  account: AccountStore | undefined;
  /** Validated path parameters. */
  params: Record<string, string>;
  /** Validated query parameters. */
  query: Record<string, unknown>;
  /** Validated body (`{}` when an optional body was absent). */
  body: unknown;
  /** The mock's services. */
  services: HandlerServices;
}

/** Services the core offers to handlers. */
export interface HandlerServices {
  /** The current time, epoch milliseconds (the injectable clock). */
  now(): number;
  /** A new unique 24-hex record id. */
  newId(): string;
  /** Logs in with a key pair; answers the login body or throws 401. */
  login(accessKey: string, secretKey: string): Promise<unknown>;
  /** Encodes an event-center continuation token for a query and the last event of a page. */
  encodeCursor(queryHash: string, last: Event): Promise<string>;
  /** Decodes a continuation token; throws 400 when it was altered or belongs to another query. */
  decodeCursor(token: string, queryHash: string): Promise<{ timestamp: string; id: string }>;
  /** Records events (API mutations leave mutation events). */
  events: EventRecorder;
}

/** A handler: returns the success body (or undefined for 204). */
export type Handler = (ctx: HandlerContext) => unknown | Promise<unknown>;

function accountOf(ctx: HandlerContext): AccountStore {
  if (!ctx.account) throw new Error('handler needs an account');
  return ctx.account;
}

function paging(ctx: HandlerContext): { offset: number; limit: number } {
  const page = (ctx.query.page as number | undefined) ?? 0;
  const pageSize = (ctx.query.pageSize as number | undefined) ?? DEFAULT_PAGE_SIZE;
  return { offset: page * pageSize, limit: pageSize };
}

// ---------------------------------------------------------------------------------------------
// Workspaces and runs

const workspaceFilters: FilterSpec<WorkspaceSummary> = {
  workspaceName: (w, v: string[]) => anyOf(w.workspaceName, v),
  repositories: (w, v: string[]) => anyOf(w.repo, v),
  ciTool: (w, v: string[]) => anyOf(w.runnerType, v),
  labels: (w, v: string[]) => anyOf(w.labels, v),
  status: (w, v: string[]) => anyOf(w.lastRunStatus?.description, v),
  isManagedWorkflow: (w, v: boolean) => w.isWorkflowManaged === v,
  vcsType: (w, v: string[]) => anyOf(w.vcsType, v),
};

function findWorkspace(account: AccountStore, rawId: string): WorkspaceSummary {
  const id = pathIdToObjectId(rawId);
  const workspace = id === undefined ? undefined : account.workspaces.get(id);
  if (!workspace) throw notFound('workspace', rawId);
  return workspace;
}

const runFilters: FilterSpec<WorkspaceRun> = {
  runId: (r, v: string[]) => anyOf(r.runId, v),
  runName: (r, v: string[]) => anyOf(r.runName, v),
  status: (r, v: string[]) => anyOf(r.status, v),
  pullRequestUrl: (r, v: string[]) => anyOf(r.pullRequestUrl, v),
  branch: (r, v: string[]) => anyOf(r.branch, v),
  commitId: (r, v: string[]) => anyOf(r.commitId, v),
  ciTool: (r, v: string[]) => anyOf(r.runnerType, v),
  buildId: (r, v: string[]) => anyOf(r.buildId, v),
  buildName: (r, v: string[]) => anyOf(r.buildName, v),
  buildUrl: (r, v: string[]) => anyOf(r.buildUrl, v),
  vcsType: (r, v: string[]) => anyOf(r.vcsType, v),
  repository: (r, v: string[]) => anyOf(r.repo, v),
  repositoryUrl: (r, v: string[]) => anyOf(r.repoUrl, v),
  title: (r, v: string[]) => anyOf(r.title, v),
  createdAt: (r, v: string) => r.createdAt >= v,
  updatedAt: (r, v: string) => r.updatedAt >= v,
};

const runSorts: Record<string, (r: WorkspaceRun) => SortValue> = {
  updatedAt: (r) => r.updatedAt,
  title: (r) => r.title,
  commitId: (r) => r.commitId,
  branch: (r) => r.branch,
  status: (r) => r.status,
  ciTool: (r) => r.runnerType,
  vcsType: (r) => r.vcsType,
  repository: (r) => r.repo,
};

// ---------------------------------------------------------------------------------------------
// Guardrails

const scopeIncludes =
  (list: 'labels' | 'repositories' | 'workspaces' | 'branches') => (r: GuardrailRule, v: string[]) =>
    anyOf(r.scope[list].include, v);

const guardrailFilters: FilterSpec<GuardrailRule> = {
  createdBy: (r, v: string[]) => anyOf(r.createdBy, v),
  type: (r, v: string[]) => anyOf(r.type, v),
  labels: scopeIncludes('labels'),
  repositories: scopeIncludes('repositories'),
  workspaces: scopeIncludes('workspaces'),
  branches: scopeIncludes('branches'),
};

const guardrailSorts: Record<string, (r: GuardrailRule) => SortValue> = {
  createdAt: (r) => r.createdAt,
  accountId: (r) => r.accountId,
  createdBy: (r) => r.createdBy,
  name: (r) => r.name,
  severity: (r) => r.severity,
};

function ruleEvent(
  ctx: HandlerContext,
  account: AccountStore,
  rule: GuardrailRule,
  mutation: 'create' | 'update' | 'delete',
) {
  ctx.services.events.record(account, {
    type: 'mutation',
    mutation,
    assetId: rule.id,
    assetType: 'iacm_guardrail_rule',
    attributes: {
      ruleId: rule.id,
      ruleName: rule.name,
      ruleType: rule.type,
      notificationId: rule.notificationId ?? undefined,
    },
  });
}

function findRule(account: AccountStore, rawId: string): GuardrailRule {
  const id = pathIdToObjectId(rawId);
  const rule = id === undefined ? undefined : account.rules.get(id);
  if (!rule) throw notFound('guardrail rule', rawId);
  return rule;
}

function sortWith<T extends { id: string }>(
  getters: Record<string, (r: T) => SortValue>,
  sort: Parameters<typeof sortKeys>[0],
  fallback: [string, 1 | -1],
): (a: T, b: T) => number {
  const keys = sortKeys(sort);
  const chosen = keys.length > 0 ? keys : [fallback];
  return comparator(
    chosen.map(([field, order]): SortKey<T> => ({ get: getters[field] as (r: T) => SortValue, order })),
  );
}

/** A search over a small set (a workspace's runs, the rules): filter, sort per request, page, project. */
function searchList<T extends { id: string }>(
  ctx: HandlerContext,
  records: Iterable<T>,
  body: {
    filters?: unknown;
    searchValue?: string | undefined;
    sort?: Parameters<typeof sortKeys>[0];
    projection?: readonly string[] | undefined;
  },
  spec: {
    filters: FilterSpec<T>;
    text: (record: T) => ReadonlyArray<string | undefined | null>;
    sorts: Record<string, (record: T) => SortValue>;
    fallback: [string, 1 | -1];
  },
): Array<Partial<T>> {
  const filter = allOf(
    filterPredicate(spec.filters, body.filters as Record<string, unknown> | undefined),
    textPredicate<T>(body.searchValue, spec.text),
  );
  const matches = [...records].filter((r) => !filter || filter(r));
  const { offset, limit } = paging(ctx);
  return pageOf(matches, sortWith(spec.sorts, body.sort, spec.fallback), offset, limit).map((r) =>
    project(r, body.projection),
  );
}

// ---------------------------------------------------------------------------------------------
// IaC explorer

function explorerPaging(body: Parameters<typeof explorerPage>[0]) {
  const { page, pageSize } = explorerPage(body);
  return { offset: page * pageSize, limit: pageSize };
}

function stackPredicate(filters: ScreenFilters | undefined, text: string | undefined) {
  const f = filters ?? {};
  const tests: Array<((s: IacStack) => boolean) | undefined> = [
    f.stateType && ((s) => anyOf(s.stateType, f.stateType as string[])),
    f.status && ((s) => anyOf(s.status, f.status as string[])),
    f.iacState && ((s) => anyOf(s.status, f.iacState as string[])),
    f.backendLocation && ((s) => anyOf(s.backend, f.backendLocation as string[])),
    f.vcsRepo && ((s) => anyOf(s.metadata.vcsRepo, f.vcsRepo as string[])),
    f.providerType &&
      ((s) =>
        anyOf(
          s.stackProviders.map((p) => p.providerType),
          f.providerType as string[],
        )),
    f.providerAccountId &&
      ((s) =>
        anyOf(
          s.stackProviders.map((p) => p.providerAccountId),
          f.providerAccountId as string[],
        )),
    f.providerIntegrationId &&
      ((s) =>
        anyOf(
          s.stackProviders.map((p) => p.providerIntegrationId),
          f.providerIntegrationId as string[],
        )),
    f.hasIntegratedProviders === true ? (s) => s.stackProviders.some((p) => p.isIntegrated) : undefined,
    f.hasNotIntegratedProviders === true ? (s) => s.stackProviders.some((p) => !p.isIntegrated) : undefined,
    textPredicate<IacStack>(text, (s) => [s.name, s.id, s.backend, s.metadata.vcsRepo, s.metadata.vcsPath]),
  ];
  return allOf(...tests);
}

function providerSource(providerType: string): string {
  const names: Record<string, string> = {
    aws: 'hashicorp/aws',
    gcp: 'hashicorp/google',
    azurerm: 'hashicorp/azurerm',
    k8s: 'hashicorp/kubernetes',
  };
  return `registry.terraform.io/${names[providerType] ?? `integrations/${providerType}`}`;
}

function buckets(values: Iterable<string>): Array<{ key: string; doc_count: number }> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .map(([key, doc_count]) => ({ key, doc_count }))
    .sort((a, b) => b.doc_count - a.doc_count || (a.key < b.key ? -1 : 1));
}

// ---------------------------------------------------------------------------------------------
// Event center

function eventValue(event: Event, field: EventField): string {
  return field === 'mutationType' ? event.event.mutation_type : (event[EVENT_FIELDS[field]] as string);
}

function eventPredicate(query: NonNullable<EventQueryBody['query']> | undefined) {
  if (!query) return undefined;
  const { startTime, endTime } = query;
  const filters = query.filters ?? [];
  return allOf<Event>(
    startTime === undefined ? undefined : (e) => e.event_timestamp >= startTime,
    endTime === undefined ? undefined : (e) => e.event_timestamp <= endTime,
    filters.length === 0 ? undefined : (e) => filters.every((f) => f.values.includes(eventValue(e, f.key))),
    'searchText' in query
      ? textPredicate<Event>(query.searchText, (e) => [
          e.asset_id,
          e.asset_type,
          e.event_type,
          ...e.event.attributes.map((a) => a.value),
        ])
      : undefined,
  );
}

function facet(events: Iterable<Event>, field: EventField, size: number, valueSearch?: string): FacetResult {
  const counts = new Map<string, number>();
  const needle = valueSearch?.trim().toLowerCase();
  for (const e of events) {
    const value = eventValue(e, field);
    if (needle && !value.toLowerCase().includes(needle)) continue;
    counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  const values = [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, size);
  return { field, size: counts.size, values };
}

/** A stable digest of the parts of an event query that a continuation token is bound to. */
async function queryHash(body: EventQueryBody): Promise<string> {
  const canonical = JSON.stringify(body.query ?? {}, (_, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : value,
  );
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical));
  return [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// ---------------------------------------------------------------------------------------------

/** The handler of every endpoint of the contract's table. */
export const handlers: Record<EndpointName, Handler> = {
  'auth.login': async (ctx) => {
    const body = ctx.body as { accessKey: string; secretKey: string };
    try {
      return await ctx.services.login(body.accessKey, body.secretKey);
    } catch (error) {
      if (!(error instanceof HttpError) || error.code !== 'invalid_credentials') throw error;
      // Say where the valid pairs are; never echo the keys sent.
      throw new HttpError(
        401,
        'invalid_credentials',
        'the access key and secret key do not match any account of this mock; its key pairs are ' +
          'listed by GET /__mock/accounts (mock.control.accounts() in-process), and iacm-mock prints ' +
          'the primary pair when it starts',
      );
    }
  },

  health: () => undefined,

  'workspaces.search': (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as WorkspaceSearchBody;
    const filter = allOf(
      filterPredicate(workspaceFilters, body.filters as Record<string, unknown> | undefined),
      textPredicate<WorkspaceSummary>(body.searchValue, (w) => [w.workspaceName, w.repo, ...w.labels]),
    );
    const keys = sortKeys(body.sort);
    const sort = (keys.length > 0 ? keys : [['lastRunTime', -1] as const]).map(([field, order]) => ({
      field,
      order,
    }));
    const page = account.workspaces.query({ filter, sort, ...paging(ctx) });
    return page.map((w) => project(w, body.projection));
  },

  'workspaces.delete': (ctx) => {
    const account = accountOf(ctx);
    const workspace = findWorkspace(account, ctx.params.workspaceId as string);
    account.workspaces.delete(workspace.id);
    account.runs.delete(workspace.id);
    ctx.services.events.record(account, {
      type: 'mutation',
      mutation: 'delete',
      assetId: workspace.id,
      assetType: 'iacm_workspace',
      attributes: { workspaceId: workspace.id, workspaceName: workspace.workspaceName },
    });
    return {
      status: 200,
      data: { message: `Workspace ${workspace.workspaceName} and its runs were deleted` },
    };
  },

  'workspaces.setLabels': (ctx) => {
    const account = accountOf(ctx);
    const workspace = findWorkspace(account, ctx.params.workspaceId as string);
    const { labels } = ctx.body as WorkspaceLabelsBody;
    const updated: WorkspaceSummary = {
      ...workspace,
      labels: [...labels],
      updatedAt: toTimestamp(ctx.services.now()),
    };
    account.workspaces.update(updated);
    ctx.services.events.record(account, {
      type: 'mutation',
      mutation: 'update',
      assetId: workspace.id,
      assetType: 'iacm_workspace',
      attributes: {
        workspaceId: workspace.id,
        workspaceName: workspace.workspaceName,
        field: 'labels',
        from: workspace.labels.join(','),
        to: labels.join(','),
      },
    });
    return {
      id: updated.id,
      workspaceName: updated.workspaceName,
      labels: updated.labels,
      updatedAt: updated.updatedAt,
    };
  },

  'workspaces.runs.search': (ctx) => {
    const account = accountOf(ctx);
    const workspace = findWorkspace(account, ctx.params.workspaceId as string);
    return searchList(ctx, account.runs.get(workspace.id) ?? [], ctx.body as RunSearchBody, {
      filters: runFilters,
      text: (r) => [r.runName, r.title, r.branch, r.commitId, r.runId],
      sorts: runSorts,
      fallback: ['updatedAt', -1],
    });
  },

  'guardrails.search': (ctx) => {
    const account = accountOf(ctx);
    return searchList(ctx, account.rules.values(), ctx.body as GuardrailSearchBody, {
      filters: guardrailFilters,
      text: (r) => [r.name],
      sorts: guardrailSorts,
      fallback: ['createdAt', -1],
    });
  },

  'guardrails.create': (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as GuardrailCreateBody;
    if (body.accountId !== undefined && body.accountId.toLowerCase() !== account.account.id) {
      throw new HttpError(
        403,
        'forbidden',
        "body.accountId: a rule can only be created in the caller's own account",
      );
    }
    const now = toTimestamp(ctx.services.now());
    const id = ctx.services.newId();
    let notificationId = body.notificationId?.toLowerCase();
    if (notificationId !== undefined) {
      const existing = account.notifications.get(notificationId);
      if (!existing) throw notFound('notification configuration', notificationId);
      account.notifications.set(notificationId, { ...existing, ruleId: id });
    } else {
      notificationId = ctx.services.newId();
      account.notifications.set(notificationId, {
        id: notificationId,
        ruleId: id,
        integrationIds: [],
        createdAt: now,
      });
    }
    const rule: GuardrailRule = {
      id,
      accountId: account.account.id,
      createdBy: body.createdBy,
      name: body.name.trim(),
      type: body.type,
      scope: body.scope,
      criteria: body.criteria,
      isEnabled: body.isEnabled ?? true,
      createdAt: now,
      updatedAt: now,
      notificationId,
      severity: body.severity,
    };
    account.rules.set(id, rule);
    ruleEvent(ctx, account, rule, 'create');
    return { ruleId: id, notificationId };
  },

  'guardrails.update': (ctx) => {
    const account = accountOf(ctx);
    const rule = findRule(account, ctx.params.ruleId as string);
    const body = ctx.body as GuardrailUpdateBody;
    if (body.accountId !== undefined && body.accountId.toLowerCase() !== account.account.id) {
      throw new HttpError(403, 'forbidden', 'body.accountId: a rule cannot be moved to another account');
    }
    if (body.notificationId !== undefined && !account.notifications.has(body.notificationId.toLowerCase())) {
      throw notFound('notification configuration', body.notificationId);
    }
    const { createdAt: _c, updatedAt: _u, accountId: _a, ...changes } = body;
    const merged = { ...rule, ...changes, updatedAt: toTimestamp(ctx.services.now()) } as GuardrailRule;
    if (changes.name !== undefined) merged.name = changes.name.trim();
    const problems = criteriaProblems(merged.type as never, merged.criteria as never);
    if (problems.length > 0) {
      throw validationError(
        problems.map(([path, message]) => ({
          location: 'body',
          path: path.join('.'),
          message: `body.${path.join('.')}: ${message} (the rule's type is "${merged.type}" after this update)`,
        })),
      );
    }
    account.rules.set(rule.id, merged);
    ruleEvent(ctx, account, merged, 'update');
    return { id: merged.id, name: merged.name, enabled: merged.isEnabled, updatedAt: merged.updatedAt };
  },

  'guardrails.delete': (ctx) => {
    const account = accountOf(ctx);
    const rule = findRule(account, ctx.params.ruleId as string);
    account.rules.delete(rule.id);
    if (rule.notificationId) account.notifications.delete(rule.notificationId);
    ruleEvent(ctx, account, rule, 'delete');
    return {
      status: 200,
      message: `Guardrail rule ${rule.name} and its notification configuration were deleted`,
    };
  },

  'iacExplorer.stacks': (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as {
      screenFilters?: ScreenFilters;
      freeTextSearch?: string;
      sorting?: { field: keyof IacStack; order: 'asc' | 'desc' };
    } & Parameters<typeof explorerPaging>[0];
    const filter = stackPredicate(body.screenFilters, body.freeTextSearch);
    const matches = account.explorer.stacks.filter((s) => !filter || filter(s));
    const sorting = body.sorting ?? { field: 'name', order: 'asc' };
    const compare = comparator<IacStack>([
      { get: (s) => s[sorting.field] as SortValue, order: sorting.order === 'desc' ? -1 : 1 },
    ]);
    const { offset, limit } = explorerPaging(body);
    return { hits: pageOf([...matches], compare, offset, limit), total: matches.length };
  },

  'iacExplorer.backends': (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as { screenFilters?: ScreenFilters; freeTextSearch?: string } & Parameters<
      typeof explorerPaging
    >[0];
    const f = body.screenFilters ?? {};
    const filter = allOf<(typeof account.explorer.backends)[number]>(
      f.backendLocation && ((b) => anyOf(b.mainLocation, f.backendLocation as string[])),
      f.providerIntegrationId && ((b) => anyOf(b.remoteIntegrationId, f.providerIntegrationId as string[])),
      f.stateType && ((b) => anyOf(b.type, f.stateType as string[])),
      textPredicate(body.freeTextSearch, (b) => [b.id, b.type, b.mainLocation]),
    );
    const matches = account.explorer.backends.filter((b) => !filter || filter(b));
    const { offset, limit } = explorerPaging(body);
    return {
      hits: pageOf([...matches], comparator([{ get: (b) => b.mainLocation, order: 1 }]), offset, limit),
      aggs: buckets(matches.map((b) => b.type)),
      total: matches.length,
    };
  },

  'iacExplorer.repositories': (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as { screenFilters?: ScreenFilters; freeTextSearch?: string };
    const vcsRepo = body.screenFilters?.vcsRepo;
    const text = textPredicate<(typeof account.explorer.repositories)[number]>(body.freeTextSearch, (r) => [
      r.repoFullName,
    ]);
    return account.explorer.repositories
      .filter((r) => (!vcsRepo || vcsRepo.includes(r.repoFullName)) && (!text || text(r)))
      .sort((a, b) => b.maxTimestamp - a.maxTimestamp || (a.repoFullName < b.repoFullName ? -1 : 1));
  },

  'iacExplorer.modules': (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as ModuleQueryBody & Parameters<typeof explorerPaging>[0];
    const f = body.screenFilters ?? {};
    type M = (typeof account.explorer.modules)[number];
    const filter = allOf<M>(
      f.repoFullName && ((m) => anyOf(m.repoFullName, f.repoFullName as string[])),
      f.moduleOriginType && ((m) => anyOf(m.moduleOriginType, f.moduleOriginType as string[])),
      textPredicate(body.freeTextSearch, (m) => [
        m.moduleFolderPath,
        m.repoFullName,
        m.moduleOrigin,
        m.moduleVcsPath,
      ]),
    );
    const matches = account.explorer.modules.filter((m) => !filter || filter(m));
    const sort = body.sort?.map((s) => ({ field: s.field, order: s.order })) ??
      body.sortArr?.map((s) => ({ field: s.field, order: s.sort })) ?? [
        { field: 'repoFullName', order: 'asc' as const },
      ];
    const compare = comparator<M>(
      sort.map((s) => ({ get: (m: M) => m[s.field] as SortValue, order: s.order === 'desc' ? -1 : 1 })),
    );
    const { offset, limit } = explorerPaging(body);
    return { modules: pageOf([...matches], compare, offset, limit), total: matches.length };
  },

  'iacExplorer.providers': (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as { screenFilters?: ScreenFilters };
    const filter = stackPredicate(body.screenFilters, undefined);
    const types: Record<string, Record<string, { count: number; isIntegrated: boolean }>> = {};
    const sources: string[] = [];
    for (const stack of account.explorer.stacks) {
      if (filter && !filter(stack)) continue;
      for (const provider of stack.stackProviders) {
        const byAccount = types[provider.providerType] ?? {};
        types[provider.providerType] = byAccount;
        const leaf = byAccount[provider.providerAccountId] ?? { count: 0, isIntegrated: false };
        byAccount[provider.providerAccountId] = leaf;
        leaf.count += 1;
        leaf.isIntegrated ||= provider.isIntegrated;
        sources.push(providerSource(provider.providerType));
      }
    }
    return { types, urls: { buckets: buckets(sources) } };
  },

  'eventCenter.query': async (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as EventQueryBody;
    const size = body.size ?? DEFAULT_EVENT_PAGE_SIZE;
    const filter = eventPredicate(body.query);
    const hash = await queryHash(body);
    const after = body.continuationToken
      ? await ctx.services.decodeCursor(body.continuationToken, hash)
      : undefined;
    const events: Event[] = [];
    let more = false;
    for (const e of account.events.scan(
      'event_timestamp',
      -1,
      after && ({ id: after.id, event_timestamp: after.timestamp } as Event),
    )) {
      if (filter && !filter(e)) continue;
      if (events.length === size) {
        more = true;
        break;
      }
      events.push(e);
    }
    const last = events[events.length - 1];
    const requested = body.facets ?? [];
    const matching =
      requested.length === 0 ? [] : [...account.events.values()].filter((e) => !filter || filter(e));
    const facets = requested.map((f) => facet(matching, f.field, f.size ?? DEFAULT_FACET_SIZE));
    return {
      events,
      facets,
      continuationToken: more && last ? await ctx.services.encodeCursor(hash, last) : null,
    };
  },

  'eventCenter.facets': (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as FacetQueryBody;
    const filter = eventPredicate(body.query);
    const matching = filter ? [...account.events.values()].filter(filter) : account.events.values();
    return [facet(matching, body.field, body.size ?? DEFAULT_FACET_SIZE, body.fieldSearchText)];
  },
};
