import {
  BackendQueryBody,
  DEFAULT_EVENT_PAGE_SIZE,
  EventQueryBody,
  FacetQueryBody,
  GuardrailCreateBody,
  GuardrailSearchBody,
  GuardrailUpdateBody,
  LoginBody,
  ModuleQueryBody,
  RepositoryQueryBody,
  RunSearchBody,
  StackQueryBody,
  WorkspaceLabelsBody,
  WorkspaceSearchBody,
} from '@iacm/sdk/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clone, createBodies, ids } from './fixtures.js';

function issuePaths(result: {
  error?: { issues: Array<{ path: PropertyKey[]; code: string; keys?: string[] }> };
}) {
  return (result.error?.issues ?? []).flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? (issue.keys ?? []).map((k) => [...issue.path, k].join('.'))
      : [issue.path.join('.')],
  );
}

describe('workspace search body', () => {
  it('accepts the full documented body, and an empty one', () => {
    const body = {
      projection: ['workspaceName', 'labels'],
      searchValue: 'network',
      filters: {
        workspaceName: ['network-prod'],
        repositories: ['acme/infra-network'],
        ciTool: ['github-actions'],
        labels: ['prod'],
        status: ['apply_success', 'Acknowledged'],
        isManagedWorkflow: true,
        vcsType: ['github'],
        $or: { labels: ['prod'], status: ['blocked'] },
      },
      sort: [{ lastRunTime: { order: -1 } }],
    };
    expect(WorkspaceSearchBody.safeParse(body).error?.issues).toBeUndefined();
    expect(WorkspaceSearchBody.safeParse({}).success).toBe(true);
    // An empty list adds no constraint (the product's UI sends every member, often as []).
    expect(WorkspaceSearchBody.safeParse({ filters: { labels: [], $or: {} } }).success).toBe(true);
  });

  it.each([
    ['an unknown member', { limit: 5 }, 'limit'],
    ['an unknown filter', { filters: { owner: ['x'] } }, 'filters.owner'],
    ['an unknown CI tool', { filters: { ciTool: ['circleci'] } }, 'filters.ciTool.0'],
    ['a status of the wrong case', { filters: { status: ['acknowledged'] } }, 'filters.status.0'],
    ['a filter value that is not a list', { filters: { labels: 'prod' } }, 'filters.labels'],
    ['isManagedWorkflow as text', { filters: { isManagedWorkflow: 'true' } }, 'filters.isManagedWorkflow'],
    ['a nested $or', { filters: { $or: { $or: {} } } }, 'filters.$or.$or'],
    ['a projection of an unknown member', { projection: ['secret'] }, 'projection.0'],
    ['a sort on a field that is not sortable', { sort: { runsCount: { order: 1 } } }, 'sort'],
  ])('refuses %s, naming the field', (_, body, path) => {
    const result = WorkspaceSearchBody.safeParse(body);
    expect(result.success).toBe(false);
    expect(issuePaths(result).some((p) => p.startsWith(path))).toBe(true);
  });
});

describe('run search body', () => {
  it('accepts every documented filter, including the createdAt/updatedAt instants', () => {
    const filters = {
      runId: ['1'],
      runName: ['n'],
      status: ['plan_success'],
      pullRequestUrl: ['https://github.com/acme/x/pull/1'],
      branch: ['main'],
      commitId: ['9f1c2e7'],
      ciTool: ['jenkins'],
      buildId: ['1'],
      buildName: ['b'],
      buildUrl: ['https://ci.example/1'],
      vcsType: ['gitlab'],
      repository: ['acme/x'],
      repositoryUrl: ['https://github.com/acme/x'],
      title: ['t'],
      createdAt: '2024-05-01T00:00:00.000Z',
      updatedAt: '2024-05-01T00:00:00.000Z',
    };
    const body = {
      filters: { ...filters, $or: { branch: ['dev'] } },
      sort: { updatedAt: { order: -1 }, title: { order: 1 } },
    };
    expect(RunSearchBody.safeParse(body).error?.issues).toBeUndefined();
  });

  it('refuses a createdAt filter that is not a millisecond timestamp, and a workspace sort field', () => {
    expect(issuePaths(RunSearchBody.safeParse({ filters: { createdAt: '2024-05-01' } }))).toContain(
      'filters.createdAt',
    );
    expect(RunSearchBody.safeParse({ sort: [{ lastRunTime: { order: 1 } }] }).success).toBe(false);
  });
});

