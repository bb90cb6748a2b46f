/**
 * Control capabilities are typed from their table rows: a handler's `body` is what the row's body
 * check answers (a schema's output, defaults filled in), its `params` are the `{names}` of its path,
 * and it must answer the row's answer (its in-process method's, or the one declared with `answers`);
 * the in-process method has the row's declared signature. Each `@ts-expect-error` below is a mistake
 * that must not compile (an unused one fails the type check too).
 */
import type { EndpointName } from '@iacm/sdk/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type { ControlHandlerOf, ControlHandlers } from '../../src/control/bind.js';
import { answers, type ControlMethodsOf, capability, type PathParams } from '../../src/control/declare.js';
import type { ControlPlane } from '../../src/control/plane.js';
import type { ControlRoute } from '../../src/control/route.js';
import { CONTROL_ROUTES } from '../../src/control/routes.js';
import { checkSnapshot } from '../../src/control/state.js';
import type { CheckedEvaluation } from '../../src/domain/dry-run.js';
import { type CheckedFinding, FindingBody } from '../../src/domain/findings.js';
import { type CheckedSimulatedRun, SimulatedRunBody } from '../../src/domain/simulate.js';
import type { MockResponse } from '../../src/http/message.js';
import type { MockClock } from '../../src/pipeline/clock.js';
import type { CheckedFaultRule } from '../../src/pipeline/faults.js';
import type { MockState } from '../../src/store/state.js';

const finding = capability<(stackId: string, body: unknown) => string>()({
  route: { method: 'POST', path: '/__mock/stacks/{id}/findings', summary: 'a finding', body: FindingBody },
  call: { sync: true, args: (stackId, body) => ({ params: { id: stackId }, body }) },
  writes: ['data'],
});
const run = capability<(body: unknown) => Promise<string>>()({
  route: { method: 'POST', path: '/__mock/workspaces/{id}/runs', summary: 'a run', body: SimulatedRunBody },
  call: { sync: false, args: (body) => ({ params: { id: 'w' }, body }) },
  writes: ['data'],
});
const snapshot = capability()({
  route: { method: 'PUT', path: '/__mock/state', summary: 'a snapshot', body: checkSnapshot },
  answer: answers<{ status: 'loaded' }>(),
  writes: ['data'],
});
const bare = capability<() => void>()({
  route: { method: 'POST', path: '/__mock/reset', summary: 'no body check' },
  call: { sync: true, args: () => ({}), result: () => undefined },
  answer: answers<{ restored: string[] }>(),
  writes: [],
});
const TABLE = { finding, run, snapshot, bare, group: { member: finding } } as const;

