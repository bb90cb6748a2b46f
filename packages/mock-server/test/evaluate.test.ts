import type { GuardrailRule } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import {
  evaluateGuardrails,
  globMatch,
  listMatches,
  scopeMatches,
  summarise,
} from '../src/domain/evaluate.js';
import type { PlanChange, PlanContent, PolicyFinding, RunScope } from '../src/domain/plan.js';

// ---------------------------------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------------------------------

const ALL = { include: [], exclude: [] };
const OPEN_SCOPE = { workspaces: ALL, repositories: ALL, branches: ALL, labels: ALL };
const STAMP = '2026-01-01T00:00:00.000Z';

/** A 24-hex rule id from a small number. */
function id(n: number): string {
  return n.toString(16).padStart(24, '0');
}

let next = 1;

/** A stored rule whose kind, criteria and severity may hold values the contract does not list. */
type LooseRule = Omit<GuardrailRule, 'type' | 'criteria' | 'severity'> & {
  type: string;
  criteria: object;
  severity: number;
};

/** A guardrail rule: an open scope, enabled, flexible, unless overridden (with any values, to test robustness). */
function rule(overrides: Partial<LooseRule> & Pick<LooseRule, 'type' | 'criteria'>): GuardrailRule {
  const ruleId = overrides.id ?? id(next++);
  return {
    id: ruleId,
    accountId: 'a00000000000000000000001',
    createdBy: 'b00000000000000000000001',
    name: `rule ${ruleId}`,
    scope: OPEN_SCOPE,
    isEnabled: true,
    createdAt: STAMP,
    updatedAt: STAMP,
    severity: 1,
    ...overrides,
  } as GuardrailRule;
}

const RUN: RunScope = {
  workspaceName: 'payments-prod',
  repository: 'acme/payments',
  branch: 'main',
  labels: ['prod', 'team-a'],
};

function plan(changes: PlanChange[] = [], policyFindings: PolicyFinding[] = []): PlanContent {
  return { changes, policyFindings };
}

function change(overrides: Partial<PlanChange> = {}): PlanChange {
  return {
    address: 'aws_s3_bucket.logs',
    assetType: 'aws_s3_bucket',
    region: 'us-east-1',
    actions: ['create'],
    ...overrides,
  };
}

/** Evaluates one rule against a plan and answers its outcome (the rule must be in scope and enabled). */
function one(r: GuardrailRule, p: PlanContent, run: RunScope = RUN) {
  const evaluation = evaluateGuardrails([r], run, p);
  expect(evaluation.total).toBe(1);
  const outcome = evaluation.outcomes[0];
  if (!outcome) throw new Error('no outcome');
  return { evaluation, outcome };
}

function costed(before: number, after: number, address = 'aws_instance.web'): PlanChange {
  return change({ address, assetType: 'aws_instance', actions: ['update'], monthlyCost: { before, after } });
}

// ---------------------------------------------------------------------------------------------------
// Matching
// ---------------------------------------------------------------------------------------------------

describe('globMatch', () => {
  it.each([
    ['*', '', true],
    ['*', 'any/thing/with/slashes', true],
    ['**', 'x', true],
    ['', '', true],
    ['', 'x', false],
    ['main', 'main', true],
    ['main', 'Main', false],
    ['prod', 'production', false],
    ['prod', 'preprod', false],
    ['prod*', 'production', true],
    ['*prod', 'preprod', true],
    ['*prod*', 'my-prod-env', true],
    ['feature/*', 'feature/a/b', true],
    ['feature/*', 'feature', false],
    ['a*b*c', 'aXXbYYc', true],
    ['a*b*c', 'aXXbYY', false],
    ['a*b', 'abab', true],
    ['a.c', 'abc', false],
    ['a.c', 'a.c', true],
    ['a+b', 'aab', false],
    ['a+b', 'a+b', true],
    ['(x)|y', '(x)|y', true],
    ['(x)|y', 'y', false],
    ['[ab]', 'a', false],
    ['?', 'a', false],
    ['?', '?', true],
    ['^main$', 'main', false],
    ['a\\*', 'a\\bc', true],
    ['$', '$', true],
  ])('globMatch(%j, %j) is %s', (pattern, value, expected) => {
    expect(globMatch(pattern, value)).toBe(expected);
  });

  it('answers a pathological pattern (a backtracking matcher would not return)', () => {
    expect(globMatch('a*a*a*a*a*a*a*a*b', 'a'.repeat(20_000))).toBe(false);
    expect(globMatch('a*a*a*a*a*a*a*a*b', `${'a'.repeat(20_000)}b`)).toBe(true);
  });
});

