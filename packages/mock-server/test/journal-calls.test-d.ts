/**
 * `control.calls(name)` is typed from the endpoint table: each call's `params`, `query` and `body`
 * have endpoint `name`'s parsed types. Each `@ts-expect-error` is a mistake that must not compile.
 */
import type { WorkspaceSearchBody } from '@iacm/sdk/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { MockCore } from '../src/app/mock.js';
import type { EndpointBody, EndpointParams, EndpointQuery } from '../src/operations/operation.js';
import '../src/vitest.js';

describe('control.calls(name) is typed by endpoint', () => {
  it("gives each call the endpoint's parsed inputs", () => {
    const mock = new MockCore();
    const searches = mock.control.calls('workspaces.search');
    expectTypeOf(searches[0]?.body).toEqualTypeOf<EndpointBody<'workspaces.search'> | undefined>();
    type Search = (typeof searches)[0];
    expectTypeOf<Search['body']>().toEqualTypeOf<EndpointBody<'workspaces.search'>>();
    expectTypeOf<Search['body']['searchValue']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Search['body']>().toMatchTypeOf<WorkspaceSearchBody>();
    expectTypeOf<Search['query']>().toEqualTypeOf<EndpointQuery<'workspaces.search'>>();
    expectTypeOf<Search['query']['page']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Search['status']>().toEqualTypeOf<number>();
    expectTypeOf<Search['accountId']>().toEqualTypeOf<string | undefined>();
    type Deleted = ReturnType<typeof mock.control.calls<'workspaces.delete'>>[0];
    expectTypeOf<Deleted['params']>().toEqualTypeOf<EndpointParams<'workspaces.delete'>>();
    expectTypeOf<Deleted['params']['workspaceId']>().toEqualTypeOf<string>();
    expectTypeOf<Deleted['body']>().toEqualTypeOf<undefined>();
    // @ts-expect-error no endpoint has this name
    mock.control.calls('workspace.search');
    // @ts-expect-error a search body has no `name` member
    expectTypeOf<Search['body']['name']>();
  });

  it('types toHaveReceived by endpoint name', () => {
    const mock = new MockCore();
    expect(mock).toHaveReceived('workspaces.search', {
      times: 1,
      body: { searchValue: 'web' },
      query: { page: 2 },
    });
    expect(mock).toHaveReceived('workspaces.search', {
      body: expect.objectContaining({ searchValue: 'web' }),
    });
    // @ts-expect-error a search body has no `name` member
    expect(mock).toHaveReceived('workspaces.search', { body: { name: 'web' } });
    // @ts-expect-error the query is parsed: `page` is a number
    expect(mock).toHaveReceived('workspaces.search', { query: { page: '2' } });
    // @ts-expect-error no endpoint has this name
    expect(mock).toHaveReceived('workspace.search');
    // @ts-expect-error no endpoint has this name
    expect(mock).toHaveReceivedNothingElse(['helth']);
  });
});
