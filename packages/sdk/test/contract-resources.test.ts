import {
  AggregationBucket,
  Backend,
  BackendQueryResponse,
  ErrorBody,
  Event,
  EventQueryResponse,
  FacetQueryResponse,
  FacetResult,
  GuardrailCreateResponse,
  GuardrailDeleteResponse,
  GuardrailRule,
  GuardrailUpdateResponse,
  IacStack,
  LoginResponse,
  Module,
  normalizeGuardrailCreateResponse,
  ProviderAggregation,
  Repository,
  RunTask,
  StackQueryResponse,
  WorkspaceDeleteResponse,
  WorkspaceLabelsResponse,
  WorkspaceRun,
  WorkspaceSummary,
} from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod/mini';
import {
  backend,
  clone,
  event,
  facetResult,
  guardrailRule,
  iacModule,
  ids,
  planTask,
  providerAggregation,
  repository,
  stack,
  workspaceRun,
  workspaceSummary,
} from './fixtures.js';

type Breakage = [description: string, path: Array<string | number>, value: unknown];

interface Case {
  name: string;
  schema: z.ZodMiniType;
  example: Record<string, unknown>;
  /** A member path holding a known enum value, to check that unknown values pass. */
  enumPath?: Array<string | number>;
  /** Changes that must make the example fail. */
  broken: Breakage[];
}

const REMOVE = Symbol('remove');

function setAt(root: unknown, path: Array<string | number>, value: unknown): unknown {
  const copy = clone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (value === REMOVE) delete node[last];
  else node[last] = value;
  return copy;
}

