import type { Backend, IacStack, Module, Repository, WorkspaceSummary } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import {
  backendConfigLocation,
  backendFilter,
  moduleFilter,
  repositoryFilter,
  stackFilter,
  stackLocations,
} from '../../src/query/explorer-filters.js';

function stack(id: string, over: Partial<IacStack> = {}): IacStack {
  return {
    id,
    name: id,
    stateType: 'terraform',
    status: 'active',
    version: '1.9.0',
    backend: 's3',
    assetCount: 1,
    stackProviders: [],
    metadata: { vcsRepo: 'acme/infra', vcsPath: id, branch: 'main' },
    ...over,
  };
}

function workspace(stackId: string, backendType: string, backendConfig: Record<string, unknown>) {
  return {
    backendSummary: { backendType, backendConfig, iacStackId: stackId, managedResourceCount: 0 },
  } as WorkspaceSummary;
}

const backend = (mainLocation: string): Backend => ({
  id: `backend-${mainLocation}`,
  type: mainLocation.split(':')[0] as string,
  mainLocation,
  isDeleted: false,
  remoteIntegrationId: '',
});

describe('the backend location of a stack', () => {
  it('is written as /backends writes mainLocation, per backend kind', () => {
    expect(backendConfigLocation('s3', { bucket: 'acme-state', key: 'a/b' })).toBe('s3://acme-state');
    expect(backendConfigLocation('gcs', { bucket: 'acme-gcs', prefix: 'x' })).toBe('gs://acme-gcs');
    expect(
      backendConfigLocation('azurerm', { storage_account_name: 'acmetf', container_name: 'tfstate' }),
    ).toBe('https://acmetf.blob.core.windows.net/tfstate');
    expect(backendConfigLocation('remote', { organization: 'acme' })).toBe('app.terraform.io/acme');
    expect(backendConfigLocation('remote', { hostname: 'tfe.acme.io', organization: 'acme' })).toBe(
      'tfe.acme.io/acme',
    );
    expect(backendConfigLocation('local', { path: 'terraform.tfstate' })).toBeUndefined();
    expect(backendConfigLocation('s3', {})).toBeUndefined();
    expect(backendConfigLocation('azurerm', { storage_account_name: 'acmetf' })).toBeUndefined();
  });

  it('comes from the workspaces bound to the stack, each location once', () => {
    const locations = stackLocations([
      workspace('s1', 's3', { bucket: 'a' }),
      workspace('s1', 's3', { bucket: 'a' }),
      workspace('s1', 'gcs', { bucket: 'b' }),
      workspace('', 's3', { bucket: 'c' }),
      { workspaceName: 'no backend' } as WorkspaceSummary,
    ]);
    expect([...locations]).toEqual([['s1', ['s3://a', 'gs://b']]]);
  });
});

describe('the shared screenFilters', () => {
  const stacks = [
    stack('a', {
      status: 'contains_drifts',
      stackProviders: [
        { providerType: 'aws', providerAccountId: '1', providerIntegrationId: 'i1', isIntegrated: true },
      ],
    }),
    stack('b', {
      stateType: 'opentofu',
      stackProviders: [
        { providerType: 'gcp', providerAccountId: '2', providerIntegrationId: '', isIntegrated: false },
      ],
      metadata: { vcsRepo: 'acme/apps', vcsPath: 'b', branch: 'main' },
    }),
    stack('c', { stackProviders: [] }),
  ];
  const data = {
    stacks,
    workspaces: [
      workspace('a', 's3', { bucket: 'one' }),
      workspace('b', 's3', { bucket: 'two' }),
      workspace('c', 's3', { bucket: 'one' }),
    ],
  };
  const ids = (f: ((s: IacStack) => boolean) | undefined) =>
    stacks.filter((s) => !f || f(s)).map((s) => s.id);

  it('read stack fields; iacState is the status; empty lists add no constraint', () => {
    expect(ids(stackFilter({ iacState: ['contains_drifts'] }, data))).toEqual(['a']);
    expect(ids(stackFilter({ backendLocation: ['s3://one'] }, data))).toEqual(['a', 'c']);
    expect(ids(stackFilter({ vcsRepo: ['acme/apps'], status: [] }, data))).toEqual(['b']);
    expect(
      stackFilter({ status: [], stateType: [], stackAssetTypes: ['aws_s3_bucket'] }, data),
    ).toBeUndefined();
  });

  it('make true and false of the provider flags partition the stacks', () => {
    expect(ids(stackFilter({ hasIntegratedProviders: true }, data))).toEqual(['a']);
    expect(ids(stackFilter({ hasIntegratedProviders: false }, data))).toEqual(['b', 'c']);
    expect(ids(stackFilter({ hasNotIntegratedProviders: true }, data))).toEqual(['b']);
    expect(ids(stackFilter({ hasNotIntegratedProviders: false }, data))).toEqual(['a', 'c']);
  });

  it('select backends, repositories and modules through their stacks (one stack matching all)', () => {
    const backends = [backend('s3://one'), backend('s3://two'), backend('s3://legacy')];
    const keep = <T>(list: T[], f: ((r: T) => boolean) | undefined, key: (r: T) => string) =>
      list.filter((r) => !f || f(r)).map(key);
    const loc = (b: Backend) => b.mainLocation;
    expect(keep(backends, backendFilter({ stateType: ['opentofu'] }, data), loc)).toEqual(['s3://two']);
    expect(keep(backends, backendFilter({ backendLocation: ['s3://legacy'] }, data), loc)).toEqual([
      's3://legacy',
    ]);
    expect(keep(backends, backendFilter({ hasIntegratedProviders: false }, data), loc)).toEqual([
      's3://one',
      's3://two',
    ]);
    // Stack a has drifts, stack c has no provider: no single stack of s3://one has both.
    expect(
      keep(backends, backendFilter({ status: ['contains_drifts'], providerType: ['gcp'] }, data), loc),
    ).toEqual([]);

    const repos = [
      { repoFullName: 'acme/infra' },
      { repoFullName: 'acme/apps' },
      { repoFullName: 'acme/docs' },
    ] as Repository[];
    const name = (r: { repoFullName: string }) => r.repoFullName;
    expect(keep(repos, repositoryFilter({ providerType: ['aws'] }, data), name)).toEqual(['acme/infra']);
    expect(keep(repos, repositoryFilter({ vcsRepo: ['acme/docs'] }, data), name)).toEqual(['acme/docs']);
    expect(keep(repos, repositoryFilter({ vcsRepo: [], status: [] }, data), name)).toEqual([
      'acme/infra',
      'acme/apps',
      'acme/docs',
    ]);

    const modules = [
      { repoFullName: 'acme/infra', moduleOriginType: 'git' },
      { repoFullName: 'acme/apps', moduleOriginType: 'registry' },
    ] as Module[];
    expect(keep(modules, moduleFilter({ stateType: ['opentofu'] }, data), name)).toEqual(['acme/apps']);
    expect(
      keep(modules, moduleFilter({ moduleOriginType: ['git'], vcsRepo: ['acme/infra'] }, data), name),
    ).toEqual(['acme/infra']);
    expect(
      keep(modules, moduleFilter({ misconfigurations: ['x'], repoFullName: [] }, data), name),
    ).toHaveLength(2);
  });
});
