/**
 * Control input is checked once (issue 21, point 4): each control route declares its body's schema,
 * the router parses the body with it once, and the handler goes on with the parsed value to the
 * core and the stages, which never parse again. The in-process method of the same concept
 * (`control.simulateRun`, `control.addFault`, ...) parses with the same schema, once: so the same
 * bad body gets the same 400, with the same issues, in process as over HTTP.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as z from 'zod';
import { MockCore } from '../../src/app/mock.js';
import { RateLimitBody } from '../../src/control/rate-limit.js';
import { SeedBody } from '../../src/control/seed.js';
import { StateSchema } from '../../src/control/state.js';
import { EvaluateBody } from '../../src/domain/dry-run.js';
import { FindingBody } from '../../src/domain/findings.js';
import { SimulatedRunBody } from '../../src/domain/simulate.js';
import { NotificationBody } from '../../src/domain/webhooks.js';
import { FaultBody } from '../../src/pipeline/faults.js';
import { expectError, refusal, rejection, setup } from '../helpers.js';

const SIZES = {
  accounts: 2,
  workspaces: 3,
  runsPerWorkspace: 1,
  rules: 2,
  stacks: 2,
  events: 10,
  integrations: 1,
};

type Mock = Awaited<ReturnType<typeof setup>>;

/** A control concept with a body: its route, its in-process method, the schema both parse with. */
interface Concept {
  name: string;
  schema: z.ZodType;
  method: string;
  path(m: Mock): string;
  /** The in-process method, called with the same body. */
  inProcess(m: Mock, body: unknown): unknown;
  good(m: Mock): unknown;
  bad: unknown;
}

/** The primary account's first workspace and stack (read from the store: the in-process snapshot answers a Promise). */
const primary = (m: Mock) => m.core.store.accounts.values().next().value;
const workspaceOf = (m: Mock) => primary(m)?.workspaces.values().next().value?.workspaceId ?? '';
const stackOf = (m: Mock) => primary(m)?.explorer.stacks[0]?.id ?? '';

