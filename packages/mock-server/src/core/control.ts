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
import { type GuardrailEvaluation, globMatch } from '../domain/evaluate.js';
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

/**
 * The parts of a mock's state that `reset()` puts back to their start values, in the order it
 * resets them. Every piece of state a mock holds belongs to one of them; a new piece of state adds
 * its part here (and to the reset test).
 */
export const RESET_STAGES = ['data', 'webhooks', 'journal', 'faults', 'rateLimit', 'clock'] as const;

/**
 * One part of a mock's state that `reset()` restores:
 * - `data`: accounts and their records (the start seed's data, or the start snapshot), the outboxes,
 *   the generator of new ids and build numbers;
 * - `webhooks`: integrations, delivery attempts, deliveries in progress (cancelled), the retry policy;
 * - `journal`: the journaled requests and the request-id counter;
 * - `faults`: the waiting faults and the fault-id counter;
 * - `rateLimit`: the setting (as the options gave it) and the per-client counters;
 * - `clock`: the clock as the options gave it (not stopped, not moved).
 */
export type ResetStage = (typeof RESET_STAGES)[number];

/** A part of a mock's state that `reset()` puts back to its start value. */
export interface Resettable {
  /** Puts this part back to its start value. */
  reset(): void;
}

/** The control plane of a mock: in-process methods, and the same over HTTP under `/__mock`. */
export interface ControlPlane {
  /**
   * Puts the mock back to how it started: the start data (the seed and sizes of the options, or the
   * `state` it was created with), no webhook integrations or deliveries, an empty journal, no faults,
   * the rate limit and delivery policy of the options with empty counters, and the clock of the
   * options. Tokens issued before stay valid for accounts that still exist. `POST /__mock/reset`
   * answers `{ status: 'reset', restored: [...] }` naming the parts restored.
   */
  reset(): void;
  /** Generates new data from a seed and sizes (until the next reset, which returns to the start data). */
  seed(seed: number | string, sizes?: Partial<SeedSizes>): void;
  /** A JSON snapshot of the whole state. */
  getState(): MockState;
  /** Replaces the whole state with a snapshot (validated record by record); reset returns to the start data. */
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
  journal: Journal;
  faults: FaultBook;
  rateLimiter: RateLimiter;
  reset(): readonly ResetStage[];
  reseed(seed: number | string, sizes: Partial<SeedSizes>): void;
  setState(state: MockState): void;
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

/** A rate limit: at most `limit` requests per client address in any `windowMs`. */
export interface RateLimit {
  /** Requests allowed per window. */
  limit: number;
  /** The window, milliseconds. */
  windowMs: number;
}

/** The journal of answered requests, bounded, and the counter of request ids. */
export class Journal implements Resettable {
  readonly #entries: JournalEntry[] = [];
  readonly #limit: number;
  #requests = 0;

  /** Creates a journal keeping the last `limit` requests (none when `limit` ≤ 0). */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** The id of the next request (`req_0000000001`, counting from the start or the last reset). */
  nextRequestId(): string {
    return `req_${String(++this.#requests).padStart(10, '0')}`;
  }

  /** Whether the journal keeps anything (`journalLimit` > 0). */
  get enabled(): boolean {
    return this.#limit > 0;
  }

  /** Adds an entry, dropping the oldest beyond the limit. */
  add(entry: JournalEntry): void {
    if (this.#limit <= 0) return;
    this.#entries.push(entry);
    if (this.#entries.length > this.#limit) this.#entries.splice(0, this.#entries.length - this.#limit);
  }

  /** The last `limit` entries (all when absent), oldest first. */
  list(limit?: number): JournalEntry[] {
    return this.#entries.slice(limit === undefined ? 0 : Math.max(0, this.#entries.length - limit));
  }

  /** Empties the journal (request ids keep counting). */
  clear(): void {
    this.#entries.length = 0;
  }

  /** Empties the journal and counts request ids from 1 again. */
  reset(): void {
    this.clear();
    this.#requests = 0;
  }
}

/** The faults waiting to be injected, and the counter of fault ids. */
export class FaultBook implements Resettable {
  readonly #faults: Fault[] = [];
  #count = 0;

  /** Validates a rule and adds it; answers the stored fault. */
  add(rule: FaultRule): Fault {
    const parsed = parseOr400(FaultBody, rule);
    const fault: Fault = {
      ...stripUndefined(parsed),
      id: `fault_${++this.#count}`,
      remaining: parsed.times ?? 1,
    };
    this.#faults.push(fault);
    return { ...fault };
  }

  /** Copies of the faults still waiting. */
  list(): Fault[] {
    return this.#faults.map((f) => ({ ...f }));
  }

  /** Removes every fault. */
  clear(): void {
    this.#faults.length = 0;
  }

  /** Takes one use of the first fault matching the request, if any. */
  take(method: string, path: string): Fault | undefined {
    const index = this.#faults.findIndex(
      (f) => (f.method === undefined || f.method === method) && pathMatches(f.path, path),
    );
    const fault = this.#faults[index];
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults.splice(index, 1);
    return fault;
  }

  /** Removes every fault and numbers fault ids from 1 again. */
  reset(): void {
    this.clear();
    this.#count = 0;
  }
}

/** The rate limit per client address: its setting and the counters of recent requests. */
export class RateLimiter implements Resettable {
  readonly #start: RateLimit | undefined;
  #setting: RateLimit | undefined;
  readonly #hits = new Map<string, number[]>();

