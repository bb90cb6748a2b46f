/**
 * Issue 24, point 4: a guardrail scope member's `include` or `exclude` left out reads as `[]`, as the
 * live service takes it from clients that drop empty lists (Go's `omitempty`: Firefly's Terraform
 * provider sends `{"include":["*"]}`). The rule is stored and answered with both lists, and evaluated
 * as the rule with both lists written out. The requests here are written to the provider's shape.
 */
import { describe, expect, it } from 'vitest';
import { expectError, setup } from '../helpers.js';

/** A scope as such a client sends it: lists left out where they are empty. */
const sparseScope = {
  workspaces: { include: ['prod-*'] },
  repositories: { exclude: ['acme/legacy'] },
  branches: { include: ['*'] },
  labels: { exclude: ['x'] },
};

/** The same scope with every list written out, as the mock stores and answers it. */
const fullScope = {
  workspaces: { include: ['prod-*'], exclude: [] },
  repositories: { include: [], exclude: ['acme/legacy'] },
  branches: { include: ['*'], exclude: [] },
  labels: { include: [], exclude: ['x'] },
};

/** A tag rule (every created resource needs a `team` tag) with this name and scope. */
function tagRule(name: string, scope: unknown) {
  return {
    createdBy: 'bbbbbbbbbbbbbbbbbbbbbbbb',
    name,
    type: 'tag',
    scope,
    criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['team'] } },
    severity: 3,
  };
}

/** A plan that creates one untagged bucket: a tag rule in scope fails on it. */
const plan = {
  changes: [{ address: 'aws_s3_bucket.logs', assetType: 'aws_s3_bucket', actions: ['create'] }],
};

/** Runs where each list of the scope decides, and whether the scope covers each. */
const runs = [
  { run: { workspaceName: 'prod-api', repository: 'acme/api', branch: 'main' }, covered: true },
  { run: { workspaceName: 'dev-api', repository: 'acme/api', branch: 'main' }, covered: false },
  { run: { workspaceName: 'prod-api', repository: 'acme/legacy', branch: 'main' }, covered: false },
  {
    run: { workspaceName: 'prod-api', repository: 'acme/api', branch: 'feature/a', labels: ['y'] },
    covered: true,
  },
  {
    run: { workspaceName: 'prod-api', repository: 'acme/api', branch: 'main', labels: ['y', 'x'] },
    covered: false,
  },
];

/** The primary account's rules named `name` (search by free text, then the exact name). */
async function rulesNamed(ctx: Awaited<ReturnType<typeof setup>>, name: string) {
  const res = await ctx.call('POST', '/v2/guardrails/search', {
    query: { pageSize: '100' },
    body: { searchValue: name },
  });
  expect(res.status).toBe(200);
  return (res.body as Array<{ id: string; name: string; scope: unknown }>).filter((r) => r.name === name);
}

/** The one rule named `name`. */
async function storedRule(ctx: Awaited<ReturnType<typeof setup>>, name: string) {
  const rules = await rulesNamed(ctx, name);
  expect(rules).toHaveLength(1);
  return rules[0] as { id: string; scope: unknown };
}

