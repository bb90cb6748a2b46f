/**
 * A scene is checked whole before anything changes: every bad scene gets one 400 whose message names
 * the path, what was expected and what came, and the mock keeps its data.
 */
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { SCENE_LIMITS } from '../../src/store/seed/scene.js';
import { refusal, rejection } from '../helpers.js';

const ws = (name: string, more: Record<string, unknown> = {}) => ({ name, ...more });
const one = (account: Record<string, unknown>) => ({ accounts: [account] });

/** Bad scenes, each with the start of the message it gets (path first). */
const BAD_SCENES: Array<[string, unknown, string]> = [
  ['not an object', 42, 'scene: expected object, received number'],
  ['unknown top member', { acounts: [] }, 'scene.acounts: unknown member "acounts"'],
  [
    'misspelt workspace member',
    one({ workspaces: [ws('a', { lastRunStatu: 'applied' })] }),
    'scene.accounts[0].workspaces[0].lastRunStatu: unknown member "lastRunStatu"',
  ],
  [
    'bad run status',
    one({ workspaces: [ws('a', {}), ws('b', {}), ws('c', { runs: [{ status: 'aplied' }] })] }),
    'scene.accounts[0].workspaces[2].runs[0].status: Invalid option: expected one of "init_error"|',
  ],
  [
    'bad runner type',
    one({ workspaces: [ws('a', { runnerType: 'github-action' })] }),
    'scene.accounts[0].workspaces[0].runnerType: Invalid option: expected one of',
  ],
  [
    'an IaC tool the scenes do not make',
    one({ workspaces: [ws('a', { iacType: 'helm' })] }),
    'scene.accounts[0].workspaces[0].iacType: Invalid option: expected one of "terraform"|"opentofu"|"cloudformation", received "helm"',
  ],
  ['no accounts', { accounts: [] }, 'scene.accounts: Too small: expected array to have >=1 items'],
  [
    'too many accounts',
    { accounts: Array.from({ length: SCENE_LIMITS.accounts + 1 }, () => ({})) },
    'scene.accounts: Too big: expected array to have <=50 items',
  ],
  [
    'blank workspace name',
    one({ workspaces: [ws('  ')] }),
    'scene.accounts[0].workspaces[0].name: Too small',
  ],
  [
    'workspace name used twice',
    one({ workspaces: [ws('a'), ws('b'), ws('a')] }),
    'scene.accounts[0].workspaces[2].name: expected a workspace name used once, also at [0], received "a"',
  ],
  [
    'stack of an unknown workspace',
    one({ workspaces: [ws('payments-prod')], stacks: [{ workspace: 'payments' }] }),
    `scene.accounts[0].stacks[0].workspace: expected the name of one of the account's workspaces, received "payments"`,
  ],
  [
    'stack while the workspaces are generated',
    one({ stacks: [{ workspace: 'payments' }] }),
    `scene.accounts[0].stacks[0].workspace: expected the name of a workspace of the account: name the workspaces`,
  ],
  [
    'two stacks of one workspace',
    one({ workspaces: [ws('a')], stacks: [{ workspace: 'a' }, { workspace: 'a' }] }),
    'scene.accounts[0].stacks[1].workspace: expected one stack per workspace, also at stacks[0], received "a"',
  ],
  [
    'guardrail of an unknown rule',
    one({ workspaces: [ws('a', { guardrails: ['tags'] })], rules: [{ name: 'cost cap', type: 'cost' }] }),
    `scene.accounts[0].workspaces[0].guardrails[0]: expected the name of one of the account's rules, received "tags"`,
  ],
  [
    'guardrails while the rules are generated',
    one({ workspaces: [ws('a', { guardrails: ['tags'] })] }),
    `scene.accounts[0].workspaces[0].guardrails[0]: expected the name of a rule of the account`,
  ],
  [
    'blocked run without a strict rule over it',
    one({
      workspaces: [ws('a', { guardrails: ['soft'], runs: [{ status: 'blocked' }] })],
      rules: [{ name: 'soft', severity: 1 }],
    }),
    'scene.accounts[0].workspaces[0].runs[0].status: a run "blocked" by guardrails needs an enabled strict rule',
  ],
  [
    'empty stack with assets',
    one({ workspaces: [ws('a')], stacks: [{ workspace: 'a', status: 'empty', assetCount: 5 }] }),
    'scene.accounts[0].stacks[0].assetCount: expected 0 for an empty stack, received 5',
  ],
  [
    'findings against the status',
    one({ workspaces: [ws('a')], stacks: [{ workspace: 'a', status: 'active', findings: { drifts: 1 } }] }),
    'scene.accounts[0].stacks[0].status: expected "contains_drifts" for a stack with its findings (or leave the status out), received "active"',
  ],
  [
    'criteria without a type',
    one({ rules: [{ name: 'r', criteria: { cost: { thresholdAmount: 10 } } }] }),
    'scene.accounts[0].rules[0].type: expected the rule type that its criteria are for, received nothing',
  ],
  [
    'criteria of another type',
    one({ rules: [{ name: 'r', type: 'tag', criteria: { cost: { thresholdAmount: 10 } } }] }),
    'scene.accounts[0].rules[0].criteria',
  ],
  [
    'rule name used twice',
    one({ rules: [{ name: 'r' }, { name: 'r' }] }),
    'scene.accounts[0].rules[1].name: expected a rule name used once, also at [0], received "r"',
  ],
  [
    'account name used twice',
    { accounts: [{ name: 'Acme' }, { name: 'Acme' }] },
    'scene.accounts[1].name: expected a account name used once, also at [0], received "Acme"',
  ],
  [
    'webhook URL that is not http(s)',
    one({ webhooks: [{ nickname: 'ops', url: 'ftp://hooks.example.com/x' }] }),
    'scene.accounts[0].webhooks[0].url:',
  ],
  [
    'webhook with credentials of no known shape',
    one({
      webhooks: [{ nickname: 'ops', url: 'https://hooks.example.com/x', credentials: { token: 'abc' } }],
    }),
    'scene.accounts[0].webhooks[0].credentials',
  ],
  [
    'webhook nickname used twice',
    one({
      webhooks: [
        { nickname: 'ops', url: 'https://hooks.example.com/a' },
        { nickname: 'ops', url: 'https://hooks.example.com/b' },
      ],
    }),
    'scene.accounts[0].webhooks[1].nickname: expected a webhook name used once',
  ],
  [
    'more records than a scene holds',
    one({ workspaces: Array.from({ length: 10_000 }, (_, i) => ({ name: `w${i}`, runs: [{}] })) }),
    `scene: expected at most ${SCENE_LIMITS.records} records in a scene, received 20001 records`,
  ],
  [
    'module in a repository no workspace uses',
    one({ workspaces: [ws('a', { repo: 'acme/infra' })], modules: [{ name: 'vpc', repo: 'acme/other' }] }),
    `scene.accounts[0].modules[0].repo: expected the repo of one of the account's workspaces, received "acme/other"`,
  ],
  [
    'module name used twice in one repository',
    one({
      workspaces: [ws('a', { repo: 'acme/infra' })],
      modules: [
        { name: 'vpc', repo: 'acme/infra' },
        { name: 'vpc', repo: 'acme/infra' },
      ],
    }),
    'scene.accounts[0].modules[1].name: expected a module name used once in acme/infra, also at modules[0], received "vpc"',
  ],
  [
    'module name that is not a folder name',
    one({ modules: [{ name: '../vpc' }] }),
    'scene.accounts[0].modules[0].name: expected a module folder name (a-z, 0-9, - and _)',
  ],
  ['empty text seed', { seed: '' }, 'scene.seed'],
  [
    'too many labels',
    one({ workspaces: [ws('a', { labels: Array.from({ length: 51 }, (_, i) => `l${i}`) })] }),
    'scene.accounts[0].workspaces[0].labels: Too big: expected array to have <=50 items',
  ],
  [
    'too many runs',
    one({ workspaces: [ws('a', { runs: Array.from({ length: 101 }, () => ({})) })] }),
    'scene.accounts[0].workspaces[0].runs: Too big: expected array to have <=100 items',
  ],
  [
    'unknown event type',
    one({ events: [{ event_type: 'drift' }] }),
    'scene.accounts[0].events[0].event_type: Invalid option: expected one of "mutation"|',
  ],
  [
    'repository without an owner',
    one({ workspaces: [ws('a', { repo: 'payments' })] }),
    'scene.accounts[0].workspaces[0].repo: expected owner/name',
  ],
  [
    'negative finding count',
    one({ workspaces: [ws('a')], stacks: [{ workspace: 'a', findings: { ghosts: -1 } }] }),
    'scene.accounts[0].stacks[0].findings.ghosts: Too small: expected number to be >=0',
  ],
  [
    'two workspaces of one repository on two VCSs',
    one({
      workspaces: [
        ws('a', { repo: 'acme/infra', vcsType: 'github' }),
        ws('b', { repo: 'acme/infra', vcsType: 'gitlab' }),
      ],
    }),
    'scene.accounts[0].workspaces[1].vcsType: expected "github", the VCS of acme/infra at workspaces[0], received "gitlab"',
  ],
];

