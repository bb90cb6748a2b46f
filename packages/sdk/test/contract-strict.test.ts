/**
 * The strict contract for fixtures (issue 22, point 2): `strictSchema` derives, from the tolerant
 * answer schemas, schemas that refuse unknown members and enumeration values, so that a fixture with
 * a typo fails where it is written. The open schemas stay as they are; the strict ones refuse nothing
 * the mock itself answers.
 */
import {
  Backend,
  CI_TOOLS,
  type EndpointName,
  ErrorBody,
  Event,
  endpointList,
  GuardrailCreateResponse,
  GuardrailRule,
  IacStack,
  ObjectId,
  openEnum,
  ProviderAggregation,
  RUN_STATUSES,
  RunSearchBody,
  STRICT_SCHEMA_MAX_DEPTH,
  StackQueryBody,
  strictEndpointSchemas,
  strictSchema,
  Timestamp,
  WebhookPayload,
  WorkspaceRun,
  WorkspaceSearchBody,
  WorkspaceSummary,
} from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { ZodMiniType } from 'zod/mini';
import { MockCore } from '../../mock-server/src/app/mock.js';
import {
  backend,
  clone,
  driftPayload,
  event,
  guardrailRule,
  ids,
  providerAggregation,
  stack,
  workspaceRun,
  workspaceSummary,
} from './fixtures.js';

/** The issues of a refused parse (fails the test when the parse succeeded). */
function issues(schema: ZodMiniType, value: unknown): z.core.$ZodIssue[] {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`expected a refusal, but ${JSON.stringify(value)} was accepted`);
  return result.error.issues;
}

describe('strictSchema: the issue examples', () => {
  it('a misspelt member (lastRunStatu): the open WorkspaceSummary accepts it, the strict one names it', () => {
    const { lastRunStatus, ...rest } = workspaceSummary;
    const fixture = { ...rest, lastRunStatu: lastRunStatus };
    expect(WorkspaceSummary.safeParse(fixture).success).toBe(true);

    expect(issues(strictSchema(WorkspaceSummary), fixture)).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['lastRunStatu'], path: [] }),
    ]);
    const error = strictSchema(WorkspaceSummary).safeParse(fixture).error;
    expect(error && z.prettifyError(error)).toBe('✖ Unrecognized key: "lastRunStatu"');
  });

  it("an unknown enum value (runnerType: 'github-action'): the open one accepts it, the strict one lists the allowed values", () => {
    const fixture = { ...workspaceSummary, runnerType: 'github-action' };
    expect(WorkspaceSummary.safeParse(fixture).success).toBe(true);

    const [issue, ...more] = issues(strictSchema(WorkspaceSummary), fixture);
    expect(more).toEqual([]);
    expect(issue).toMatchObject({ code: 'invalid_value', path: ['runnerType'], values: [...CI_TOOLS] });
    for (const tool of CI_TOOLS) expect(issue?.message).toContain(`"${tool}"`);
  });

  it('the strict schema accepts the valid fixture, and gives back what it was given', () => {
    expect(strictSchema(WorkspaceSummary).parse(workspaceSummary)).toEqual(workspaceSummary);
  });
});

describe('strictSchema: what it derives', () => {
  it('derives each schema once (memoized) and gives back a schema that is already strict as it is', () => {
    expect(strictSchema(WorkspaceSummary)).toBe(strictSchema(WorkspaceSummary));
    expect(strictSchema(WorkspaceSearchBody)).toBe(WorkspaceSearchBody);
    expect(strictSchema(RunSearchBody)).toBe(RunSearchBody);
    expect(strictSchema(ObjectId)).toBe(ObjectId);
    expect(strictSchema(undefined)).toBeUndefined();
    // The same inner schema is derived once, wherever it appears.
    const run = strictSchema(WorkspaceRun);
    expect(run.shape.backendSummary).toBe(
      strictSchema(WorkspaceSummary).shape.backendSummary.def.innerType.def.innerType,
    );
  });

  it('leaves the open schema open', () => {
    strictSchema(WorkspaceSummary);
    expect(WorkspaceSummary.safeParse({ ...workspaceSummary, extra: 1, vcsType: 'svn' }).success).toBe(true);
  });

  it('keeps the checks, formats and refinements of the open schema', () => {
    const strict = strictSchema(WorkspaceSummary);
    expect(issues(strict, { ...workspaceSummary, id: 'not-an-id' })[0]?.path).toEqual(['id']);
    expect(issues(strict, { ...workspaceSummary, createdAt: '2024-02-30T00:00:00.000Z' })[0]?.path).toEqual([
      'createdAt',
    ]);
    expect(issues(strict, { ...workspaceSummary, runsCount: -1 })[0]?.path).toEqual(['runsCount']);
    // A loose request body with a refinement (paging aliases): closed, and the refinement still runs.
    const body = strictSchema(StackQueryBody);
    expect(StackQueryBody.safeParse({ page: 1, pageSiz: 10 }).success).toBe(true);
    expect(issues(body, { page: 1, pageSiz: 10 })).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['pageSiz'] }),
    ]);
    expect(issues(body, { page: 1, pageNumber: 2 })[0]?.message).toContain('pageNumber is an alias of page');
  });

  it('closes a guardrail rule severity to the documented 1, 2 and 3', () => {
    const fixture = { ...guardrailRule, severity: 4 };
    expect(GuardrailRule.safeParse(fixture).success).toBe(true);
    expect(issues(strictSchema(GuardrailRule), fixture)).toEqual([
      expect.objectContaining({ code: 'invalid_value', path: ['severity'], values: [1, 2, 3] }),
    ]);
    for (const severity of [1, 2, 3])
      expect(strictSchema(GuardrailRule).safeParse({ ...guardrailRule, severity }).success).toBe(true);
  });
});

