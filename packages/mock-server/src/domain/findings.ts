import {
  type StackFindings as ContractStackFindings,
  type IacStack,
  NOTIFICATION_TYPES,
  type NotificationType,
  type WebhookPayload,
} from '@iacm/sdk/contract';
import { generateNotification } from '@iacm/webhook-receiver';
import * as z from 'zod';
import { notFound } from '../errors.js';
import type { AccountStore } from '../store/store.js';
import { type EventRecorder, PLATFORM_INTEGRATION_ID } from './events.js';

/** The body of `POST /__mock/stacks/{stackId}/findings`: one finding of one of the four webhook kinds. */
export const FindingBody = z.strictObject({
  kind: z.enum(NOTIFICATION_TYPES),
  assetType: z.string().min(1).max(256).optional(),
  assetId: z.string().min(1).max(1024).optional(),
  name: z.string().min(1).max(512).optional(),
  region: z.string().max(64).optional(),
  drifts: z
    .array(z.strictObject({ keyName: z.string().min(1), iacValue: z.string(), providerValue: z.string() }))
    .min(1)
    .max(1000)
    .optional(),
});
/** A finding, as sent. */
export type FindingInput = z.input<typeof FindingBody>;
/** A finding as {@link FindingBody} parsed it. */
export type CheckedFinding = z.output<typeof FindingBody>;

/** Counts of findings on a stack: the contract's `StackFindings` (a documented addition of the mock). */
export type StackFindings = ContractStackFindings;

const COUNTER: Record<NotificationType, keyof StackFindings> = {
  Drift: 'drifts',
  GhostResource: 'ghosts',
  UnmanagedResource: 'unmanaged',
  InsightDetected: 'insights',
};

const WEBHOOK_PROVIDERS = new Set(['aws', 'gcp', 'azurerm']);

/** A stack's status after a finding: drifts win over ghosts, which win over the rest. */
function statusAfter(stack: IacStack, findings: StackFindings): IacStack['status'] {
  if (findings.drifts > 0) return 'contains_drifts';
  if (findings.ghosts > 0) return 'contains_ghosts';
  return stack.status;
}

/**
 * Records a finding on a stack: updates the stack's `findings` counts and status as the explorer
 * shows them, adds the matching event, and queues the webhook notification of its kind.
 */
export function recordFinding(
  account: AccountStore,
  stackId: string,
  input: CheckedFinding,
  events: EventRecorder,
): { stack: IacStack; notification: WebhookPayload } | undefined {
  const stacks = account.explorer.stacks;
  const index = stacks.findIndex((s) => s.id === stackId);
  const stack = stacks[index];
  if (!stack) return undefined;
  const before = stack.findings ?? {
    drifts: 0,
    ghosts: 0,
    unmanaged: 0,
    insights: 0,
  };
  const findings = { ...before, [COUNTER[input.kind]]: before[COUNTER[input.kind]] + 1 };
  const status = statusAfter(stack, findings);
  const updated: IacStack = { ...stack, status, findings };
  stacks[index] = updated;

  const provider = stack.stackProviders.find((p) => p.isIntegrated) ?? stack.stackProviders[0];
  const providerType = provider && WEBHOOK_PROVIDERS.has(provider.providerType) ? provider.providerType : '';
  const integrationId = provider?.providerIntegrationId ?? PLATFORM_INTEGRATION_ID;
  const assetType = input.assetType ?? 'aws_s3_bucket';
  const name = input.name ?? `${stack.name}-resource`;
  const assetId = input.assetId ?? `${assetType}.${name}`;
  const region = input.region ?? 'us-east-1';

  events.record(account, {
    type: input.kind === 'InsightDetected' ? 'governance_violation' : 'iac_status_change',
    mutation: 'create',
    assetId,
    assetType,
    integrationId,
    providerType: provider?.providerType ?? 'iacm',
    attributes: {
      stackId: stack.id,
      stackName: stack.name,
      finding: input.kind,
      from: stack.status,
      to: status,
      drifts: input.drifts?.map((d) => d.keyName).join(','),
    },
  });

  const generated = generateNotification(input.kind, {
    accountId: account.account.id,
    accountName: account.account.name,
    assetType,
    integrationId,
    integrationIdentifier: provider?.providerAccountId ?? stack.id,
    integrationName: `${provider?.providerType ?? 'iac'} ${provider?.providerAccountId ?? stack.name}`,
    providerType,
    region,
    workflowId: stack.id,
  });
  const [first] = generated.samples;
  const sample = first
    ? {
        ...first,
        name,
        ARN: assetId,
        ...(input.kind === 'Drift'
          ? {
              drifts: (
                input.drifts ?? [{ keyName: 'tags.owner', iacValue: 'platform', providerValue: 'unknown' }]
              ).map((d) => ({ iacType: stack.stateType, ...d })),
            }
          : {}),
      }
    : undefined;
  const notification = { ...generated, samples: sample ? [sample] : [] } as WebhookPayload;
  events.queue(account, { kind: 'finding', stackId: stack.id }, notification);
  return { stack: updated, notification };
}

/**
 * `POST /__mock/stacks/{id}/findings`: records the finding on the stack in whichever account holds it
 * (404 otherwise). The finding comes checked (by the route, or by `control.recordFinding`, with
 * {@link FindingBody}).
 */
export function recordFindingOnStack(
  accounts: Iterable<AccountStore>,
  stackId: string,
  input: CheckedFinding,
  events: EventRecorder,
): { stack: IacStack; notification: WebhookPayload } {
  for (const account of accounts) {
    const result = recordFinding(account, stackId, input, events);
    if (result) return result;
  }
  throw notFound('IaC stack', stackId);
}
