/**
 * A user's own application module: the code under test in app.test.ts, which drives it against the
 * in-process mock (MSW) instead of the real service. Nothing here knows about the mock: it takes an
 * `IacmClient`, as production code would.
 */
import type { IacmClient } from '@iacm/sdk';

/** A workspace whose last run was blocked by a guardrail, with the rules that blocked it. */
export interface BlockedWorkspace {
  id: string;
  workspaceName: string;
  /** The run that was blocked (its title), if the workspace still has it. */
  runTitle: string | undefined;
  /** The violations of that run: `<severity>: <message>`. */
  violations: string[];
}

/**
 * Finds the workspaces whose last run is blocked, and for each one the violations of its latest
 * blocked run (from the plan task's guardrails summary).
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
    const [run] = await client.workspaces.runs.search(workspace.id, {
      filters: { status: ['blocked'] },
      sort: { updatedAt: { order: -1 } },
      pageSize: 1,
    });
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
