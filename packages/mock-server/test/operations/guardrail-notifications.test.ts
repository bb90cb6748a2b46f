/**
 * A notification configuration belongs to exactly one guardrail rule (spec §4.2, §6.1: deleting a
 * rule deletes its notification), so no two rules may share one: a create or an update naming a
 * configuration another rule holds is a 409 naming `notificationId`.
 */
import { describe, expect, it } from 'vitest';
import { generateState } from '../../src/store/seed.js';
import { expectError, setup } from '../helpers.js';

const rule = (name: string, extra: Record<string, unknown> = {}) => ({
  createdBy: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  name,
  type: 'cost',
  scope: {
    workspaces: { include: ['*'], exclude: [] },
    repositories: { include: [], exclude: [] },
    branches: { include: [], exclude: [] },
    labels: { include: [], exclude: [] },
  },
  criteria: { cost: { thresholdAmount: 100 } },
  severity: 2,
  ...extra,
});

type Ctx = Awaited<ReturnType<typeof setup>>;

async function create(ctx: Ctx, name: string, extra: Record<string, unknown> = {}) {
  const res = await ctx.call('POST', '/v2/guardrails', { body: rule(name, extra) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { ruleId: string; notificationId: string };
}

function primary(ctx: Ctx) {
  const store = ctx.core.store.accounts.get(ctx.primary.id);
  if (!store) throw new Error('no primary account');
  return store;
}

describe('a notification configuration belongs to exactly one rule', () => {
  it('refuses to create a rule with the configuration of another rule: 409 naming notificationId', async () => {
    const ctx = await setup();
    const first = await create(ctx, 'First');
    const rulesBefore = primary(ctx).rules.size;
    const res = await ctx.call('POST', '/v2/guardrails', {
      body: rule('Second', { notificationId: first.notificationId.toUpperCase() }),
    });
    const error = expectError(res, 409, 'conflict');
    expect(error.message).toMatch(/^body\.notificationId: .*belongs to rule/);
    expect(error.message).toContain(first.ruleId);
    expect(error.issues?.map((i) => i.path)).toEqual(['notificationId']);
    // Nothing changed: no rule was added, and the configuration still belongs to the first rule.
    expect(primary(ctx).rules.size).toBe(rulesBefore);
    expect(primary(ctx).notifications.get(first.notificationId)?.ruleId).toBe(first.ruleId);

    // Deleting the first rule deletes its configuration: nothing else lost it.
    expect((await ctx.call('DELETE', `/v2/guardrails/${first.ruleId}`)).status).toBe(200);
    expect(primary(ctx).notifications.has(first.notificationId)).toBe(false);
  });

  it('refuses to update a rule to the configuration of another rule, and leaves the rule as it was', async () => {
    const ctx = await setup();
    const first = await create(ctx, 'First');
    const second = await create(ctx, 'Second');
    const res = await ctx.call('PATCH', `/v2/guardrails/${second.ruleId}`, {
      body: { notificationId: first.notificationId, name: 'Renamed' },
    });
    expect(expectError(res, 409, 'conflict').message).toMatch(/^body\.notificationId: /);
    const stored = primary(ctx).rules.get(second.ruleId);
    expect(stored).toMatchObject({ name: 'Second', notificationId: second.notificationId });
    expect(primary(ctx).notifications.get(first.notificationId)?.ruleId).toBe(first.ruleId);
  });

  it("accepts a rule's own configuration, and one that no rule holds (which then belongs to it)", async () => {
    const ctx = await setup();
    const first = await create(ctx, 'First');
    const own = await ctx.call('PATCH', `/v2/guardrails/${first.ruleId}`, {
      body: { notificationId: first.notificationId, name: 'First v2' },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);

    // A configuration no rule holds (the API makes none: free the second rule's by hand) may be taken.
    const second = await create(ctx, 'Second');
    const store = primary(ctx);
    const secondRule = store.rules.get(second.ruleId);
    if (!secondRule) throw new Error('no second rule');
    store.rules.set(second.ruleId, { ...secondRule, notificationId: null });
    const moved = await ctx.call('PATCH', `/v2/guardrails/${first.ruleId}`, {
      body: { notificationId: second.notificationId },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(store.rules.get(first.ruleId)?.notificationId).toBe(second.notificationId);
    expect(store.notifications.get(second.notificationId)?.ruleId).toBe(first.ruleId);

    const third = await create(ctx, 'Third', { notificationId: first.notificationId });
    expect(third.notificationId).toBe(first.notificationId);
    expect(store.notifications.get(first.notificationId)?.ruleId).toBe(third.ruleId);
  });

  it('the seed gives every rule a configuration of its own', () => {
    for (const seed of [1, 2, 'shared?']) {
      const state = generateState({ seed, sizes: { workspaces: 30, rules: 200, events: 10 } });
      for (const account of state.accounts) {
        const ids = account.rules.map((r) => r.notificationId);
        expect(new Set(ids).size).toBe(ids.length);
      }
    }
  });
});
