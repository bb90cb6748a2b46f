/**
 * `@iacm/mock-server`: a stateful in-memory reference server for the IaC management service API.
 *
 * - {@link createMockServer}: MSW handlers for `setupServer` (Node) and `setupWorker` (browser).
 * - {@link MockCore}: the transport-free core (a plain request in, a plain response out).
 * - `@iacm/mock-server/node`: `listen()`, the standalone `node:http` server, and `MockCore`, without
 *   msw (this root entry imports msw, an optional peer); the `iacm-mock` CLI.
 *
 * @packageDocumentation
 */

export {
  type CreateMockServerOptions,
  createMockServer,
  handleFetchRequest,
  type MockServer,
  toFetchResponse,
} from './adapters/msw.js';
export { SUPPORTED_MSW_RANGE, UnsupportedMswError } from './adapters/msw-support.js';
export {
  type MockUnhandledRequestCallback,
  type MockUnhandledRequestOptions,
  type UnhandledFrameArgs,
  UnhandledRequestError,
  unhandledRequestOptions,
  unhandledRequestStrategy,
} from './adapters/unhandled-request.js';
export { MockCore, type MockOptions } from './app/mock.js';
export { OPTION_RANGES } from './app/options.js';
export {
  DEFAULT_SESSION_BOUNDS,
  SESSION_HEADER,
  SESSION_RANGES,
  SESSIONS_MEMORY_BUDGET,
  type SessionBounds,
} from './app/sessions.js';
export { DEFAULT_LOGIN_THROTTLE, LOGIN_THROTTLE_RANGES, type LoginThrottleOption } from './auth/login.js';
export type { ControlExposure } from './control/access.js';
export { ClockBody } from './control/clock.js';
export type { LiveFeed, LiveFeedOptions } from './control/live.js';
export type { ControlPlane, ControlPlaneServer, WebhookControl } from './control/plane.js';
export { RateLimitBody } from './control/rate-limit.js';
export { RESET_STAGES, type ResetStage } from './control/reset.js';
export type { SessionCreated, SessionView } from './control/route.js';
export { SeedBody } from './control/seed.js';
export { StateSchema } from './control/state.js';
export { PolicyBody } from './control/webhooks.js';
export { type AccountLimits, DEFAULT_ACCOUNT_LIMITS } from './domain/caps.js';
export { DELIVERY_POLICY_RANGES, MIN_RETRY_DELAY_MS } from './domain/delivery-policy.js';
export { EvaluateBody } from './domain/dry-run.js';
export {
  evaluateGuardrails,
  type GuardrailEvaluation,
  globMatch,
  listMatches,
  type RuleOutcome,
  scopeMatches,
  summarise,
} from './domain/evaluate.js';
export {
  type EventInput,
  MAX_EVENT_ATTRIBUTE_LENGTH,
  type OutboxEntry,
  PLATFORM_INTEGRATION_ID,
} from './domain/events.js';
export { FindingBody, type FindingInput, type StackFindings } from './domain/findings.js';
export type { PlanChange, PlanContent, PolicyFinding, RunScope } from './domain/plan.js';
export { DEFAULT_RETENTION, RETENTION_RANGES, type RetentionBounds } from './domain/retention.js';
export {
  MAX_LISTED_SKIPS,
  parseScenarioAt,
  SCENARIO_LIMITS,
  type Scenario,
  type ScenarioAccountRef,
  type ScenarioAnswer,
  type ScenarioAt,
  type ScenarioFindingStep,
  type ScenarioLabelsStep,
  type ScenarioNotifyStep,
  type ScenarioProgress,
  type ScenarioRunStep,
  type ScenarioStep,
  type SkippedStep,
} from './domain/scenario.js';
export {
  PlanContentSchema,
  RUN_TIMING_RANGE,
  RunScopeSchema,
  RunTimingBody,
  type RunTimingInput,
  SimulatedRunBody,
  type SimulatedRunInput,
} from './domain/simulate.js';
export { type RunSchedule, TIMED_RUN_LIMITS, type TimedRunAnswer } from './domain/timed-runs.js';
export {
  type CredentialMethod,
  DEFAULT_DELIVERY_POLICY,
  type DeliveryAttempt,
  type DeliveryPolicy,
  type DroppedDeliveries,
  IntegrationCreateBody,
  type IntegrationStatus,
  IntegrationUpdateBody,
  type IntegrationView,
  NotificationBody,
  WebhookHub,
  type WebhookHubOptions,
  type WebhookLedgers,
} from './domain/webhooks.js';
export type { NumberRange } from './errors/ranges.js';
export { HttpError } from './errors.js';
export type { HandleOptions, MockRequest, MockResponse } from './http/message.js';
export type { EndpointBody, EndpointParams, EndpointQuery } from './operations/operation.js';
export type { MockClock } from './pipeline/clock.js';
export {
  type EndpointFaultTarget,
  type Fault,
  type FaultAction,
  FaultBody,
  type FaultRule,
  type PathFaultTarget,
} from './pipeline/faults.js';
export { JOURNAL_RANGES, type JournalEntry, type JournalInput } from './pipeline/journal.js';
export type { JournalCall } from './pipeline/journal-calls.js';
export {
  type ApiErrorStatus,
  ONE_OFF_LIMITS,
  type OneOff,
  type OneOffAnswer,
  type OneOffAnswerBase,
  OneOffBody,
  type OneOffSuccessBody,
} from './pipeline/one-off.js';
export { RATE_LIMIT_RANGES, type TrustProxy } from './pipeline/rate-limit.js';
export {
  type ArrayMatching,
  type DeepPartial,
  MATCH_LIMITS,
  type OneOffMatch,
} from './pipeline/request-match.js';
export {
  type DeliveryKind,
  HTTP_WAIT_TIMEOUT_RANGE,
  type NextDeliveryOptions,
  WAIT_LIMITS,
  WAIT_TIMEOUT_RANGE,
  type WaitForOptions,
  type WaitForRunOptions,
  type WaitSince,
} from './pipeline/waiters.js';
export { Collection, type QueryOptions } from './query/collection.js';
export type { SortValue } from './query/compare.js';
export {
  BUDGET_RANGES,
  BUDGET_STORES,
  type BudgetFull,
  type BudgetOptions,
  type BudgetStore,
  type BudgetStoreInfo,
  type BudgetView,
  DEFAULT_BUDGET_BYTES,
  type Evictor,
  Ledger,
  MemoryBudget,
} from './store/budget.js';
export { SIZE_RANGES } from './store/seed/limits.js';
export {
  SCENE_IAC_TYPES,
  SCENE_LIMITS,
  type Scene,
  type SceneAccount,
  type SceneEvent,
  type SceneModule,
  type SceneRule,
  type SceneRun,
  type SceneStack,
  type SceneWebhook,
  type SceneWorkspace,
  scene,
} from './store/seed/scene.js';
export { type GenerateStateOptions, generateState } from './store/seed.js';
export {
  type AccountState,
  DEFAULT_SEED,
  DEFAULT_SIZES,
  type MockAccount,
  type MockState,
  type NotificationConfig,
  SEED_EPOCH,
  type SeedSizes,
} from './store/state.js';
export { AccountStore, Store } from './store/store.js';
export { VERSION } from './version.js';
