/**
 * What the control plane reads from a core ({@link coreView}): checked values only (the plane
 * checks every body once), each read or write of the data as it is at the clock's now (the
 * timeline's due steps applied first).
 *
 * @module
 */
import type { CoreView } from '../control/route.js';
import { dryRunGuardrails } from '../domain/dry-run.js';
import { recordFindingOnStack } from '../domain/findings.js';
import { outboxOf, queueNotification } from '../domain/notify.js';
import { findWorkspace } from '../domain/simulate.js';
import type { WebhookHub } from '../domain/webhooks.js';
import type { MockClock } from '../pipeline/clock.js';
import type { MockAccount } from '../store/state.js';
import type { Store } from '../store/store.js';
import type { Timeline } from './timeline.js';

/** The parts of a core its control plane reads. */
export interface CoreParts {
  /** The current store. */
  readonly store: Store;
  /** The accounts and their key pairs. */
  accounts(): MockAccount[];
  /** The mock's clock. */
  readonly clock: MockClock;
  /** The webhook hub. */
  readonly webhooks: WebhookHub;
}

/** The control plane's view of a core, its timeline settled before each read or write. */
export function coreView(timeline: Timeline, parts: CoreParts): CoreView {
  const { clock } = parts;
  const store = () => parts.store;
  const settled = <T>(read: () => T): T => {
    timeline.settle();
    return read();
  };
  const accounts = () => store().accounts.values();
  return {
    store: { toState: () => settled(() => store().toState()) },
    accounts: () => parts.accounts(),
    outbox: (accountId) => settled(() => outboxOf(store(), accountId)),
    clock,
    webhooks: parts.webhooks,
    simulateRun: (id, run) => settled(() => timeline.simulateRun(accounts(), id, run)),
    recordFinding: (id, finding) =>
      settled(() => recordFindingOnStack(accounts(), id, finding, timeline.events)),
    evaluate: (evaluation) => settled(() => dryRunGuardrails(store(), evaluation, clock.now())),
    notify: (body) => settled(() => queueNotification(store(), body, timeline.events)),
    currentRun: (workspaceId, runId) =>
      settled(() => {
        const { account, workspace } = findWorkspace(accounts(), workspaceId);
        const run =
          runId === undefined
            ? account.runs.get(workspace.id)?.at(-1)
            : account.runs.find(workspace.id, runId)?.run;
        return {
          workspaceId: workspace.id,
          run: run && {
            accountId: account.account.id,
            workspaceId: workspace.id,
            runId: run.id,
            from: '',
            to: run.status,
            run: () => run,
          },
        };
      }),
  };
}
