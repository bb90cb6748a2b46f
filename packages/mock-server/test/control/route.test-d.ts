/**
 * Control routes are typed from what they declare: a handler's `body` is what the route's body check
 * answers (a schema's output, defaults filled in), its `params` are the `{names}` of its path, and
 * it must answer a `MockResponse`. Each `@ts-expect-error` below is a mistake that must not compile
 * (an unused one fails the type check too).
 */
import type { EndpointName } from '@iacm/sdk/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type { ControlRoute, PathParams } from '../../src/control/route.js';
import { controlRoute, ok } from '../../src/control/route.js';
import { CONTROL_ROUTES } from '../../src/control/routes.js';
import { checkSnapshot } from '../../src/control/state.js';
import type { CheckedEvaluation } from '../../src/domain/dry-run.js';
import { type CheckedFinding, FindingBody } from '../../src/domain/findings.js';
import { type CheckedSimulatedRun, SimulatedRunBody } from '../../src/domain/simulate.js';
import type { MockResponse } from '../../src/http/message.js';
import type { CheckedFaultRule } from '../../src/pipeline/faults.js';
import type { MockState } from '../../src/store/state.js';

describe('a control route is typed from its declared body schema and path', () => {
  it("gives the handler the schema's output and the path's parameters", () => {
    controlRoute({
      method: 'POST',
      path: '/__mock/stacks/{id}/findings',
      summary: 'a finding',
      body: FindingBody,
      handler: ({ params, body }) => {
        expectTypeOf(body).toEqualTypeOf<CheckedFinding>();
        expectTypeOf(params).toEqualTypeOf<{ readonly id: string }>();
        expectTypeOf(params.id).toEqualTypeOf<string>();
        // @ts-expect-error `severity` is no member of FindingBody
        void body.severity;
        // @ts-expect-error the path names `{id}`, not `{stackId}`
        void params.stackId;
        return ok(body.kind, 201);
      },
    });
  });

  it('gives the output with defaults filled in, not the body as sent', () => {
    controlRoute({
      method: 'POST',
      path: '/__mock/workspaces/{id}/runs',
      summary: 'a run',
      body: SimulatedRunBody,
      handler: ({ body }) => {
        expectTypeOf(body).toEqualTypeOf<CheckedSimulatedRun>();
        // `branch` has a default: the handler reads a string, never undefined.
        expectTypeOf(body.branch).toEqualTypeOf<string>();
        return ok(body.branch);
      },
    });
  });

  it('gives a check function’s answer (the snapshot check), and `unknown` without a check', () => {
    controlRoute({
      method: 'PUT',
      path: '/__mock/state',
      summary: 'a snapshot',
      body: checkSnapshot,
      handler: ({ body }) => {
        expectTypeOf(body).toEqualTypeOf<MockState>();
        return ok(undefined, 204);
      },
    });
    controlRoute({
      method: 'POST',
      path: '/__mock/reset',
      summary: 'no body check',
      handler: ({ body, params }) => {
        expectTypeOf(body).toBeUnknown();
        expectTypeOf<keyof typeof params>().toEqualTypeOf<never>();
        // @ts-expect-error a body without a check is unknown: no member can be read
        void body.seed;
        return ok(undefined, 204);
      },
    });
  });

  it('requires an answer: a bare value, or a promise of one, does not compile', () => {
    controlRoute({
      method: 'GET',
      path: '/__mock/clock',
      summary: 'a wrong answer',
      // @ts-expect-error a handler answers a MockResponse (`ok(value)`), not the value
      handler: () => ({ now: '2026-01-01T00:00:00.000Z' }),
    });
    controlRoute({
      method: 'GET',
      path: '/__mock/clock',
      summary: 'a wrong answer, later',
      // @ts-expect-error nor a promise of the value
      handler: async () => ({ now: '2026-01-01T00:00:00.000Z' }),
    });
    controlRoute({
      method: 'GET',
      path: '/__mock/clock',
      summary: 'a right answer, later',
      handler: async () => ok({ now: '2026-01-01T00:00:00.000Z' }),
    });
  });

  it('refuses a handler typed for another body than its route checks', () => {
    controlRoute({
      method: 'POST',
      path: '/__mock/stacks/{id}/findings',
      summary: 'a finding',
      body: FindingBody,
      // @ts-expect-error the route checks a finding, not a dry run
      handler: (ctx: { body: CheckedEvaluation }) => ok(ctx.body.run),
    });
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
