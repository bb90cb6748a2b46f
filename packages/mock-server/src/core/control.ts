import {
  Backend,
  Event,
  GuardrailRule,
  IacStack,
  Module,
  Repository,
  type WebhookPayload,
  WorkspaceRun,
  WorkspaceSummary,
} from '@iacm/sdk/contract';
import { z } from 'zod';
import type { GuardrailEvaluation } from '../domain/evaluate.js';
import type { OutboxEntry } from '../domain/events.js';
import type { FindingInput } from '../domain/findings.js';
import type { SimulatedRunInput } from '../domain/simulate.js';
import {
  type DeliveryAttempt,
  type DeliveryPolicy,
  IntegrationCreateBody,
  IntegrationUpdateBody,
  type IntegrationView,
  type WebhookHub,
} from '../domain/webhooks.js';
import type { MockAccount, MockState, SeedSizes } from '../store/state.js';
import { HttpError, type MockResponse, notFound, parseOr400, validationError } from './http.js';

/** One journal entry: a request the mock answered, credentials redacted. */
export interface JournalEntry {
  /** The request id (`x-request-id` of the answer). */
  id: string;
  /** When the request arrived (ISO 8601). */
  time: string;
  /** HTTP method. */
  method: string;
  /** Path. */
  path: string;
  /** Query parameters. */
  query: Record<string, string | string[]>;
  /** Request headers; `authorization`, `cookie` and other secret headers read `[redacted]`. */
  headers: Record<string, string>;
  /** The request body; credential members read `[redacted]`. */
  body: unknown;
  /** The answer's status (0 when a fault dropped the connection). */
  status: number;
  /** How long the answer took, milliseconds. */
  durationMs: number;
  /** True when a fault dropped the connection. */
  dropped?: boolean;
}

/** A fault rule: the next `times` matching requests get this answer, delay or dropped connection. */
export interface FaultRule {
  /** Only requests with this method (any when absent). */
  method?: string | undefined;
  /** Path to match; `*` matches any characters (`/v2/guardrails*`). */
  path: string;
  /** How many matching requests it applies to. Default 1. */
  times?: number | undefined;
  /** Answer with this status instead of the real answer. */
  status?: number | undefined;
  /** Headers of the injected answer. */
  headers?: Record<string, string> | undefined;
  /** Body of the injected answer (default: the error body for `status`). */
  body?: unknown;
  /** Wait this long first; with no `status` and no `drop`, the real answer follows. */
  delayMs?: number | undefined;
  /** Close the connection without an answer. */
  drop?: boolean | undefined;
}

/** A stored fault with how many uses it has left. */
export interface Fault extends FaultRule {
  /** The fault's id. */
  id: string;
  /** Uses left. */
  remaining: number;
}

/** The control plane of a mock: in-process methods, and the same over HTTP under `/__mock`. */
export interface ControlPlane {
  /** Back to the seeded state (the state of the last seed, or the snapshot the mock started from). */
  reset(): void;
  /** Generates new data from a seed and sizes; it becomes the state `reset` goes back to. */
  seed(seed: number | string, sizes?: Partial<SeedSizes>): void;
  /** A JSON snapshot of the whole state. */
  getState(): MockState;
  /** Replaces the whole state with a snapshot (validated record by record). */
  setState(state: unknown): void;
  /** The accounts and their key pairs, primary first. */
  accounts(): MockAccount[];
  /** The last requests, oldest first (at most `limit`). */
  journal(limit?: number): JournalEntry[];
  /** Empties the journal. */
  clearJournal(): void;
  /** Adds a fault; returns it with its id. */
  addFault(rule: FaultRule): Fault;
  /** The faults still waiting. */
  faults(): Fault[];
  /** Removes every fault. */
  clearFaults(): void;
  /** Turns the rate limit on (`true` = 500 per 60 s, or a custom limit) or off (`false`). */
  setRateLimit(limit: boolean | { limit: number; windowSeconds: number }): void;
  /** Simulates a CI run on a workspace: the created run and the guardrail evaluation. */
  simulateRun(
    workspaceId: string,
    body: SimulatedRunInput,
  ): { run: WorkspaceRun; evaluation: GuardrailEvaluation };
  /** Records a finding on an IaC stack: the updated stack and the queued notification. */
  recordFinding(stackId: string, body: FindingInput): { stack: IacStack; notification: WebhookPayload };
  /** Dry-runs guardrail rules against a plan. */
  evaluate(body: unknown): GuardrailEvaluation;
  /** Notifications waiting for delivery. */
  outbox(accountId?: string): OutboxEntry[];
  /** The mock's clock. */
  clock: MockClock;
  /** Webhook integrations and deliveries. */
  webhooks: WebhookControl;
  /** Queues and delivers a notification (`{ notificationType, ...payload members }`). */
  notify(body: unknown): OutboxEntry;
  /** Waits until every webhook delivery in progress, retries included, has finished. */
  flushDeliveries(): Promise<void>;
  /** Serves the control plane over HTTP (the core calls it for paths under `/__mock`). */
  handle(
    method: string,
    path: string,
    query: Record<string, string | string[]>,
    body: unknown,
    requestId: string,
  ): Promise<MockResponse>;
}