const cases: Case[] = [
  {
    name: 'workspace summary',
    schema: WorkspaceSummary,
    example: workspaceSummary,
    enumPath: ['vcsType'],
    broken: [
      ['a short id', ['id'], 'abc'],
      ['a UUID as account id', ['accountId'], '3f0b9a4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b'],
      ['a timestamp in seconds precision', ['createdAt'], '2024-03-01T09:00:00Z'],
      ['a missing workspaceName', ['workspaceName'], REMOVE],
      ['runsCount as text', ['runsCount'], '17'],
      ['a negative runsCount', ['runsCount'], -1],
      ['labels as a string', ['labels'], 'prod'],
      ['a repoUrl that is not a URL', ['repoUrl'], 'acme/infra-network'],
      ['lastRunStatus without description', ['lastRunStatus'], {}],
      ['isWorkflowManaged as text', ['isWorkflowManaged'], 'true'],
    ],
  },
  {
    name: 'run task',
    schema: RunTask,
    example: planTask,
    enumPath: ['status'],
    broken: [
      ['a missing type', ['type'], REMOVE],
      ['a non-string contentKeys value', ['contentKeys', 'plan'], 3],
      ['violations as an object', ['guardrailsSummary', 'violations'], {}],
      ['a fractional file count', ['changedFilesCodeSummary', 'total'], 1.5],
      ['a file without a path', ['changedFilesCodeSummary', 'files', 0, 'path'], REMOVE],
    ],
  },
  {
    name: 'workspace run',
    schema: WorkspaceRun,
    example: workspaceRun,
    enumPath: ['status'],
    broken: [
      ['a planTaskId that is not 24-hex', ['planTaskId'], 'task-1'],
      ['a colour that is not hex', ['ownerSummary', 'customColor'], 'blue'],
      ['a broken plan task', ['plan', 0, 'createdAt'], '2024-05-01'],
      ['a missing branch', ['branch'], REMOVE],
      ['apply as an object', ['apply'], {}],
    ],
  },
  {
    name: 'guardrail rule',
    schema: GuardrailRule,
    example: guardrailRule,
    enumPath: ['type'],
    broken: [
      ['a missing scope member', ['scope', 'branches'], REMOVE],
      ['an include that is not a list', ['scope', 'labels', 'include'], 'prod'],
      ['severity as text', ['severity'], 'strict'],
      ['a threshold as text', ['criteria', 'cost', 'thresholdAmount'], '100'],
      ['a createdBy that is not 24-hex', ['createdBy'], 'dana'],
      ['isEnabled as a number', ['isEnabled'], 1],
    ],
  },
  {
    name: 'IaC stack',
    schema: IacStack,
    example: stack,
    enumPath: ['status'],
    broken: [
      ['assetCount as text', ['assetCount'], '42'],
      ['a provider without isIntegrated', ['stackProviders', 0, 'isIntegrated'], REMOVE],
      ['metadata without branch', ['metadata', 'branch'], REMOVE],
      ['lastApplied in another format', ['lastApplied'], 'May 1 2024'],
    ],
  },
  {
    name: 'backend',
    schema: Backend,
    example: backend,
    broken: [
      ['isDeleted as text', ['isDeleted'], 'false'],
      ['a missing mainLocation', ['mainLocation'], REMOVE],
    ],
  },
  {
    name: 'repository',
    schema: Repository,
    example: repository,
    enumPath: ['topHit', 'vcsType'],
    broken: [
      ['maxTimestamp as text', ['maxTimestamp'], '1714566540000'],
      ['a missing topHit', ['topHit'], REMOVE],
      ['modulesCount as text', ['topHit', 'modulesCount'], '3'],
    ],
  },
  {
    name: 'module',
    schema: Module,
    example: iacModule,
    enumPath: ['vcsType'],
    broken: [
      ['usageCount as text', ['usageCount'], '4'],
      ['updateAt without milliseconds', ['updateAt'], '2024-04-20T10:00:00Z'],
    ],
  },
  {
    name: 'provider aggregation',
    schema: ProviderAggregation,
    example: providerAggregation,
    broken: [
      ['a leaf count as text', ['types', 'aws', '123456789012', 'count'], '3'],
      ['buckets without doc_count', ['urls', 'buckets', 0, 'doc_count'], REMOVE],
      ['a missing urls', ['urls'], REMOVE],
    ],
  },
  {
    name: 'event',
    schema: Event,
    example: event,
    enumPath: ['event_type'],
    broken: [
      ['an id that is not a UUID', ['id'], ids.account],
      ['a timestamp with an offset', ['event_timestamp'], '2024-05-01T12:26:00.000+00:00'],
      ['an attribute without value', ['event', 'attributes', 0, 'value'], REMOVE],
      ['a missing event', ['event'], REMOVE],
    ],
  },
  {
    name: 'facet result',
    schema: FacetResult,
    example: facetResult,
    broken: [
      ['a count as text', ['values', 0, 'count'], '12'],
      ['a missing size', ['size'], REMOVE],
    ],
  },
  {
    name: 'aggregation bucket',
    schema: AggregationBucket,
    example: { key: 's3', doc_count: 4 },
    broken: [
      ['a negative count', ['doc_count'], -1],
      ['a numeric key', ['key'], 3],
    ],
  },
];

describe.each(cases)('$name', ({ schema, example, enumPath, broken }) => {
  it('accepts a realistic example', () => {
    const result = schema.safeParse(example);
    expect(result.error?.issues).toBeUndefined();
  });

  it('tolerates members it does not know and keeps them', () => {
    const parsed = schema.parse({ ...example, addedLater: { x: 1 } }) as Record<string, unknown>;
    expect(parsed.addedLater).toEqual({ x: 1 });
  });

  if (enumPath) {
    it('tolerates an enum value it does not know', () => {
      expect(schema.safeParse(setAt(example, enumPath, 'added_later')).success).toBe(true);
    });
  }

  it.each(broken)('refuses %s', (_, path, value) => {
    const result = schema.safeParse(setAt(example, path, value));
    expect(result.success).toBe(false);
    expect(
      result.error?.issues.some((issue) => issue.path.join('.').startsWith(path.slice(0, 2).join('.'))),
    ).toBe(true);
  });
});