describe('strictSchema: each construct of the contract', () => {
  it('a nested object in an array (a run task of a run), and an enum inside it', () => {
    const strict = strictSchema(WorkspaceRun);
    const extra = clone(workspaceRun) as unknown as { plan: Array<Record<string, unknown>> };
    (extra.plan[0] as Record<string, unknown>).stauts = 'completed';
    expect(WorkspaceRun.safeParse(extra).success).toBe(true);
    expect(issues(strict, extra)).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['stauts'], path: ['plan', 0] }),
    ]);
    const badType = clone(workspaceRun) as unknown as { plan: Array<{ type: { description: string } }> };
    (badType.plan[0] as { type: { description: string } }).type.description = 'pre-plan';
    expect(issues(strict, badType)[0]?.path).toEqual(['plan', 0, 'type', 'description']);
  });

  it('an optional member: absent passes; present, it is closed', () => {
    const strict = strictSchema(WorkspaceSummary);
    const { lastRunStatus: _, ...withoutStatus } = workspaceSummary;
    expect(strict.safeParse(withoutStatus).success).toBe(true);
    expect(issues(strict, { ...workspaceSummary, lastRunStatus: { description: 'aplied' } })).toEqual([
      expect.objectContaining({ path: ['lastRunStatus', 'description'], values: [...RUN_STATUSES] }),
    ]);
  });

  it('a nullable member: null passes; an object, it is closed', () => {
    const strict = strictSchema(WorkspaceSummary);
    expect(strict.safeParse({ ...workspaceSummary, backendSummary: null, lastRunStatus: null }).success).toBe(
      true,
    );
    const backendSummary = { ...workspaceSummary.backendSummary, managedResources: 3 };
    expect(issues(strict, { ...workspaceSummary, backendSummary })).toEqual([
      expect.objectContaining({ keys: ['managedResources'], path: ['backendSummary'] }),
    ]);
  });

  it('a union: each form passes, an object form is closed (guardrail create answer)', () => {
    const strict = strictSchema(GuardrailCreateResponse);
    expect(strict.parse(ids.rule)).toBe(ids.rule);
    expect(strict.parse({ ruleId: ids.rule, notificationId: null })).toEqual({
      ruleId: ids.rule,
      notificationId: null,
    });
    expect(GuardrailCreateResponse.safeParse({ ruleId: ids.rule, ruleID: ids.rule }).success).toBe(true);
    expect(strict.safeParse({ ruleId: ids.rule, ruleID: ids.rule }).success).toBe(false);
  });

  it('a discriminated union (webhook payloads): closed objects, the discriminator still picks the form', () => {
    const strict = strictSchema(WebhookPayload);
    expect(strict.parse(driftPayload)).toEqual(driftPayload);
    const extra = { ...driftPayload, severity: 'high' };
    expect(WebhookPayload.safeParse(extra).success).toBe(true);
    expect(issues(strict, extra)).toEqual([expect.objectContaining({ keys: ['severity'] })]);
    expect(issues(strict, { ...driftPayload, providerType: 'oci' })[0]?.path).toEqual(['providerType']);
  });

  it('a record: any key, each value closed; a record of unknown values stays open', () => {
    const strict = strictSchema(ProviderAggregation);
    expect(strict.parse(providerAggregation)).toEqual(providerAggregation);
    const extra = clone(providerAggregation) as unknown as {
      types: Record<string, Record<string, Record<string, unknown>>>;
    };
    const [type] = Object.keys(extra.types);
    const [account] = Object.keys(extra.types[type as string] ?? {});
    (extra.types[type as string] as Record<string, Record<string, unknown>>)[account as string] = {
      count: 1,
      isIntegrated: true,
      integrated: true,
    };
    expect(issues(strict, extra)).toEqual([
      expect.objectContaining({ keys: ['integrated'], path: ['types', type, account] }),
    ]);
    // backendConfig is Record<string, unknown>: the contract says nothing of its members.
    const backendSummary = { ...workspaceSummary.backendSummary, backendConfig: { anything: { at: 'all' } } };
    expect(strictSchema(WorkspaceSummary).safeParse({ ...workspaceSummary, backendSummary }).success).toBe(
      true,
    );
  });

  it('defaults, pipes, tuples, intersections and recursive lazies of a schema built on the contract', () => {
    interface Tree {
      runner: string;
      children: Tree[];
    }
    const Tree: z.ZodType<Tree> = z.lazy(() =>
      z.looseObject({ runner: openEnum(CI_TOOLS), children: z.array(Tree) }),
    );
    const Built = z
      .looseObject({
        run: z.looseObject({ status: openEnum(RUN_STATUSES) }).default({ status: 'planning' }),
        at: z.string().pipe(Timestamp),
        pair: z.tuple([z.looseObject({ a: z.number() }), openEnum(CI_TOOLS)]),
        both: z.intersection(z.looseObject({ a: z.number() }), z.looseObject({ b: z.number() })),
        tree: Tree,
      })
      .meta({ description: 'built on the contract' });
    const good = {
      at: '2024-05-01T12:30:00.000Z',
      pair: [{ a: 1 }, 'jenkins'],
      both: { a: 1, b: 2 },
      tree: { runner: 'env0', children: [{ runner: 'jenkins', children: [] }] },
    };
    const strict = strictSchema(Built);
    expect(strict.parse(good)).toEqual({ ...good, run: { status: 'planning' } });
    // Each default is a fresh value, as in the open schema.
    expect(strict.parse(good).run).not.toBe(strict.parse(good).run);
    // Descriptions (`.meta()`) are the open schema's: the strict one does not carry them.
    expect(z.globalRegistry.get(strict)).toBeUndefined();

    expect(issues(strict, { ...good, run: { status: 'aplied' } })[0]?.path).toEqual(['run', 'status']);
    expect(issues(strict, { ...good, at: 'yesterday' })[0]?.path).toEqual(['at']);
    expect(issues(strict, { ...good, pair: [{ a: 1, b: 2 }, 'jenkins'] })[0]).toMatchObject({
      path: ['pair', 0],
      keys: ['b'],
    });
    expect(issues(strict, { ...good, pair: [{ a: 1 }, 'github-action'] })[0]?.path).toEqual(['pair', 1]);
    const deep = {
      runner: 'env0',
      children: [{ runner: 'env0', children: [{ runner: 'x', children: [] }] }],
    };
    expect(Built.safeParse({ ...good, tree: deep }).success).toBe(true);
    expect(issues(strict, { ...good, tree: deep })[0]?.path).toEqual([
      'tree',
      'children',
      0,
      'children',
      0,
      'runner',
    ]);
    expect(issues(strict, { ...good, extra: true })[0]).toMatchObject({ keys: ['extra'] });
  });

  it(`gives up past ${STRICT_SCHEMA_MAX_DEPTH} levels with a RangeError, instead of overflowing the stack`, () => {
    let schema: z.ZodType = z.looseObject({ leaf: z.string() });
    for (let i = 0; i < STRICT_SCHEMA_MAX_DEPTH; i++) schema = z.looseObject({ next: schema });
    expect(() => strictSchema(schema)).toThrow(RangeError);
    expect(() => strictSchema(schema)).toThrow(`deeper than ${STRICT_SCHEMA_MAX_DEPTH} levels`);
    // A schema within the bound derives.
    let shallow: z.ZodType = z.looseObject({ leaf: z.string() });
    for (let i = 0; i < STRICT_SCHEMA_MAX_DEPTH - 2; i++) shallow = z.looseObject({ next: shallow });
    expect(() => strictSchema(shallow)).not.toThrow();
  });
});