describe('listMatches', () => {
  it.each([
    ['empty include includes all', [], [], ['anything'], true],
    ['empty lists, no value', [], [], [], true],
    ['include, no value', ['prod'], [], [], false],
    ['exclude only, no value', [], ['prod'], [], true],
    ['include wildcard', ['prod*'], [], ['production'], true],
    ['include miss', ['prod*'], [], ['staging'], false],
    ['exclude wins over include', ['prod*'], ['production'], ['production'], false],
    ['exclude wins over *', ['*'], ['*-tmp'], ['scratch-tmp'], false],
    ['exclude with empty include', [], ['legacy'], ['legacy'], false],
    ['exclude miss with empty include', [], ['legacy'], ['modern'], true],
    ['multi-valued: any value included', ['prod'], [], ['dev', 'prod'], true],
    ['multi-valued: no value included', ['prod'], [], ['dev', 'qa'], false],
    ['multi-valued: one excluded value is enough', ['prod'], ['legacy'], ['prod', 'legacy'], false],
    ['multi-valued: excluded value alone', [], ['legacy'], ['dev', 'legacy'], false],
    ['multi-valued: nothing excluded', [], ['legacy'], ['dev', 'qa'], true],
  ])('%s', (_name, include, exclude, values, expected) => {
    expect(listMatches({ include, exclude }, values)).toBe(expected);
  });
});

describe('scopeMatches', () => {
  const scope = {
    workspaces: { include: ['payments-*'], exclude: ['*-sandbox'] },
    repositories: { include: ['acme/*'], exclude: [] },
    branches: { include: ['main', 'release/*'], exclude: [] },
    labels: { include: ['prod'], exclude: ['legacy'] },
  };

  it('matches when all four members match', () => {
    expect(scopeMatches(scope, RUN)).toBe(true);
    expect(scopeMatches(OPEN_SCOPE, RUN)).toBe(true);
    expect(scopeMatches(scope, { ...RUN, branch: 'release/2026.1' })).toBe(true);
  });

  it.each([
    ['workspace not included', { workspaceName: 'billing-prod' }],
    ['workspace excluded', { workspaceName: 'payments-sandbox' }],
    ['repository not included', { repository: 'other/payments' }],
    ['branch not included', { branch: 'feature/x' }],
    ['no label included', { labels: ['dev'] }],
    ['a label excluded', { labels: ['prod', 'legacy'] }],
    ['no labels while labels are included', { labels: [] }],
  ])('does not match: %s', (_name, change) => {
    expect(scopeMatches(scope, { ...RUN, ...change })).toBe(false);
  });

  it('matches a run without labels when labels include nothing', () => {
    expect(
      scopeMatches({ ...scope, labels: { include: [], exclude: ['legacy'] } }, { ...RUN, labels: [] }),
    ).toBe(true);
  });

  it('skips out-of-scope rules and evaluates in-scope ones', () => {
    const inScope = rule({ type: 'cost', criteria: { cost: { thresholdAmount: 0 } }, scope });
    const outOfScope = rule({
      type: 'cost',
      criteria: { cost: { thresholdAmount: 0 } },
      scope: { ...scope, branches: { include: ['main'], exclude: ['main'] } },
    });
    const evaluation = evaluateGuardrails([outOfScope, inScope], RUN, plan([costed(0, 1)]));
    expect(evaluation.outcomes.map((o) => o.ruleId)).toEqual([inScope.id]);
    expect(evaluation.skipped).toEqual([{ ruleId: outOfScope.id, reason: 'out_of_scope' }]);
  });
});

// ---------------------------------------------------------------------------------------------------
// Criteria kinds
// ---------------------------------------------------------------------------------------------------

