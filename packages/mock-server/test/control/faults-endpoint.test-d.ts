/**
 * `control.addFault` is typed by the endpoint table: `endpoint` is a contract endpoint name, `match`
 * takes that endpoint's body and query members, and a rule names exactly one of `path` and
 * `endpoint`. Each `@ts-expect-error` below is a mistake that must not compile (an unused one fails
 * the type check too).
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { ControlPlane } from '../../src/control/plane.js';
import type { Fault } from '../../src/pipeline/faults.js';

declare const control: ControlPlane;

describe('control.addFault is typed by the endpoint table', () => {
  it("takes a path fault or an endpoint fault with the endpoint's match", () => {
    expectTypeOf(control.addFault({ path: '/v2/guardrails*', status: 503 })).toEqualTypeOf<Fault>();
    control.addFault({ method: 'POST', path: '/v2/guardrails', delayMs: 100 });
    control.addFault({ endpoint: 'workspaces.search', status: 500, times: 2 });
    control.addFault({
      endpoint: 'workspaces.search',
      match: { body: { searchValue: 'drift' }, query: { page: 1 }, accountId: 'acc_1' },
      drop: true,
    });
  });

  it('refuses a wrong endpoint name, a member the endpoint lacks, and both or neither of path and endpoint', () => {
    // @ts-expect-error a misspelt endpoint name
    control.addFault({ endpoint: 'workspaces.serch', status: 500 });
    // @ts-expect-error a body member workspace search does not have
    control.addFault({ endpoint: 'workspaces.search', match: { body: { serchValue: 'x' } } });
    // @ts-expect-error a query parameter is a number once parsed, not text
    control.addFault({ endpoint: 'workspaces.search', match: { query: { page: '1' } } });
    // @ts-expect-error health takes no body
    control.addFault({ endpoint: 'health', match: { body: { a: 1 } } });
    // @ts-expect-error a path and an endpoint
    control.addFault({ endpoint: 'workspaces.search', path: '/v2/workspaces/search' });
    // @ts-expect-error neither a path nor an endpoint
    control.addFault({ status: 500 });
    // @ts-expect-error match needs an endpoint (a path fault applies before the body is read)
    control.addFault({ path: '/v2/workspaces/search', match: { accountId: 'a' } });
  });
});
