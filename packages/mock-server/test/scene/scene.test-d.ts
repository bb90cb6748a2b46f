/**
 * A scene is typed: a misspelt member or an unknown enum value does not compile, in the option, in
 * `control.scene` and in the builders. Each `@ts-expect-error` below is a mistake that must not
 * compile (an unused one fails the type check too).
 */
import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod';
import type { MockOptions } from '../../src/app/options.js';
import type { ControlPlane } from '../../src/control/plane.js';
import { type Scene, type SceneSchema, type SceneWorkspace, scene } from '../../src/store/seed/scene.js';

declare const control: ControlPlane;

describe('scenes are typed', () => {
  it('the documented Scene type is what the schema takes', () => {
    expectTypeOf<Scene>().toExtend<z.input<typeof SceneSchema>>();
    expectTypeOf<z.input<typeof SceneSchema>>().toExtend<Scene>();
  });

  it('takes what a scene may say', async () => {
    await control.scene({
      seed: 3,
      accounts: [{ name: 'Acme', workspaces: [{ name: 'a', runs: [{ status: 'blocked' }] }] }],
    });
    const options: MockOptions = {
      scene: { accounts: [{ stacks: [{ workspace: 'a', findings: { drifts: 1 } }] }] },
    };
    expectTypeOf(options.scene).toEqualTypeOf<Scene | undefined>();
    expectTypeOf(scene.workspace({ name: 'a' })).toEqualTypeOf<SceneWorkspace>();
  });

  it('refuses a misspelt member and an unknown value', () => {
    // @ts-expect-error a misspelt member
    void control.scene({ accounts: [{ workspaces: [{ name: 'a', lastRunStatu: 'applied' }] }] });
    // @ts-expect-error a run status the contract does not document
    scene.run({ status: 'aplied' });
    // @ts-expect-error a runner type the contract does not document
    scene.workspace({ runnerType: 'github-action' });
    // @ts-expect-error a stack names its workspace
    scene.stack({ findings: { drifts: 1 } });
    // @ts-expect-error an unknown member of the scene
    const bad: MockOptions = { scene: { acounts: [] } };
    void bad;
  });
});