const CONCEPTS: Concept[] = [
  {
    name: 'simulated run',
    schema: SimulatedRunBody,
    method: 'POST',
    path: (m) => `/__mock/workspaces/${workspaceOf(m)}/runs`,
    inProcess: (m, body) => m.core.control.simulateRun(workspaceOf(m), body as never),
    good: () => ({ title: 'once' }),
    bad: { branch: 5, commitId: 'XYZ', apply: 'yes' },
  },
  {
    name: 'finding',
    schema: FindingBody,
    method: 'POST',
    path: (m) => `/__mock/stacks/${stackOf(m)}/findings`,
    inProcess: (m, body) => m.core.control.recordFinding(stackOf(m), body as never),
    good: () => ({ kind: 'Drift', name: 'bucket' }),
    bad: { kind: 'Nope', drifts: [] },
  },
  {
    name: 'guardrail dry run',
    schema: EvaluateBody,
    method: 'POST',
    path: () => '/__mock/guardrails/evaluate',
    inProcess: (m, body) => m.core.control.evaluate(body),
    good: () => ({
      run: { workspaceName: 'w', repository: 'acme/r', branch: 'main' },
      plan: { changes: [] },
    }),
    bad: { run: { workspaceName: '' }, plan: 5 },
  },
  {
    name: 'notification',
    schema: NotificationBody,
    method: 'POST',
    path: () => '/__mock/notifications',
    inProcess: (m, body) => m.core.control.notify(body),
    good: () => ({ notificationType: 'Drift' }),
    bad: { notificationType: 'Nope', accountId: 'not-an-id' },
  },
  {
    name: 'fault',
    schema: FaultBody,
    method: 'POST',
    path: () => '/__mock/faults',
    inProcess: (m, body) => m.core.control.addFault(body as never),
    good: () => ({ path: '/v2/none', status: 503 }),
    bad: { path: 'no-slash', times: 0, status: 200 },
  },
  {
    name: 'seed',
    schema: SeedBody,
    method: 'POST',
    path: () => '/__mock/seed',
    inProcess: async (m, body) => {
      const { seed, sizes } = body as { seed: never; sizes: never };
      await m.core.control.seed(seed, sizes);
    },
    good: () => ({ seed: 7, sizes: SIZES }),
    bad: { seed: '', sizes: { accounts: 0, workspaces: -1 } },
  },
  {
    name: 'snapshot',
    schema: StateSchema,
    method: 'PUT',
    path: () => '/__mock/state',
    inProcess: async (m, body) => await m.core.control.setState(body),
    good: (m) => m.core.control.getState(),
    bad: { version: 2, seed: null, sizes: { workspaces: 1e308 }, accounts: [] },
  },
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe('control input is checked once, with the schema its route declares', () => {
  for (const concept of CONCEPTS) {
    it(`${concept.name}: the same bad body gets the same 400 and issues over HTTP and in process`, async () => {
      const m = await setup({ sizes: SIZES });
      const http = await m.call(concept.method, concept.path(m), { token: null, body: concept.bad });
      const body = expectError(http, 400, 'validation_failed');
      // A synchronous method throws, an asynchronous one rejects: the same refusal either way.
      const inProcess = await rejection((async () => concept.inProcess(m, structuredClone(concept.bad)))());
      expect([inProcess.status, inProcess.code]).toEqual([400, 'validation_failed']);
      expect(inProcess.message).toBe(body.message);
      expect(inProcess.issues).toEqual(body.issues);
      expect(body.issues?.length).toBeGreaterThan(0);
    });

    it(`${concept.name}: a good body is parsed once over HTTP and once in process`, async () => {
      const m = await setup({ sizes: SIZES });
      const parse = vi.spyOn(concept.schema, 'safeParse');
      const good = await concept.good(m);
      const http = await m.call(concept.method, concept.path(m), { token: null, body: good });
      expect(http.status, JSON.stringify(http.body)).toBeLessThan(300);
      expect(parse).toHaveBeenCalledTimes(1);
      parse.mockClear();
      const again = await concept.good(m);
      parse.mockClear();
      await concept.inProcess(m, again);
      expect(parse).toHaveBeenCalledTimes(1);
    });
  }

  it('a missing body is checked as {} both ways: the same issues', async () => {
    const m = await setup({ sizes: SIZES });
    const http = await m.call('POST', `/__mock/stacks/${stackOf(m)}/findings`, { token: null });
    const body = expectError(http, 400, 'validation_failed');
    const inProcess = refusal(() => m.core.control.recordFinding(stackOf(m), undefined as never));
    expect(inProcess.issues).toEqual(body.issues);
    expect(body.issues?.[0]?.path).toBe('kind');
  });

  it('rate limit: the route and control.setRateLimit check a member with the same schema and issue', async () => {
    const m = await setup({ sizes: SIZES });
    const parse = vi.spyOn(RateLimitBody, 'safeParse');
    const http = await m.call('POST', '/__mock/rate-limit', {
      token: null,
      body: { enabled: true, limit: 0 },
    });
    const body = expectError(http, 400, 'validation_failed');
    expect(parse).toHaveBeenCalledTimes(1);
    const inProcess = refusal(() => m.core.control.setRateLimit({ limit: 0, windowSeconds: 60 }));
    expect(inProcess.issues).toEqual(body.issues);
    const ok = await m.call('POST', '/__mock/rate-limit', { token: null, body: { enabled: true, limit: 7 } });
    expect(ok.body).toEqual({ enabled: true, limit: 7, windowSeconds: 60 });
    // Once per request, in process as over HTTP: the same schema, no second parse.
    expect(parse).toHaveBeenCalledTimes(3);
  });

  it('the in-process methods check for JavaScript callers: a wrong type is a 400, not a crash', () => {
    const core = new MockCore({ sizes: SIZES });
    const error = refusal(() => core.control.simulateRun('x', { changes: 'all' } as never));
    expect(error.issues?.[0]?.path).toBe('changes');
    expect(refusal(() => core.control.addFault({ path: 5 } as never)).issues?.[0]?.path).toBe('path');
  });
});

describe('where the parsing lives (read from the sources)', () => {
  const source = (path: string) => readFileSync(new URL(`../../src/${path}`, import.meta.url), 'utf8');

  it('the domain functions and the faults stage take checked values: none of them parses a body', () => {
    for (const file of [
      'domain/simulate.ts',
      'domain/findings.ts',
      'domain/dry-run.ts',
      'domain/notify.ts',
      'pipeline/faults.ts',
    ]) {
      expect(source(file), file).not.toMatch(/parseOr400|\.safeParse\((?!payload)|\.parse\(/);
    }
  });

  it("no handler calls an in-process method that parses again (they call the core's checked path)", () => {
    // The handlers get no plane at all: only the core and the stages, which take checked values.
    expect(source('control/handlers.ts')).not.toMatch(/\bplane\b/);
    expect(source('control/route.ts')).not.toMatch(/readonly plane:/);
  });
});
