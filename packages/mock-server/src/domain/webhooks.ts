import { NOTIFICATION_TYPES, ObjectId, type WebhookPayload } from '@iacm/sdk/contract';
import { encodeAuthorization, generateNotification, type WebhookCredentials } from '@iacm/webhook-receiver';
import { z } from 'zod';
import { HttpError, notFound } from '../errors.js';
import type { OutboxEntry } from './events.js';

/** Credentials of a webhook integration as the control plane takes them: Basic, or one header value. */
export const IntegrationCredentialsSchema = z.union([
  z.strictObject({
    basic: z.strictObject({ username: z.string().min(1).max(256), password: z.string().min(1).max(1024) }),
  }),
  z.strictObject({ authorization: z.string().min(1).max(4096) }),
]);

const WebhookUrl = z
  .string()
  .max(2048)
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { error: 'expected an absolute http(s) URL' },
  );

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

function checkCredentials(value: unknown, ctx: z.RefinementCtx): void {
  if (value === undefined || value === null || value === 'none') return;
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
  /** The URL, exactly as entered. */
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
  /** When it started (ISO 8601). */
  time: string;
  /** The endpoint's status, or 0 when there was no answer. */
  status: number;
  /** How long it took, milliseconds. */
  durationMs: number;
  /** The network error, when there was no answer. */
  error?: string;
  /** What came of it: delivered, retrying, or given up (failed). */
  outcome: 'delivered' | 'retrying' | 'failed';
  /** The request headers sent; `authorization` reads `[redacted]`. */
  headers: Record<string, string>;
}

interface StoredIntegration {
  view: IntegrationView;
  method: CredentialMethod;
  sealed: { iv: Uint8Array<ArrayBuffer>; data: Uint8Array<ArrayBuffer> } | undefined;
}

/** Delivery retry policy. */
export interface DeliveryPolicy {
  /** Attempts in all (first try included). Default 5. */
  attempts: number;
  /** Delay before the first retry, doubled each time, milliseconds. Default 1000. */
  baseDelayMs: number;
  /** Timeout of one attempt, milliseconds. Default 10000. */
  timeoutMs: number;
}

/** The default delivery policy: 5 attempts, 1 s, 2 s, 4 s, 8 s apart, 10 s timeout each. */
export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = { attempts: 5, baseDelayMs: 1000, timeoutMs: 10_000 };

/**
 * The mock's webhook integrations and deliveries. Credentials are sealed with AES-GCM under a key
 * made for this instance (WebCrypto) and opened only to build the `Authorization` header of a
 * delivery; they are never returned, journaled or put into a snapshot.
 */
export class WebhookHub {
  readonly #integrations = new Map<string, StoredIntegration>();
  readonly #attempts: DeliveryAttempt[] = [];
  readonly #pending = new Set<Promise<void>>();
  readonly #key = crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #fetch: typeof fetch;
  readonly #startPolicy: DeliveryPolicy;
  #policy: DeliveryPolicy;
  #count = 0;
  /** Aborted by `clear` and `reset`: deliveries in progress stop, an integration being created is not stored. */
  #generation = new AbortController();

  /** Creates the hub. */
  constructor(options: {
    now: () => number;
    newId: () => string;
    fetch?: typeof fetch;
    policy?: Partial<DeliveryPolicy>;
  }) {
    this.#now = options.now;
    this.#newId = options.newId;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#startPolicy = { ...DEFAULT_DELIVERY_POLICY, ...options.policy };
    this.#policy = { ...this.#startPolicy };
  }