describe('cost criteria', () => {
  it.each([
    ['amount: increase below threshold', { thresholdAmount: 100 }, [costed(200, 250)], true],
    ['amount: increase exactly at threshold passes', { thresholdAmount: 100 }, [costed(200, 300)], true],
    ['amount: one cent over fails', { thresholdAmount: 100 }, [costed(200, 300.01)], false],
    [
      'amount: floating-point noise does not tip the edge',
      { thresholdAmount: 100.1 },
      [costed(900.6, 1000.7)],
      true,
    ],
    [
      'amount: summing noise does not tip the edge',
      { thresholdAmount: 0.3 },
      [costed(0, 0.1, 'a.one'), costed(0, 0.2, 'a.two')],
      true,
    ],
    ['amount: a decrease never fails', { thresholdAmount: 0 }, [costed(500, 10)], true],
    ['amount: zero threshold, no change passes', { thresholdAmount: 0 }, [costed(50, 50)], true],
    ['amount: zero threshold, one cent fails', { thresholdAmount: 0 }, [costed(50, 50.01)], false],
    ['percentage: below', { thresholdPercentage: 10 }, [costed(1000, 1050)], true],
    ['percentage: exactly at threshold passes', { thresholdPercentage: 10 }, [costed(1000, 1100)], true],
    ['percentage: just over fails', { thresholdPercentage: 10 }, [costed(1000, 1100.01)], false],
    ['percentage: 7% of 100 is exactly 7%', { thresholdPercentage: 7 }, [costed(100, 107)], true],
    ['percentage: from zero is infinite', { thresholdPercentage: 1_000_000 }, [costed(0, 0.01)], false],
    ['percentage: zero to zero passes', { thresholdPercentage: 0 }, [costed(0, 0)], true],
    ['percentage: a decrease never fails', { thresholdPercentage: 0 }, [costed(100, 1)], true],
    [
      'both: only the percentage is over',
      { thresholdAmount: 1000, thresholdPercentage: 10 },
      [costed(100, 150)],
      false,
    ],
    [
      'both: only the amount is over',
      { thresholdAmount: 10, thresholdPercentage: 50 },
      [costed(1000, 1020)],
      false,
    ],
    ['both: neither is over', { thresholdAmount: 100, thresholdPercentage: 50 }, [costed(1000, 1020)], true],
    [
      'sums over changes, without monthlyCost counting 0',
      { thresholdAmount: 99.99 },
      [costed(50, 100, 'a.one'), costed(50, 100, 'a.two'), change()],
      false,
    ],
    [
      'sums: one change up, one down, net at threshold',
      { thresholdAmount: 100 },
      [costed(0, 300, 'a.one'), costed(200, 0, 'a.two')],
      true,
    ],
    ['no costed change passes', { thresholdAmount: 0, thresholdPercentage: 0 }, [change()], true],
  ])('%s', (_name, cost, changes, passed) => {
    const { outcome } = one(rule({ type: 'cost', criteria: { cost } }), plan(changes));
    expect(outcome.passed).toBe(passed);
    expect(outcome.messages.length > 0).toBe(!passed);
  });

  it('explains a failure', () => {
    const amount = one(
      rule({ type: 'cost', criteria: { cost: { thresholdAmount: 100 } } }),
      plan([costed(0, 120)]),
    );
    expect(amount.outcome.messages).toEqual([
      'monthly cost rises by $120.00 (+∞%), over the $100.00 threshold',
    ]);
    const both = one(
      rule({ type: 'cost', criteria: { cost: { thresholdAmount: 10, thresholdPercentage: 10 } } }),
      plan([costed(100, 150)]),
    );
    expect(both.outcome.messages).toEqual([
      'monthly cost rises by $50.00 (+50.00%), over the $10.00 and 10% thresholds',
    ]);
  });
});