describe('strictEndpointSchemas: every request and answer of the endpoint table', () => {
  it('derives each endpoint’s params, query, body and answer without throwing', () => {
    for (const definition of endpointList) {
      const strict = strictEndpointSchemas(definition.name as EndpointName);
      expect(strict.response, definition.name).toBe(strictSchema(definition.response));
      expect(strict.query, definition.name).toBe(definition.query); // queries are strict already
      expect(strict.params, definition.name).toBe(definition.params);
      expect(strict.body, definition.name).toBe(strictSchema(definition.body));
    }
  });

  it('accepts the examples of the SDK tests', () => {
    expect(strictEndpointSchemas('workspaces.search').response.parse([workspaceSummary])).toHaveLength(1);
    expect(strictEndpointSchemas('workspaces.runs.search').response.parse([workspaceRun])).toHaveLength(1);
    expect(strictEndpointSchemas('guardrails.search').response.parse([guardrailRule])).toHaveLength(1);
    expect(strictSchema(IacStack).parse(stack)).toEqual(stack);
    expect(strictSchema(Backend).parse(backend)).toEqual(backend);
    expect(strictSchema(Event).parse(event)).toEqual(event);
  });

  it('accepts every answer the mock gives from its seeded state, errors included', async () => {
    const core = new MockCore();
    const [account] = core.accounts();
    if (!account) throw new Error('expected a seeded account');
    const checked = new Set<string>();
    const call = async (name: EndpointName, path: string, body?: unknown, query?: Record<string, string>) => {
      const definition = endpointList.find((e) => e.name === name);
      const res = await core.handle({
        method: definition?.method ?? 'GET',
        path,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body }),
        ...(query ? { query } : {}),
      });
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(definition?.successStatus);
      const result = strictEndpointSchemas(name).response.safeParse(res.body);
      expect(result.success ? [] : result.error.issues, name).toEqual([]);
      checked.add(name);
      return res.body;
    };
    let token: string | undefined;
    const login = (await call('auth.login', '/v2/login', {
      accessKey: account.accessKey,
      secretKey: account.secretKey,
    })) as { accessToken: string };
    token = login.accessToken;
    await call('health', '/v2/health');

    const page = { pageSize: '500' };
    const workspaces = (await call('workspaces.search', '/v2/workspaces/search', {}, page)) as Array<{
      id: string;
    }>;
    expect(workspaces.length).toBeGreaterThan(0);
    for (const workspace of workspaces.slice(0, 10))
      await call('workspaces.runs.search', `/v2/workspaces/${workspace.id}/runs/search`, {}, page);
    const rules = (await call('guardrails.search', '/v2/guardrails/search', {}, page)) as Array<{
      id: string;
    }>;
    expect(rules.length).toBeGreaterThan(0);
    await call('iacExplorer.stacks', '/api/iacStacks', { pageSize: 500 });
    await call('iacExplorer.backends', '/api/iacStacks/backends', { pageSize: 500 });
    await call('iacExplorer.repositories', '/api/iacStacks/repositories', {});
    await call('iacExplorer.modules', '/api/iacStacks/modules', { pageSize: 500 });
    await call('iacExplorer.providers', '/api/iacStacks/providers', {});
    await call('eventCenter.query', '/v2/event-center', {
      size: 150,
      facets: [{ field: 'eventType' }, { field: 'providerType' }],
    });
    await call('eventCenter.facets', '/v2/event-center/facets', { field: 'assetType' });

    const [workspace, doomed] = workspaces;
    await call('workspaces.setLabels', `/v2/workspaces/${workspace?.id}/labels`, { labels: ['strict'] });
    await call('workspaces.delete', `/v2/workspaces/${doomed?.id}`);
    const created = await call('guardrails.create', '/v2/guardrails', {
      createdBy: account.id,
      name: 'strict fixtures',
      type: 'tag',
      scope: {
        workspaces: { include: ['*'], exclude: [] },
        repositories: { include: [], exclude: [] },
        branches: { include: [], exclude: [] },
        labels: { include: [], exclude: [] },
      },
      criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['team'] } },
      severity: 3,
    });
    const ruleId = typeof created === 'string' ? created : (created as { ruleId: string }).ruleId;
    await call('guardrails.update', `/v2/guardrails/${ruleId}`, { name: 'strict fixtures, renamed' });
    await call('guardrails.delete', `/v2/guardrails/${ruleId}`);
    expect([...checked].sort()).toEqual(endpointList.map((e) => e.name).sort());

    // The mock's error answers, under the strict error body.
    const refused = await core.handle({
      method: 'POST',
      path: '/v2/workspaces/search',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: { filters: { status: ['aplied'] } },
    });
    expect(refused.status).toBe(400);
    expect(strictSchema(ErrorBody).safeParse(refused.body).error?.issues).toBeUndefined();
    const unauthorized = await core.handle({ method: 'POST', path: '/v2/guardrails/search', body: {} });
    expect(unauthorized.status).toBe(401);
    expect(strictSchema(ErrorBody).safeParse(unauthorized.body).error?.issues).toBeUndefined();
  });
});
