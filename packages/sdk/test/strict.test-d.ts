/**
 * The types of the strict schemas (`strictSchema`, `strictEndpointSchemas`): what they output is the
 * documented, closed type of the contract (the named interfaces), with no index signature and no
 * catch-all `string & {}` in enumerations, so that a fixture typed by them cannot hold a typo.
 */
import type {
  ErrorBody,
  Event,
  GuardrailCreateResponse,
  GuardrailRule,
  IacStack,
  ProviderAggregation,
  RunTask,
  StackQueryBody,
  WorkspaceRun,
  WorkspaceSummary,
} from '@iacm/sdk';
import type * as contract from '@iacm/sdk/contract';
import {
  type StrictEndpointSchemas,
  type StrictSchema,
  strictEndpointSchemas,
  strictSchema,
  WorkspaceSummary as WorkspaceSummarySchema,
} from '@iacm/sdk/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { ZodMiniObject } from 'zod/mini';

type Strict<S> = z.output<StrictSchema<S>>;

describe('the output of a strict schema is the closed, documented type', () => {
  it('answers: the named interfaces exactly', () => {
    expectTypeOf<Strict<typeof contract.WorkspaceSummary>>().toEqualTypeOf<WorkspaceSummary>();
    expectTypeOf<Strict<typeof contract.WorkspaceRun>>().toEqualTypeOf<WorkspaceRun>();
    expectTypeOf<Strict<typeof contract.RunTask>>().toEqualTypeOf<RunTask>();
    expectTypeOf<Strict<typeof contract.IacStack>>().toEqualTypeOf<IacStack>();
    expectTypeOf<Strict<typeof contract.Event>>().toEqualTypeOf<Event>();
    expectTypeOf<Strict<typeof contract.ProviderAggregation>>().toEqualTypeOf<ProviderAggregation>();
    expectTypeOf<Strict<typeof contract.GuardrailCreateResponse>>().toEqualTypeOf<GuardrailCreateResponse>();
    expectTypeOf<Strict<typeof contract.ErrorBody>>().toEqualTypeOf<ErrorBody>();
    expectTypeOf<Strict<typeof contract.WorkspaceSearchResponse>>().toEqualTypeOf<WorkspaceSummary[]>();
  });

  it('a guardrail rule: closed, but its severity is typed number (the schema closes it to 1, 2, 3 at run time)', () => {
    expectTypeOf<Strict<typeof contract.GuardrailRule>>().toEqualTypeOf<{
      [K in keyof GuardrailRule]: K extends 'severity' ? number : GuardrailRule[K];
    }>();
  });

  it('the open schema keeps its open type', () => {
    expectTypeOf<z.output<typeof contract.WorkspaceSummary>>().not.toEqualTypeOf<WorkspaceSummary>();
    expectTypeOf<z.output<typeof contract.WorkspaceSummary>['runnerType']>().toExtend<string>();
  });

  it('keeps the schema classes, so `.shape` and the other methods stay at hand', () => {
    const strict = strictSchema(WorkspaceSummarySchema);
    expectTypeOf(strict).toExtend<ZodMiniObject>();
    expectTypeOf<z.output<typeof strict.shape.runnerType>>().toEqualTypeOf<WorkspaceSummary['runnerType']>();
  });

  it('a misspelt member or an unknown value does not compile in a fixture typed by it', () => {
    const fixture = {} as Strict<typeof contract.WorkspaceSummary>;
    // @ts-expect-error: not a member of a workspace summary
    const misspelt: Strict<typeof contract.WorkspaceSummary> = { ...fixture, lastRunStatu: null };
    // @ts-expect-error: not a documented CI tool
    const unknownTool: Strict<typeof contract.WorkspaceSummary> = { ...fixture, runnerType: 'github-action' };
    expectTypeOf(misspelt).toEqualTypeOf(unknownTool);
  });

  it('an IaC explorer body: closed (the open one takes any member)', () => {
    expectTypeOf<z.input<StrictSchema<typeof contract.StackQueryBody>>>().not.toEqualTypeOf<StackQueryBody>();
    expectTypeOf<StackQueryBody>().toHaveProperty('anything');
    expectTypeOf<z.input<StrictSchema<typeof contract.StackQueryBody>>>().not.toHaveProperty('anything');
  });
});

describe('strictEndpointSchemas', () => {
  it('types each schema by the endpoint', () => {
    const search = strictEndpointSchemas('workspaces.search');
    expectTypeOf<z.output<typeof search.response>>().toEqualTypeOf<WorkspaceSummary[]>();
    expectTypeOf(search.body).toEqualTypeOf<typeof contract.WorkspaceSearchBody>();
    expectTypeOf(search.params).toBeUndefined();
    expectTypeOf(strictEndpointSchemas('health').body).toBeUndefined();
    expectTypeOf<
      z.output<StrictEndpointSchemas<'guardrails.search'>['response']>[number]['type']
    >().toEqualTypeOf<GuardrailRule['type']>();
  });

  it('takes endpoint names only', () => {
    // @ts-expect-error: not an endpoint name
    strictEndpointSchemas('workspaces.serach');
  });
});
