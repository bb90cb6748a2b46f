/**
 * One check for the mock's data (issue 33): the same mistake (an unknown member, a bad enumeration
 * value, a dangling reference), written in each form's own shape (a scene, a snapshot, a scenario's
 * scene, a session's scene), gets the same kind of path-naming 400 from each, in process and over
 * HTTP (the same issues), from the options and the CLI's files too; and the mock keeps its data.
 */
import { describe, expect, it } from 'vitest';
import { readScenario, readScene, readSnapshot } from '../../src/adapters/cli-options.js';
import { MockCore } from '../../src/app/mock.js';
import { checkData } from '../../src/control/data.js';
import type { MockState } from '../../src/store/state.js';
import { expectError, rejection, setup, tagRuleBody } from '../helpers.js';

const SMALL = { accounts: 2, workspaces: 3, runsPerWorkspace: 1, rules: 2, stacks: 2, events: 0 };

type Scene = { accounts: Array<Record<string, unknown> & { workspaces: Array<Record<string, unknown>> }> };

/** A small valid scene: one workspace with a run, and its stack. */
const baseScene = (): Scene => ({
  accounts: [
    {
      workspaces: [{ name: 'payments', runs: [{ status: 'apply_success' }] }],
      stacks: [{ workspace: 'payments' }],
    },
  ],
});

/** A mistake, in the shape of a scene and of a snapshot, with the path it is at in each, and what its message says. */
interface Mistake {
  name: string;
  scene: (scene: Scene) => { path: string };
  snapshot: (state: MockState) => { path: string };
  says: RegExp;
}

const MISTAKES: Mistake[] = [
  {
    name: 'an unknown member',
    scene: (scene) => {
      (scene.accounts[0]?.workspaces[0] as Record<string, unknown>).colour = 'blue';
      return { path: 'accounts[0].workspaces[0].colour' };
    },
    snapshot: (state) => {
      (state.accounts[0]?.workspaces[0] as unknown as Record<string, unknown>).colour = 'blue';
      return { path: 'accounts[0].workspaces[0].colour' };
    },
    says: /: unknown member "colour"; expected only documented members$/,
  },
  {
    name: 'a bad enumeration value',
    scene: (scene) => {
      const runs = scene.accounts[0]?.workspaces[0]?.runs as Array<Record<string, unknown>>;
      (runs[0] as Record<string, unknown>).status = 'aplied';
      return { path: 'accounts[0].workspaces[0].runs[0].status' };
    },
    snapshot: (state) => {
      (state.accounts[0]?.runs[0] as unknown as Record<string, unknown>).status = 'aplied';
      return { path: 'accounts[0].runs[0].status' };
    },
    says: /: Invalid option: expected one of "init_error"\|.*, received "aplied"$/,
  },
  {
    name: 'a dangling reference',
    scene: (scene) => {
      const stacks = scene.accounts[0]?.stacks as Array<Record<string, unknown>>;
      (stacks[0] as Record<string, unknown>).workspace = 'nope';
      return { path: 'accounts[0].stacks[0].workspace' };
    },
    snapshot: (state) => {
      (state.accounts[0]?.runs[0] as unknown as Record<string, unknown>).workspaceId = 'f'.repeat(24);
      return { path: 'accounts[0].runs[0].workspaceId' };
    },
    says: /: expected the (name|id) of one of the account's workspaces, received "(nope|f{24})"$/,
  },
];

type Mock = Awaited<ReturnType<typeof setup>>;

/** A form of data: how the mistake's data is made, where it sits, and how each entry point takes it. */
interface Form {
  name: string;
  /** The body carrying the mistake, and the path of the mistake in it. */
  body(m: Mock, mistake: Mistake): Promise<{ body: unknown; path: string }>;
  /** What the message names it under (`scene`, `state`, `scenario.scene`). */
  label: string;
  /** The part of the path the label stands for (a session's body holds its scene at `scene`). */
  under: string;
  route: [method: string, path: string];
  inProcess(m: Mock, body: unknown): Promise<unknown>;
  /** The same data as an option of a new mock, and as a CLI file. */
  option?: (body: unknown) => unknown;
  file?: (json: string) => unknown;
}

const inScene = (wrap: (scene: Scene) => unknown) => async (_m: Mock, mistake: Mistake) => {
  const scene = baseScene();
  const { path } = mistake.scene(scene);
  return { body: wrap(scene), path };
};

