/**
 * Every store an API user can grow has a bound (issue 20, finding 3), through the API: a limit one
 * request breaks by itself is a 400 naming the field (labels, scope and criteria values: the
 * contract's `limits.ts`); a limit only the store's state breaks is a 409 `conflict` naming the cap
 * (`domain/caps.ts`: rules, their bytes, notification configurations). Each boundary: the limit
 * passes, one more is refused, and nothing is stored by a refused request. A state loaded with more
 * than a cap is kept whole, and round-trips.
 */
import {
  MAX_LABEL_LENGTH,
  MAX_REQUEST_LIST_VALUES,
  MAX_RESOURCE_ADDRESS_LENGTH,
  MAX_RULE_VALUE_LENGTH,
  MAX_WORKSPACE_LABELS,
} from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { type AccountLimits, RuleLedger, ruleBytes } from '../../src/domain/caps.js';
import { attributeValue, MAX_EVENT_ATTRIBUTE_LENGTH } from '../../src/domain/events.js';
import { expectError, setup } from '../helpers.js';

type Ctx = Awaited<ReturnType<typeof setup>>;

const none = () => ({ include: [] as string[], exclude: [] as string[] });

function ruleBody(
  name: string,
  scope: Partial<
    Record<
      'workspaces' | 'repositories' | 'branches' | 'labels',
      { include: readonly string[]; exclude: readonly string[] }
    >
  > = {},
) {
  return {
    createdBy: 'aaaaaaaaaaaaaaaaaaaaaaaa',
    name,
    type: 'cost',
    scope: { workspaces: none(), repositories: none(), branches: none(), labels: none(), ...scope },
    criteria: { cost: { thresholdAmount: 100 } },
    severity: 2,
  };
}

function primary(ctx: Ctx) {
  const store = ctx.core.store.accounts.get(ctx.primary.id);
  if (!store) throw new Error('no primary account');
  return store;
}

/** What a refused request must leave as it was. */
function counts(ctx: Ctx) {
  const account = primary(ctx);
  return {
    rules: account.rules.size,
    notifications: account.notifications.size,
    events: account.events.size,
  };
}

async function withLimits(
  limits: (loaded: { rules: number; notifications: number; bytes: number }) => Partial<AccountLimits>,
) {
  // The seed as `setup` makes it, to read what the account is loaded with.
  const probe = await setup();
  const account = primary(probe);
  const loaded = {
    rules: account.rules.size,
    notifications: account.notifications.size,
    bytes: new RuleLedger(account.rules).bytes,
  };
  return { ctx: await setup({ limits: limits(loaded) }), loaded };
}

describe('rules per account (limits.rulesPerAccount)', () => {
  it('creates rules up to the cap, and answers the next with a 409 naming it; a delete makes room', async () => {
    const { ctx, loaded } = await withLimits(({ rules }) => ({ rulesPerAccount: rules + 2 }));
    for (const name of ['one', 'two']) {
      expect((await ctx.call('POST', '/v2/guardrails', { body: ruleBody(name) })).status).toBe(200);
    }
    const before = counts(ctx);
    const error = expectError(
      await ctx.call('POST', '/v2/guardrails', { body: ruleBody('three') }),
      409,
      'conflict',
    );
    expect(error.message).toBe(
      `guardrail rules: this account holds ${loaded.rules + 2}, the most it may hold is ${loaded.rules + 2} (limits.rulesPerAccount): delete a rule before creating another`,
    );
    expect(counts(ctx)).toEqual(before);
    const [victim] = primary(ctx).rules.keys();
    expect((await ctx.call('DELETE', `/v2/guardrails/${victim}`)).status).toBe(200);
    expect((await ctx.call('POST', '/v2/guardrails', { body: ruleBody('three') })).status).toBe(200);
  });

  it('counts each account on its own', async () => {
    const { ctx } = await withLimits(({ rules }) => ({ rulesPerAccount: rules }));
    expectError(await ctx.call('POST', '/v2/guardrails', { body: ruleBody('full') }), 409, 'conflict');
    // The second account holds fewer rules than the primary (a tenth of the seed's).
    const other = ctx.core.store.accounts.get(ctx.other.id);
    expect(other && other.rules.size < primary(ctx).rules.size).toBe(true);
    const res = await ctx.call('POST', '/v2/guardrails', { body: ruleBody('room'), token: ctx.otherToken });
    expect(res.status).toBe(200);
  });
});