interface ControlDeps {
  journal: JournalEntry[];
  faults: Fault[];
  reset(): void;
  reseed(seed: number | string, sizes: Partial<SeedSizes>): void;
  setState(state: MockState): void;
  setRateLimit(limit: { limit: number; windowMs: number } | undefined): void;
  rateLimit(): { limit: number; windowMs: number } | undefined;
}

interface CoreView {
  store: { toState(): MockState };
  accounts(): MockAccount[];
  simulateRun(workspaceId: string, body: unknown): { run: WorkspaceRun; evaluation: GuardrailEvaluation };
  recordFinding(stackId: string, body: unknown): { stack: IacStack; notification: WebhookPayload };
  evaluate(body: unknown): GuardrailEvaluation;
  outbox(accountId?: string): OutboxEntry[];
  notify(body: unknown): OutboxEntry;
  clock: MockClock;
  webhooks: WebhookHub;
}

/** The control plane's view of webhook integrations and deliveries. */
export interface WebhookControl {
  /** Creates an integration after a successful test delivery (primary account unless `accountId`). */
  create(body: unknown): Promise<IntegrationView>;
  /** The integrations, credentials shown by method only. */
  list(accountId?: string): IntegrationView[];
  /** Renames, moves or (with `replaceCredentials`) re-credentials an integration. */
  update(id: string, body: unknown): Promise<IntegrationView>;
  /** Removes an integration. */
  remove(id: string): void;
  /** Sends a test notification now. */
  test(id: string): Promise<DeliveryAttempt>;
  /** Recorded delivery attempts, headers redacted. */
  deliveries(integrationId?: string): DeliveryAttempt[];
  /** Changes the retry policy (attempts, baseDelayMs, timeoutMs). */
  setPolicy(policy: Partial<DeliveryPolicy>): DeliveryPolicy;
}

/** The mock's movable clock. */
export interface MockClock {
  /** The current instant, epoch milliseconds. */
  now(): number;
  /** Stops the clock at an instant (epoch ms, ISO 8601 or a Date). */
  set(instant: number | string | Date): void;
  /** Moves the clock by `ms` milliseconds. */
  advance(ms: number): void;
  /** Lets the clock run from the underlying clock again. */
  resume(): void;
}

const count = (max: number) => z.number().int().min(0).max(max);

/** Body of `POST /__mock/seed`. */
export const SeedBody = z.strictObject({
  seed: z.union([z.number().int(), z.string().min(1).max(200)]),
  sizes: z
    .strictObject({
      accounts: count(50).min(1).optional(),
      workspaces: count(1_000_000).optional(),
      runsPerWorkspace: count(1000).optional(),
      rules: count(100_000).optional(),
      stacks: count(1_000_000).optional(),
      events: count(10_000_000).optional(),
      integrations: count(1000).min(1).optional(),
    })
    .optional(),
});

/** Body of `POST /__mock/faults`. */
export const FaultBody = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  path: z.string().min(1).startsWith('/', { error: 'expected a path starting with /' }),
  times: z.number().int().min(1).max(1_000_000).optional(),
  status: z.number().int().min(200).max(599).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional(),
  delayMs: z.number().int().min(0).max(120_000).optional(),
  drop: z.boolean().optional(),
});

/** Body of `POST /__mock/clock`: stop it at `now`, move it by `advanceMs`, or `resume` it. */
export const ClockBody = z.strictObject({
  now: z.union([z.iso.datetime(), z.number().int()]).optional(),
  advanceMs: z.number().int().min(-315_360_000_000).max(315_360_000_000).optional(),
  resume: z.boolean().optional(),
});

/** Body of `PUT /__mock/deliveries/policy`. */
export const PolicyBody = z.strictObject({
  attempts: z.number().int().min(1).max(20).optional(),
  baseDelayMs: z.number().int().min(0).max(600_000).optional(),
  timeoutMs: z.number().int().min(1).max(600_000).optional(),
});

/** Body of `POST /__mock/rate-limit`. */
export const RateLimitBody = z.strictObject({
  enabled: z.boolean(),
  limit: z.number().int().min(1).max(1_000_000).optional(),
  windowSeconds: z.number().int().min(1).max(86_400).optional(),
});

const MockAccountSchema = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{24}$/),
  name: z.string(),
  accessKey: z.string().min(1),
  secretKey: z.string().min(1),
});

