/**
 * `control.waitFor(name)` resolves to the entry `control.calls(name)` gives, typed by the endpoint;
 * its `match` is typed as a one-off answer's. Each `@ts-expect-error` is a mistake that must not compile.
 */
import { describe, expectTypeOf, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import type { DeliveryAttempt } from '../../src/domain/webhooks.js';
import type { EndpointBody, EndpointQuery } from '../../src/operations/operation.js';
import type { JournalCall } from '../../src/pipeline/journal-calls.js';

describe('control.waitFor is typed by endpoint', () => {
  it("resolves to the endpoint's typed call", () => {
    const mock = new MockCore();
    const waiting = mock.control.waitFor('workspaces.search');
    expectTypeOf(waiting).toEqualTypeOf<Promise<JournalCall<'workspaces.search'>>>();
    type Found = Awaited<typeof waiting>;
    expectTypeOf<Found['body']>().toEqualTypeOf<EndpointBody<'workspaces.search'>>();
    expectTypeOf<Found['body']['searchValue']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Found['query']>().toEqualTypeOf<EndpointQuery<'workspaces.search'>>();
    mock.control.waitFor('workspaces.search', {
      match: { body: { searchValue: 'web' }, query: { page: 2 }, accountId: 'acc' },
      since: 'start',
      timeout: 100,
    });
    // @ts-expect-error no endpoint has this name
    mock.control.waitFor('workspace.search');
    // @ts-expect-error a search body has no `name` member
    mock.control.waitFor('workspaces.search', { match: { body: { name: 'web' } } });
    // @ts-expect-error the query is parsed: `page` is a number
    mock.control.waitFor('workspaces.search', { match: { query: { page: '2' } } });
    expectTypeOf(mock.control.nextDelivery({ kind: 'Drift' })).toEqualTypeOf<Promise<DeliveryAttempt>>();
    // @ts-expect-error kinds are the notification types and `test`
    mock.control.nextDelivery({ kind: 'drift' });
  });
});
