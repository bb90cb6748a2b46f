import { NOTIFICATION_TYPES, ObjectId, type WebhookPayload } from '@iacm/sdk/contract';
import { encodeAuthorization, generateNotification, type WebhookCredentials } from '@iacm/webhook-receiver';
import * as z from 'zod';
import { HttpError, notFound, parseOr400, validationError } from '../errors.js';
import { Random } from '../store/random.js';
import {
  DEFAULT_DELIVERY_POLICY,
  type DeliveryPolicy,
  DeliveryPolicyBody,
  parseRetryAfter,
  retryDelay,
  toDeliveryPolicy,
} from './delivery-policy.js';
import type { OutboxEntry } from './events.js';
import { type RetentionBounds, toRetentionBounds } from './retention.js';
import { hasControlCharacter, redactUrl, scrubUrl, webhookUrlProblem } from './webhook-url.js';

export { DEFAULT_DELIVERY_POLICY, type DeliveryPolicy } from './delivery-policy.js';

const CONTROL_CHARACTERS =
  'must not contain control characters (CR, LF, tab, NUL, DEL...): in a header they would end or split it';

/** Credentials of a webhook integration as the control plane takes them: Basic, or one header value. */
export const IntegrationCredentialsSchema = z.union([
  z.strictObject({
    basic: z.strictObject({
      username: z
        .string()
        .min(1)
        .max(256)
        .refine((v) => !hasControlCharacter(v), { error: CONTROL_CHARACTERS }),
      password: z
        .string()
        .min(1)
        .max(1024)
        .refine((v) => !hasControlCharacter(v), { error: CONTROL_CHARACTERS }),
    }),
  }),
  z.strictObject({
    authorization: z
      .string()
      .min(1)
      .max(4096)
      .refine((v) => !hasControlCharacter(v), { error: CONTROL_CHARACTERS }),
  }),
]);

/**
 * The URL as a string; what it must be (an absolute http(s) URL without a user name, password or
 * control characters) is checked by the hub, whose 400 describes what came without its secrets.
 */
const WebhookUrl = z.string().min(1).max(2048);

/** Body of `POST /__mock/integrations/webhook`. */
export const IntegrationCreateBody = z
  .strictObject({
    nickname: z.string().trim().min(1).max(256),
    url: WebhookUrl,
    credentials: z.unknown().optional(),
    accountId: ObjectId.toLowerCase().optional(),
  })
  .superRefine((body, ctx) => checkCredentials(body.credentials, ctx));

/** Body of `PATCH /__mock/integrations/webhook/{id}`. */
export const IntegrationUpdateBody = z
  .strictObject({
    nickname: z.string().trim().min(1).max(256).optional(),
    url: WebhookUrl.optional(),
    replaceCredentials: z.boolean().optional(),
    credentials: z.unknown().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.credentials !== undefined && body.replaceCredentials !== true) {
      ctx.addIssue({
        code: 'custom',
        path: ['replaceCredentials'],
        message:
          'set replaceCredentials: true to change the stored credentials (without it they stay unchanged)',
      });
    }
    checkCredentials(body.credentials, ctx);
  });

/** Body of `POST /__mock/notifications`: a notification to deliver (a full payload, or a kind to generate). */
export const NotificationBody = z.looseObject({
  notificationType: z.enum(NOTIFICATION_TYPES),
  accountId: ObjectId.toLowerCase().optional(),
});

