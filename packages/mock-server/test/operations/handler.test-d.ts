/**
 * Handlers are typed from the contract's endpoint table: `Handler<N>` hands endpoint `N`'s path,
 * query and body as its schemas parse them, and requires `N`'s answer, so a handler answering the
 * wrong shape does not compile (each `@ts-expect-error` below fails the type check if it compiles).
 */
import type * as contract from '@iacm/sdk/contract';
import type {
  GuardrailUpdateResponse,
  LoginResponse,
  WorkspaceLabelsBody,
  WorkspaceLabelsResponse,
} from '@iacm/sdk/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { endpointOperations } from '../../src/operations/index.js';
import type { EndpointAnswer, Handler, HandlerContext, Operations } from '../../src/operations/operation.js';

const at = '2026-03-01T12:00:00.000Z';
/** A right answer of guardrails.update. */
const updated = { id: 'r', name: 'n', enabled: true, updatedAt: at };

describe("Handler<N>: the context is the endpoint's parsed inputs", () => {
  it("gives ctx.body the output type of the endpoint's body schema", () => {
    expectTypeOf<HandlerContext<'guardrails.create'>['body']>().toEqualTypeOf<
      z.output<typeof contract.GuardrailCreateBody>
    >();
    expectTypeOf<HandlerContext<'eventCenter.query'>['body']>().toEqualTypeOf<
      z.output<typeof contract.EventQueryBody>
    >();
    expectTypeOf<HandlerContext<'workspaces.setLabels'>['body']>().toEqualTypeOf<WorkspaceLabelsBody>();
    // An endpoint without a body gets none.
    expectTypeOf<HandlerContext<'health'>['body']>().toEqualTypeOf<undefined>();
    expectTypeOf<HandlerContext<'guardrails.delete'>['body']>().toEqualTypeOf<undefined>();
  });

  it('gives ctx.params and ctx.query their parsed types', () => {
    expectTypeOf<HandlerContext<'guardrails.update'>['params']>().toEqualTypeOf<{ ruleId: string }>();
    expectTypeOf<HandlerContext<'workspaces.search'>['params']>().toEqualTypeOf<Record<string, never>>();
    // `?page=2` arrives as the number the query schema made of it.
    expectTypeOf<HandlerContext<'workspaces.search'>['query']>().toEqualTypeOf<{
      page?: number | undefined;
      pageSize?: number | undefined;
    }>();
  });

  it('types ctx inside a group of operations by the endpoint it is written for', () => {
    const group = {
      'guardrails.search': (ctx) => {
        expectTypeOf(ctx.body).toEqualTypeOf<z.output<typeof contract.GuardrailSearchBody>>();
        return [];
      },
      'guardrails.create': (ctx) => {
        expectTypeOf(ctx.body).toEqualTypeOf<z.output<typeof contract.GuardrailCreateBody>>();
        return { ruleId: ctx.body.createdBy };
      },
      'guardrails.update': (ctx) => ({ id: ctx.params.ruleId, name: 'n', enabled: true, updatedAt: at }),
      'guardrails.delete': async (ctx) => ({ status: 200, message: ctx.params.ruleId }),
    } satisfies Operations<'guardrails'>;
    expectTypeOf(group['guardrails.delete']).returns.resolves.toEqualTypeOf<{
      status: number;
      message: string;
    }>();
  });

  it('is the type of each entry of the operations table', () => {
    expectTypeOf(endpointOperations['guardrails.create']).toEqualTypeOf<Handler<'guardrails.create'>>();
    expectTypeOf(endpointOperations.health).returns.toEqualTypeOf<undefined | Promise<undefined>>();
  });
});

describe('Handler<N>: the answer must be the endpoint’s', () => {
  it('accepts the documented answer, sync or async', () => {
    const update: Handler<'guardrails.update'> = () => updated;
    const login: Handler<'auth.login'> = async () => ({
      accessToken: 't',
      expiresAt: 1,
      tokenType: 'Bearer',
    });
    expectTypeOf<EndpointAnswer<'guardrails.update'>>().toEqualTypeOf<GuardrailUpdateResponse>();
    expectTypeOf<EndpointAnswer<'auth.login'>>().toEqualTypeOf<LoginResponse>();
    expectTypeOf<EndpointAnswer<'workspaces.setLabels'>>().toEqualTypeOf<WorkspaceLabelsResponse>();
    expectTypeOf(update).toBeFunction();
    expectTypeOf(login).toBeFunction();
  });

  it('does not compile a wrong answer shape', () => {
    // @ts-expect-error `enabled` is a boolean
    const wrongType: Handler<'guardrails.update'> = () => ({ ...updated, enabled: 'yes' });
    // @ts-expect-error `enabled` is missing
    const missing: Handler<'guardrails.update'> = () => ({ id: 'r', name: 'n', updatedAt: at });
    // @ts-expect-error the answer of another endpoint (guardrails.delete's)
    const other: Handler<'guardrails.update'> = async () => ({ status: 200, message: 'deleted' });
    // @ts-expect-error workspace search answers a list
    const notAList: Handler<'workspaces.search'> = () => ({ id: 'w' });
    // @ts-expect-error a 204 endpoint answers no body
    const bodyOn204: Handler<'health'> = () => ({ ok: true });
    // @ts-expect-error a nested member of the wrong type
    const nested: Handler<'workspaces.delete'> = () => ({ status: 200, data: { message: 1 } });
    expectTypeOf([wrongType, missing, other, notAList, bodyOn204, nested]).toBeArray();
  });

  it('lets a search with projection answer only the named members, never without id', () => {
    const projected: Handler<'workspaces.search'> = () => [{ id: 'w', labels: ['a'] }];
    // @ts-expect-error every item keeps its id
    const withoutId: Handler<'workspaces.search'> = () => [{ labels: ['a'] }];
    // @ts-expect-error a search without projection still answers whole stacks
    const partialStacks: Handler<'iacExplorer.stacks'> = () => ({ hits: [{ id: 's' }], total: 1 });
    expectTypeOf([projected, withoutId, partialStacks]).toBeArray();
  });
});
