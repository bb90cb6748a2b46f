/**
 * Control routes: `POST /__mock/scenario`, and the one whole check of a scenario
 * ({@link checkScenarioBody}) that it, `control.play`, the `scenario` option and `iacm-mock
 * --scenario` share: the scenario's shape, its scene as `control.scene` checks one, then its timeline
 * against the scene (`domain/scenario.ts`), before anything changes.
 *
 * @module
 */
import { zodIssues } from '@iacm/sdk/contract';
import {
  type CheckedScenario,
  checkTimeline,
  SCENARIO_LIMITS,
  ScenarioShape,
  type TimelineProblem,
} from '../domain/scenario.js';
import { HttpError } from '../errors.js';
import { type ControlRoute, controlRoute, ok } from './route.js';
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
const MAX_PROBLEMS = 20;

/** The 400 of a scenario's issues: the first one's message (and how many more), every issue listed. */
function scenarioError(issues: ScenarioIssue[]): HttpError {
  const [first] = issues;
  const more = issues.length - 1;
  const message = `${first?.message ?? 'scenario: invalid'}${more > 0 ? ` (and ${more} more issue${more > 1 ? 's' : ''})` : ''}`;
  return new HttpError(400, 'validation_failed', message, { issues });
}

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
  return scenarioError(issues);
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
    const issues = zodIssues(parsed.error, input, { label, max: MAX_PROBLEMS });
    throw scenarioError(issues.map((issue) => ({ location: 'body' as const, ...issue })));
  }
  let scene: CheckedScenario['scene'];
  try {
    scene = checkSceneBody(parsed.data.scene);
  } catch (error) {
    if (error instanceof HttpError) throw sceneUnderScenario(error);
    throw error;
  }
  const { steps, problems } = checkTimeline(parsed.data.timeline, scene);
  if (problems.length > 0) throw scenarioError(listed(problems, label));
  return { scene, timeline: steps };
}

/** The problems as issues: at most {@link MAX_PROBLEMS}, then one saying how many more. */
function listed(problems: TimelineProblem[], label: (where: string) => string): ScenarioIssue[] {
  const issues: ScenarioIssue[] = problems.slice(0, MAX_PROBLEMS).map(([path, message, received]) => ({
    location: 'body',
    path,
    // A payload's issue is already whole (zod's, labelled); the others read "path: expected..., received ...".
    message: message.startsWith('scenario.') ? message : `${label(path)}: ${message}, received ${received}`,
    received,
  }));
  if (problems.length > MAX_PROBLEMS) {
    const more = problems.length - MAX_PROBLEMS;
    issues.push({
      location: 'body',
      path: '',
      message: `scenario: ${more} more problem${more > 1 ? 's' : ''} not listed`,
      received: `${more} more`,
    });
  }
  return issues;
}

/** The scenario route. */
export const scenarioRoutes: readonly ControlRoute[] = [
  controlRoute({
    method: 'POST',
    path: '/__mock/scenario',
    summary:
      "replace the data with a scenario's scene and play its timeline on the mock's clock, until the next reset",
    body: checkScenarioBody,
    maxBodyBytes: SCENARIO_LIMITS.maxBodyBytes,
    handler: ({ deps, body }) => ok(deps.play(body)),
  }),
];
