/**
 * The rows of what the service does on its own: simulated runs, dry runs, findings, notifications,
 * webhook deliveries. Rows of the control table (`../table.ts`); `../declare.ts` says what a row
 * holds.
 *
 * @module
 */
import type { IacStack, WebhookPayload, WorkspaceRun } from '@iacm/sdk/contract';
import { DeliveryPolicyBody } from '../../domain/delivery-policy.js';
import { EvaluateBody } from '../../domain/dry-run.js';
import type { GuardrailEvaluation } from '../../domain/evaluate.js';
import type { OutboxEntry } from '../../domain/events.js';
import { FindingBody, type FindingInput } from '../../domain/findings.js';
import { type RunTimingInput, SimulatedRunBody, type SimulatedRunInput } from '../../domain/simulate.js';
import type { TimedRunAnswer } from '../../domain/timed-runs.js';
import {
  type DeliveryAttempt,
  type DeliveryPolicy,
  IntegrationCreateBody,
  IntegrationUpdateBody,
  type IntegrationView,
  NotificationBody,
} from '../../domain/webhooks.js';
import { answers, capability } from '../declare.js';

/** The rows of what the service does on its own: simulated runs, dry runs, findings, notifications, webhook deliveries. */
export const ACTIVITY_ROWS = {
  /**
   * Simulates a CI run on a workspace (`POST /__mock/workspaces/{id}/runs`): evaluated against the
   * guardrail rules, stored, events recorded; 201 with the run and the evaluation. With `timing`, the
   * run lives on the mock's clock (`docs/mock-server.md`, "Runs that live in time"): 202 with its id
   * and schedule, and the run as it is now (`null` before it starts).
   */
  simulateRun: capability<
    // Timed (scheduled on the clock), finished at once, or either.
    {
      (workspaceId: string, body: SimulatedRunInput & { timing: RunTimingInput }): TimedRunAnswer;
      (
        workspaceId: string,
        body: SimulatedRunInput & { timing?: undefined },
      ): { run: WorkspaceRun; evaluation: GuardrailEvaluation };
      (
        workspaceId: string,
        body: SimulatedRunInput,
      ): { run: WorkspaceRun; evaluation: GuardrailEvaluation } | TimedRunAnswer;
    }
  >()({
    route: {
      method: 'POST',
      path: '/__mock/workspaces/{id}/runs',
      summary: 'simulate a CI run, evaluated against the guardrail rules',
      body: SimulatedRunBody,
      status: (answer: object) => ('schedule' in answer ? 202 : 201),
    },
    call: {
      sync: true,
      params: ['workspaceId', 'body'],
      args: (workspaceId, body) => ({ params: { id: workspaceId }, body }),
      docs: 'control.simulateRun(id, body)',
    },
    resetStage: 'data',
    docs: {
      about:
        'simulate a CI run: evaluated against the guardrail rules, stored, events recorded ([guardrails.md](guardrails.md)); 201 `{ run, evaluation }`; with `timing`, 202 and the run lives on the mock\'s clock ([guardrails.md](guardrails.md), "Runs that live in time")',
    },
    writes: ['data', 'timedRuns'],
  }),
  /** Dry-runs guardrail rules against a plan (`POST /__mock/guardrails/evaluate`); stores nothing. */
  evaluate: capability<(body: unknown) => GuardrailEvaluation>()({
    route: {
      method: 'POST',
      path: '/__mock/guardrails/evaluate',
      summary: 'dry-run guardrail rules against a plan; stores nothing',
      body: EvaluateBody,
    },
    call: { sync: true, params: ['body'], args: (body) => ({ body }) },
    docs: { about: 'dry-run rules against a plan; stores nothing' },
    writes: [],
  }),
  /** Records a finding on an IaC stack: the updated stack and the queued notification. */
  recordFinding: capability<
    (stackId: string, body: FindingInput) => { stack: IacStack; notification: WebhookPayload }
  >()({
    route: {
      method: 'POST',
      path: '/__mock/stacks/{id}/findings',
      summary: 'record a finding on an IaC stack',
      body: FindingBody,
      status: 201,
    },
    call: {
      sync: true,
      params: ['stackId', 'body'],
      args: (stackId, body) => ({ params: { id: stackId }, body }),
      docs: 'control.recordFinding(id, body)',
    },
    resetStage: 'data',
    docs: { about: 'record a finding (below); 201 `{ stack, notification }`' },
    writes: ['data'],
  }),
  /** Notifications waiting for delivery, oldest first: of one account, or of all. */
  outbox: capability<(accountId?: string) => OutboxEntry[]>()({
    route: {
      method: 'GET',
      path: '/__mock/outbox',
      summary: 'notifications queued for delivery (?accountId=)',
    },
    call: { sync: true, params: ['accountId'], args: (accountId) => ({ query: { accountId } }) },
    docs: { about: 'notifications queued for delivery (violations, findings, manual)' },
    writes: [],
  }),
  /** Queues and delivers a notification (`{ notificationType, ...payload members }`). */
  notify: capability<(body: unknown) => OutboxEntry>()({
    route: {
      method: 'POST',
      path: '/__mock/notifications',
      summary: 'queue and deliver a notification',
      body: NotificationBody,
      status: 202,
    },
    call: { sync: true, params: ['body'], args: (body) => ({ body }) },
    resetStage: 'data',
    docs: {
      about:
        'queue and deliver a notification: `{ "notificationType": "Drift", ...members to override }`; 202',
    },
    writes: ['data', 'webhooks'],
  }),
  /** Webhook integrations and their deliveries (`control.webhooks.*`). */
  webhooks: {
    /** Creates an integration after a successful test delivery (primary account unless `accountId`). */
    create: capability<(body: unknown) => Promise<IntegrationView>>()({
      route: {
        method: 'POST',
        path: '/__mock/integrations/webhook',
        summary: 'create a webhook integration',
        body: IntegrationCreateBody,
        status: 201,
      },
      call: { sync: false, params: ['body'], args: (body) => ({ body: body ?? undefined }) },
      resetStage: 'webhooks',
      docs: { about: 'create a webhook integration (after a successful test delivery)' },
      writes: ['webhooks'],
    }),
    /** The integrations, credentials shown by method only. */
    list: capability<(accountId?: string) => IntegrationView[]>()({
      route: {
        method: 'GET',
        path: '/__mock/integrations/webhook',
        summary: 'the webhook integrations (?accountId=)',
      },
      call: { sync: true, params: ['accountId'], args: (accountId) => ({ query: { accountId } }) },
      docs: { about: 'integrations with their status; credentials by method only' },
      writes: [],
    }),
    /** Renames, moves or (with `replaceCredentials`) re-credentials an integration. */
    update: capability<(id: string, body: unknown) => Promise<IntegrationView>>()({
      route: {
        method: 'PATCH',
        path: '/__mock/integrations/webhook/{id}',
        summary: 'rename it, change its URL or credentials',
        body: IntegrationUpdateBody,
      },
      call: {
        sync: false,
        params: ['id', 'body'],
        args: (id, body) => ({ params: { id }, body: body ?? undefined }),
      },
      resetStage: 'webhooks',
      docs: { about: 'rename, change the URL, or replace credentials' },
      writes: ['webhooks'],
    }),
    /** Removes an integration. */
    remove: capability<(id: string) => void>()({
      route: {
        method: 'DELETE',
        path: '/__mock/integrations/webhook/{id}',
        summary: 'remove it',
        status: 204,
      },
      call: { sync: true, params: ['id'], args: (id) => ({ params: { id } }) },
      resetStage: 'webhooks',
      docs: { about: 'remove an integration' },
      writes: ['webhooks'],
    }),
    /** Sends a test notification now. */
    test: capability<(id: string) => Promise<DeliveryAttempt>>()({
      route: {
        method: 'POST',
        path: '/__mock/integrations/webhook/{id}/test',
        summary: 'send it a test notification now',
      },
      call: { sync: false, params: ['id'], args: (id) => ({ params: { id } }) },
      resetStage: 'webhooks',
      docs: { about: 'send a test notification now' },
      writes: ['webhooks'],
    }),
    /** `GET /__mock/integrations/webhook/{id}/deliveries`: one integration's attempts (404 for an unknown one). */
    integrationDeliveries: capability()({
      route: {
        method: 'GET',
        path: '/__mock/integrations/webhook/{id}/deliveries',
        summary: 'its delivery attempts',
      },
      answer: answers<DeliveryAttempt[]>(),
      docs: {
        about: "one integration's delivery attempts",
        call: 'over HTTP only (`control.webhooks.deliveries(id)` answers `[]` for an unknown id)',
      },
      writes: [],
    }),
    /** Recorded delivery attempts (of one integration, or all), headers redacted. */
    deliveries: capability<(integrationId?: string) => DeliveryAttempt[]>()({
      route: {
        method: 'GET',
        path: '/__mock/deliveries',
        summary: 'every delivery attempt (?integrationId=)',
      },
      call: {
        sync: true,
        params: ['integrationId'],
        args: (integrationId) => ({ query: { integrationId } }),
        docs: 'control.webhooks.deliveries(id?)',
      },
      docs: {
        about: 'every delivery attempt (time, status, duration, error, outcome; headers redacted)',
        request: '`GET /__mock/deliveries?integrationId=`',
      },
      writes: [],
    }),
    /** Sends the retries due by the mock's clock now (moving the clock does this too); resolves when they have finished. */
    runDue: capability<() => Promise<void>>()({
      route: {
        method: 'POST',
        path: '/__mock/deliveries/run-due',
        summary: "send the retries due by the mock's clock now",
      },
      call: { sync: false, args: () => ({}), result: () => undefined },
      answer: answers<DeliveryAttempt[]>(),
      resetStage: 'webhooks',
      docs: { about: "send the retries due by the mock's clock now (moving the clock does this too)" },
      writes: ['webhooks'],
    }),
    /** Changes the retry policy (attempts, baseDelayMs, maxDelayMs, maxTotalMs, timeoutMs). */
    setPolicy: capability<(policy: Partial<DeliveryPolicy>) => DeliveryPolicy>()({
      route: {
        method: 'PUT',
        path: '/__mock/deliveries/policy',
        summary: 'delivery retries: { attempts, baseDelayMs, maxDelayMs, maxTotalMs, timeoutMs }',
        body: DeliveryPolicyBody,
      },
      call: {
        sync: true,
        params: ['policy'],
        args: (policy) => ({ body: policy }),
        docs: 'control.webhooks.setPolicy(p)',
      },
      resetStage: 'webhooks',
      docs: {
        about:
          '`{ attempts, baseDelayMs, maxDelayMs, maxTotalMs, timeoutMs }` of delivery retries (ranges: [webhooks.md](webhooks.md#deliveries-from-the-mock-server))',
      },
      writes: ['webhooks'],
      option: { option: 'deliveryPolicy' },
    }),
  },
  /** Waits until every webhook delivery in progress, retries included, has finished. */
  flushDeliveries: capability<() => Promise<void>>()({
    route: {
      method: 'POST',
      path: '/__mock/deliveries/flush',
      summary: 'wait until every delivery in progress has finished',
    },
    call: { sync: false, args: () => ({}), result: () => undefined },
    answer: answers<DeliveryAttempt[]>(),
    resetStage: 'webhooks',
    docs: {
      about:
        'send every remaining retry at once (each recorded at the instant it was due; the clock does not move) and wait until all deliveries have finished',
    },
    writes: ['webhooks'],
  }),
} as const;
