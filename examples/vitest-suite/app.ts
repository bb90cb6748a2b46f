/**
 * A user's own application module: the code under test in app.test.ts, which drives it against the
 * in-process mock (MSW) instead of the real service. Nothing here knows about the mock: it takes an
 * `IacmClient` and a webhook receiver's credentials, as production code would.
 *
 * - `findBlockedWorkspaces`: the workspaces whose last run a guardrail blocked, with the violations.
 * - `createDriftBot`: a webhook endpoint that labels `drifted` the workspace of every IaC stack that
 *   contains drifts, each time a `Drift` notification arrives.
 */
import { type IacmClient, NotFoundError } from '@iacm/sdk';
import { createFetchHandler, createWebhookReceiver, type WebhookCredentials } from '@iacm/webhook-receiver';

/** A workspace whose last run was blocked by a guardrail, with the rules that blocked it. */
export interface BlockedWorkspace {
  id: string;
  workspaceName: string;
  /** The run that was blocked (its title). */
  runTitle: string | undefined;
  /** The violations of that run: `<severity>: <message>`. */
  violations: string[];
}

/**
 * Finds the workspaces whose last run is blocked, and for each one the violations of its latest
 * blocked run (from the plan task's guardrails summary). A workspace deleted between the search and
 * the look at its runs (404) is left out.
 */
export async function findBlockedWorkspaces(client: IacmClient): Promise<BlockedWorkspace[]> {
  const found: BlockedWorkspace[] = [];
  const blocked = client.workspaces.search({
    filters: { status: ['blocked'] },
    projection: ['workspaceName'],
    sort: { workspaceName: { order: 1 } },
    pageSize: 100,
  });
  for await (const workspace of blocked) {
    let run: Awaited<ReturnType<IacmClient['workspaces']['runs']['search']>>[number] | undefined;
    try {
      [run] = await client.workspaces.runs.search(workspace.id, {
        filters: { status: ['blocked'] },
        sort: { updatedAt: { order: -1 } },
        pageSize: 1,
      });
    } catch (error) {
      if (error instanceof NotFoundError) continue; // deleted meanwhile
      throw error;
    }
    const summary = run?.plan[0]?.guardrailsSummary;
    found.push({
      id: workspace.id,
      workspaceName: workspace.workspaceName,
      runTitle: run?.title,
      violations: (summary?.violations ?? []).map((v) => `${v.severity}: ${v.message}`),
    });
  }
  return found;
}

/** The label the drift bot puts on a drifted workspace. */
export const DRIFTED_LABEL = 'drifted';

/**
 * A drift bot: an HTTP handler (fetch `Request` in, `Response` out) for the service's webhook
 * deliveries. On each `Drift` notification it lists the IaC stacks that contain drifts and adds the
 * label `drifted` to the workspace of the same name (each stack is named after its workspace). When
 * that fails, the handler answers 500 and the service delivers the notification again.
 */
export function createDriftBot(client: IacmClient, credentials: WebhookCredentials) {
  const receiver = createWebhookReceiver({ credentials });
  receiver.on('Drift', async () => {
    for await (const stack of client.iacExplorer.stacks({ pageSize: 100 })) {
      if (stack.status !== 'contains_drifts') continue;
      const [workspace] = await client.workspaces.search({ searchValue: stack.name, pageSize: 1 });
      const drifted = workspace?.workspaceName === stack.name ? workspace : undefined;
      if (drifted && !drifted.labels.includes(DRIFTED_LABEL)) {
        await client.workspaces.setLabels(drifted.id, [...drifted.labels, DRIFTED_LABEL]);
      }
    }
  });
  return createFetchHandler(receiver);
}
