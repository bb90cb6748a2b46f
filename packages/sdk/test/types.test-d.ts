/**
 * The static types are the documented contract, closed: named interfaces for every request and
 * answer, documented members only, enumerations as unions of their documented values. The runtime
 * schemas stay tolerant (unknown members and enum values pass in answers); these tests tie each
 * named type to its schema, so that the two cannot drift apart, and fail if a type loosens.
 */
import type {
  Backend,
  BackendQueryBody,
  BackendQueryResponse,
  ChangedFile,
  CiTool,
  ErrorBody,
  ErrorCode,
  Event,
  EventQueryBody,
  EventQueryResponse,
  FacetQueryBody,
  FacetResult,
  FieldIssue,
  GuardrailCreateBody,
  GuardrailCreateResponse,
  GuardrailDeleteResponse,
  GuardrailField,
  GuardrailRule,
  GuardrailSearchBody,
  GuardrailSeverity,
  GuardrailUpdateBody,
  GuardrailUpdateResponse,
  IacStack,
  LoginBody,
  LoginResponse,
  Module,
  ModuleQueryBody,
  ModuleQueryResponse,
  ProviderAggregation,
  ProviderQueryBody,
  Repository,
  RepositoryQueryBody,
  RunSearchBody,
  RunStatus,
  RunTask,
  StackQueryBody,
  StackQueryResponse,
  StackStatus,
  VcsType,
  WorkspaceDeleteResponse,
  WorkspaceField,
  WorkspaceLabelsBody,
  WorkspaceLabelsResponse,
  WorkspaceRun,
  WorkspaceSearchBody,
  WorkspaceSearchParams,
  WorkspaceSummary,
} from '@iacm/sdk';
import { IacmClient } from '@iacm/sdk';
import type * as contract from '@iacm/sdk/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { Documented } from '../src/resources/resource.js';

// ---------------------------------------------------------------------------------------------------
// The documented view of a tolerant schema's type (`Documented`, the one the resources' typed calls
// answer): no index signatures on objects with known members, no `string & {}` in enumerations.
// Records (objects with no known member) keep theirs.
// ---------------------------------------------------------------------------------------------------

type Answer<S extends z.core.$ZodType> = Documented<z.infer<S>>;
type Override<T, U> = { [K in keyof (Omit<T, keyof U> & U)]: (Omit<T, keyof U> & U)[K] };

describe('each named answer type is its schema, documented members and values only', () => {
  it('workspaces and runs', () => {
    expectTypeOf<WorkspaceSummary>().toEqualTypeOf<Answer<typeof contract.WorkspaceSummary>>();
    expectTypeOf<WorkspaceRun>().toEqualTypeOf<Answer<typeof contract.WorkspaceRun>>();
    expectTypeOf<RunTask>().toEqualTypeOf<Answer<typeof contract.RunTask>>();
    expectTypeOf<WorkspaceDeleteResponse>().toEqualTypeOf<Answer<typeof contract.WorkspaceDeleteResponse>>();
    expectTypeOf<WorkspaceLabelsResponse>().toEqualTypeOf<Answer<typeof contract.WorkspaceLabelsResponse>>();
    expectTypeOf<WorkspaceSummary[]>().toEqualTypeOf<Answer<typeof contract.WorkspaceSearchResponse>>();
    expectTypeOf<WorkspaceRun[]>().toEqualTypeOf<Answer<typeof contract.RunSearchResponse>>();
  });

  it('guardrails (severity: the schema reads any integer, the type is the documented 1 | 2 | 3)', () => {
    expectTypeOf<GuardrailRule>().toEqualTypeOf<
      Override<Answer<typeof contract.GuardrailRule>, { severity: GuardrailSeverity }>
    >();
    expectTypeOf<GuardrailCreateResponse>().toEqualTypeOf<Answer<typeof contract.GuardrailCreateResponse>>();
    expectTypeOf<GuardrailUpdateResponse>().toEqualTypeOf<Answer<typeof contract.GuardrailUpdateResponse>>();
    expectTypeOf<GuardrailDeleteResponse>().toEqualTypeOf<Answer<typeof contract.GuardrailDeleteResponse>>();
  });

  it('the IaC explorer', () => {
    expectTypeOf<IacStack>().toEqualTypeOf<Answer<typeof contract.IacStack>>();
    expectTypeOf<StackQueryResponse>().toEqualTypeOf<Answer<typeof contract.StackQueryResponse>>();
    expectTypeOf<Backend>().toEqualTypeOf<Answer<typeof contract.Backend>>();
    expectTypeOf<BackendQueryResponse>().toEqualTypeOf<Answer<typeof contract.BackendQueryResponse>>();
    expectTypeOf<Repository>().toEqualTypeOf<Answer<typeof contract.Repository>>();
    expectTypeOf<Module>().toEqualTypeOf<Answer<typeof contract.Module>>();
    expectTypeOf<ModuleQueryResponse>().toEqualTypeOf<Answer<typeof contract.ModuleQueryResponse>>();
    expectTypeOf<ProviderAggregation>().toEqualTypeOf<Answer<typeof contract.ProviderAggregation>>();
  });

  it('the event center, login and errors', () => {
    expectTypeOf<Event>().toEqualTypeOf<Answer<typeof contract.Event>>();
    expectTypeOf<EventQueryResponse>().toEqualTypeOf<Answer<typeof contract.EventQueryResponse>>();
    expectTypeOf<FacetResult[]>().toEqualTypeOf<Answer<typeof contract.FacetQueryResponse>>();
    expectTypeOf<LoginResponse>().toEqualTypeOf<Answer<typeof contract.LoginResponse>>();
    expectTypeOf<ErrorBody>().toEqualTypeOf<Answer<typeof contract.ErrorBody>>();
    expectTypeOf<FieldIssue>().toEqualTypeOf<Answer<typeof contract.FieldIssue>>();
  });
});