/** The string at `path` inside `value`, if there is one. */
function stringAt(value: unknown, path: readonly string[]): string | undefined {
  let current = value;
  for (const part of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return typeof current === 'string' ? current : undefined;
}

function checkCredentials(value: unknown, ctx: z.RefinementCtx): void {
  if (value === undefined || value === null || value === 'none') return;
  // Named by the field; the value is never echoed (under `credentials`, issues describe strings by length).
  let controls = false;
  for (const path of [['authorization'], ['basic', 'username'], ['basic', 'password']]) {
    const text = stringAt(value, path);
    if (text !== undefined && hasControlCharacter(text)) {
      ctx.addIssue({ code: 'custom', path: ['credentials', ...path], message: CONTROL_CHARACTERS });
      controls = true;
    }
  }
  if (controls) return;
  if (typeof value === 'object' && 'basic' in value && 'authorization' in value) {
    ctx.addIssue({
      code: 'custom',
      path: ['credentials'],
      message: 'Basic credentials and an Authorization header value are mutually exclusive; give one',
    });
    return;
  }
  const parsed = IntegrationCredentialsSchema.safeParse(value);
  if (!parsed.success) {
    ctx.addIssue({
      code: 'custom',
      path: ['credentials'],
      message: 'expected { basic: { username, password } }, { authorization: "<Scheme> <value>" } or none',
    });
  }
}

/** How an integration authenticates, as listings show it (never the values). */
export type CredentialMethod = 'none' | 'basic' | 'authorization';

/** The status of an integration, from its latest delivery. */
export type IntegrationStatus = 'active' | 'invalid_credentials' | 'missing_write_permission' | 'failing';

/** A webhook integration as the control plane lists it: credentials are shown by method only. */
export interface IntegrationView {
  /** The integration's id. */
  id: string;
  /** The account it belongs to. */
  accountId: string;
  /** Its nickname. */
  nickname: string;
  /**
   * The URL as entered, its secret-looking query parameters (`?token=`, `?api_key=`...) reading
   * `[redacted]` (deliveries go to the URL exactly as entered).
   */
  url: string;
  /** How deliveries authenticate (the values are never returned). */
  credentials: { method: CredentialMethod };
  /** From the latest delivery: 401 → invalid_credentials, 403 → missing_write_permission, retries exhausted → failing. */
  status: IntegrationStatus;
  /** When it was created. */
  createdAt: string;
  /** When it was last changed. */
  updatedAt: string;
}

/** One delivery attempt, recorded with headers redacted. */
export interface DeliveryAttempt {
  /** The attempt's id. */
  id: string;
  /** The integration it went to. */
  integrationId: string;
  /** The outbox entry it delivers (or `test`). */
  notificationId: string;
  /** `test`, or the notification type. */
  kind: string;
  /** 1 for the first try. */
  attempt: number;
  /**
   * When it was made, on the mock's clock (ISO 8601); a retry that `flush` sent before its instant
   * came reads the instant it was due.
   */
  time: string;
  /** The endpoint's status, or 0 when there was no answer. */
  status: number;
  /** How long it took, milliseconds. */
  durationMs: number;
  /** The network error, when there was no answer. */
  error?: string;
  /** What came of it: delivered, retrying, or given up (failed). */
  outcome: 'delivered' | 'retrying' | 'failed';
  /** When the next attempt is due on the mock's clock (ISO 8601): only when `outcome` is `retrying`. */
  nextAttemptAt?: string;
  /** The request headers sent; `authorization` reads `[redacted]`. */
  headers: Record<string, string>;
}

interface StoredIntegration {
  /** The view, its URL redacted. */
  view: IntegrationView;
  /** The URL as entered: where deliveries go. */
  url: string;
  method: CredentialMethod;
  sealed: { iv: Uint8Array<ArrayBuffer>; data: Uint8Array<ArrayBuffer> } | undefined;
}

/** One notification on its way to one integration: its next attempt and when it is due. */
interface Delivery {
  readonly target: StoredIntegration;
  readonly entry: OutboxEntry;
  /** The policy when it was queued (a later `setPolicy` applies to later notifications). */
  readonly policy: DeliveryPolicy;
  readonly generation: AbortSignal;
  /** The instant of the first attempt, mock clock. */
  readonly firstAt: number;
  /** The number of the next attempt (1 for the first). */
  attempt: number;
  /** When the next attempt is due, mock clock. */
  dueAt: number;
}

/** How many records the hub's retention bounds dropped. */
export interface DroppedDeliveries {
  /** Delivery attempt records dropped (the oldest) to stay within `deliveryAttempts`. */
  attempts: number;
  /** Deliveries given up while waiting for a retry (the longest waiting) to stay within `waitingRetries`. */
  retries: number;
}

/** Options of a {@link WebhookHub}. */
export interface WebhookHubOptions {
  /** The mock's clock, epoch milliseconds: retries are due at its instants. */
  now: () => number;
  /** Makes integration ids. */
  newId: () => string;
  /** The `fetch` deliveries use. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** The retry policy (over {@link DEFAULT_DELIVERY_POLICY}), checked against its documented ranges. */
  policy?: Partial<DeliveryPolicy>;
  /**
   * The mock's seed (read at each use). Each retry's jitter comes from a generator seeded with it,
   * the notification, the integration and the attempt number: the same for the same seed, whatever
   * else runs concurrently. Default `1`.
   */
  seed?: () => number | string;
  /** Bounds on attempt records and waiting retries (over `DEFAULT_RETENTION`). */
  retention?: Partial<Pick<RetentionBounds, 'deliveryAttempts' | 'waitingRetries'>>;
}

/** The largest delay `setTimeout` takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The most webhook integrations a mock keeps, over all accounts (a further create is a 409). */
export const MAX_INTEGRATIONS = 1000;

/**
 * The mock's webhook integrations and deliveries. Credentials are sealed with AES-GCM under a key
 * made for this instance (WebCrypto) and opened only to build the `Authorization` header of a
 * delivery; they are never returned, journaled or put into a snapshot.
 *
 * Retries are due at instants of the mock's clock. {@link WebhookHub.runDue} sends those whose
 * instant has come (a timer calls it while the clock runs; moving the clock and calling it is how a
 * test steps through them); {@link WebhookHub.flush} sends every remaining one at once, each recorded
 * at the instant it was due, without moving the clock.
 */
export class WebhookHub {
  readonly #integrations = new Map<string, StoredIntegration>();
  readonly #attempts: DeliveryAttempt[] = [];
  /** Attempts being made now. */
  readonly #running = new Set<Promise<void>>();
  /** Deliveries waiting for their next attempt, longest waiting first. */
  readonly #waiting = new Set<Delivery>();
  readonly #key = crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #fetch: typeof fetch;
  readonly #seed: () => number | string;
  readonly #bounds: Pick<RetentionBounds, 'deliveryAttempts' | 'waitingRetries'>;
  readonly #startPolicy: DeliveryPolicy;
  #policy: DeliveryPolicy;
  #count = 0;
  #dropped: DroppedDeliveries = { attempts: 0, retries: 0 };
  /** The wall-time timer that runs the earliest waiting retry, and the instant it was set for. */
  #timer: { handle: ReturnType<typeof setTimeout>; for: number } | undefined;
  /** Aborted by `clear` and `reset`: deliveries in progress stop, an integration being created is not stored. */
  #generation = new AbortController();

  /**
   * Creates the hub.
   * @throws RangeError when the policy or a bound is outside its documented range.
   */
  constructor(options: WebhookHubOptions) {
    this.#now = options.now;
    this.#newId = options.newId;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#seed = options.seed ?? (() => 1);
    this.#startPolicy = toDeliveryPolicy(options.policy);
    this.#policy = { ...this.#startPolicy };
    const bounds = toRetentionBounds(options.retention ?? {});
    this.#bounds = { deliveryAttempts: bounds.deliveryAttempts, waitingRetries: bounds.waitingRetries };
  }

  /**
   * Changes the retry policy; each member within its documented range, else a 400 naming it, the
   * range and what came. Deliveries already under way keep the policy they started with.
   */
  setPolicy(policy: Partial<DeliveryPolicy>): DeliveryPolicy {
    const checked = parseOr400(DeliveryPolicyBody, policy);
    for (const [name, value] of Object.entries(checked)) {
      if (value !== undefined) this.#policy[name as keyof DeliveryPolicy] = value;
    }
    return { ...this.#policy };
  }

  /**
   * Forgets every integration and attempt, and stops the deliveries in progress and waiting (their
   * remaining attempts are not made or recorded). The policy and the attempt-id counter stay.
   */
  clear(): void {
    this.#generation.abort();
    this.#generation = new AbortController();
    this.#integrations.clear();
    this.#attempts.length = 0;
    this.#waiting.clear();
    this.#dropped = { attempts: 0, retries: 0 };
    this.#disarm();
  }

  /** As {@link WebhookHub.clear}, and back to the start policy, attempt ids counted from 1 again. */
  reset(): void {
    this.clear();
    this.#policy = { ...this.#startPolicy };
    this.#count = 0;
  }

  /** The integrations (of one account, or all); URLs with secret-looking query parameters redacted. */
  list(accountId?: string): IntegrationView[] {
    return [...this.#integrations.values()]
      .filter((i) => !accountId || i.view.accountId === accountId)
      .map((i) => ({ ...i.view }));
  }

  /** The recorded delivery attempts, oldest first (of one integration, or all). */
  attempts(integrationId?: string): DeliveryAttempt[] {
    return this.#attempts
      .filter((a) => !integrationId || a.integrationId === integrationId)
      .map((a) => ({ ...a }));
  }

  /** How many attempt records and waiting retries the retention bounds dropped since the last clear. */
  dropped(): DroppedDeliveries {
    return { ...this.#dropped };
  }

  /** When each waiting retry is due, earliest first (epoch milliseconds of the mock's clock). */
  waiting(): number[] {
    return [...this.#waiting].map((d) => d.dueAt).sort((a, b) => a - b);
  }

  /**
   * Sends every retry that is due on the mock's clock, and waits until those and the attempts under
   * way have finished. Retries they schedule are due later (at least 100 ms on): they wait for the
   * clock. Call it after moving the clock to step through a schedule.
   */
  async runDue(): Promise<void> {
    for (;;) {
      const now = this.#now();
      for (const delivery of [...this.#waiting]) {
        if (delivery.dueAt > now) continue;
        this.#waiting.delete(delivery);
        this.#start(delivery);
      }
      if (this.#running.size === 0) break;
      await Promise.allSettled([...this.#running]);
    }
    this.#arm();
  }

  /**
   * Waits until every delivery has finished, retries included: retries not yet due are sent at once,
   * each recorded at the instant it was due (the clock does not move).
   */
  async flush(): Promise<void> {
    for (;;) {
      const waiting = [...this.#waiting];
      this.#waiting.clear();
      for (const delivery of waiting) this.#start(delivery);
      if (this.#running.size === 0) break;
      await Promise.allSettled([...this.#running]);
    }
    this.#disarm();
  }

  /**
   * Creates an integration after a successful test delivery to its URL. A failed test (no answer or
   * a non-2xx status) creates nothing and answers 422 saying to check the URL and the credential value.
   */
  async create(accountId: string, body: z.output<typeof IntegrationCreateBody>): Promise<IntegrationView> {
    checkUrl(body.url);
    if (this.#integrations.size >= MAX_INTEGRATIONS) {
      throw new HttpError(
        409,
        'conflict',
        `${MAX_INTEGRATIONS} webhook integrations exist already, the most a mock keeps: remove some first`,
      );
    }
    const generation = this.#generation.signal;
    const credentials = toCredentials(body.credentials);
    const id = this.#newId();
    const now = new Date(this.#now()).toISOString();
    const stored: StoredIntegration = {
      url: body.url,
      view: {
        id,
        accountId,
        nickname: body.nickname,
        url: redactUrl(body.url),
        credentials: { method: methodOf(credentials) },
        status: 'active',
        createdAt: now,
        updatedAt: now,
      },
      method: methodOf(credentials),
      sealed: await this.#seal(credentials),
    };
    const attempt = await this.#test(stored);
    if (generation.aborted) {
      throw new HttpError(
        409,
        'conflict',
        'the mock was reset, or its state replaced, while this integration was being created; it was not created: create it again',
      );
    }
    if (attempt.outcome !== 'delivered') {
      const why = attempt.status
        ? `the endpoint answered ${attempt.status}`
        : `no answer (${attempt.error ?? 'network error'})`;
      throw new HttpError(
        422,
        'unprocessable_entity',
        `invalid webhook URL: the test delivery to the URL failed (${why}); check the URL and the credential value. The integration was not created`,
      );
    }
    if (this.#integrations.size >= MAX_INTEGRATIONS) {
      throw new HttpError(
        409,
        'conflict',
        `${MAX_INTEGRATIONS} webhook integrations exist already; it was not created`,
      );
    }
    this.#integrations.set(id, stored);
    return { ...stored.view };
  }

  /**
   * Edits an integration. Without `replaceCredentials` the stored credentials stay unchanged; with
   * it, the new method replaces the old one (a header value clears a username and password, Basic
   * clears a header value, none clears both).
   */
  async update(id: string, body: z.output<typeof IntegrationUpdateBody>): Promise<IntegrationView> {
    const stored = this.#get(id);
    if (body.url !== undefined) checkUrl(body.url);
    const generation = this.#generation.signal;
    if (body.nickname !== undefined) stored.view.nickname = body.nickname;
    if (body.url !== undefined) {
      stored.url = body.url;
      stored.view.url = redactUrl(body.url);
    }
    if (body.replaceCredentials) {
      const credentials = toCredentials(body.credentials);
      stored.method = methodOf(credentials);
      stored.view.credentials = { method: stored.method };
      const sealed = await this.#seal(credentials);
      if (generation.aborted) throw notFound('webhook integration', id);
      stored.sealed = sealed;
      stored.view.status = 'active';
    }
    stored.view.updatedAt = new Date(this.#now()).toISOString();
    return { ...stored.view };
  }

  /** Removes an integration. */
  remove(id: string): void {
    this.#get(id);
    this.#integrations.delete(id);
  }

  /** Sends a test notification to an integration now; answers the attempt. */
  async test(id: string): Promise<DeliveryAttempt> {
    return this.#test(this.#get(id));
  }

  /** Delivers a queued notification to the given integrations (all of the account when `integrationIds` is empty). */
  deliver(accountId: string, entry: OutboxEntry, integrationIds: readonly string[] = []): void {
    const targets = [...this.#integrations.values()].filter(
      (i) =>
        i.view.accountId === accountId && (integrationIds.length === 0 || integrationIds.includes(i.view.id)),
    );
    const now = this.#now();
    for (const target of targets) {
      this.#start({
        target,
        entry,
        policy: { ...this.#policy },
        generation: this.#generation.signal,
        firstAt: now,
        attempt: 1,
        dueAt: now,
      });
    }
  }

  /** Makes a delivery's next attempt now. */
  #start(delivery: Delivery): void {
    const task = this.#attempt(delivery).finally(() => this.#running.delete(task));
    this.#running.add(task);
  }

  /** Makes one attempt of a delivery, records it, and schedules the next one when it is to be retried. */
  async #attempt(delivery: Delivery): Promise<void> {
    const { target, entry, policy, generation } = delivery;
    if (generation.aborted || this.#integrations.get(target.view.id) !== target) return;
    // Sent when due: at once, or (flushed early) recorded at the instant it was due.
    const at = Math.max(this.#now(), delivery.dueAt);
    const sent = await this.#post(target, entry.payload, policy.timeoutMs, generation);
    let nextAt: number | undefined;
    if (sent.retryable && delivery.attempt < policy.attempts) {
      const jitter = new Random(
        `webhooks:${String(this.#seed())}:${entry.id}:${target.view.id}:${delivery.attempt}`,
      );
      const due = at + retryDelay(policy, delivery.attempt, jitter, sent.retryAfterMs);
      if (due - delivery.firstAt <= policy.maxTotalMs) nextAt = due;
    }
    const recorded = this.#record(
      target,
      entry.id,
      entry.payload.notificationType,
      delivery.attempt,
      at,
      sent,
      {
        mayRetry: nextAt !== undefined,
        ...(nextAt !== undefined ? { nextAt } : {}),
      },
    );
    if (recorded.outcome !== 'retrying' || nextAt === undefined || generation.aborted) return;
    if (this.#integrations.get(target.view.id) !== target) return;
    delivery.attempt += 1;
    delivery.dueAt = nextAt;
    this.#wait(delivery);
  }

  /** Puts a delivery among those waiting (the longest waiting one given up past the bound). */
  #wait(delivery: Delivery): void {
    while (this.#waiting.size >= this.#bounds.waitingRetries) {
      const oldest = this.#waiting.values().next();
      if (oldest.done) break;
      this.#waiting.delete(oldest.value);
      this.#dropped.retries += 1;
    }
    this.#waiting.add(delivery);
    if (!this.#timer || delivery.dueAt < this.#timer.for) this.#arm();
  }

  /**
   * Sets the wall-time timer for the earliest waiting retry: while the mock's clock runs, it comes due
   * then. A clock stopped or moved back is checked again later (at least every 100 ms); moving it
   * forward takes effect at the next check, or at once with {@link WebhookHub.runDue}. The timer does
   * not keep a Node process alive.
   */
  #arm(): void {
    this.#disarm();
    let earliest = Number.POSITIVE_INFINITY;
    for (const delivery of this.#waiting) if (delivery.dueAt < earliest) earliest = delivery.dueAt;
    if (earliest === Number.POSITIVE_INFINITY) return;
    const wait = Math.min(Math.max(earliest - this.#now(), 100), MAX_TIMER_MS);
    const handle = setTimeout(() => {
      this.#timer = undefined;
      void this.runDue();
    }, wait);
    (handle as { unref?: () => void }).unref?.();
    this.#timer = { handle, for: earliest };
  }

  #disarm(): void {
    if (this.#timer) clearTimeout(this.#timer.handle);
    this.#timer = undefined;
  }

  /** Sends the test notification to an integration and records the attempt (never retried). */
  async #test(target: StoredIntegration): Promise<DeliveryAttempt> {
    const at = this.#now();
    const sent = await this.#post(target, generateNotification('test'), this.#policy.timeoutMs);
    return this.#record(target, 'test', 'test', 1, at, sent, { mayRetry: false });
  }

  /** POSTs a payload to an integration's URL: what came back, errors scrubbed of the URL's secrets. */
  async #post(
    target: StoredIntegration,
    payload: WebhookPayload | { text: string },
    timeoutMs: number,
    generation: AbortSignal = this.#generation.signal,
  ): Promise<Sent> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'iacm-mock-webhooks/1',
    };
    const credentials = await this.#open(target);
    const authorization = credentials ? encodeAuthorization(credentials) : undefined;
    const wallStart = Date.now();
    let status = 0;
    let error: string | undefined;
    let retryAfterMs: number | undefined;
    try {
      const response = await this.#fetch(target.url, {
        method: 'POST',
        headers: authorization ? { ...headers, authorization } : headers,
        body: JSON.stringify(payload),
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), generation]),
        redirect: 'manual',
      });
      status = response.status;
      retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
      // Not awaited: under MSW 2.15's patched fetch the cancel only settles when the signal fires
      // (mswjs/interceptors#799), which would hold every delivery for the whole timeout.
      void response.body?.cancel().catch(() => {});
    } catch (cause) {
      const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : 'network error';
      error = scrubUrl(text, target.url);
    }
    const delivered = status >= 200 && status < 300;
    return {
      status,
      ...(error !== undefined ? { error } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      durationMs: Date.now() - wallStart,
      delivered,
      retryable: !delivered && (status === 0 || status >= 500 || status === 429 || status === 408),
      headers: authorization ? { ...headers, authorization: '[redacted]' } : headers,
    };
  }

  /** Records one attempt (for an integration still stored) and updates the integration's status from it. */
  #record(
    target: StoredIntegration,
    notificationId: string,
    kind: string,
    attempt: number,
    at: number,
    sent: Sent,
    next: { mayRetry: boolean; nextAt?: number },
  ): DeliveryAttempt {
    const outcome: DeliveryAttempt['outcome'] = sent.delivered
      ? 'delivered'
      : sent.retryable && next.mayRetry
        ? 'retrying'
        : 'failed';
    if (sent.delivered) target.view.status = 'active';
    else if (sent.status === 401) target.view.status = 'invalid_credentials';
    else if (sent.status === 403) target.view.status = 'missing_write_permission';
    else if (outcome === 'failed') target.view.status = 'failing';
    const record: DeliveryAttempt = {
      id: `dlv_${String(++this.#count).padStart(6, '0')}`,
      integrationId: target.view.id,
      notificationId,
      kind,
      attempt,
      time: new Date(at).toISOString(),
      status: sent.status,
      durationMs: sent.durationMs,
      ...(sent.error !== undefined ? { error: sent.error } : {}),
      outcome,
      ...(outcome === 'retrying' && next.nextAt !== undefined
        ? { nextAttemptAt: new Date(next.nextAt).toISOString() }
        : {}),
      headers: sent.headers,
    };
    // Only for an integration still stored (not one removed, or from before a reset, that had the same id).
    if (this.#integrations.get(target.view.id) === target) {
      this.#attempts.push(record);
      const excess = this.#attempts.length - this.#bounds.deliveryAttempts;
      if (excess > 0) {
        this.#attempts.splice(0, excess);
        this.#dropped.attempts += excess;
      }
    }
    return record;
  }

  #get(id: string): StoredIntegration {
    const stored = this.#integrations.get(id);
    if (!stored) throw notFound('webhook integration', id);
    return stored;
  }

  async #seal(credentials: WebhookCredentials | undefined): Promise<StoredIntegration['sealed']> {
    if (!credentials) return undefined;
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv },
      await this.#key,
      new TextEncoder().encode(JSON.stringify(credentials)),
    );
    return { iv, data: new Uint8Array(data) };
  }

  async #open(target: StoredIntegration): Promise<WebhookCredentials | undefined> {
    if (!target.sealed) return undefined;
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: target.sealed.iv },
      await this.#key,
      target.sealed.data,
    );
    return JSON.parse(new TextDecoder().decode(plain)) as WebhookCredentials;
  }
}