describe('guardrail scope members with a list left out', () => {
  it('create takes {"include":["*"]} without exclude and {"exclude":["x"]} without include; the rule answers both lists', async () => {
    const ctx = await setup();
    const created = await ctx.call('POST', '/v2/guardrails', { body: tagRule('sparse', sparseScope) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const rule = await storedRule(ctx, 'sparse');
    expect(rule.scope).toEqual(fullScope);
    // A member with neither list is a member that includes everything and excludes nothing.
    const empty = await ctx.call('POST', '/v2/guardrails', {
      body: tagRule('empty members', { workspaces: {}, repositories: {}, branches: {}, labels: {} }),
    });
    expect(empty.status).toBe(200);
    const none = { include: [], exclude: [] };
    expect((await storedRule(ctx, 'empty members')).scope).toEqual({
      workspaces: none,
      repositories: none,
      branches: none,
      labels: none,
    });
  });

  it('update replaces the scope whole, the lists left out stored as []', async () => {
    const ctx = await setup();
    await ctx.call('POST', '/v2/guardrails', { body: tagRule('to update', fullScope) });
    const { id } = await storedRule(ctx, 'to update');
    const updated = await ctx.call('PATCH', `/v2/guardrails/${id}`, {
      body: { scope: { ...sparseScope, workspaces: { exclude: ['prod-secret'] } } },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect((await storedRule(ctx, 'to update')).scope).toEqual({
      ...fullScope,
      workspaces: { include: [], exclude: ['prod-secret'] },
    });
  });

  it('a stored sparse rule is evaluated as the same rule with both lists written out', async () => {
    const ctx = await setup();
    await ctx.call('POST', '/v2/guardrails', { body: tagRule('sparse', sparseScope) });
    await ctx.call('POST', '/v2/guardrails', { body: tagRule('full', fullScope) });
    const sparse = (await storedRule(ctx, 'sparse')).id;
    const full = (await storedRule(ctx, 'full')).id;
    const coverage = runs.map(({ run }) => {
      const result = ctx.core.control.evaluate({ run, plan });
      const evaluated = (id: string) => result.outcomes.some((o) => o.ruleId === id && !o.passed);
      const skipped = (id: string) =>
        result.skipped.some((s) => s.ruleId === id && s.reason === 'out_of_scope');
      expect(evaluated(sparse)).toBe(!skipped(sparse));
      return [evaluated(sparse), evaluated(full)];
    });
    expect(coverage).toEqual(runs.map(({ covered }) => [covered, covered]));
  });

  it('the dry run takes create bodies with lists left out too', async () => {
    const ctx = await setup();
    for (const { run, covered } of runs) {
      const result = ctx.core.control.evaluate({
        rules: [tagRule('sparse', sparseScope), tagRule('full', fullScope)] as never,
        run,
        plan,
      });
      expect(result.failed).toBe(covered ? 2 : 0);
      expect(result.skipped.length).toBe(covered ? 0 : 2);
    }
  });

  it('a truly wrong scope still gets the 400 naming the field', async () => {
    const ctx = await setup();
    const wrong = async (scope: unknown) => {
      const body = expectError(
        await ctx.call('POST', '/v2/guardrails', { body: tagRule('wrong', scope) }),
        400,
        'validation_failed',
      );
      return body.issues?.map((issue) => issue.message);
    };
    expect(await wrong({ ...sparseScope, workspaces: { include: ['*'], exclude: 'x' } })).toEqual([
      'body.scope.workspaces.exclude: expected array, received "x"',
    ]);
    expect(await wrong({ ...sparseScope, labels: { include: null } })).toEqual([
      'body.scope.labels.include: expected array, received null',
    ]);
    const { labels: _left, ...threeMembers } = sparseScope;
    expect(await wrong(threeMembers)).toEqual(['body.scope.labels: expected object, received nothing']);
    expect((await wrong({ ...sparseScope, branches: { includes: ['*'] } }))?.[0]).toContain(
      'body.scope.branches',
    );
    expect(await rulesNamed(ctx, 'wrong')).toEqual([]);
  });
});

describe('guardrail criteria lists left out', () => {
  const everywhere = {
    workspaces: { include: [], exclude: [] },
    repositories: { include: [], exclude: [] },
    branches: { include: [], exclude: [] },
    labels: { include: [], exclude: [] },
  };
  const rule = (name: string, type: string, criteria: unknown) => ({
    createdBy: 'bbbbbbbbbbbbbbbbbbbbbbbb',
    name,
    type,
    scope: everywhere,
    criteria,
    severity: 3,
  });

  it('a policy rule and a resource rule take include or exclude left out, stored and answered with both', async () => {
    const ctx = await setup();
    const policy = await ctx.call('POST', '/v2/guardrails', {
      body: rule('sparse policy', 'policy', {
        policy: { severity: 'high', policies: { include: ['s3-*'] } },
      }),
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    const resource = await ctx.call('POST', '/v2/guardrails', {
      body: rule('sparse resource', 'resource', {
        resource: { regions: { exclude: ['eu-west-1'] }, assetTypes: { include: ['aws_s3_bucket'] } },
      }),
    });
    expect(resource.status, JSON.stringify(resource.body)).toBe(200);
    const stored = async (name: string) =>
      ((await rulesNamed(ctx, name))[0] as unknown as { criteria: Record<string, unknown> }).criteria;
    expect(await stored('sparse policy')).toMatchObject({
      policy: { severity: 'high', policies: { include: ['s3-*'], exclude: [] } },
    });
    expect(await stored('sparse resource')).toMatchObject({
      resource: {
        regions: { include: [], exclude: ['eu-west-1'] },
        assetTypes: { include: ['aws_s3_bucket'], exclude: [] },
      },
    });
  });
});