describe('policy criteria', () => {
  const finding = (severity: PolicyFinding['severity'], policy = 's3-bucket-encryption'): PolicyFinding => ({
    policy,
    severity,
    address: 'aws_s3_bucket.logs',
  });
  const policy = (severity: string, include: string[] = [], exclude: string[] = []) =>
    rule({ type: 'policy', criteria: { policy: { severity, policies: { include, exclude } } } });

  it.each([
    ['a finding above the threshold counts', policy('medium'), [finding('high')], false],
    ['a finding equal to the threshold counts', policy('medium'), [finding('medium')], false],
    ['a finding one below the threshold does not', policy('medium'), [finding('low')], true],
    ['critical counts at threshold high', policy('high'), [finding('critical')], false],
    ['info does not count at threshold high', policy('high'), [finding('info')], true],
    ['trace counts at threshold trace', policy('trace'), [finding('trace')], false],
    ['high does not count at threshold critical', policy('critical'), [finding('high')], true],
    ['no findings pass', policy('trace'), [], true],
    ['an included policy counts', policy('low', ['s3-*']), [finding('high')], false],
    ['a policy not included does not', policy('low', ['iam-*']), [finding('critical')], true],
    ['an excluded policy does not', policy('low', [], ['s3-bucket-*']), [finding('critical')], true],
    [
      'exclude wins over include',
      policy('low', ['s3-*'], ['s3-bucket-encryption']),
      [finding('critical')],
      true,
    ],
  ])('%s', (_name, r, findings, passed) => {
    expect(one(r, plan([], findings)).outcome.passed).toBe(passed);
  });

  it('reports each counting finding', () => {
    const { evaluation, outcome } = one(
      policy('medium'),
      plan([], [finding('high'), finding('low', 'other'), { policy: 'no-public-ip', severity: 'critical' }]),
    );
    expect(outcome.messages).toEqual([
      'policy "s3-bucket-encryption" found a high finding (threshold: medium) on aws_s3_bucket.logs',
      'policy "no-public-ip" found a critical finding (threshold: medium)',
    ]);
    expect(evaluation.violations[0]?.message).toBe(outcome.messages.join('; '));
  });
});

describe('resource criteria', () => {
  const resource = (criteria: Record<string, unknown>) =>
    rule({
      type: 'resource',
      criteria: { resource: { regions: ALL, assetTypes: ALL, ...criteria } as never },
    });
  const db = (overrides: Partial<PlanChange> = {}) =>
    change({
      address: 'aws_db_instance.main',
      assetType: 'aws_db_instance',
      actions: ['delete'],
      ...overrides,
    });
  const noDbDeletes = resource({
    actions: ['delete'],
    assetTypes: { include: ['aws_db_instance'], exclude: [] },
  });

  it.each([
    ['a matching delete fails', noDbDeletes, [db()], false],
    ['an update passes', noDbDeletes, [db({ actions: ['update'] })], true],
    ['a replacement holds a delete and fails', noDbDeletes, [db({ actions: ['delete', 'create'] })], false],
    ['another asset type passes', noDbDeletes, [db({ assetType: 'aws_rds_cluster' })], true],
    ['no actions listed: any action counts, no-op too', resource({}), [db({ actions: ['no-op'] })], false],
    ['empty actions: any action counts', resource({ actions: [] }), [db({ actions: ['read'] })], false],
    ['no changes pass', resource({}), [], true],
    [
      'region included',
      resource({ regions: { include: ['us-*'], exclude: [] } }),
      [db({ region: 'us-east-1' })],
      false,
    ],
    [
      'region not included',
      resource({ regions: { include: ['us-*'], exclude: [] } }),
      [db({ region: 'eu-west-1' })],
      true,
    ],
    [
      'region excluded wins',
      resource({ regions: { include: ['us-*'], exclude: ['us-west-*'] } }),
      [db({ region: 'us-west-2' })],
      true,
    ],
    [
      'a change without region is "global": not matched by us-*',
      resource({ regions: { include: ['us-*'], exclude: [] } }),
      [db({ region: undefined })],
      true,
    ],
    [
      'a change without region is "global": matched by global',
      resource({ regions: { include: ['global'], exclude: [] } }),
      [db({ region: undefined })],
      false,
    ],
    [
      'a change without region is "global": matched by an empty include',
      resource({}),
      [db({ region: undefined })],
      false,
    ],
    [
      'asset type excluded',
      resource({ assetTypes: { include: ['aws_*'], exclude: ['aws_db_*'] } }),
      [db()],
      true,
    ],
    [
      'specific resource matched by glob',
      resource({ specificResources: ['aws_db_instance.main*'] }),
      [db({ address: 'aws_db_instance.main["eu"]' })],
      false,
    ],
    [
      'specific resource not matched',
      resource({ specificResources: ['aws_db_instance.main*'] }),
      [db({ address: 'aws_db_instance.replica' })],
      true,
    ],
    ['empty specificResources: any address', resource({ specificResources: [] }), [db()], false],
  ])('%s', (_name, r, changes, passed) => {
    expect(one(r, plan(changes)).outcome.passed).toBe(passed);
  });

  it('names address, asset type, region and actions', () => {
    const { outcome } = one(
      noDbDeletes,
      plan([db({ actions: ['delete', 'create'] }), db({ address: 'x.y', region: undefined })]),
    );
    expect(outcome.messages).toEqual([
      'resource aws_db_instance.main (aws_db_instance in us-east-1) is planned to delete, create',
      'resource x.y (aws_db_instance in global) is planned to delete',
    ]);
  });
});

