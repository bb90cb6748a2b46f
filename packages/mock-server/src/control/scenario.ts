import { type CheckedScenario, checkTimeline, ScenarioShape } from '../domain/scenario.js';
import { nestedError, problemIssues, shapeError, validationError } from '../errors.js';
import { checkSceneBody } from './scene.js';

/**
 * Checks a scenario, the one check of `createMockServer({ scenario })`, `control.play`, `POST
 * /__mock/scenario` and `iacm-mock --scenario`: its shape (strict: unknown members, at most
 * `SCENARIO_LIMITS.maxSteps` steps, each step's body as its control route checks it), its scene as
 * `control.scene` checks one (`scenario.scene.accounts[0]...`), then its timeline against the scene.
 * @throws HttpError 400 `validation_failed` whose message names the first problem's path, what was
 *   expected and what came (`scenario.timeline[3].simulateRun.workspace: expected the name of one of
 *   the account's workspaces, received "x"`), its issues every problem (at most 20, then a count).
 */
export function checkScenarioBody(input: unknown): CheckedScenario {
  const parsed = ScenarioShape.safeParse(input);
  if (!parsed.success) throw shapeError(parsed.error, input, 'scenario');
  let scene: CheckedScenario['scene'];
  try {
    scene = checkSceneBody(parsed.data.scene);
  } catch (error) {
    throw nestedError(error, 'scene', { from: 'scene', to: 'scenario.scene' });
  }
  const { steps, problems } = checkTimeline(parsed.data.timeline, scene);
  if (problems.length > 0) throw validationError(problemIssues(problems, 'scenario'));
  return { scene, timeline: steps };
}