describe('a bad scene is refused whole, naming the path, what was expected and what came', () => {
  it('holds at least 20 bad scenes', () => {
    expect(BAD_SCENES.length).toBeGreaterThanOrEqual(20);
  });

  for (const [what, scene, message] of BAD_SCENES) {
    it(`${what}: in control.scene, and the data stays`, async () => {
      const core = new MockCore({ sizes: { accounts: 1, workspaces: 3, events: 0 } });
      const before = JSON.stringify(await core.control.getState());
      const error = await rejection(core.control.scene(scene as never));
      expect(error.status).toBe(400);
      expect(error.code).toBe('validation_failed');
      expect(error.message.startsWith(message), error.message).toBe(true);
      expect(error.message.length).toBeLessThan(1500);
      expect(JSON.stringify(await core.control.getState())).toBe(before);
    });
  }

  it('in the scene option, before the mock exists', () => {
    const error = refusal(() => new MockCore({ scene: BAD_SCENES[3]?.[1] as never }));
    expect(error.message).toMatch(/^scene\.accounts\[0\]\.workspaces\[2\]\.runs\[0\]\.status: /);
  });

  it('over HTTP: POST /__mock/scene answers 400 with the issues', async () => {
    const core = new MockCore({ sizes: { accounts: 1, workspaces: 3, events: 0 } });
    const res = await core.handle({
      method: 'POST',
      path: '/__mock/scene',
      headers: { 'content-type': 'application/json' },
      body: one({ workspaces: [ws('a'), ws('a')], stacks: [{ workspace: 'b' }] }),
    });
    expect(res.status).toBe(400);
    const body = res.body as { message: string; details: { issues: Array<{ path: string }> } };
    // Both problems in the message, not "(and 1 more issue)".
    expect(body.message).toMatch(
      /^scene\.accounts\[0\]\.workspaces\[1\]\.name: .* \(and 1 more: scene\.accounts\[0\]\.stacks\[0\]\.workspace: .*\)$/,
    );
  });

  it('a webhook password is never echoed', () => {
    const error = refusal(
      () =>
        new MockCore({
          scene: one({
            webhooks: [
              {
                nickname: 'ops',
                url: 'https://hooks.example.com/x',
                credentials: { basic: { username: 'u', password: 7 } },
              },
            ],
          }) as never,
        }),
    );
    expect(JSON.stringify({ m: error.message, i: error.issues })).not.toContain('"7"');
  });
});