/** What one POST of a delivery gave. */
interface Sent {
  /** The endpoint's status, 0 when there was no answer. */
  status: number;
  /** The network error (scrubbed of the URL's secrets), when there was no answer. */
  error?: string;
  /** What `Retry-After` asked, milliseconds. */
  retryAfterMs?: number;
  /** Wall time it took. */
  durationMs: number;
  /** 2xx. */
  delivered: boolean;
  /** No answer, 408, 429 or 5xx. */
  retryable: boolean;
  /** The request headers, `authorization` redacted. */
  headers: Record<string, string>;
}

/** A 400 naming `url` when the URL is not one the mock takes; what came is described without its secrets. */
function checkUrl(url: string): void {
  const problem = webhookUrlProblem(url);
  if (!problem) return;
  throw validationError([
    {
      location: 'body',
      path: 'url',
      message: `body.url: ${problem.message}, received ${problem.received}`,
      expected: problem.expected,
      received: problem.received,
    },
  ]);
}

function toCredentials(value: unknown): WebhookCredentials | undefined {
  if (value === undefined || value === null || value === 'none') return undefined;
  const parsed = IntegrationCredentialsSchema.parse(value);
  return 'basic' in parsed
    ? { type: 'basic', username: parsed.basic.username, password: parsed.basic.password }
    : { type: 'header', value: parsed.authorization };
}

function methodOf(credentials: WebhookCredentials | undefined): CredentialMethod {
  if (!credentials) return 'none';
  return credentials.type === 'basic' ? 'basic' : 'authorization';
}