  /** Creates a limiter with its start setting (`undefined`: off). */
  constructor(start: RateLimit | undefined) {
    this.#start = start && { ...start };
    this.#setting = start && { ...start };
  }

  /** The current setting (`undefined`: off). */
  get setting(): RateLimit | undefined {
    return this.#setting && { ...this.#setting };
  }

  /** Changes the setting and empties the counters. */
  set(setting: RateLimit | undefined): void {
    this.#setting = setting && { ...setting };
    this.#hits.clear();
  }

  /** Counts a request of `client` at `now`; throws 429 with `Retry-After` when it is over the limit. */
  check(client: string, now: number): void {
    const limit = this.#setting;
    if (!limit) return;
    const hits = (this.#hits.get(client) ?? []).filter((t) => t > now - limit.windowMs);
    if (hits.length >= limit.limit) {
      const retryAfter = Math.max(1, Math.ceil(((hits[0] as number) + limit.windowMs - now) / 1000));
      this.#hits.set(client, hits);
      throw new HttpError(
        429,
        'rate_limited',
        `rate limit of ${limit.limit} requests per ${limit.windowMs / 1000} s exceeded; retry after ${retryAfter} s`,
        { headers: { 'retry-after': String(retryAfter) } },
      );
    }
    hits.push(now);
    this.#hits.set(client, hits);
  }

  /** Back to the start setting, with empty counters. */
  reset(): void {
    this.set(this.#start);
  }
}

/** The mock's clock over an underlying clock: stopped, moved, or running. */
export class MovableClock implements MockClock, Resettable {
  readonly #base: () => number;
  #frozenAt: number | undefined;
  #offset = 0;

  /** Creates a clock running from `base` (epoch milliseconds). */
  constructor(base: () => number) {
    this.#base = base;
  }

  /** The current instant, epoch milliseconds. */
  readonly now = (): number => this.#frozenAt ?? this.#base() + this.#offset;

  /** Stops the clock at an instant (epoch ms, ISO 8601 or a Date); `advance` moves it from there. */
  readonly set = (instant: number | string | Date): void => {
    const ms = typeof instant === 'number' ? instant : new Date(instant).getTime();
    if (!Number.isFinite(ms))
      throw new HttpError(400, 'validation_failed', 'clock: expected an instant (epoch ms or ISO 8601)');
    this.#frozenAt = ms;
  };

  /** Moves the clock by `ms` milliseconds (back, when negative). */
  readonly advance = (ms: number): void => {
    if (this.#frozenAt !== undefined) this.#frozenAt += ms;
    else this.#offset += ms;
  };

  /** Lets the clock run from the underlying clock again, unmoved. */
  readonly resume = (): void => {
    this.#frozenAt = undefined;
    this.#offset = 0;
  };

  /** Back to the underlying clock (as `resume`). */
  reset(): void {
    this.resume();
  }
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
  const plane: ControlPlane = {
    reset: () => {
      deps.reset();
    },
    seed: (seed, sizes = {}) => {
      const body = parseOr400(SeedBody, { seed, sizes });
      deps.reseed(body.seed, stripUndefined(body.sizes ?? {}));
    },
    getState: () => core.store.toState(),
    setState: (state) => deps.setState(parseOr400(StateSchema, state) as unknown as MockState),
    accounts: () => core.accounts(),
    journal: (limit) => deps.journal.list(limit),
    clearJournal: () => deps.journal.clear(),
    addFault: (rule) => deps.faults.add(rule),
    faults: () => deps.faults.list(),
    clearFaults: () => deps.faults.clear(),
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
    setRateLimit: (limit) => deps.rateLimiter.set(toRateLimit(limit)),
    handle: async (method, path, query, body) => {
      const ok = (value: unknown, status = 200): MockResponse => ({
        status,
        headers: value === undefined ? {} : { 'content-type': 'application/json' },
        body: value,
      });
      const route = `${method} ${path}`;
      switch (route) {
        case 'POST /__mock/reset':
          return ok({ status: 'reset', restored: [...deps.reset()] });
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
          const current = deps.rateLimiter.setting;
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
            `no control endpoint at ${path.slice(0, 120)}; see https://github.com/iacm/iacm/blob/main/docs/mock-server.md`,
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

/** The rate limit an option or `setRateLimit` names: `true` is the service's 500 per 60 s, `false` off. */
export function toRateLimit(
  option: boolean | { limit: number; windowSeconds: number } | undefined,
): RateLimit | undefined {
  if (!option) return undefined;
  if (option === true) return { limit: 500, windowMs: 60_000 };
  return { limit: option.limit, windowMs: option.windowSeconds * 1000 };
}

/**
 * Whether a fault's path pattern matches a path; `*` matches any characters. No regular expression
 * is built from the pattern (a user's): {@link globMatch} takes at most pattern x path steps.
 */
function pathMatches(pattern: string, path: string): boolean {
  return globMatch(pattern, path);
}
