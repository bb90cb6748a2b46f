/**
 * A scenario is checked whole before anything runs: every bad scenario gets one 400 whose message
 * names the path (under `scenario.`), what was expected and what came; the mock keeps its data, its
 * pending steps and its clock. In process (`control.play`), over HTTP (`POST /__mock/scenario`) and as
 * the `scenario` option alike.
 */
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { parseScenarioAt, SCENARIO_LIMITS } from '../../src/domain/scenario.js';
import { rejection } from '../helpers.js';

/** A small valid scene: one account with two workspaces, a stack on the first. */
const SCENE = {
  accounts: [
    {
      name: 'Acme',
      workspaces: [{ name: 'payments-prod' }, { name: 'payments-dev' }],
      stacks: [{ workspace: 'payments-prod' }],
    },
    { name: 'Globex' },
  ],
};
const run = (more: Record<string, unknown> = {}) => ({ workspace: 'payments-prod', ...more });
const withSteps = (...timeline: unknown[]) => ({ scene: SCENE, timeline });

/** Bad scenarios, each with the start of the message it gets (path first). */
const BAD_SCENARIOS: Array<[string, unknown, string]> = [
  ['not an object', 'scenario.json', 'scenario: expected object, received "scenario.json"'],
  ['unknown top member', { scene: SCENE, timeline: [], steps: [] }, 'scenario.steps: unknown member "steps"'],
  ['no timeline', { scene: SCENE }, 'scenario.timeline: expected array'],
  [
    'a bad scene',
    { scene: { accounts: [{ workspaces: [{ name: 'a', runs: [{ status: 'aplied' }] }] }] }, timeline: [] },
    'scenario.scene.accounts[0].workspaces[0].runs[0].status: Invalid option: expected one of',
  ],
  [
    'unknown workspace',
    withSteps({ at: '+5m', simulateRun: run() }, { at: '+6m', simulateRun: run({ workspace: 'x' }) }),
    `scenario.timeline[1].simulateRun.workspace: expected the name of one of the account's workspaces, received "x"`,
  ],
  [
    'a workspace of another account',
    withSteps({ at: '+5m', simulateRun: run({ account: 'Globex' }) }),
    'scenario.timeline[0].simulateRun.workspace: expected the name of a workspace of the account: name the workspaces in the scene\'s accounts[1].workspaces to refer to them, received "payments-prod"',
  ],
  [
    'unknown stack',
    withSteps({ at: '+5m', finding: { stack: 'payments-dev', kind: 'Drift' } }),
    `scenario.timeline[0].finding.stack: expected the workspace name of one of the account's stacks, received "payments-dev"`,
  ],
  [
    'unknown account name',
    withSteps({ at: '+5m', labels: { account: 'Initech', workspace: 'payments-prod', labels: [] } }),
    `scenario.timeline[0].labels.account: expected the name of one of the scene's accounts (or its index), received "Initech"`,
  ],
  [
    'account index past the scene',
    withSteps({ at: '+5m', notify: { account: 2, notificationType: 'Drift' } }),
    "scenario.timeline[0].notify.account: expected the index of one of the scene's 2 accounts (0 to 1), received 2",
  ],
  [
    'bad at text',
    withSteps({ at: '5 minutes', simulateRun: run() }),
    'scenario.timeline[0].at: expected "+<n><unit>" (unit ms, s, m, h or d: "+30s", "+5m", "+2h", "+1d") or whole milliseconds, from 0 to 30 days, received "5 minutes"',
  ],
  [
    'at past 30 days',
    withSteps({ at: '+31d', simulateRun: run() }),
    'scenario.timeline[0].at: expected "+<n><unit>"',
  ],
  ['negative at', withSteps({ at: -1, simulateRun: run() }), 'scenario.timeline[0].at: expected'],
  [
    'a step of no kind',
    withSteps({ at: '+1m' }),
    'scenario.timeline[0]: expected exactly one of "simulateRun", "finding", "labels", "notify", received none',
  ],
  [
    'a step of two kinds',
    withSteps({ at: '+1m', simulateRun: run(), labels: { workspace: 'payments-prod', labels: [] } }),
    'scenario.timeline[0]: expected exactly one of "simulateRun", "finding", "labels", "notify", received "simulateRun" and "labels"',
  ],
  [
    'misspelt step kind',
    withSteps({ at: '+1m', simulateRuns: run() }),
    'scenario.timeline[0].simulateRuns: unknown member "simulateRuns"',
  ],
  [
    'a bad run body',
    withSteps({ at: '+1m', simulateRun: run({ commitId: 'XYZ' }) }),
    'scenario.timeline[0].simulateRun.commitId: expected 7 to 40 lower-case hex digits',
  ],
  [
    'a timing past its range',
    withSteps({ at: '+1m', simulateRun: run({ timing: { planningMs: 604_800_001 } }) }),
    'scenario.timeline[0].simulateRun.timing.planningMs:',
  ],
  [
    'a bad finding kind',
    withSteps({ at: '+1m', finding: { stack: 'payments-prod', kind: 'Drfit' } }),
    'scenario.timeline[0].finding.kind: Invalid option',
  ],
  [
    'duplicate labels',
    withSteps({ at: '+1m', labels: { workspace: 'payments-prod', labels: ['a', 'a'] } }),
    'scenario.timeline[0].labels.labels: expected each label once',
  ],
  [
    'a notification by accountId',
    withSteps({ at: '+1m', notify: { notificationType: 'Drift', accountId: 'a'.repeat(24) } }),
    'scenario.timeline[0].notify.accountId: expected the account by "account"',
  ],
  [
    'a notification payload that is no payload',
    withSteps({ at: '+1m', notify: { notificationType: 'Drift', samples: 'none' } }),
    'scenario.timeline[0].notify.samples:',
  ],
  [
    'more steps than the bound',
    withSteps(...Array.from({ length: SCENARIO_LIMITS.maxSteps + 1 }, () => ({ at: 0, simulateRun: run() }))),
    'scenario.timeline: Too big: expected array to have <=10000 items',
  ],
];

