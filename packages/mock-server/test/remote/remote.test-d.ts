/**
 * The remote client's types (issue 35, deliverable 2): the capabilities of the in-process control
 * plane, each answering a Promise of what it answers in process. Each `@ts-expect-error` is a mistake
 * that must not compile (a misspelt capability, a wrong body, a wrong endpoint name).
 */
import type { WorkspaceRun } from '@iacm/sdk/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type { MockCore } from '../../src/app/mock.js';
import type { EndpointBody } from '../../src/operations/operation.js';
import type { Fault } from '../../src/pipeline/faults.js';
import { connect, type RemoteMock } from '../../src/remote.js';

declare const remote: RemoteMock;
declare const core: MockCore;

describe('connect() is typed from the control table', () => {
  it('answers what the in-process methods answer, as Promises', () => {
    expectTypeOf(connect).returns.toEqualTypeOf<RemoteMock>();
    expectTypeOf(remote.accounts()).resolves.toEqualTypeOf<ReturnType<typeof core.control.accounts>>();
    expectTypeOf(remote.clock.now()).resolves.toEqualTypeOf<number>();
    expectTypeOf(remote.reset()).resolves.toEqualTypeOf<void>();
    expectTypeOf(
      remote.addFault({ endpoint: 'workspaces.search', status: 500 }),
    ).resolves.toEqualTypeOf<Fault>();
    expectTypeOf(remote.webhooks.list).parameters.toEqualTypeOf<
      Parameters<typeof core.control.webhooks.list>
    >();
  });

  it('keeps the endpoint-generic signatures generic', async () => {
    const searches = await remote.calls('workspaces.search');
    expectTypeOf(searches[0]?.body).toEqualTypeOf<EndpointBody<'workspaces.search'> | undefined>();
    const waited = await remote.waitFor('workspaces.delete', { timeout: 1000 });
    expectTypeOf(waited.params.workspaceId).toEqualTypeOf<string>();
  });

  it('refuses what the in-process methods refuse', () => {
    // @ts-expect-error a misspelt capability
    remote.resett();
    // @ts-expect-error a misspelt group member
    remote.clock.advanse(1000);
    // @ts-expect-error no endpoint has this name
    remote.calls('workspace.search');
    // @ts-expect-error a fault's status is a number
    remote.addFault({ endpoint: 'workspaces.search', status: '500' });
    // @ts-expect-error a search body has no `name` member
    remote.waitFor('workspaces.search', { match: { body: { name: 'x' } } });
    // @ts-expect-error advance takes milliseconds, a number
    remote.clock.advance('1h');
    // @ts-expect-error a nested member the body does not have
    remote.respond('eventCenter.query', { match: { body: { query: { filter: [] } } } });
    // @ts-expect-error a path parameter the endpoint does not have
    remote.addFault({ endpoint: 'workspaces.delete', status: 500, match: { params: { id: 'x' } } });
    // @ts-expect-error not a run status
    remote.waitForRun('ws', { status: 'done' });
  });

  it('types the deeper match and the run wait', async () => {
    await remote.respond('eventCenter.query', {
      status: 404,
      match: { body: { query: { filters: [{ key: 'eventType' }] } }, arrays: 'exact' },
    });
    const run = await remote.waitForRun('ws', { status: ['apply_success', 'apply_error'], runId: 'r' });
    expectTypeOf(run).toEqualTypeOf<WorkspaceRun>();
  });
});