describe('tag criteria', () => {
  const required = rule({
    type: 'tag',
    criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['owner', 'env'] } },
  });
  const any = rule({
    type: 'tag',
    criteria: { tag: { tagEnforcementMode: 'anyTags', requiredTags: ['owner', 'team'] } },
  });
  const values = rule({
    type: 'tag',
    criteria: { tag: { tagEnforcementMode: 'requiredValues', requiredValues: { env: ['prod', 'staging'] } } },
  });
  const tagged = (actions: PlanChange['actions'], tags?: Record<string, string>) =>
    change({ actions, ...(tags ? { tags } : {}) });

  it.each([
    ['requiredTags: all present', required, [tagged(['create'], { owner: 'a', env: 'prod' })], true],
    ['requiredTags: an empty value is present', required, [tagged(['create'], { owner: '', env: '' })], true],
    ['requiredTags: one missing on create', required, [tagged(['create'], { owner: 'a' })], false],
    ['requiredTags: one missing on update', required, [tagged(['update'], { owner: 'a' })], false],
    ['requiredTags: no tags at all', required, [tagged(['create'])], false],
    [
      'requiredTags: keys are case-sensitive',
      required,
      [tagged(['create'], { Owner: 'a', env: 'p' })],
      false,
    ],
    ['requiredTags: delete is not checked', required, [tagged(['delete'])], true],
    ['requiredTags: no-op is not checked', required, [tagged(['no-op'])], true],
    ['requiredTags: read is not checked', required, [tagged(['read'])], true],
    ['requiredTags: a replacement is checked', required, [tagged(['delete', 'create'])], false],
    ['anyTags: one present', any, [tagged(['create'], { team: 'payments' })], true],
    ['anyTags: none present', any, [tagged(['create'], { env: 'prod' })], false],
    ['requiredValues: an allowed value', values, [tagged(['create'], { env: 'staging' })], true],
    ['requiredValues: another value', values, [tagged(['update'], { env: 'dev' })], false],
    ['requiredValues: values are case-sensitive', values, [tagged(['create'], { env: 'Prod' })], false],
    ['requiredValues: tag missing', values, [tagged(['create'], { owner: 'a' })], false],
    ['requiredValues: delete is not checked', values, [tagged(['delete'], { env: 'dev' })], true],
  ])('%s', (_name, r, changes, passed) => {
    expect(one(r, plan(changes)).outcome.passed).toBe(passed);
  });

  it('names the address and the missing or wrong tags', () => {
    const c = (address: string, tags: Record<string, string>) => change({ address, tags });
    expect(one(required, plan([c('a.one', { owner: 'x' }), c('a.two', {})])).outcome.messages).toEqual([
      'a.one is missing tags env',
      'a.two is missing tags owner, env',
    ]);
    expect(one(any, plan([c('a.one', {})])).outcome.messages).toEqual([
      'a.one carries none of the tags owner, team',
    ]);
    const two = rule({
      type: 'tag',
      criteria: {
        tag: {
          tagEnforcementMode: 'requiredValues',
          requiredValues: { env: ['prod'], tier: ['gold', 'silver'] },
        },
      },
    });
    expect(one(two, plan([c('a.one', { env: 'dev' })])).outcome.messages).toEqual([
      'a.one: tag env is "dev" (expected one of prod), tag tier is missing (expected one of gold, silver)',
    ]);
  });
});

