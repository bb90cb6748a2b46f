/**
 * Control routes: `POST /__mock/scene`, and the one whole check of a scene ({@link checkSceneBody})
 * that it, `control.scene` and the `scene` option share: the scene's own check (`store/seed/scene.ts`:
 * shape by the strict contract, references, combinations), then its webhook integrations as `POST
 * /__mock/integrations/webhook` checks a create body (URL, credentials), before anything changes.
 *
 * @module
 */
import { zodIssues } from '@iacm/sdk/contract';
import { webhookUrlProblem } from '../domain/webhook-url.js';
import { IntegrationCreateBody } from '../domain/webhooks.js';
import { validationError } from '../errors.js';
import { type CheckedScene, checkScene } from '../store/seed/scene.js';

/** One issue of a scene's check. */
type SceneIssue = {
  location: 'body';
  path: string;
  message: string;
  received: string;
  expected?: string | undefined;
};

/** The issues of a scene's webhook integrations: each checked as a create body is, named by its place. */
function webhookIssues(scene: CheckedScene): SceneIssue[] {
  const issues: SceneIssue[] = [];
  scene.accounts?.forEach((account, a) => {
    account.webhooks?.forEach((webhook, w) => {
      const where = `accounts[${a}].webhooks[${w}]`;
      const label = (path: string) => `scene.${where}${path ? `.${path}` : ''}`;
      const parsed = IntegrationCreateBody.safeParse(webhook);
      if (!parsed.success) {
        for (const issue of zodIssues(parsed.error, webhook, { label, max: 5 })) {
          issues.push({ location: 'body', ...issue, path: `${where}.${issue.path}` });
        }
        return;
      }
      const problem = webhookUrlProblem(webhook.url);
      if (problem) {
        issues.push({
          location: 'body',
          path: `${where}.url`,
          message: `${label('url')}: ${problem.message}, received ${problem.received}`,
          expected: problem.expected,
          received: problem.received,
        });
      }
    });
  });
  return issues;
}

/**
 * Checks a scene, the one check of `createMockServer({ scene })`, `control.scene` and `POST
 * /__mock/scene`: `checkScene`, then its webhook integrations as a create body is checked.
 * @throws HttpError 400 `validation_failed` naming the first problem's path, what was expected and
 *   what came (`scene.accounts[0].stacks[0].workspace: expected the name of one of the account's
 *   workspaces, received "payments"`).
 */
export function checkSceneBody(input: unknown): CheckedScene {
  const scene = checkScene(input);
  const issues = webhookIssues(scene);
  if (issues.length > 0) throw validationError(issues);
  return scene;
}