/** A snapshot, as `PUT /__mock/state` checks it. */
export const StateSchema = z.strictObject({
  version: z.literal(1),
  seed: z.union([z.number(), z.string()]),
  sizes: z.record(z.string(), z.number()),
  accounts: z
    .array(
      z.strictObject({
        account: MockAccountSchema,
        workspaces: z.array(WorkspaceSummary),
        runs: z.array(WorkspaceRun),
        rules: z.array(GuardrailRule),
        notifications: z.array(
          z.strictObject({
            id: z.string(),
            ruleId: z.string(),
            integrationIds: z.array(z.string()),
            createdAt: z.string(),
          }),
        ),
        stacks: z.array(IacStack),
        backends: z.array(Backend),
        modules: z.array(Module),
        repositories: z.array(Repository),
        events: z.array(Event),
      }),
    )
    .min(1),
});

/** Builds the control plane of a core. */
export function createControlPlane(core: CoreView, deps: ControlDeps): ControlPlane {
  let faultCount = 0;
  const plane: ControlPlane = {
    reset: () => deps.reset(),
    seed: (seed, sizes = {}) => {
      const body = parseOr400(SeedBody, { seed, sizes });
      deps.reseed(body.seed, stripUndefined(body.sizes ?? {}));
    },
    getState: () => core.store.toState(),
    setState: (state) => deps.setState(parseOr400(StateSchema, state) as unknown as MockState),
    accounts: () => core.accounts(),
    journal: (limit) =>
      deps.journal.slice(limit === undefined ? 0 : Math.max(0, deps.journal.length - limit)),
    clearJournal: () => {
      deps.journal.length = 0;
    },
    addFault: (rule) => {
      const parsed = parseOr400(FaultBody, rule);
      const fault: Fault = {
        ...stripUndefined(parsed),
        id: `fault_${++faultCount}`,
        remaining: parsed.times ?? 1,
      };
      deps.faults.push(fault);
      return { ...fault };
    },
    faults: () => deps.faults.map((f) => ({ ...f })),
    clearFaults: () => {
      deps.faults.length = 0;
    },
    simulateRun: (workspaceId, body) => core.simulateRun(workspaceId, body),
    recordFinding: (stackId, body) => core.recordFinding(stackId, body),
    evaluate: (body) => core.evaluate(body),
    outbox: (accountId) => core.outbox(accountId),
    clock: core.clock,
    notify: (body) => core.notify(body),
    flushDeliveries: () => core.webhooks.flush(),
    webhooks: {
      create: async (body) => {
        const parsed = parseOr400(IntegrationCreateBody, body ?? {});
        const accountId = parsed.accountId ?? core.accounts()[0]?.id;
        if (!accountId || !core.accounts().some((a) => a.id === accountId))
          throw notFound('account', parsed.accountId ?? '');
        return core.webhooks.create(accountId, parsed);
      },
      list: (accountId) => core.webhooks.list(accountId),
      update: async (id, body) => core.webhooks.update(id, parseOr400(IntegrationUpdateBody, body ?? {})),
      remove: (id) => core.webhooks.remove(id),
      test: (id) => core.webhooks.test(id),
      deliveries: (integrationId) => core.webhooks.attempts(integrationId),
      setPolicy: (policy) => core.webhooks.setPolicy(stripUndefined(parseOr400(PolicyBody, policy))),
    },
    setRateLimit: (limit) => {
      if (limit === false) deps.setRateLimit(undefined);
      else if (limit === true) deps.setRateLimit({ limit: 500, windowMs: 60_000 });
      else deps.setRateLimit({ limit: limit.limit, windowMs: limit.windowSeconds * 1000 });
    },
    handle: async (method, path, query, body) => {
      const ok = (value: unknown, status = 200): MockResponse => ({
        status,
        headers: value === undefined ? {} : { 'content-type': 'application/json' },
        body: value,
      });
      const route = `${method} ${path}`;
      switch (route) {
        case 'POST /__mock/reset':
          plane.reset();
          return ok({ status: 'reset' });
        case 'POST /__mock/seed': {
          const parsed = parseOr400(SeedBody, body ?? {});
          deps.reseed(parsed.seed, stripUndefined(parsed.sizes ?? {}));
          return ok({ status: 'seeded', seed: parsed.seed });
        }
        case 'GET /__mock/state':
          return ok(plane.getState());
        case 'PUT /__mock/state':
          plane.setState(body);
          return ok({ status: 'loaded' });
        case 'GET /__mock/accounts':
          return ok(plane.accounts());
        case 'GET /__mock/journal': {
          const limit = query.limit === undefined ? undefined : Number(query.limit);
          if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
            throw validationError([
              { location: 'query', path: 'limit', message: 'query.limit: expected a whole number ≥ 0' },
            ]);
          }
          return ok(plane.journal(limit));
        }
        case 'DELETE /__mock/journal':
          plane.clearJournal();
          return ok(undefined, 204);
        case 'POST /__mock/faults':
          return ok(plane.addFault(body as FaultRule), 201);
        case 'GET /__mock/faults':
          return ok(plane.faults());
        case 'DELETE /__mock/faults':
          plane.clearFaults();
          return ok(undefined, 204);
        case 'POST /__mock/rate-limit': {
          const parsed = parseOr400(RateLimitBody, body ?? {});
          plane.setRateLimit(
            parsed.enabled
              ? { limit: parsed.limit ?? 500, windowSeconds: parsed.windowSeconds ?? 60 }
              : false,
          );
          const current = deps.rateLimit();
          return ok(
            current
              ? { enabled: true, limit: current.limit, windowSeconds: current.windowMs / 1000 }
              : { enabled: false },
          );
        }
        case 'POST /__mock/integrations/webhook':
          return ok(await plane.webhooks.create(body), 201);
        case 'GET /__mock/integrations/webhook':
          return ok(plane.webhooks.list(typeof query.accountId === 'string' ? query.accountId : undefined));
        case 'GET /__mock/deliveries':
          return ok(plane.webhooks.deliveries());
        case 'POST /__mock/deliveries/flush':
          await plane.flushDeliveries();
          return ok(plane.webhooks.deliveries());
        case 'PUT /__mock/deliveries/policy':
          return ok(plane.webhooks.setPolicy(body as Partial<DeliveryPolicy>));
        case 'POST /__mock/notifications':
          return ok(plane.notify(body), 202);
        case 'POST /__mock/guardrails/evaluate':
          return ok(plane.evaluate(body));
        case 'GET /__mock/outbox': {
          const accountId = typeof query.accountId === 'string' ? query.accountId : undefined;
          return ok(plane.outbox(accountId));
        }
        case 'GET /__mock/clock':
          return ok({ now: new Date(plane.clock.now()).toISOString() });
        case 'POST /__mock/clock': {
          const parsed = parseOr400(ClockBody, body ?? {});
          if (parsed.resume) plane.clock.resume();
          if (parsed.now !== undefined) plane.clock.set(parsed.now);
          if (parsed.advanceMs !== undefined) plane.clock.advance(parsed.advanceMs);
          return ok({ now: new Date(plane.clock.now()).toISOString() });
        }
        default: {
          const run = /^\/__mock\/workspaces\/([^/]+)\/runs$/.exec(path);
          if (run && method === 'POST') {
            const result = plane.simulateRun(decodeURIComponent(run[1] as string), body as SimulatedRunInput);
            return ok({ run: result.run, evaluation: result.evaluation }, 201);
          }
          const finding = /^\/__mock\/stacks\/([^/]+)\/findings$/.exec(path);
          if (finding && method === 'POST') {
            return ok(
              plane.recordFinding(decodeURIComponent(finding[1] as string), body as FindingInput),
              201,
            );
          }
          const integration = /^\/__mock\/integrations\/webhook\/([^/]+)(\/test|\/deliveries)?$/.exec(path);
          if (integration) {
            const id = decodeURIComponent(integration[1] as string);
            const route = `${method} ${integration[2] ?? ''}`;
            if (route === 'PATCH ') return ok(await plane.webhooks.update(id, body));
            if (route === 'DELETE ') {
              plane.webhooks.remove(id);
              return ok(undefined, 204);
            }
            if (route === 'POST /test') return ok(await plane.webhooks.test(id));
            if (route === 'GET /deliveries') {
              if (!plane.webhooks.list().some((i) => i.id === id)) throw notFound('webhook integration', id);
              return ok(plane.webhooks.deliveries(id));
            }
            const allow = integration[2] === '/test' ? 'POST' : integration[2] ? 'GET' : 'PATCH, DELETE';
            throw new HttpError(
              405,
              'method_not_allowed',
              `${method} is not allowed on ${path}; allowed: ${allow}`,
              { headers: { allow } },
            );
          }
          if (run || finding)
            throw new HttpError(
              405,
              'method_not_allowed',
              `${method} is not allowed on ${path}; allowed: POST`,
              { headers: { allow: 'POST' } },
            );
          const known = [
            '/__mock/reset',
            '/__mock/seed',
            '/__mock/state',
            '/__mock/accounts',
            '/__mock/journal',
            '/__mock/faults',
            '/__mock/rate-limit',
          ];
          if (known.includes(path))
            throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${path}`);
          throw new HttpError(
            404,
            'route_not_found',
            `no control endpoint at ${path.slice(0, 120)}; see docs/mock-server.md`,
          );
        }
      }
    },
  };
  return plane;
}

type Defined<T> = { [K in keyof T]: Exclude<T[K], undefined> };

function stripUndefined<T extends object>(value: T): Defined<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Defined<T>;
}