describe('malformed rules fail safe', () => {
  it.each([
    ['cost rule without criteria.cost', rule({ type: 'cost', criteria: {} }), 'criteria.cost is missing'],
    [
      'policy rule with only cost criteria',
      rule({ type: 'policy', criteria: { cost: { thresholdAmount: 1 } } }),
      'criteria.policy is missing',
    ],
    [
      'resource rule without criteria.resource',
      rule({ type: 'resource', criteria: {} }),
      'criteria.resource is missing',
    ],
    ['tag rule without criteria.tag', rule({ type: 'tag', criteria: {} }), 'criteria.tag is missing'],
    ['criteria not an object', rule({ type: 'cost', criteria: null as never }), 'criteria.cost is missing'],
    [
      'cost criteria without a threshold',
      rule({ type: 'cost', criteria: { cost: {} } }),
      'names no threshold',
    ],
    [
      'unknown policy severity',
      rule({ type: 'policy', criteria: { policy: { severity: 'urgent', policies: ALL } } }),
      'is not one of trace',
    ],
    [
      'unknown tag mode',
      rule({ type: 'tag', criteria: { tag: { tagEnforcementMode: 'someTags', requiredTags: ['a'] } } }),
      'is not one of requiredTags',
    ],
    [
      'requiredTags mode without tags',
      rule({ type: 'tag', criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: [] } } }),
      'requiredTags is empty',
    ],
    [
      'requiredValues mode without values',
      rule({ type: 'tag', criteria: { tag: { tagEnforcementMode: 'requiredValues' } } }),
      'requiredValues is empty',
    ],
    ['unknown type', rule({ type: 'drift', criteria: {} }), 'unknown guardrail type "drift"'],
  ])('%s', (_name, r, message) => {
    const strict: GuardrailRule = { ...r, severity: 2 };
    let result: ReturnType<typeof evaluateGuardrails> | undefined;
    expect(() => {
      result = evaluateGuardrails([strict], RUN, plan());
    }).not.toThrow();
    expect(result?.failed).toBe(1);
    expect(result?.blocked).toBe(true);
    expect(result?.outcomes[0]?.messages).toHaveLength(1);
    expect(result?.outcomes[0]?.messages[0]).toContain(message);
  });
});

// ---------------------------------------------------------------------------------------------------
// Severities, skipping, order, summary
// ---------------------------------------------------------------------------------------------------

describe('severities', () => {
  const failing = (severity: number) =>
    rule({ type: 'cost', criteria: { cost: { thresholdAmount: 0 } }, severity });
  const passing = (severity: number) =>
    rule({ type: 'cost', criteria: { cost: { thresholdAmount: 1000 } }, severity });
  const p = plan([costed(0, 10)]);

  it.each([
    [1, 'flexible', false],
    [2, 'strict', true],
    [3, 'warning', false],
    [7, '7', false],
  ])('a failed rule of severity %i (%s) blocks: %s', (severity, name, blocked) => {
    const r = failing(severity);
    const evaluation = evaluateGuardrails([r], RUN, p);
    expect(evaluation.blocked).toBe(blocked);
    expect(evaluation.outcomes[0]?.severityName).toBe(name);
    expect(evaluation.violations).toEqual([{ id: r.id, severity: name, message: expect.any(String) }]);
  });

  it('a passing strict rule does not block, whatever else fails', () => {
    const evaluation = evaluateGuardrails([passing(2), failing(1), failing(3)], RUN, p);
    expect(evaluation).toMatchObject({ total: 3, passed: 1, failed: 2, blocked: false });
    expect(evaluation.violations.map((v) => v.severity)).toEqual(['flexible', 'warning']);
  });

  it('one failing strict rule among others blocks', () => {
    const evaluation = evaluateGuardrails([failing(3), passing(1), failing(2)], RUN, p);
    expect(evaluation).toMatchObject({ total: 3, passed: 1, failed: 2, blocked: true });
  });
});