  /** Changes the retry policy (tests shorten the delays). */
  setPolicy(policy: Partial<DeliveryPolicy>): DeliveryPolicy {
    this.#policy = { ...this.#policy, ...policy };
    return { ...this.#policy };
  }

  /**
   * Forgets every integration and attempt, and stops the deliveries in progress (their remaining
   * attempts are not made or recorded). The policy and the attempt-id counter stay.
   */
  clear(): void {
    this.#generation.abort();
    this.#generation = new AbortController();
    this.#integrations.clear();
    this.#attempts.length = 0;
  }

  /** As {@link WebhookHub.clear}, and back to the start policy, attempt ids counted from 1 again. */
  reset(): void {
    this.clear();
    this.#policy = { ...this.#startPolicy };
    this.#count = 0;
  }

  /** The integrations (of one account, or all). */
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

  /** Waits until every delivery in progress (retries included) has finished. */
  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /**
   * Creates an integration after a successful test delivery to its URL. A failed test (no answer or
   * a non-2xx status) creates nothing and answers 422 saying to check the URL and the credential value.
   */
  async create(accountId: string, body: z.output<typeof IntegrationCreateBody>): Promise<IntegrationView> {
    const generation = this.#generation.signal;
    const credentials = toCredentials(body.credentials);
    const id = this.#newId();
    const now = new Date(this.#now()).toISOString();
    const stored: StoredIntegration = {
      view: {
        id,
        accountId,
        nickname: body.nickname,
        url: body.url,
        credentials: { method: methodOf(credentials) },
        status: 'active',
        createdAt: now,
        updatedAt: now,
      },
      method: methodOf(credentials),
      sealed: await this.#seal(credentials),
    };
    const attempt = await this.#send(stored, 'test', 'test', generateNotification('test'), 1, false);
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
    const generation = this.#generation.signal;
    if (body.nickname !== undefined) stored.view.nickname = body.nickname;
    if (body.url !== undefined) stored.view.url = body.url;
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
    return this.#send(this.#get(id), 'test', 'test', generateNotification('test'), 1, true);
  }

  /** Delivers a queued notification to the given integrations (all of the account when `integrationIds` is empty). */
  deliver(accountId: string, entry: OutboxEntry, integrationIds: readonly string[] = []): void {
    const targets = [...this.#integrations.values()].filter(
      (i) =>
        i.view.accountId === accountId && (integrationIds.length === 0 || integrationIds.includes(i.view.id)),
    );
    const generation = this.#generation.signal;
    for (const target of targets) {
      const task = this.#deliverWithRetries(target, entry, generation).finally(() =>
        this.#pending.delete(task),
      );
      this.#pending.add(task);
    }
  }

  async #deliverWithRetries(
    target: StoredIntegration,
    entry: OutboxEntry,
    generation: AbortSignal,
  ): Promise<void> {
    const policy = this.#policy;
    for (let attempt = 1; attempt <= policy.attempts; attempt++) {
      if (generation.aborted) return;
      const last = attempt === policy.attempts;
      const result = await this.#send(
        target,
        entry.id,
        entry.payload.notificationType,
        entry.payload,
        attempt,
        !last,
        generation,
      );
      if (result.outcome !== 'retrying') return;
      await pause(policy.baseDelayMs * 2 ** (attempt - 1), generation);
    }
  }

  /** Sends one delivery and records the attempt; updates the integration's status from the answer. */
  async #send(
    target: StoredIntegration,
    notificationId: string,
    kind: string,
    payload: WebhookPayload | { text: string },
    attempt: number,
    mayRetry: boolean,
    generation: AbortSignal = this.#generation.signal,
  ): Promise<DeliveryAttempt> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'iacm-mock-webhooks/1',
    };
    const credentials = await this.#open(target);
    const authorization = credentials ? encodeAuthorization(credentials) : undefined;
    const started = this.#now();
    const wallStart = Date.now();
    let status = 0;
    let error: string | undefined;
    try {
      const response = await this.#fetch(target.view.url, {
        method: 'POST',
        headers: authorization ? { ...headers, authorization } : headers,
        body: JSON.stringify(payload),
        signal: AbortSignal.any([AbortSignal.timeout(this.#policy.timeoutMs), generation]),
        redirect: 'manual',
      });
      status = response.status;
      // Not awaited: under MSW 2.15's patched fetch the cancel only settles when the signal fires
      // (mswjs/interceptors#799), which would hold every delivery for the whole timeout.
      void response.body?.cancel().catch(() => {});
    } catch (cause) {
      error = cause instanceof Error ? `${cause.name}: ${cause.message}` : 'network error';
    }
    const delivered = status >= 200 && status < 300;
    const retryable = !delivered && (status === 0 || status >= 500 || status === 429 || status === 408);
    const outcome: DeliveryAttempt['outcome'] = delivered
      ? 'delivered'
      : retryable && mayRetry
        ? 'retrying'
        : 'failed';
    if (delivered) target.view.status = 'active';
    else if (status === 401) target.view.status = 'invalid_credentials';
    else if (status === 403) target.view.status = 'missing_write_permission';
    else if (outcome === 'failed') target.view.status = 'failing';
    const record: DeliveryAttempt = {
      id: `dlv_${String(++this.#count).padStart(6, '0')}`,
      integrationId: target.view.id,
      notificationId,
      kind,
      attempt,
      time: new Date(started).toISOString(),
      status,
      durationMs: Date.now() - wallStart,
      ...(error ? { error } : {}),
      outcome,
      headers: authorization ? { ...headers, authorization: '[redacted]' } : headers,
    };
    // Only for an integration still stored (not one removed, or from before a reset, that had the same id).
    if (this.#integrations.get(target.view.id) === target) this.#attempts.push(record);
    if (this.#attempts.length > 10_000) this.#attempts.splice(0, this.#attempts.length - 10_000);
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

/** Waits `ms` milliseconds, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
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