const FORMS: Form[] = [
  {
    name: 'a scene',
    body: inScene((scene) => scene),
    label: 'scene',
    under: '',
    route: ['POST', '/__mock/scene'],
    inProcess: (m, body) => m.core.control.scene(body as never),
    option: (body) => new MockCore({ scene: body as never }),
    file: (json) => readScene('scene.json', () => json),
  },
  {
    name: 'a snapshot',
    body: async (m, mistake) => {
      const state = await m.core.control.getState();
      const { path } = mistake.snapshot(state);
      return { body: state, path };
    },
    label: 'state',
    under: '',
    route: ['PUT', '/__mock/state'],
    inProcess: (m, body) => m.core.control.setState(body),
    option: (body) => new MockCore({ state: body as never }),
    file: (json) => readSnapshot('state.json', () => json),
  },
  {
    name: "a scenario's scene",
    body: inScene((scene) => ({ scene, timeline: [] })),
    label: 'scenario.scene',
    under: 'scene.',
    route: ['POST', '/__mock/scenario'],
    inProcess: (m, body) => m.core.control.play(body as never),
    option: (body) => new MockCore({ scenario: body as never }),
    file: (json) => readScenario('scenario.json', () => json),
  },
  {
    name: "a session's scene",
    body: inScene((scene) => ({ scene })),
    label: 'scene',
    under: 'scene.',
    route: ['POST', '/__mock/sessions'],
    inProcess: (m, body) => m.core.control.createSession(body as never),
  },
];

/** The error `fn` throws or rejects with. */
async function thrown(fn: () => unknown): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal, but nothing was thrown');
}

describe('one check for the data, whatever its form', () => {
  for (const mistake of MISTAKES) {
    describe(mistake.name, () => {
      for (const form of FORMS) {
        it(`in ${form.name}: the same path-naming 400 in process, over HTTP, as an option and from a file`, async () => {
          const m = await setup({ seed: 5, sizes: SMALL });
          const before = JSON.stringify(await m.core.control.getState());
          const { body, path } = await form.body(m, mistake);
          const full = `${form.under}${path}`;

          const http = expectError(
            await m.call(...form.route, { token: null, body }),
            400,
            'validation_failed',
          );
          const issue = http.issues?.find((i) => i.path === full);
          expect(issue, JSON.stringify(http.issues)).toBeDefined();
          expect(issue?.location).toBe('body');
          expect(issue?.message.startsWith(`${form.label}.${path}: `), issue?.message).toBe(true);
          expect(issue?.message).toMatch(mistake.says);

          // In process: the same issues, word for word.
          const local = await rejection(form.inProcess(m, structuredClone(body)));
          expect(local.status).toBe(400);
          expect(local.code).toBe('validation_failed');
          expect(local.issues).toEqual(http.issues);
          expect(local.message).toBe(http.message);

          if (form.option) {
            const error = (await thrown(() => form.option?.(structuredClone(body)))) as typeof local;
            expect(error.issues).toEqual(http.issues);
          }
          if (form.file) {
            const error = await thrown(() => form.file?.(JSON.stringify(body)));
            expect(error.message).toContain(issue?.message);
          }
          // Nothing changed.
          expect(JSON.stringify(await m.core.control.getState())).toBe(before);
        });
      }
    });
  }

  it('is one function: checkData names the form, and a session\'s scene is named under "scene"', () => {
    const scene = baseScene();
    const { path } = MISTAKES[2]?.scene(scene) ?? { path: '' };
    const error = (() => {
      try {
        checkData('scene', scene, { under: 'scene' });
      } catch (e) {
        return e as { issues?: Array<{ path: string; message: string }> };
      }
      return undefined;
    })();
    expect(error?.issues?.[0]?.path).toBe(`scene.${path}`);
    expect(error?.issues?.[0]?.message).toMatch(new RegExp(`^scene\\.${path.replace(/[[\].]/g, '\\$&')}: `));
    // A valid scene, a seed and a snapshot are all data to load.
    expect(checkData('scene', baseScene()).source).toHaveProperty('scene');
    expect(checkData('seed', { seed: 3 }).source).toMatchObject({ seed: 3, sizes: { accounts: 3 } });
  });

  it('a snapshot the mock gives loads back after the API changed it (its references hold)', async () => {
    const m = await setup({ seed: 9, sizes: SMALL });
    const [workspace] = (await m.core.control.getState()).accounts[0]?.workspaces ?? [];
    expect((await m.call('DELETE', `/v2/workspaces/${workspace?.id}`)).status).toBe(200);
    const rule = await m.call('POST', '/v2/guardrails', { body: tagRuleBody('tags') });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    // A rule a workspace names in its guardrails, deleted: the workspace keeps naming it.
    const named = (await m.core.control.getState()).accounts[0]?.workspaces.find(
      (w) => w.guardrails.length > 0,
    )?.guardrails[0];
    expect(named).toBeDefined();
    expect((await m.call('DELETE', `/v2/guardrails/${named}`)).status).toBe(200);
    const state = await m.core.control.getState();
    await m.core.control.setState(state);
    expect(await m.core.control.getState()).toEqual(state);
  });
});