describe('rule bytes per account (limits.ruleBytesPerAccount)', () => {
  /** The bytes a rule created from `ruleBody(name, scope)` counts for (ids and timestamps have fixed lengths). */
  async function bytesOf(body: ReturnType<typeof ruleBody>) {
    const ctx = await setup();
    const res = await ctx.call('POST', '/v2/guardrails', { body });
    const rule = primary(ctx).rules.get((res.body as { ruleId: string }).ruleId);
    if (!rule) throw new Error('not created');
    return ruleBytes(rule);
  }

  it('creates a rule that takes the rules to the cap exactly, and refuses one more with a 409 naming it', async () => {
    const big = ruleBody('big', {
      workspaces: { include: ['w'.repeat(MAX_RULE_VALUE_LENGTH)], exclude: [] },
    });
    const one = await bytesOf(big);
    const { ctx, loaded } = await withLimits(({ bytes }) => ({ ruleBytesPerAccount: bytes + one }));
    expect((await ctx.call('POST', '/v2/guardrails', { body: big })).status).toBe(200);
    expect(new RuleLedger(primary(ctx).rules).bytes).toBe(loaded.bytes + one);
    const before = counts(ctx);
    const error = expectError(await ctx.call('POST', '/v2/guardrails', { body: big }), 409, 'conflict');
    expect(error.message).toBe(
      `guardrail rule bytes: this account's rules would take ${loaded.bytes + 2 * one} bytes with this rule, more than the ${loaded.bytes + one} they may take (limits.ruleBytesPerAccount): make the rule smaller or delete rules first`,
    );
    expect(counts(ctx)).toEqual(before);
  });

  it('refuses an update that makes a rule larger past the cap, and takes one that does not', async () => {
    const { ctx } = await withLimits(({ bytes }) => ({ ruleBytesPerAccount: bytes + 10_000 }));
    const created = await ctx.call('POST', '/v2/guardrails', { body: ruleBody('small') });
    const id = (created.body as { ruleId: string }).ruleId;
    const grow = {
      scope: {
        ...ruleBody('x').scope,
        branches: { include: ['b'.repeat(MAX_RULE_VALUE_LENGTH)], exclude: [] },
      },
    };
    expect((await ctx.call('PATCH', `/v2/guardrails/${id}`, { body: grow })).status).toBe(200);
    const stored = primary(ctx).rules.get(id);
    const huge = {
      scope: {
        ...grow.scope,
        labels: {
          include: Array.from({ length: 40 }, (_, i) => `${i}`.padEnd(MAX_RULE_VALUE_LENGTH, 'l')),
          exclude: [],
        },
      },
    };
    const error = expectError(
      await ctx.call('PATCH', `/v2/guardrails/${id}`, { body: huge }),
      409,
      'conflict',
    );
    expect(error.message).toMatch(
      /^guardrail rule bytes: this account's rules would take \d+ bytes with this change, more than the \d+ they may take \(limits\.ruleBytesPerAccount\)/,
    );
    expect(primary(ctx).rules.get(id)).toBe(stored);
    expect((await ctx.call('PATCH', `/v2/guardrails/${id}`, { body: { isEnabled: false } })).status).toBe(
      200,
    );
    expect(
      (await ctx.call('PATCH', `/v2/guardrails/${id}`, { body: { scope: ruleBody('x').scope } })).status,
    ).toBe(200);
  });
});

