/**
 * A workspace's labels: the one place that replaces them (`PUT /v2/workspaces/{id}/labels`, a
 * scenario's `labels` step), stamping the workspace and recording the `mutation` event.
 *
 * @module
 */
import { toTimestamp, type WorkspaceSummary } from '@iacm/sdk/contract';
import { heapBytes, type Ledger } from '../store/budget.js';
import type { AccountStore } from '../store/store.js';
import type { EventRecorder } from './events.js';

/**
 * Replaces the labels of `workspace` (of `account`) with `labels` (checked by the contract's
 * `WorkspaceLabelsBody`), at `now`: the workspace's `updatedAt`, and a `mutation` event saying the
 * labels went from the old list to the new one. Answers the updated workspace. Labels that take more
 * bytes than before charge the difference to the mock's budget (`services.records`: a 409
 * `budget_exceeded` past it, before anything changes); fewer give it back.
 */
export function setWorkspaceLabels(
  account: AccountStore,
  workspace: WorkspaceSummary,
  labels: readonly string[],
  services: { now(): number; events: EventRecorder; records?: Ledger | undefined },
): WorkspaceSummary {
  const added = heapBytes(labels) - heapBytes(workspace.labels);
  if (added > 0) services.records?.charge(added);
  else services.records?.release(-added);
  const updated: WorkspaceSummary = {
    ...workspace,
    labels: [...labels],
    updatedAt: toTimestamp(services.now()),
  };
  account.workspaces.update(updated);
  services.events.record(account, {
    type: 'mutation',
    mutation: 'update',
    assetId: workspace.id,
    assetType: 'iacm_workspace',
    attributes: {
      workspaceId: workspace.id,
      workspaceName: workspace.workspaceName,
      field: 'labels',
      from: workspace.labels.join(','),
      to: labels.join(','),
    },
  });
  return updated;
}