describe('answers', () => {
  it('reads workspace delete and labels answers', () => {
    expect(
      WorkspaceDeleteResponse.safeParse({ status: 200, data: { message: 'Workspace deleted' } }).success,
    ).toBe(true);
    expect(WorkspaceDeleteResponse.safeParse({ status: 200, message: 'Workspace deleted' }).success).toBe(
      false,
    );
    const labels = {
      id: ids.workspace,
      workspaceName: 'network-prod',
      labels: ['a'],
      updatedAt: '2024-05-01T12:30:00.000Z',
    };
    expect(WorkspaceLabelsResponse.safeParse(labels).success).toBe(true);
    expect(WorkspaceLabelsResponse.safeParse({ ...labels, labels: 'a' }).success).toBe(false);
  });

  it('reads guardrail create answers in both forms and normalises them', () => {
    const object = GuardrailCreateResponse.parse({ ruleId: ids.rule, notificationId: ids.notification });
    const bare = GuardrailCreateResponse.parse(ids.rule);
    expect(normalizeGuardrailCreateResponse(object)).toMatchObject({
      ruleId: ids.rule,
      notificationId: ids.notification,
    });
    expect(normalizeGuardrailCreateResponse(bare)).toEqual({ ruleId: ids.rule });
    expect(GuardrailCreateResponse.safeParse('not-an-id').success).toBe(false);
    expect(GuardrailCreateResponse.safeParse({ ruleId: 7 }).success).toBe(false);
  });

  it('reads guardrail update and delete answers', () => {
    expect(
      GuardrailUpdateResponse.safeParse({
        id: ids.rule,
        name: 'n',
        enabled: false,
        updatedAt: '2024-05-01T12:30:00.000Z',
      }).success,
    ).toBe(true);
    expect(GuardrailUpdateResponse.safeParse({ id: ids.rule, name: 'n', isEnabled: false }).success).toBe(
      false,
    );
    expect(GuardrailDeleteResponse.safeParse({ status: 200, message: 'Guardrail deleted' }).success).toBe(
      true,
    );
    expect(GuardrailDeleteResponse.safeParse({ status: '200', message: 'Guardrail deleted' }).success).toBe(
      false,
    );
  });

  it('reads explorer answers with their totals', () => {
    expect(StackQueryResponse.safeParse({ hits: [stack], total: 1 }).success).toBe(true);
    expect(StackQueryResponse.safeParse({ hits: [stack] }).success).toBe(false);
    expect(
      BackendQueryResponse.safeParse({ hits: [backend], aggs: [{ key: 's3', doc_count: 1 }], total: 1 })
        .success,
    ).toBe(true);
    expect(BackendQueryResponse.safeParse({ hits: [backend], total: 1 }).success).toBe(false);
  });

  it('reads event answers, with or without the continuation token', () => {
    expect(EventQueryResponse.safeParse({ events: [event], facets: [facetResult] }).success).toBe(true);
    expect(
      EventQueryResponse.safeParse({ events: [event], facets: [], continuationToken: 'abc' }).success,
    ).toBe(true);
    expect(
      EventQueryResponse.safeParse({ events: [event], facets: [], continuationToken: null }).success,
    ).toBe(true);
    expect(EventQueryResponse.safeParse({ events: [event], facets: [], continuationToken: 5 }).success).toBe(
      false,
    );
    expect(FacetQueryResponse.safeParse([facetResult]).success).toBe(true);
  });

  it('reads a login answer with expiresAt in epoch seconds', () => {
    expect(
      LoginResponse.safeParse({ accessToken: 'eyJ', expiresAt: 1714570000, tokenType: 'Bearer' }).success,
    ).toBe(true);
    expect(
      LoginResponse.safeParse({ accessToken: 'eyJ', expiresAt: '1714570000', tokenType: 'Bearer' }).success,
    ).toBe(false);
    expect(
      LoginResponse.safeParse({ accessToken: 'eyJ', expiresAt: 1714570000.5, tokenType: 'Bearer' }).success,
    ).toBe(false);
  });

  it('reads the error body', () => {
    const body = {
      status: 400,
      code: 'validation_failed',
      message: 'body.size: expected at most 150, received number 151',
      requestId: 'req_1',
      issues: [
        {
          location: 'body',
          path: 'size',
          message: 'body.size: ...',
          expected: 'at most 150',
          received: 'number 151',
        },
      ],
    };
    expect(ErrorBody.safeParse(body).success).toBe(true);
    expect(ErrorBody.safeParse({ ...body, code: 'added_later' }).success).toBe(true);
    expect(ErrorBody.safeParse({ ...body, status: 200 }).success).toBe(false);
    expect(ErrorBody.safeParse({ ...body, message: undefined }).success).toBe(false);
  });
});