describe('a control row types its handler from its route and its answer', () => {
  it("gives the handler the schema's output and the path's parameters", () => {
    const handler: ControlHandlerOf<typeof finding> = ({ params, body }) => {
      expectTypeOf(body).toEqualTypeOf<CheckedFinding>();
      expectTypeOf(params).toEqualTypeOf<{ readonly id: string }>();
      // @ts-expect-error `severity` is no member of FindingBody
      void body.severity;
      // @ts-expect-error the path names `{id}`, not `{stackId}`
      void params.stackId;
      return body.kind;
    };
    void handler;
  });

  it('gives the output with defaults filled in, and lets an asynchronous row answer a Promise', () => {
    const handler: ControlHandlerOf<typeof run> = async ({ body }) => {
      expectTypeOf(body).toEqualTypeOf<CheckedSimulatedRun>();
      expectTypeOf(body.branch).toEqualTypeOf<string>();
      return body.branch;
    };
    void handler;
  });

  it('gives a check function’s answer (the snapshot check), and `unknown` without a check', () => {
    const load: ControlHandlerOf<typeof snapshot> = ({ body }) => {
      expectTypeOf(body).toEqualTypeOf<MockState>();
      return { status: 'loaded' };
    };
    const reset: ControlHandlerOf<typeof bare> = ({ body, params }) => {
      expectTypeOf(body).toBeUnknown();
      expectTypeOf<keyof typeof params>().toEqualTypeOf<never>();
      // @ts-expect-error a body without a check is unknown: no member can be read
      void body.seed;
      return { restored: [] };
    };
    void [load, reset];
  });

  it('requires the declared answer, and at once from a synchronous row', () => {
    // @ts-expect-error the row answers `{ restored }`, not a MockResponse
    const wrong: ControlHandlerOf<typeof bare> = () => ({ status: 200, headers: {}, body: undefined });
    // @ts-expect-error a synchronous row's handler answers at once, not a Promise
    const later: ControlHandlerOf<typeof bare> = async () => ({ restored: [] });
    // @ts-expect-error the route checks a finding, not a dry run
    const other: ControlHandlerOf<typeof finding> = (ctx: { body: CheckedEvaluation }) =>
      String(ctx.body.run);
    void [wrong, later, other];
  });

  it('needs a handler for every row that goes no other row’s way', () => {
    // @ts-expect-error `run` has no handler
    const missing: ControlHandlers<typeof TABLE> = {
      finding: () => 'x',
      snapshot: () => ({ status: 'loaded' }),
      bare: () => ({ restored: [] }),
      'group.member': () => 'x',
    };
    void missing;
  });

  it("types the in-process methods from the rows' signatures, grouped by their dotted names", () => {
    type Methods = ControlMethodsOf<typeof TABLE>;
    expectTypeOf<Methods['finding']>().toEqualTypeOf<(stackId: string, body: unknown) => string>();
    expectTypeOf<Methods['run']>().toEqualTypeOf<(body: unknown) => Promise<string>>();
    expectTypeOf<Methods['group']['member']>().toEqualTypeOf<(stackId: string, body: unknown) => string>();
    // A row without an in-process method is no member.
    expectTypeOf<keyof Methods>().toEqualTypeOf<'finding' | 'run' | 'bare' | 'group'>();
  });

  it("types the mock's own plane as before: the clock as a MockClock, the generic methods generic", () => {
    expectTypeOf<ControlPlane['clock']>().toMatchTypeOf<MockClock>();
    expectTypeOf<ReturnType<ControlPlane['addFault']>['id']>().toEqualTypeOf<string>();
    expectTypeOf<Parameters<ControlPlane['calls']>[0]>().toEqualTypeOf<EndpointName>();
  });
});

describe('path templates and the table', () => {
  it('names every `{param}` of a template', () => {
    expectTypeOf<PathParams<'/__mock/a/{first}/b/{second}'>>().toEqualTypeOf<{
      readonly first: string;
      readonly second: string;
    }>();
    expectTypeOf<keyof PathParams<'/__mock/faults'>>().toEqualTypeOf<never>();
    // A path not known literally: any name, each a string.
    expectTypeOf<PathParams<string>>().toEqualTypeOf<Readonly<Record<string, string>>>();
  });

  it('holds routes of different bodies in one table, each answering a MockResponse', () => {
    expectTypeOf(CONTROL_ROUTES).toEqualTypeOf<readonly ControlRoute[]>();
    expectTypeOf<ReturnType<ControlRoute['handler']>>().toEqualTypeOf<MockResponse | Promise<MockResponse>>();
  });

  it('gives the stages the checked rule: FaultBook.add takes what FaultBody parsed', () => {
    expectTypeOf<CheckedFaultRule['path']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<CheckedFaultRule['endpoint']>().toEqualTypeOf<EndpointName | undefined>();
    expectTypeOf<CheckedFaultRule['method']>().toEqualTypeOf<
      'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | undefined
    >();
  });
});

describe('a row names its route parts as the route declares them', () => {
  it("refuses a path parameter the route's path does not name", () => {
    capability<(id: string) => void>()({
      route: { method: 'DELETE', path: '/__mock/things/{id}', summary: 'remove it', status: 204 },
      // @ts-expect-error the path names `{id}`, not `{thingId}`
      call: { sync: true, args: (id) => ({ params: { thingId: id } }) },
      writes: [],
    });
  });

  it('makes the handler of a row that a synchronous method goes through answer at once', () => {
    const move = capability()({
      route: { method: 'POST', path: '/__mock/move', summary: 'move' },
      answer: answers<{ at: number }>(),
      writes: [],
    });
    const step = capability<() => void>()({
      via: 'move',
      call: { sync: true, args: () => ({}), result: () => undefined },
      writes: [],
    });
    const table = { move, step } as const;
    const atOnce: ControlHandlers<typeof table> = { move: () => ({ at: 1 }) };
    // @ts-expect-error `step` is synchronous and goes through `move`: its handler may not answer later
    const later: ControlHandlers<typeof table> = { move: async () => ({ at: 1 }) };
    void [atOnce, later];
  });
});