describe('each named request type is what its schema accepts', () => {
  it('is the schema input, where the schema is a plain object', () => {
    expectTypeOf<WorkspaceSearchBody>().toEqualTypeOf<z.input<typeof contract.WorkspaceSearchBody>>();
    expectTypeOf<WorkspaceLabelsBody>().toEqualTypeOf<z.input<typeof contract.WorkspaceLabelsBody>>();
    expectTypeOf<RunSearchBody>().toEqualTypeOf<z.input<typeof contract.RunSearchBody>>();
    expectTypeOf<GuardrailSearchBody>().toEqualTypeOf<z.input<typeof contract.GuardrailSearchBody>>();
    expectTypeOf<StackQueryBody>().toEqualTypeOf<z.input<typeof contract.StackQueryBody>>();
    expectTypeOf<BackendQueryBody>().toEqualTypeOf<z.input<typeof contract.BackendQueryBody>>();
    expectTypeOf<RepositoryQueryBody>().toEqualTypeOf<z.input<typeof contract.RepositoryQueryBody>>();
    expectTypeOf<ModuleQueryBody>().toEqualTypeOf<z.input<typeof contract.ModuleQueryBody>>();
    expectTypeOf<ProviderQueryBody>().toEqualTypeOf<z.input<typeof contract.ProviderQueryBody>>();
    expectTypeOf<EventQueryBody>().toEqualTypeOf<z.input<typeof contract.EventQueryBody>>();
    expectTypeOf<FacetQueryBody>().toEqualTypeOf<z.input<typeof contract.FacetQueryBody>>();
    expectTypeOf<LoginBody>().toEqualTypeOf<z.input<typeof contract.LoginBody>>();
  });

  it('narrows the guardrail bodies to the shapes the schema accepts (type and criteria that fit)', () => {
    expectTypeOf<GuardrailCreateBody>().toExtend<z.input<typeof contract.GuardrailCreateBody>>();
    expectTypeOf<GuardrailUpdateBody>().toExtend<z.input<typeof contract.GuardrailUpdateBody>>();
  });

  it('names exactly the members of the items in the projection lists', () => {
    expectTypeOf<(typeof contract.WORKSPACE_FIELDS)[number]>().toEqualTypeOf<keyof WorkspaceSummary>();
    expectTypeOf<(typeof contract.RUN_FIELDS)[number]>().toEqualTypeOf<keyof WorkspaceRun>();
    expectTypeOf<(typeof contract.GUARDRAIL_FIELDS)[number]>().toEqualTypeOf<GuardrailField>();
  });
});

declare const workspace: WorkspaceSummary;
declare const run: WorkspaceRun;
declare const stack: IacStack;
declare const event: Event;
declare const error: ErrorBody;
const client = new IacmClient({ baseUrl: 'http://127.0.0.1:4010', auth: { token: 't' } });