describe('an unknown member of a scene says what was meant (issue 35, finding 8)', () => {
  it("suggests the scene's name for the API's (workspaceName → name) and a near spelling (lables → labels)", () => {
    const error = refusal(
      () =>
        new MockCore({
          scene: one({
            workspaces: [{ workspaceName: 'payments-prod' }, ws('b', { lables: ['x'] })],
          }) as never,
        }),
    );
    const messages = (error.issues ?? []).map((issue) => issue.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /workspaces\[0\]\.workspaceName: unknown member "workspaceName".*\(did you mean "name"\?\)$/,
        ),
        expect.stringMatching(
          /workspaces\[1\]\.lables: unknown member "lables".*\(did you mean "labels"\?\)$/,
        ),
      ]),
    );
    // Both in the message as well.
    expect(error.message).toContain('did you mean "name"?');
    expect(error.message).toContain('did you mean "labels"?');
  });

  it('suggests nothing for a member far from every known one, or for a huge name', () => {
    const huge = 'x'.repeat(100_000);
    const error = refusal(
      () => new MockCore({ scene: one({ workspaces: [ws('a', { zzqqxx: 1, [huge]: 1 })] }) as never }),
    );
    expect(error.message).not.toContain('did you mean');
    expect(error.message.length).toBeLessThan(8_000);
  });
});