describe('evaluateGuardrails', () => {
  const cost = (amount: number, extra: Partial<GuardrailRule> = {}) =>
    rule({ type: 'cost', criteria: { cost: { thresholdAmount: amount } }, ...extra });
  const p = plan([costed(0, 10)]);

  it('skips disabled rules, before looking at their scope', () => {
    const disabled = cost(0, { isEnabled: false, severity: 2 });
    const disabledOut = cost(0, {
      isEnabled: false,
      scope: { ...OPEN_SCOPE, branches: { include: ['x'], exclude: [] } },
    });
    const enabled = cost(100);
    const evaluation = evaluateGuardrails([disabled, enabled, disabledOut], RUN, p);
    expect(evaluation.outcomes.map((o) => o.ruleId)).toEqual([enabled.id]);
    expect(evaluation.skipped).toEqual([
      { ruleId: disabled.id, reason: 'disabled' },
      { ruleId: disabledOut.id, reason: 'disabled' },
    ]);
    expect(evaluation.blocked).toBe(false);
  });

  it('keeps input order and accepts any iterable', () => {
    const rules = [cost(0), cost(100), cost(5), cost(9.99)];
    const evaluation = evaluateGuardrails(new Map(rules.map((r) => [r.id, r])).values(), RUN, p);
    expect(evaluation.outcomes.map((o) => [o.ruleId, o.passed])).toEqual([
      [rules[0]?.id, false],
      [rules[1]?.id, true],
      [rules[2]?.id, false],
      [rules[3]?.id, false],
    ]);
    expect(evaluation.violations.map((v) => v.id)).toEqual([rules[0]?.id, rules[2]?.id, rules[3]?.id]);
    expect(evaluation).toMatchObject({ total: 4, passed: 1, failed: 3 });
  });

  it('fills an outcome from the rule', () => {
    const r = cost(0, { name: 'No cost increase', severity: 3 });
    expect(one(r, p).outcome).toEqual({
      ruleId: r.id,
      ruleName: 'No cost increase',
      type: 'cost',
      severity: 3,
      severityName: 'warning',
      passed: false,
      messages: ['monthly cost rises by $10.00 (+∞%), over the $0.00 threshold'],
    });
  });

  it('answers an empty evaluation when no rule applies', () => {
    expect(evaluateGuardrails([], RUN, p)).toEqual({
      outcomes: [],
      total: 0,
      passed: 0,
      failed: 0,
      violations: [],
      blocked: false,
      skipped: [],
    });
  });

  it('is deterministic and does not modify its inputs', () => {
    const rules = [
      cost(0),
      rule({
        type: 'tag',
        criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['owner'] } },
      }),
    ];
    const content = plan([costed(0, 10), change()], [{ policy: 'p', severity: 'high' }]);
    const copies = structuredClone({ rules, run: RUN, content });
    const first = evaluateGuardrails(rules, RUN, content);
    const second = evaluateGuardrails(rules, RUN, content);
    expect(second).toEqual(first);
    expect({ rules, run: RUN, content }).toEqual(copies);
  });
});

describe('summarise', () => {
  const cost = (amount: number, severity = 1) =>
    rule({ type: 'cost', criteria: { cost: { thresholdAmount: amount } }, severity });
  const p = plan([costed(0, 10)]);

  it('counts and describes', () => {
    const rules = [cost(0), cost(100), cost(50)];
    const evaluation = evaluateGuardrails(rules, RUN, p);
    const summary = summarise(evaluation);
    expect(summary).toEqual({
      total: 3,
      passed: 2,
      failed: 1,
      violations: [
        {
          id: rules[0]?.id,
          severity: 'flexible',
          message: 'monthly cost rises by $10.00 (+∞%), over the $0.00 threshold',
        },
      ],
      description: '2 of 3 guardrails passed',
    });
    expect(summary.violations).not.toBe(evaluation.violations);
  });

  it.each([
    [[], 'no guardrail applies'],
    [[100], '1 of 1 guardrail passed'],
    [[0], '0 of 1 guardrail passed'],
    [[0, 0], '0 of 2 guardrails passed'],
    [[100, 100], '2 of 2 guardrails passed'],
  ])('thresholds %j: %s', (amounts, description) => {
    const summary = summarise(
      evaluateGuardrails(
        amounts.map((a) => cost(a)),
        RUN,
        p,
      ),
    );
    expect(summary.description).toBe(description);
    expect(summary.total).toBe(amounts.length);
    expect(summary.passed + summary.failed).toBe(summary.total);
    expect(summary.violations).toHaveLength(summary.failed);
  });

  it('ignores skipped rules', () => {
    const summary = summarise(evaluateGuardrails([{ ...cost(0), isEnabled: false }], RUN, p));
    expect(summary).toMatchObject({ total: 0, passed: 0, failed: 0, description: 'no guardrail applies' });
  });
});
