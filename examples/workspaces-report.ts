/**
 * Workspaces report: counts every workspace of the account by the status of its last run and by its
 * CI tool, walking all pages with `for await`, then labels the workspaces whose last run was blocked
 * by a guardrail (`needs-review` by default) so they show up in a filtered view.
 *
 * Shows: `for await` over a paged search, `projection` (typed: only the named members plus `id`),
 * `setLabels` (it replaces the whole list, so the current labels are kept and one is added).
 *
 * Run it against the mock (`pnpm start` prints the key pair) or the real service:
 *
 *   IACM_BASE_URL=http://127.0.0.1:4010 IACM_ACCESS_KEY=iacm_ak_… IACM_SECRET_KEY=iacm_sk_… \
 *     npx tsx examples/workspaces-report.ts
 */
import { pathToFileURL } from 'node:url';
import { IacmClient } from '@iacm/sdk';

/** Options of {@link main}. Absent connection options fall back to the SDK's environment variables. */
export interface WorkspacesReportOptions {
  /** The service's base URL. Default: `IACM_BASE_URL`. */
  baseUrl?: string;
  /** Access key. Default: `IACM_ACCESS_KEY` (or a token in `IACM_TOKEN`). */
  accessKey?: string;
  /** Secret key. Default: `IACM_SECRET_KEY`. */
  secretKey?: string;
  /** Where the report goes, one line at a time. Default: `console.log`. */
  log?: (line: string) => void;
  /** The label added to blocked workspaces. Default `needs-review`. */
  label?: string;
  /** Only report, change no label. Default false. */
  dryRun?: boolean;
  /** Workspaces per page. Default 100. */
  pageSize?: number;
}

/** What the report found. */
export interface WorkspacesReport {
  /** Number of workspaces. */
  total: number;
  /** Workspaces by the status of their last run; `none` for workspaces that never ran. */
  byStatus: Record<string, number>;
  /** Workspaces by CI tool (`runnerType`). */
  byCiTool: Record<string, number>;
  /** Workspaces whose last run is blocked. */
  blocked: Array<{ id: string; workspaceName: string }>;
  /** The blocked workspaces that got the label in this run (the others already had it). */
  labeled: string[];
}

/** The status key of workspaces without a run yet. */
export const NO_RUN = 'none';

export async function main(options: WorkspacesReportOptions = {}): Promise<WorkspacesReport> {
  const {
    baseUrl,
    accessKey,
    secretKey,
    log = console.log,
    label = 'needs-review',
    pageSize = 100,
  } = options;
  const client = new IacmClient({
    ...(baseUrl ? { baseUrl } : {}),
    ...(accessKey && secretKey ? { auth: { accessKey, secretKey } } : {}),
  });

  const report: WorkspacesReport = { total: 0, byStatus: {}, byCiTool: {}, blocked: [], labeled: [] };
  const blocked: Array<{ id: string; workspaceName: string; labels: string[] }> = [];

  // One request per page; the loop ends after the first page shorter than pageSize.
  const workspaces = client.workspaces.search({
    projection: ['workspaceName', 'lastRunStatus', 'runnerType', 'labels'],
    sort: { workspaceName: { order: 1 } },
    pageSize,
  });
  for await (const workspace of workspaces) {
    const status = workspace.lastRunStatus?.description ?? NO_RUN;
    report.total += 1;
    report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
    report.byCiTool[workspace.runnerType] = (report.byCiTool[workspace.runnerType] ?? 0) + 1;
    if (status === 'blocked') {
      blocked.push({ id: workspace.id, workspaceName: workspace.workspaceName, labels: workspace.labels });
    }
  }

  // Relabel after the walk, so that no change happens while pages are still being read.
  for (const workspace of blocked) {
    report.blocked.push({ id: workspace.id, workspaceName: workspace.workspaceName });
    if (workspace.labels.includes(label) || options.dryRun) continue;
    await client.workspaces.setLabels(workspace.id, [...workspace.labels, label]);
    report.labeled.push(workspace.workspaceName);
  }

  log(`${report.total} workspaces`);
  log('by last run status:');
  for (const [status, count] of sortedByCount(report.byStatus)) log(`  ${status.padEnd(18)} ${count}`);
  log('by CI tool:');
  for (const [tool, count] of sortedByCount(report.byCiTool)) log(`  ${tool.padEnd(18)} ${count}`);
  log(`blocked: ${report.blocked.map((w) => w.workspaceName).join(', ') || 'none'}`);
  if (options.dryRun) log(`dry run: no label changed`);
  else log(`labeled "${label}": ${report.labeled.join(', ') || 'none (already labeled)'}`);
  return report;
}

function sortedByCount(counts: Record<string, number>): Array<[string, number]> {
  return Object.entries(counts).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
}

// Run directly: `npx tsx examples/workspaces-report.ts [--dry-run]`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main({ dryRun: process.argv.includes('--dry-run') }).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
