/**
 * The IaC explorer group: stacks, backends, repositories, modules and providers.
 *
 * @module
 */
import type { explorerPage, IacStack, ModuleQueryBody, ScreenFilters } from '@iacm/sdk/contract';
import { comparator, type SortValue } from '../query/compare.js';
import { allOf, anyOf, pageOf, textPredicate } from '../query/search.js';
import { accountOf, type Operations, pageWindow } from './operation.js';

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

/** The operations of the iacExplorer group, one per endpoint. */
export const iacExplorerOperations = {
  'iacExplorer.stacks': (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as {
      screenFilters?: ScreenFilters;
      freeTextSearch?: string;
      sorting?: { field: keyof IacStack; order: 'asc' | 'desc' };
    } & Parameters<typeof explorerPage>[0];
    const filter = stackPredicate(body.screenFilters, body.freeTextSearch);
    const matches = account.explorer.stacks.filter((s) => !filter || filter(s));
    const sorting = body.sorting ?? { field: 'name', order: 'asc' };
    const compare = comparator<IacStack>([
      { get: (s) => s[sorting.field] as SortValue, order: sorting.order === 'desc' ? -1 : 1 },
    ]);
    const { offset, limit } = pageWindow('iacExplorer.stacks', ctx);
    return { hits: pageOf([...matches], compare, offset, limit), total: matches.length };
  },

  'iacExplorer.backends': (ctx) => {
    const account = accountOf(ctx);
    const body = ctx.body as { screenFilters?: ScreenFilters; freeTextSearch?: string } & Parameters<
      typeof explorerPage
    >[0];
    const f = body.screenFilters ?? {};
    const filter = allOf<(typeof account.explorer.backends)[number]>(
      f.backendLocation && ((b) => anyOf(b.mainLocation, f.backendLocation as string[])),
      f.providerIntegrationId && ((b) => anyOf(b.remoteIntegrationId, f.providerIntegrationId as string[])),
      f.stateType && ((b) => anyOf(b.type, f.stateType as string[])),
      textPredicate(body.freeTextSearch, (b) => [b.id, b.type, b.mainLocation]),
    );
    const matches = account.explorer.backends.filter((b) => !filter || filter(b));
    const { offset, limit } = pageWindow('iacExplorer.backends', ctx);
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
    const body = ctx.body as ModuleQueryBody & Parameters<typeof explorerPage>[0];
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
    const { offset, limit } = pageWindow('iacExplorer.modules', ctx);
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
} satisfies Operations<'iacExplorer'>;
