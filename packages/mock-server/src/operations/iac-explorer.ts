/**
 * The IaC explorer group: stacks, backends, repositories, modules and providers.
 *
 * @module
 */
import type { Backend, IacStack, Module, Repository } from '@iacm/sdk/contract';
import { comparator, type SortValue } from '../query/compare.js';
import {
  backendFilter,
  type ExplorerData,
  moduleFilter,
  repositoryFilter,
  stackFilter,
} from '../query/explorer-filters.js';
import { allOf, pageOf } from '../query/search.js';
import { SEARCH_FIELDS, textPredicate } from '../query/text.js';
import { versionSortKey } from '../query/versions.js';
import type { AccountStore } from '../store/store.js';
import { accountOf, type Operations, pageWindow } from './operation.js';

/** What the explorer filters read of an account (the workspaces can be walked more than once). */
function explorerData(account: AccountStore): ExplorerData {
  return {
    stacks: account.explorer.stacks,
    workspaces: { [Symbol.iterator]: () => account.workspaces.values() },
  };
}

/** Reads a sort field of a record: version fields by their version sort key, others as they are. */
function sortValue<T>(field: keyof T & string): (record: T) => SortValue {
  if (field === 'version') return (record) => versionSortKey(record[field]);
  return (record) => record[field] as SortValue;
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
    const { body } = ctx;
    const filter = allOf(
      stackFilter(body.screenFilters, explorerData(account)),
      textPredicate(body.freeTextSearch, SEARCH_FIELDS.stacks),
    );
    const matches = account.explorer.stacks.filter((s) => !filter || filter(s));
    const sorting = body.sorting ?? { field: 'name', order: 'asc' };
    const compare = comparator<IacStack>([
      { get: sortValue<IacStack>(sorting.field), order: sorting.order === 'desc' ? -1 : 1 },
    ]);
    const { offset, limit } = pageWindow('iacExplorer.stacks', ctx);
    return { hits: pageOf([...matches], compare, offset, limit), total: matches.length };
  },

  'iacExplorer.backends': (ctx) => {
    const account = accountOf(ctx);
    const { body } = ctx;
    const filter = allOf<Backend>(
      backendFilter(body.screenFilters, explorerData(account)),
      textPredicate(body.freeTextSearch, SEARCH_FIELDS.backends),
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
    const { body } = ctx;
    const filter = allOf<Repository>(
      repositoryFilter(body.screenFilters, explorerData(account)),
      textPredicate(body.freeTextSearch, SEARCH_FIELDS.repositories),
    );
    return account.explorer.repositories
      .filter((r) => !filter || filter(r))
      .sort((a, b) => b.maxTimestamp - a.maxTimestamp || (a.repoFullName < b.repoFullName ? -1 : 1));
  },

  'iacExplorer.modules': (ctx) => {
    const account = accountOf(ctx);
    const { body } = ctx;
    const filter = allOf<Module>(
      moduleFilter(body.screenFilters, explorerData(account)),
      textPredicate(body.freeTextSearch, SEARCH_FIELDS.modules),
    );
    const matches = account.explorer.modules.filter((m) => !filter || filter(m));
    const sort = body.sort?.map((s) => ({ field: s.field, order: s.order })) ??
      body.sortArr?.map((s) => ({ field: s.field, order: s.sort })) ?? [
        { field: 'repoFullName', order: 'asc' as const },
      ];
    const compare = comparator<Module>(
      sort.map((s) => ({ get: sortValue<Module>(s.field), order: s.order === 'desc' ? -1 : 1 })),
    );
    const { offset, limit } = pageWindow('iacExplorer.modules', ctx);
    return { modules: pageOf([...matches], compare, offset, limit), total: matches.length };
  },

  'iacExplorer.providers': (ctx) => {
    const account = accountOf(ctx);
    const { body } = ctx;
    const filter = stackFilter(body.screenFilters, explorerData(account));
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
