import {
  CHECK_STEP,
  type CheckedScenario,
  ScenarioOuterShape,
  ScenarioShape,
  type ScenarioShapeOutput,
  ScenarioStepSchema,
  timelineSteps,
} from '../domain/scenario.js';
import { measureSteps } from '../domain/scenario-player.js';
import { listedError, nestedError, problemIssues, shapeError } from '../errors.js';
import { drain, type Steps } from '../query/pause.js';
import { checkSceneBody } from './scene.js';

/**
 * Checks a scenario, the one check of `createMockServer({ scenario })`, `control.play`, `POST
 * /__mock/scenario` and `iacm-mock --scenario`: its shape (strict: unknown members, at most
 * `SCENARIO_LIMITS.maxSteps` steps, each step's body as its control route checks it), its scene as
 * `control.scene` checks one (`scenario.scene.accounts[0]...`), then its timeline against the scene.
 * Whole, in one go; {@link scenarioCheckSteps} is the same check in steps.
 * @throws HttpError 400 `validation_failed` whose message names the first problem's path, what was
 *   expected and what came (`scenario.timeline[3].simulateRun.workspace: expected the name of one of
 *   the account's workspaces, received "x"`), its issues every problem (at most 20, then a count).
 */
export function checkScenarioBody(input: unknown): CheckedScenario {
  return drain(scenarioCheckSteps(input));
}

/**
 * {@link checkScenarioBody} in steps of `CHECK_STEP` (256) steps of the timeline, each parsed by its
 * own schema, so that `drive` (`query/pause.ts`) checks 10,000 steps in slices that give the event
 * loop a turn. The same answer, and the same 400: a scenario with any shape problem is checked again
 * whole by the scenario's schema, which lists every problem in its order.
 */
export function* scenarioCheckSteps(input: unknown): Steps<CheckedScenario> {
  const shape = yield* shapeSteps(input);
  let scene: CheckedScenario['scene'];
  try {
    scene = checkSceneBody(shape.scene);
  } catch (error) {
    throw nestedError(error, 'scene', { from: 'scene', to: 'scenario.scene' });
  }
  yield;
  const { steps, problems } = yield* timelineSteps(shape.timeline, scene);
  if (problems.length > 0) throw listedError(problemIssues(problems, 'scenario'));
  const checked = { scene, timeline: steps };
  // Measured for the budget here, a slice at a time (the budget's check reads the measures kept).
  yield* measureSteps(checked);
  return checked;
}

/**
 * A scenario's shape, its steps parsed one by one; when any part is wrong, parsed again whole by the
 * scenario's schema, whose 400 lists every problem in its order.
 */
function* shapeSteps(input: unknown): Steps<Pick<ScenarioShapeOutput, 'timeline'> & { scene: unknown }> {
  const whole = () => {
    const parsed = ScenarioShape.safeParse(input);
    if (!parsed.success) throw shapeError(parsed.error, input, 'scenario', ScenarioShape);
    return parsed.data;
  };
  const outer = ScenarioOuterShape.safeParse(input);
  if (!outer.success) return whole();
  const timeline: ScenarioShapeOutput['timeline'] = [];
  for (let i = 0; i < outer.data.timeline.length; i++) {
    if (i > 0 && i % CHECK_STEP === 0) yield;
    const step = ScenarioStepSchema.safeParse(outer.data.timeline[i]);
    if (!step.success) return whole();
    timeline.push(step.data);
  }
  return { scene: outer.data.scene, timeline };
}
