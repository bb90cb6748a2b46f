/**
 * What the API adds to the records is charged to the mock's memory budget (`data`) when it is stored
 * and given back when it goes: guardrail rules (create, update, delete) and workspace labels. Past
 * the budget the write is a 409 `budget_exceeded` and nothing is stored. The start data is outside
 * the budget; data loaded over the control plane beyond it is charged, and a reset puts it back.
 */
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/domain/scenario.js';
import { expectError, rejection, setup, tagRuleBody } from '../helpers.js';

const MiB = 1024 * 1024;
const small = { sizes: { workspaces: 120, rules: 1, events: 10 }, budget: { bytes: MiB } };

/** A rule body of about `kib` KiB by the heap's measure (required tags of 250 characters: 540 bytes each). */
function bigRule(name: string, kib: number) {
  const body = tagRuleBody(name);
  const tags = Array.from({ length: Math.ceil((kib * 1024) / 540) }, (_, i) => `tag-${i}`.padEnd(250, 'x'));
  return { ...body, criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: tags } } };
}

describe('records the API adds, within the memory budget', () => {
  it('charges a created rule, gives it back on delete, and refuses the rule past the budget (nothing stored)', async () => {
    const { core, call } = await setup(small);
    const data = () => core.control.budget().stores.data;
    expect(data()).toBe(0); // the start data is outside the budget
    const created = await call('POST', '/v2/guardrails', { body: bigRule('big-1', 300) });
    expect(created.status).toBe(200);
    const one = data();
    expect(one).toBeGreaterThan(300 * 1024);
    const ruleId = (created.body as { ruleId: string }).ruleId;
    expect((await call('POST', '/v2/guardrails', { body: bigRule('big-2', 300) })).status).toBe(200);
    const rulesBefore = core.store.toState().accounts[0]?.rules.length;
    const refused = await call('POST', '/v2/guardrails', { body: bigRule('big-3', 500) });
    const body = expectError(refused, 409, 'budget_exceeded');
    expect(body.message).toMatch(
      /^data \(.*\) would take [\d.]+ KiB more, past the mock's memory budget of 1\.0 MiB \(budget\.bytes\)/,
    );
    expect(core.store.toState().accounts[0]?.rules.length).toBe(rulesBefore);
    // A delete gives its bytes back: the same rule fits again.
    expect((await call('DELETE', `/v2/guardrails/${ruleId}`)).status).toBe(200);
    expect(data()).toBeLessThan(2 * one);
    expect((await call('POST', '/v2/guardrails', { body: bigRule('big-3', 300) })).status).toBe(200);
    // A reset returns to the start data: nothing charged.
    await core.control.reset();
    expect(data()).toBe(0);
  });

  it('charges labels that take more bytes than before, and refuses past the budget (labels unchanged)', async () => {
    const { core, call } = await setup(small);
    const labels = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(128, 'l'));
    const ids = core.store
      .toState()
      .accounts[0]?.workspaces.map((w) => w.id)
      .slice(0, 120) as string[];
    let refusedAt = -1;
    for (const [index, id] of ids.entries()) {
      const res = await call('PUT', `/v2/workspaces/${id}/labels`, { body: { labels } });
      if (res.status === 409) {
        expectError(res, 409, 'budget_exceeded');
        refusedAt = index;
        break;
      }
      expect(res.status).toBe(200);
    }
    // 50 labels of 128 characters are about 16 KiB: the 1 MiB budget holds some 60 workspaces' worth.
    expect(refusedAt).toBeGreaterThan(30);
    expect(refusedAt).toBeLessThan(80);
    const refusedId = ids[refusedAt] as string;
    const workspace = core.store.toState().accounts[0]?.workspaces.find((w) => w.id === refusedId);
    expect(workspace?.labels).not.toEqual(labels);
    expect(core.control.budget().used).toBeLessThanOrEqual(MiB);
    // Fewer labels give bytes back: the refused workspace can be labelled after another is cleared.
    expect((await call('PUT', `/v2/workspaces/${ids[0]}/labels`, { body: { labels: [] } })).status).toBe(200);
    expect((await call('PUT', `/v2/workspaces/${refusedId}/labels`, { body: { labels } })).status).toBe(200);
  });

  it('charges data loaded over the control plane beyond the start data, and a reset puts the start back', async () => {
    const { core, call } = await setup({ sizes: { workspaces: 10 }, budget: { bytes: 64 * MiB } });
    expect(
      (await call('POST', '/__mock/seed', { body: { seed: 2, sizes: { workspaces: 2_000 } } })).status,
    ).toBe(200);
    expect(core.control.budget().stores.data).toBeGreaterThan(MiB);
    const refused = await call('POST', '/__mock/seed', { body: { seed: 3, sizes: { workspaces: 100_000 } } });
    expectError(refused, 409, 'budget_exceeded');
    await core.control.reset();
    expect(core.control.budget().stores.data).toBe(0);
  });

  it("charges a scene's own heap, not only its record counts (finding 8)", async () => {
    const { core } = await setup({
      sizes: { workspaces: 4, rules: 1, events: 10 },
      budget: { bytes: 16 * MiB, sessionBytes: 4 * MiB },
    });
    // 300 workspaces of 50 labels of 128 characters: about 4.4 MB by the heap's measure; 300 workspace
    // records by their count alone are far under the session's 4 MiB.
    const labelled = (n: number) => ({
      accounts: [
        {
          name: 'labelled',
          workspaces: Array.from({ length: n }, (_, i) => ({
            name: `ws-${i}`,
            runs: [],
            labels: Array.from({ length: 50 }, (_, k) => `${i}-${k}-`.padEnd(128, 'l')),
          })),
        },
      ],
    });
    const refused = await rejection(core.control.createSession({ scene: labelled(300) }));
    expect(refused.code).toBe('budget_exceeded');
    expect(refused.message).toMatch(/past this session's memory budget of 4\.0 MiB \(budget\.sessionBytes\)/);
    // A tenth of it fits, charged at least its labels' characters.
    await core.control.createSession({ scene: labelled(30) });
    expect(core.control.budget().sessions).toBeGreaterThan(30 * 50 * 128 * 2);
  });

  it("charges a session's rules to its share, so that one session cannot take what the others need (finding 10)", async () => {
    const { core, call } = await setup({
      sizes: { workspaces: 4, rules: 1, events: 10 },
      budget: { bytes: 8 * MiB, sessionBytes: 2 * MiB },
    });
    const { id, accounts } = await core.control.createSession();
    const inSession = { 'x-iacm-mock-session': id };
    const login = await call('POST', '/v2/login', {
      headers: inSession,
      token: null,
      body: { accessKey: accounts[0]?.accessKey, secretKey: accounts[0]?.secretKey },
    });
    const token = (login.body as { accessToken: string }).accessToken;
    let refused: string | undefined;
    for (let i = 0; i < 20 && refused === undefined; i++) {
      const res = await call('POST', '/v2/guardrails', {
        headers: inSession,
        token,
        body: bigRule(`s-${i}`, 300),
      });
      if (res.status === 409) refused = expectError(res, 409, 'budget_exceeded').message;
      else expect(res.status).toBe(200);
    }
    expect(refused).toMatch(/past this session's memory budget of 2\.0 MiB \(budget\.sessionBytes\)/);
    const whole = core.control.budget();
    expect(whole.sessions).toBeLessThanOrEqual(2 * MiB);
    // The mock itself still has room.
    expect((await call('POST', '/v2/guardrails', { body: bigRule('root', 300) })).status).toBe(200);
  });

  it("bounds every session's stores together by the mock's budget (finding 9)", async () => {
    const { core, call } = await setup({
      sizes: { workspaces: 4, rules: 1, events: 10 },
      budget: { bytes: 4 * MiB, sessionBytes: 2 * MiB },
    });
    const answer = {
      endpoint: 'workspaces.search',
      body: { extra: 'x'.repeat(200_000) },
      validate: false,
    };
    const refusals: string[] = [];
    // Each session fills its 2 MiB share with one-off answers; the third finds the mock's 4 MiB full.
    for (let s = 0; s < 3; s++) {
      const { id } = await core.control.createSession();
      for (let i = 0; i < 20; i++) {
        const res = await call('POST', '/__mock/responses', {
          headers: { 'x-iacm-mock-session': id },
          body: answer,
        });
        if (res.status === 409) {
          refusals.push(expectError(res, 409, 'budget_exceeded').message);
          break;
        }
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
    }
    expect(refusals).toHaveLength(3);
    expect(refusals[0]).toMatch(/past this session's memory budget of 2\.0 MiB \(budget\.sessionBytes\)/);
    expect(refusals[2]).toMatch(/past the mock's memory budget of 4\.0 MiB \(budget\.bytes\)/);
    expect(core.control.budget().used).toBeLessThanOrEqual(4 * MiB);
  });

  it('puts the start data and the start scenario back on reset, whatever the sessions hold', async () => {
    const scenario = {
      scene: { accounts: [{ workspaces: [{ name: 'payments', runs: [] }] }, {}] },
      timeline: Array.from({ length: 200 }, (_, i) => ({
        at: `+${i + 1}m`,
        labels: { workspace: 'payments', labels: [`l${i}`] },
      })) as Scenario['timeline'],
    };
    const { core, call, advance } = await setup({
      scenario,
      budget: { bytes: 2 * MiB, sessionBytes: 2 * MiB },
    });
    expect(core.control.budget().stores.scenario).toBeGreaterThan(0);
    // Its steps apply (and give their bytes back); then a session fills the room they left.
    advance(300 * 60_000);
    expect(core.control.scenarioProgress()).toMatchObject({ status: 'finished' });
    expect(core.control.budget().stores.scenario).toBe(0);
    // A session fills the mock's budget with one-off answers.
    const { id } = await core.control.createSession();
    const answer = { endpoint: 'workspaces.search', body: { extra: 'x'.repeat(5_000) }, validate: false };
    for (let i = 0; i < 1_000; i++) {
      const res = await call('POST', '/__mock/responses', {
        headers: { 'x-iacm-mock-session': id },
        body: answer,
      });
      if (res.status === 409) break;
    }
    // Less room left than the start scenario's steps take.
    expect(2 * MiB - core.control.budget().used).toBeLessThan(20 * 1024);
    // The reset plays the start scenario again: the session's journal makes room for its steps (and,
    // were there none to drop, they would be charged whatever the budget says, as start data is).
    expect((await call('POST', '/__mock/reset')).status).toBe(200);
    expect(core.control.scenarioProgress()).toMatchObject({ status: 'playing', pending: 200 });
  });
});
