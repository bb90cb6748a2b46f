/**
 * `control.respond` is typed by the endpoint: a success body must be the endpoint's answer, an error
 * body the error body, and `match` takes the endpoint's body and query members. Each
 * `@ts-expect-error` below is a mistake that must not compile (an unused one fails the type check too).
 */
import type { WorkspaceSummary } from '@iacm/sdk/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type { ControlPlane } from '../../src/control/plane.js';
import type { OneOff } from '../../src/pipeline/one-off.js';

declare const control: ControlPlane;
declare const workspace: WorkspaceSummary;

describe('control.respond is typed by the endpoint', () => {
  it("takes the endpoint's answer, a documented error body, or anything with validate: false", () => {
    expectTypeOf(control.respond('workspaces.search', { body: [workspace] })).toEqualTypeOf<OneOff>();
    control.respond('workspaces.search', { status: 200, body: [workspace], times: 2 });
    control.respond('workspaces.search', { status: 404 });
    control.respond('workspaces.search', {
      status: 429,
      body: { status: 429, code: 'rate_limited', message: 'x' },
    });
    control.respond('health', { status: 204 });
    control.respond('workspaces.search', { validate: false, status: 418, body: { any: 'thing' } });
    control.respond('workspaces.search', {
      body: [],
      match: { body: { searchValue: 'drift' }, query: { page: 1 }, accountId: 'a' },
    });
  });

  it('refuses a body of the wrong shape', () => {
    // @ts-expect-error a misspelt member of a workspace
    control.respond('workspaces.search', { body: [{ ...workspace, workspaceNme: 'x' }] });
    // @ts-expect-error an unknown enum value
    control.respond('workspaces.search', { body: [{ ...workspace, runnerType: 'github-action' }] });
    // @ts-expect-error workspace search answers a list, not one workspace
    control.respond('workspaces.search', { body: workspace });
    // @ts-expect-error an error body's code is one of the documented codes
    control.respond('workspaces.search', {
      status: 404,
      body: { status: 404, code: 'not_fonud', message: 'x' },
    });
    // @ts-expect-error a success answer needs its body
    control.respond('workspaces.search', { status: 200 });
    // @ts-expect-error 418 is no API status (validate: false takes it)
    control.respond('workspaces.search', { status: 418 });
    // @ts-expect-error a 204 endpoint answers no body
    control.respond('health', { status: 204, body: { up: true } });
    // @ts-expect-error `serchValue` is no member of the search body
    control.respond('workspaces.search', { status: 404, match: { body: { serchValue: 'x' } } });
    // @ts-expect-error no such endpoint
    control.respond('workspaces.serch', { status: 404 });
  });
});