describe('a bad scenario is refused whole, naming the path', () => {
  it.each(BAD_SCENARIOS)('%s', async (_name, scenario, message) => {
    const core = new MockCore();
    core.clock.set(Date.UTC(2026, 0, 1));
    const before = await core.control.getState();
    const error = await rejection(core.control.play(scenario as never));
    expect(error.status).toBe(400);
    expect(error.code).toBe('validation_failed');
    expect(error.message.startsWith(message), error.message).toBe(true);
    expect(error.issues?.[0]?.message.startsWith(message)).toBe(true);
    // Nothing changed: the data, and no step is pending (moving the clock applies nothing).
    core.clock.advance(40 * 24 * 3_600_000);
    const after = await core.control.getState();
    expect(after.accounts.map((a) => a.workspaces.length)).toEqual(
      before.accounts.map((a) => a.workspaces.length),
    );
    expect(after.accounts[0]?.workspaces[0]).toEqual(before.accounts[0]?.workspaces[0]);
  });

  it('lists every problem of a timeline (at most 20, then a count)', async () => {
    const core = new MockCore();
    const timeline = Array.from({ length: 25 }, (_, i) => ({
      at: `+${i}m`,
      simulateRun: run({ workspace: `w${i}` }),
    }));
    const error = await rejection(core.control.play({ scene: SCENE, timeline } as never));
    expect(error.message).toContain('scenario.timeline[0].simulateRun.workspace:');
    // Every problem in the message too, not only the first (issue 35, finding 8): the 19 listed after
    // it, then the count of those not listed.
    expect(error.message).toContain(' (and 24 more: scenario.timeline[1].simulateRun.workspace:');
    expect(error.message).toContain('scenario.timeline[19].simulateRun.workspace:');
    expect(error.message).not.toContain('timeline[20]');
    expect(error.message.endsWith('received "w19"; 5 not listed)'), error.message).toBe(true);
    expect(error.issues).toHaveLength(21);
    expect(error.issues?.[20]?.message).toBe('scenario: 5 more problems not listed');
  });

  it('refuses the same scenario over HTTP with the same message, and as the scenario option', async () => {
    const bad = withSteps({ at: '+5m', simulateRun: run({ workspace: 'x' }) });
    const message = `scenario.timeline[0].simulateRun.workspace: expected the name of one of the account's workspaces, received "x"`;
    const core = new MockCore();
    const res = await core.handle({
      method: 'POST',
      path: '/__mock/scenario',
      headers: { 'content-type': 'application/json' },
      body: bad,
    });
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toBe(message);
    expect(() => new MockCore({ scenario: bad as never })).toThrow(message);
    expect(() => new MockCore({ scenario: withSteps() as never, sizes: { accounts: 2 } })).toThrow(
      'MockOptions scenario: expected a scenario alone, without scene, state or sizes',
    );
  });
});

describe('the at grammar', () => {
  it('reads +<n><unit> and whole milliseconds, up to 30 days', () => {
    expect(parseScenarioAt('+30s')).toBe(30_000);
    expect(parseScenarioAt('+5m')).toBe(300_000);
    expect(parseScenarioAt('+2h')).toBe(7_200_000);
    expect(parseScenarioAt('+1d')).toBe(86_400_000);
    expect(parseScenarioAt('+250ms')).toBe(250);
    expect(parseScenarioAt(0)).toBe(0);
    expect(parseScenarioAt(90_000)).toBe(90_000);
    expect(parseScenarioAt('+30d')).toBe(SCENARIO_LIMITS.maxAtMs);
    for (const bad of [
      '+31d',
      '5m',
      '+5',
      '+5 m',
      '+1.5h',
      '-5m',
      '+5M',
      '',
      '+99999999999s',
      1.5,
      -1,
      Number.NaN,
      null,
    ]) {
      expect(parseScenarioAt(bad), String(bad)).toBeUndefined();
    }
  });
});