describe('guardrail create body', () => {
  it.each(Object.entries(createBodies))('accepts a %s rule', (_, body) => {
    expect(GuardrailCreateBody.safeParse(body).error?.issues).toBeUndefined();
  });

  it.each(['createdBy', 'name', 'type', 'scope', 'criteria', 'severity'])('requires %s', (member) => {
    const body = clone(createBodies.cost) as Record<string, unknown>;
    delete body[member];
    expect(issuePaths(GuardrailCreateBody.safeParse(body))).toContain(member);
  });

  it.each(['workspaces', 'repositories', 'branches', 'labels'])('requires scope.%s', (member) => {
    const body = clone(createBodies.cost) as { scope: Record<string, unknown> };
    delete body.scope[member];
    expect(issuePaths(GuardrailCreateBody.safeParse(body))).toContain(`scope.${member}`);
  });

  it.each(['regions', 'assetTypes'])('requires resource criteria to carry %s', (member) => {
    const body = clone(createBodies.resource) as { criteria: { resource: Record<string, unknown> } };
    delete body.criteria.resource[member];
    expect(issuePaths(GuardrailCreateBody.safeParse(body))).toContain(`criteria.resource.${member}`);
  });

  it('requires the criteria member named by the type, and only that one', () => {
    const wrong = { ...clone(createBodies.cost), criteria: createBodies.tag.criteria };
    const paths = issuePaths(GuardrailCreateBody.safeParse(wrong));
    expect(paths).toEqual(expect.arrayContaining(['criteria.cost', 'criteria.tag']));
    const both = {
      ...clone(createBodies.cost),
      criteria: { ...createBodies.cost.criteria, ...createBodies.tag.criteria },
    };
    expect(issuePaths(GuardrailCreateBody.safeParse(both))).toEqual(['criteria.tag']);
  });

  it('requires a threshold on cost criteria and the list a tag mode needs', () => {
    const noThreshold = { ...clone(createBodies.cost), criteria: { cost: {} } };
    expect(issuePaths(GuardrailCreateBody.safeParse(noThreshold))).toEqual(['criteria.cost']);
    const valuesMode = {
      ...clone(createBodies.tag),
      criteria: { tag: { tagEnforcementMode: 'requiredValues', requiredTags: ['team'] } },
    };
    expect(issuePaths(GuardrailCreateBody.safeParse(valuesMode))).toEqual(['criteria.tag.requiredValues']);
    const fixed = {
      ...valuesMode,
      criteria: { tag: { tagEnforcementMode: 'requiredValues', requiredValues: { env: ['prod', 'dev'] } } },
    };
    expect(GuardrailCreateBody.safeParse(fixed).success).toBe(true);
  });

  it.each([
    ['a severity of 4', { severity: 4 }, 'severity'],
    ['a severity as its name', { severity: 'strict' }, 'severity'],
    ['an unknown type', { type: 'security' }, 'type'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a createdBy that is not 24-hex', { createdBy: 'dana' }, 'createdBy'],
    ['an unknown member', { owner: 'dana' }, 'owner'],
    [
      'a negative threshold',
      { criteria: { cost: { thresholdAmount: -1 } } },
      'criteria.cost.thresholdAmount',
    ],
    ['a server timestamp in another format', { createdAt: 'yesterday' }, 'createdAt'],
  ])('refuses %s', (_, change, path) => {
    const result = GuardrailCreateBody.safeParse({ ...clone(createBodies.cost), ...change });
    expect(issuePaths(result)).toContain(path);
  });

  it('refuses an unknown policy severity and resource action', () => {
    const policy = clone(createBodies.policy) as { criteria: { policy: { severity: string } } };
    policy.criteria.policy.severity = 'severe';
    expect(issuePaths(GuardrailCreateBody.safeParse(policy))).toContain('criteria.policy.severity');
    const resource = clone(createBodies.resource) as unknown as {
      criteria: { resource: { actions: string[] } };
    };
    resource.criteria.resource.actions = ['destroy'];
    expect(issuePaths(GuardrailCreateBody.safeParse(resource))).toContain('criteria.resource.actions.0');
  });
});

describe('guardrail update and search bodies', () => {
  it('accepts any non-empty subset of the create members', () => {
    const members = Object.keys(createBodies.cost) as Array<keyof typeof createBodies.cost>;
    fc.assert(
      fc.property(fc.subarray(members, { minLength: 1 }), (subset) => {
        const body = Object.fromEntries(subset.map((m) => [m, createBodies.cost[m]]));
        return GuardrailUpdateBody.safeParse(body).success;
      }),
    );
  });

  it('refuses an empty update and a type that does not fit the criteria sent with it', () => {
    expect(GuardrailUpdateBody.safeParse({}).success).toBe(false);
    expect(
      issuePaths(GuardrailUpdateBody.safeParse({ type: 'tag', criteria: createBodies.cost.criteria })),
    ).toEqual(expect.arrayContaining(['criteria.tag', 'criteria.cost']));
  });

  it('accepts the documented search filters and sorts', () => {
    const body = {
      filters: {
        createdBy: [ids.user],
        type: ['policy', 'cost'],
        labels: ['prod'],
        $or: { workspaces: ['network-prod'], branches: ['main'] },
      },
      sort: [{ severity: { order: -1 } }, { name: { order: 1 } }],
      projection: ['name', 'severity'],
    };
    expect(GuardrailSearchBody.safeParse(body).error?.issues).toBeUndefined();
    expect(GuardrailSearchBody.safeParse({ filters: { type: ['security'] } }).success).toBe(false);
  });
});

describe('labels body', () => {
  it('accepts a list, including an empty one', () => {
    expect(WorkspaceLabelsBody.safeParse({ labels: ['prod', 'network'] }).success).toBe(true);
    expect(WorkspaceLabelsBody.safeParse({ labels: [] }).success).toBe(true);
  });

  it.each([
    ['a missing list', {}],
    ['duplicates', { labels: ['prod', 'prod'] }],
    ['an empty label', { labels: [''] }],
    ['51 labels', { labels: Array.from({ length: 51 }, (_, i) => `l${i}`) }],
    ['a non-string label', { labels: [1] }],
  ])('refuses %s', (_, body) => {
    expect(WorkspaceLabelsBody.safeParse(body).success).toBe(false);
  });
});

describe('IaC explorer bodies', () => {
  it('accept additional members but check the known ones', () => {
    const body = {
      page: 0,
      pageSize: 25,
      screenFilters: { providerType: ['aws'], custom: { any: 1 } },
      uiState: 'x',
    };
    expect(StackQueryBody.safeParse(body).success).toBe(true);
    expect(BackendQueryBody.safeParse(body).success).toBe(true);
    expect(RepositoryQueryBody.safeParse({ screenFilters: {}, anything: [1] }).success).toBe(true);
    expect(issuePaths(StackQueryBody.safeParse({ screenFilters: { providerType: 'aws' } }))).toContain(
      'screenFilters.providerType',
    );
    expect(issuePaths(StackQueryBody.safeParse({ pageSize: 0 }))).toContain('pageSize');
    expect(issuePaths(StackQueryBody.safeParse({ page: -1 }))).toContain('page');
  });

  it('accept the sorting object with a known field and asc/desc only', () => {
    expect(StackQueryBody.safeParse({ sorting: { field: 'name', order: 'desc' } }).success).toBe(true);
    expect(issuePaths(StackQueryBody.safeParse({ sorting: { field: 'name', order: -1 } }))).toContain(
      'sorting.order',
    );
    expect(issuePaths(StackQueryBody.safeParse({ sorting: { field: 'owner', order: 'asc' } }))).toContain(
      'sorting.field',
    );
  });

  it('refuse paging aliases that disagree', () => {
    expect(StackQueryBody.safeParse({ page: 1, pageNumber: 1 }).success).toBe(true);
    expect(issuePaths(StackQueryBody.safeParse({ page: 1, pageNumber: 2 }))).toContain('pageNumber');
    expect(issuePaths(ModuleQueryBody.safeParse({ pageSize: 10, size: 20 }))).toContain('size');
    expect(issuePaths(ModuleQueryBody.safeParse({ sort: [], sortArr: [] }))).toContain('sortArr');
  });

  it('accept both module sort spellings', () => {
    expect(ModuleQueryBody.safeParse({ sort: [{ field: 'usageCount', order: 'desc' }] }).success).toBe(true);
    expect(ModuleQueryBody.safeParse({ sortArr: [{ field: 'usageCount', sort: 'asc' }] }).success).toBe(true);
    expect(ModuleQueryBody.safeParse({ sort: [{ field: 'usageCount', sort: 'asc' }] }).success).toBe(false);
  });
});

describe('event center bodies', () => {
  it('accepts an event filter with no values: it adds no constraint', () => {
    expect(
      EventQueryBody.safeParse({ query: { filters: [{ key: 'integrationId', values: [] }] } }).success,
    ).toBe(true);
  });

  it('accepts size 1 to 150, with 50 documented as the default', () => {
    expect(DEFAULT_EVENT_PAGE_SIZE).toBe(50);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 150 }), (size) => EventQueryBody.safeParse({ size }).success),
    );
  });

  it.each([
    [151, 'at most 150'],
    [0, 'at least 1'],
    [1.5, 'int'],
  ])('refuses a size of %s', (size) => {
    expect(issuePaths(EventQueryBody.safeParse({ size }))).toContain('size');
  });

  it('accepts a full query', () => {
    const body = {
      query: {
        searchText: 'bucket',
        startTime: '2024-05-01T00:00:00.000Z',
        endTime: '2024-05-02T00:00:00.000Z',
        filters: [{ key: 'integrationId', values: ['int-aws-prod'] }],
      },
      facets: [{ field: 'integrationId', size: 5 }, { field: 'eventType' }],
      size: 20,
      continuationToken: 'opaque',
    };
    expect(EventQueryBody.safeParse(body).error?.issues).toBeUndefined();
  });

  it.each([
    [
      'a window that ends before it starts',
      { query: { startTime: '2024-05-02T00:00:00.000Z', endTime: '2024-05-01T00:00:00.000Z' } },
      'query.endTime',
    ],
    [
      'an unknown filter key',
      { query: { filters: [{ key: 'owner', values: ['x'] }] } },
      'query.filters.0.key',
    ],
    ['a facet size of 101', { facets: [{ field: 'eventType', size: 101 }] }, 'facets.0.size'],
    ['an empty continuation token', { continuationToken: '' }, 'continuationToken'],
  ])('refuses %s', (_, body, path) => {
    expect(issuePaths(EventQueryBody.safeParse(body))).toContain(path);
  });

  it('requires a known field on the facets endpoint, size up to 100', () => {
    expect(FacetQueryBody.safeParse({ field: 'integrationId' }).success).toBe(true);
    expect(
      FacetQueryBody.safeParse({ field: 'integrationId', size: 100, fieldSearchText: 'aws' }).success,
    ).toBe(true);
    expect(issuePaths(FacetQueryBody.safeParse({}))).toContain('field');
    expect(issuePaths(FacetQueryBody.safeParse({ field: 'colour' }))).toContain('field');
    expect(issuePaths(FacetQueryBody.safeParse({ field: 'integrationId', size: 101 }))).toContain('size');
  });
});

describe('login body', () => {
  it('requires both keys, non-empty, and nothing else', () => {
    expect(LoginBody.safeParse({ accessKey: 'a', secretKey: 's' }).success).toBe(true);
    expect(issuePaths(LoginBody.safeParse({ accessKey: 'a' }))).toContain('secretKey');
    expect(issuePaths(LoginBody.safeParse({ accessKey: '', secretKey: 's' }))).toContain('accessKey');
    expect(issuePaths(LoginBody.safeParse({ accessKey: 'a', secretKey: 's', user: 'x' }))).toContain('user');
  });
});