describe('answers are closed', () => {
  it('refuses members that are not documented', () => {
    // @ts-expect-error a workspace has no owner member
    void workspace.owner;
    // @ts-expect-error a run has no duration member
    void run.duration;
    // @ts-expect-error a stack's findings (the mock's addition) count drifts, not drift
    void stack.findings?.drift;
  });

  it('types enumerations as the documented values, not any string', () => {
    expectTypeOf(workspace.vcsType).toEqualTypeOf<VcsType>();
    expectTypeOf(workspace.runnerType).toEqualTypeOf<CiTool>();
    expectTypeOf(run.status).toEqualTypeOf<RunStatus>();
    expectTypeOf(stack.status).toEqualTypeOf<StackStatus>();
    expectTypeOf(error.code).toEqualTypeOf<ErrorCode>();
    expectTypeOf<ChangedFile['type']>().toEqualTypeOf<'added' | 'modified' | 'deleted'>();
    expectTypeOf<RunStatus>().toEqualTypeOf<(typeof contract.RUN_STATUSES)[number]>();
    // @ts-expect-error svn is not a version-control type the API knows
    void (workspace.vcsType === 'svn');
    // @ts-expect-error "done" is not a run status
    void (run.status === 'done');
    // @ts-expect-error the mutation types are create, update and delete
    void (event.event.mutation_type === 'patch');
    void (run.status === 'Acknowledged');
  });
});

describe('projection', () => {
  it('takes only member names of the item, and types the projected items', () => {
    const page = client.workspaces.search({ projection: ['workspaceName', 'labels'] });
    expectTypeOf(page).resolves.items.toEqualTypeOf<
      Pick<WorkspaceSummary, 'workspaceName' | 'labels' | 'id'>
    >();
    // @ts-expect-error workspaceNme is a typo
    client.workspaces.search({ projection: ['workspaceNme'] });
    // @ts-expect-error runs have no labels member
    client.workspaces.runs.search('id', { projection: ['labels'] });
    // @ts-expect-error a projection is a list of names
    client.guardrails.search({ projection: 'name' });
    expectTypeOf<WorkspaceSearchParams['filters']>().toEqualTypeOf<WorkspaceSearchBody['filters']>();
    expectTypeOf<WorkspaceField>().toEqualTypeOf<keyof WorkspaceSummary>();
  });

  it('types an empty projection as whole items, and a list unknown when compiling as optional members', () => {
    expectTypeOf(
      client.workspaces.search({ projection: [] }),
    ).resolves.items.toEqualTypeOf<WorkspaceSummary>();
    const names: WorkspaceField[] = ['workspaceName'];
    expectTypeOf(client.workspaces.search({ projection: names })).resolves.items.toEqualTypeOf<
      Pick<WorkspaceSummary, 'id'> & Partial<WorkspaceSummary>
    >();
  });
});

describe('guardrail bodies: the type and the criteria must fit', () => {
  const scope = {
    workspaces: { include: [], exclude: [] },
    repositories: { include: [], exclude: [] },
    branches: { include: [], exclude: [] },
    labels: { include: [], exclude: [] },
  };
  const base = { createdBy: 'aaaaaaaaaaaaaaaaaaaaaaaa', name: 'n', scope, severity: 2 as const };

  it('accepts each kind with its own criteria', () => {
    client.guardrails.create({ ...base, type: 'cost', criteria: { cost: { thresholdPercentage: 10 } } });
    client.guardrails.create({
      ...base,
      type: 'policy',
      criteria: { policy: { severity: 'high', policies: { include: ['*'], exclude: [] } } },
    });
    client.guardrails.create({
      ...base,
      type: 'resource',
      criteria: { resource: { regions: scope.labels, assetTypes: scope.labels, actions: ['delete'] } },
    });
    client.guardrails.create({
      ...base,
      type: 'tag',
      criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['owner'] } },
    });
  });

  it('refuses criteria of another kind, or of two kinds', () => {
    // @ts-expect-error a cost rule takes cost criteria
    client.guardrails.create({ ...base, type: 'cost', criteria: { tag: { tagEnforcementMode: 'anyTags' } } });
    client.guardrails.create({
      ...base,
      type: 'cost',
      // @ts-expect-error a cost rule takes only cost criteria
      criteria: { cost: { thresholdAmount: 1 }, policy: { severity: 'low', policies: scope.labels } },
    });
    // @ts-expect-error a policy rule needs its criteria
    client.guardrails.create({ ...base, type: 'policy', criteria: {} });
    client.guardrails.create({
      ...base,
      type: 'policy',
      // @ts-expect-error the policy severities are trace, info, low, medium, high, critical
      criteria: { policy: { severity: 'urgent', policies: scope.labels } },
    });
  });

  it('lets an update change the kind only with criteria that fit, and criteria alone', () => {
    client.guardrails.update('id', { name: 'renamed' });
    client.guardrails.update('id', { type: 'cost', criteria: { cost: { thresholdAmount: 5 } } });
    client.guardrails.update('id', {
      criteria: { tag: { tagEnforcementMode: 'anyTags', requiredTags: ['a'] } },
    });
    // @ts-expect-error a tag rule takes tag criteria
    client.guardrails.update('id', { type: 'tag', criteria: { cost: { thresholdAmount: 5 } } });
  });
});
