/**
 * Control routes: `POST /__mock/scenario`, and the one whole check of a scenario
 * ({@link checkScenarioBody}) that it, `control.play`, the `scenario` option and `iacm-mock
 * --scenario` share: the scenario's shape, its scene as `control.scene` checks one, then its timeline
 * against the scene (`domain/scenario.ts`), before anything changes.
 *
 * @module
 */
import { zodIssues } from '@iacm/sdk/contract';
import { type CheckedScenario, checkTimeline, ScenarioShape } from '../domain/scenario.js';
import { HttpError, MAX_LISTED_PROBLEMS, problemIssues, validationError } from '../errors.js';
import { checkSceneBody } from './scene.js';

/** One issue of a scenario's check. */
type ScenarioIssue = {
  location: 'body';
  path: string;
  message: string;
  received: string;
  expected?: string | undefined;
};

/** The most problems one check lists (the rest are counted). */

/** The scene's 400, its paths and messages put under `scenario.scene`. */
function sceneUnderScenario(error: HttpError): HttpError {
  const issues: ScenarioIssue[] = (error.issues ?? []).map((issue) => ({
    location: 'body',
    received: issue.received ?? '',
    ...(issue.expected !== undefined ? { expected: issue.expected } : {}),
    path: issue.path ? `scene.${issue.path}` : 'scene',
    message: issue.message.startsWith('scene') ? `scenario.${issue.message}` : issue.message,
  }));
  if (issues.length === 0) {
    issues.push({ location: 'body', path: 'scene', message: `scenario.${error.message}`, received: 'scene' });
  }
  return validationError(issues);
}

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
  const label = (where: string) => `scenario${where ? `.${where}` : ''}`;
  const parsed = ScenarioShape.safeParse(input);
  if (!parsed.success) {
    const issues = zodIssues(parsed.error, input, { label, max: MAX_LISTED_PROBLEMS });
    throw validationError(issues.map((issue) => ({ location: 'body' as const, ...issue })));
  }
  let scene: CheckedScenario['scene'];
  try {
    scene = checkSceneBody(parsed.data.scene);
  } catch (error) {
    if (error instanceof HttpError) throw sceneUnderScenario(error);
    throw error;
  }
  const { steps, problems } = checkTimeline(parsed.data.timeline, scene);
  if (problems.length > 0) throw validationError(problemIssues(problems, 'scenario'));
  return { scene, timeline: steps };
}