describe('notification configurations per account (limits.notificationsPerAccount)', () => {
  it('makes configurations up to the cap; past it a create without notificationId is a 409 naming it', async () => {
    const { ctx, loaded } = await withLimits(({ notifications }) => ({
      notificationsPerAccount: notifications + 1,
    }));
    const first = await ctx.call('POST', '/v2/guardrails', { body: ruleBody('one') });
    expect(first.status).toBe(200);
    const before = counts(ctx);
    const error = expectError(
      await ctx.call('POST', '/v2/guardrails', { body: ruleBody('two') }),
      409,
      'conflict',
    );
    expect(error.message).toBe(
      `notification configurations: this account holds ${loaded.notifications + 1}, the most it may hold is ${loaded.notifications + 1} (limits.notificationsPerAccount): give notificationId to reuse one no rule holds, or delete rules first`,
    );
    expect(counts(ctx)).toEqual(before);
  });

  it('lets a create reuse a configuration no rule holds when the cap is reached', async () => {
    const ctx = await setup();
    // A snapshot may hold a configuration no rule holds (the API never leaves one: a rule takes only
    // a free one, and deleting a rule deletes the one it holds).
    const state = await ctx.core.control.getState();
    const account = state.accounts[0];
    if (!account) throw new Error('no account');
    const free = 'f'.repeat(24);
    account.notifications.push({
      id: free,
      ruleId: 'e'.repeat(24),
      integrationIds: [],
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const full = await setup({ state, limits: { notificationsPerAccount: account.notifications.length } });
    expectError(await full.call('POST', '/v2/guardrails', { body: ruleBody('new one') }), 409, 'conflict');
    const reused = await full.call('POST', '/v2/guardrails', {
      body: { ...ruleBody('reuse'), notificationId: free },
    });
    expect(reused.status).toBe(200);
    expect(reused.body).toEqual({ ruleId: expect.any(String), notificationId: free });
    expect(primary(full).notifications.size).toBe(account.notifications.length);
  });
});

describe('a state loaded with more than the caps', () => {
  it('is kept whole and round-trips; only what would add more is refused', async () => {
    const ctx = await setup({
      limits: { rulesPerAccount: 1, ruleBytesPerAccount: 0, notificationsPerAccount: 0 },
    });
    const account = primary(ctx);
    const rules = account.rules.size;
    expect(rules).toBeGreaterThan(1);
    const snapshot = (await ctx.call('GET', '/__mock/state', { token: null })).body;
    expect((await ctx.call('PUT', '/__mock/state', { token: null, body: snapshot })).status).toBe(200);
    expect(primary(ctx).rules.size).toBe(rules);
    expect(
      async () => new MockCore({ state: await ctx.core.control.getState(), limits: { rulesPerAccount: 0 } }),
    ).not.toThrow();
    expectError(await ctx.call('POST', '/v2/guardrails', { body: ruleBody('more') }), 409, 'conflict');
    const [id] = primary(ctx).rules.keys();
    expect((await ctx.call('PATCH', `/v2/guardrails/${id}`, { body: { isEnabled: false } })).status).toBe(
      200,
    );
    expect((await ctx.call('DELETE', `/v2/guardrails/${id}`)).status).toBe(200);
  });

  it('refuses caps outside their ranges when the mock is made, naming the cap', () => {
    expect(() => new MockCore({ limits: { rulesPerAccount: -1 } })).toThrow(
      'MockOptions limits.rulesPerAccount: expected an integer from 0 to 1000000, received -1',
    );
  });
});

describe('labels: the contract’s limits, 400 naming the field', () => {
  async function workspace(ctx: Ctx) {
    const res = await ctx.call('POST', '/v2/workspaces/search', { body: {} });
    return (res.body as Array<{ id: string }>)[0]?.id as string;
  }

  it(`takes ${MAX_WORKSPACE_LABELS} labels of ${MAX_LABEL_LENGTH} characters, and refuses one label or one character more`, async () => {
    const ctx = await setup();
    const id = await workspace(ctx);
    const labels = Array.from({ length: MAX_WORKSPACE_LABELS }, (_, i) =>
      `${i}-`.padEnd(MAX_LABEL_LENGTH, 'x'),
    );
    expect((await ctx.call('PUT', `/v2/workspaces/${id}/labels`, { body: { labels } })).status).toBe(200);
    const more = expectError(
      await ctx.call('PUT', `/v2/workspaces/${id}/labels`, { body: { labels: [...labels, 'one-more'] } }),
      400,
      'validation_failed',
    );
    expect(more.issues?.map((i) => [i.path, i.expected])).toEqual([['labels', 'at most 50 items']]);
    const longer = expectError(
      await ctx.call('PUT', `/v2/workspaces/${id}/labels`, {
        body: { labels: ['y'.repeat(MAX_LABEL_LENGTH + 1)] },
      }),
      400,
      'validation_failed',
    );
    expect(longer.issues?.map((i) => [i.path, i.expected])).toEqual([
      ['labels[0]', 'at most 128 characters'],
    ]);
  });

  it('records the labels update as an event whose long values are cut at 1,024 characters', async () => {
    const ctx = await setup();
    const id = await workspace(ctx);
    const labels = Array.from({ length: MAX_WORKSPACE_LABELS }, (_, i) =>
      `${i}-`.padEnd(MAX_LABEL_LENGTH, 'z'),
    );
    expect((await ctx.call('PUT', `/v2/workspaces/${id}/labels`, { body: { labels } })).status).toBe(200);
    const events = await ctx.call('POST', '/v2/event-center', { body: { size: 1 } });
    const [event] = (
      events.body as { events: Array<{ event: { attributes: Array<{ key: string; value: string }> } }> }
    ).events;
    const to = event?.event.attributes.find((a) => a.key === 'to')?.value ?? '';
    expect(to.length).toBe(MAX_EVENT_ATTRIBUTE_LENGTH);
    expect(to).toBe(`${labels.join(',').slice(0, MAX_EVENT_ATTRIBUTE_LENGTH - 1)}…`);
  });
});

describe('attributeValue: what an event keeps of a value', () => {
  it('keeps a value of up to 1,024 characters as it is, and cuts a longer one to 1,024 ending with …', () => {
    expect(MAX_EVENT_ATTRIBUTE_LENGTH).toBe(1024);
    expect(attributeValue(12)).toBe('12');
    expect(attributeValue(false)).toBe('false');
    const at = 'a'.repeat(1024);
    expect(attributeValue(at)).toBe(at);
    expect(attributeValue(`${at}b`)).toBe(`${'a'.repeat(1023)}…`);
    expect(attributeValue('c'.repeat(100_000))).toBe(`${'c'.repeat(1023)}…`);
  });

  it('never cuts between the two halves of a surrogate pair', () => {
    const text = `${'a'.repeat(1022)}😀${'b'.repeat(10)}`;
    expect(attributeValue(text)).toBe(`${'a'.repeat(1022)}…`);
    const after = `${'a'.repeat(1021)}😀${'b'.repeat(10)}`;
    expect(attributeValue(after)).toBe(`${'a'.repeat(1021)}😀…`);
  });
});

describe('guardrail scope and criteria: the contract’s limits, 400 naming the field', () => {
  const tagRule = (requiredValues: Record<string, string[]>) => ({
    ...ruleBody('tags'),
    type: 'tag',
    criteria: { tag: { tagEnforcementMode: 'requiredValues', requiredValues } },
  });
  const resourceRule = (specificResources: string[]) => ({
    ...ruleBody('resources'),
    type: 'resource',
    criteria: { resource: { regions: none(), assetTypes: none(), specificResources } },
  });

  it(`takes scope values of ${MAX_RULE_VALUE_LENGTH} characters and ${MAX_REQUEST_LIST_VALUES} values a list, and refuses one more`, async () => {
    const ctx = await setup();
    const value = 'v'.repeat(MAX_RULE_VALUE_LENGTH);
    const full = Array.from({ length: MAX_REQUEST_LIST_VALUES }, (_, i) => `${i}`);
    for (const scope of [
      { workspaces: { include: [value], exclude: [value] } },
      { labels: { include: full, exclude: [] } },
    ]) {
      expect((await ctx.call('POST', '/v2/guardrails', { body: ruleBody('ok', scope) })).status).toBe(200);
    }
    const before = counts(ctx);
    for (const [scope, path, expected] of [
      [
        { branches: { include: ['x', `${value}v`], exclude: [] } },
        'scope.branches.include[1]',
        'at most 256 characters',
      ],
      [
        { repositories: { include: [], exclude: [`${value}v`] } },
        'scope.repositories.exclude[0]',
        'at most 256 characters',
      ],
      [{ labels: { include: [...full, 'x'], exclude: [] } }, 'scope.labels.include', 'at most 1000 items'],
    ] as const) {
      const error = expectError(
        await ctx.call('POST', '/v2/guardrails', { body: ruleBody('no', scope) }),
        400,
        'validation_failed',
      );
      expect(error.issues?.map((i) => [i.path, i.expected])).toEqual([[path, expected]]);
    }
    expect(counts(ctx)).toEqual(before);
  });

  it('bounds the criteria too: specific resources, tag names, tag values and the number of tags', async () => {
    const ctx = await setup();
    const at = (n: number, c = 'r') => c.repeat(n);
    const tags = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, ['v']]));
    for (const body of [
      resourceRule([at(MAX_RESOURCE_ADDRESS_LENGTH)]),
      tagRule({ [at(MAX_RULE_VALUE_LENGTH, 't')]: [at(MAX_RULE_VALUE_LENGTH, 'v')] }),
      tagRule(tags(MAX_REQUEST_LIST_VALUES)),
    ]) {
      expect((await ctx.call('POST', '/v2/guardrails', { body })).status).toBe(200);
    }
    for (const [body, path, message] of [
      [
        resourceRule([at(MAX_RESOURCE_ADDRESS_LENGTH + 1)]),
        'criteria.resource.specificResources[0]',
        /<=2048 characters/,
      ],
      [
        tagRule({ team: [at(MAX_RULE_VALUE_LENGTH + 1, 'v')] }),
        'criteria.tag.requiredValues.team[0]',
        /<=256 characters/,
      ],
      [
        tagRule({ [at(MAX_RULE_VALUE_LENGTH + 1, 't')]: ['v'] }),
        'criteria.tag.requiredValues',
        /expected tag names of at most 256 characters \(one has 257\)/,
      ],
      [
        tagRule(tags(MAX_REQUEST_LIST_VALUES + 1)),
        'criteria.tag.requiredValues',
        /expected at most 1000 tags \(1001 were given\)/,
      ],
    ] as const) {
      const error = expectError(await ctx.call('POST', '/v2/guardrails', { body }), 400, 'validation_failed');
      expect(error.issues?.map((i) => i.path)).toEqual([path]);
      expect(error.message).toMatch(message);
    }
  });

  it('answers a very long tag name briefly, without echoing it', async () => {
    const ctx = await setup();
    const res = await ctx.call('POST', '/v2/guardrails', { body: tagRule({ ['t'.repeat(500_000)]: ['v'] }) });
    expectError(res, 400, 'validation_failed');
    expect(JSON.stringify(res.body).length).toBeLessThan(2_000);
  });
});
