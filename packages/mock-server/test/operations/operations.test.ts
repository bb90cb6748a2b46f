import { endpointList } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/operations/index.js';
import type { EndpointsOf, Handler, Operations } from '../../src/operations/operation.js';
import { workspacesOperations } from '../../src/operations/workspaces.js';

describe('operations', () => {
  it('has exactly one operation per endpoint of the contract', () => {
    expect(Object.keys(operations).sort()).toEqual(endpointList.map((e) => e.name).sort());
  });

  it("groups each endpoint by its name's prefix, one file per API group", () => {
    expect(Object.keys(workspacesOperations).sort()).toEqual([
      'workspaces.delete',
      'workspaces.runs.search',
      'workspaces.search',
      'workspaces.setLabels',
    ]);
    const group: EndpointsOf<'eventCenter'>[] = ['eventCenter.query', 'eventCenter.facets'];
    expect(group).toHaveLength(2);
  });

  it('does not compile a group missing an endpoint, or with an endpoint of another group', () => {
    const query: Handler<'eventCenter.query'> = () => ({ events: [], facets: [], continuationToken: null });
    const facets: Handler<'eventCenter.facets'> = () => [];
    const login: Handler<'auth.login'> = () => ({ accessToken: 't', expiresAt: 0, tokenType: 'Bearer' });
    // @ts-expect-error 'eventCenter.facets' has no operation
    const missing = { 'eventCenter.query': query } satisfies Operations<'eventCenter'>;
    const extra = {
      'eventCenter.query': query,
      'eventCenter.facets': facets,
      // @ts-expect-error an operation of another group
      'auth.login': login,
    } satisfies Operations<'eventCenter'>;
    expect(Object.keys(missing)).toHaveLength(1);
    expect(Object.keys(extra)).toHaveLength(3);
  });
});
