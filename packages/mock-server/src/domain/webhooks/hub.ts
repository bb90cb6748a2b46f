/**
 * The webhook hub: the one object the mock and its control plane hold for webhooks. It wires the
 * four parts, each with one job (the integration registry `integrations.ts`, the delivery queue and
 * its retry rule `queue.ts`, the sender `sender.ts`, the attempt log `attempt-log.ts`), keeps the
 * delivery policy (taken checked: parsed by `DeliveryPolicyBody` once, by the route or the in-process
 * control method), and the generation that a clear or reset aborts.
 *
 * The memory budget: integrations and deliveries under way are charged to its `webhooks` ledger
 * (a create or an edit past it is a 409 `budget_exceeded`; a delivery past it is not made, and is
 * recorded as a failed attempt saying why, since a notification never fails the request that queued
 * it), and attempt records to its `attempts` ledger (the oldest dropped first). A clear or reset
 * gives everything back.
 *
 * @module
 */
import { generateNotification } from '@iacm/webhook-receiver';
import { HttpError } from '../../errors.js';
import type { Ledger } from '../../store/budget.js';
import {
  applyPolicyPatch,
  type DeliveryPolicy,
  type DeliveryPolicyPatch,
  toDeliveryPolicy,
} from '../delivery-policy.js';
import type { OutboxEntry } from '../events.js';
import { type RetentionBounds, toRetentionBounds } from '../retention.js';
import { AttemptLog, type DeliveryAttempt } from './attempt-log.js';
import type { IntegrationCreateInput, IntegrationUpdateInput } from './bodies.js';
import {
  IntegrationRegistry,
  type IntegrationView,
  noteAttempt,
  type StoredIntegration,
} from './integrations.js';
import { type Delivery, DeliveryQueue, deliveryBytes } from './queue.js';
import { type Sent, WebhookSender } from './sender.js';

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
  /** The retry policy (over `DEFAULT_DELIVERY_POLICY`), checked against its documented ranges. */
  policy?: Partial<DeliveryPolicy>;
  /**
   * The mock's seed (read at each use). Each retry's jitter comes from a generator seeded with it,
   * the notification, the integration and the attempt number: the same for the same seed, whatever
   * else runs concurrently. Default `1`.
   */
  seed?: () => number | string;
  /** Bounds on attempt records and waiting retries (over `DEFAULT_RETENTION`). */
  retention?: Partial<Pick<RetentionBounds, 'deliveryAttempts' | 'waitingRetries'>>;
  /**
   * Told of every delivery attempt once it is recorded (kept in the attempt log or not: a test
   * delivery of an integration being created is not), with the integration it went to: the mock's
   * waiters (`control.nextDelivery`). It must not throw.
   */
  onAttempt?: (attempt: DeliveryAttempt, integration: IntegrationView) => void;
  /**
   * The memory budget's ledgers the hub charges (`store/budget.ts`): `webhooks`, the integrations
   * and the deliveries under way (refused past the budget); `attempts`, the attempt log (the oldest
   * dropped first). Each absent one: an unbounded ledger of its own.
   */
  ledgers?: WebhookLedgers | undefined;
}

/** The memory budget's ledgers of a {@link WebhookHub} (see {@link WebhookHubOptions.ledgers}). */
export interface WebhookLedgers {
  /** The `webhooks` ledger: integrations and deliveries under way. */
  webhooks?: Ledger | undefined;
  /** The `attempts` ledger: the attempt log's records. */
  attempts?: Ledger | undefined;
}

/** The error of the attempt recorded for a delivery the memory budget had no room for. */
export const BUDGET_DROPPED_ERROR =
  "not sent: the mock's memory budget (budget.bytes) has no room for another delivery under way (webhooks); advance the clock so that deliveries end, delete integrations, or raise budget.bytes";

/**
 * The mock's webhook integrations and deliveries. Credentials are sealed by the sender (a one-time
 * pad of random bytes only it holds) and opened only to build the `Authorization` header of a
 * delivery; they are never returned, journaled or put into a snapshot.
 *
 * Retries are due at instants of the mock's clock. {@link WebhookHub.runDue} sends those whose
 * instant has come (a timer calls it while the clock runs; moving the clock and calling it is how a
 * test steps through them); {@link WebhookHub.flush} sends every remaining one at once, each recorded
 * at the instant it was due, without moving the clock.
 */
export class WebhookHub {
  readonly #integrations: IntegrationRegistry;
  readonly #sender: WebhookSender;
  readonly #log: AttemptLog;
  readonly #queue: DeliveryQueue;
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #onAttempt: WebhookHubOptions['onAttempt'];
  readonly #startPolicy: DeliveryPolicy;
  #policy: DeliveryPolicy;
  /** Aborted by `clear` and `reset`: deliveries in progress stop, an integration being created is not stored. */
  #generation = new AbortController();

  /**
   * Creates the hub.
   * @throws RangeError when the policy or a bound is outside its documented range.
   */
  constructor(options: WebhookHubOptions) {
    this.#now = options.now;
    this.#newId = options.newId;
    this.#onAttempt = options.onAttempt;
    this.#integrations = new IntegrationRegistry(options.ledgers?.webhooks);
    this.#sender = new WebhookSender(options.fetch);
    this.#startPolicy = toDeliveryPolicy(options.policy);
    this.#policy = { ...this.#startPolicy };
    const bounds = toRetentionBounds(options.retention ?? {});
    this.#log = new AttemptLog(bounds.deliveryAttempts, options.ledgers?.attempts);
    const seed = options.seed ?? (() => 1);
    this.#queue = new DeliveryQueue({
      now: options.now,
      seed,
      waitingRetries: bounds.waitingRetries,
      holds: (target) => this.#integrations.holds(target),
      send: (delivery) =>
        this.#sender.post(
          delivery.target,
          delivery.entry.payload,
          delivery.policy.timeoutMs,
          delivery.generation,
        ),
      record: (delivery, at, sent, nextAt) => this.#record(delivery, at, sent, nextAt),
      ledger: options.ledgers?.webhooks,
    });
  }

  /**
   * Changes the retry policy: the members `policy` gives, already checked against their documented
   * ranges (by `DeliveryPolicyBody`: the route's schema, which `control.webhooks.setPolicy` runs
   * too). Deliveries already under way keep the policy they started with.
   */
  setPolicy(policy: DeliveryPolicyPatch): DeliveryPolicy {
    this.#policy = applyPolicyPatch(this.#policy, policy);
    return { ...this.#policy };
  }

  /**
   * Forgets every integration and attempt, and stops the deliveries in progress and waiting (their
   * remaining attempts are not made or recorded); what they were charged to the memory budget is
   * given back. The policy and the attempt-id counter stay.
   */
  clear(): void {
    this.#generation.abort();
    this.#generation = new AbortController();
    this.#integrations.clear();
    this.#log.clear();
    this.#queue.clear();
  }

  /** As {@link WebhookHub.clear}, and back to the start policy, attempt ids counted from 1 again. */
  reset(): void {
    this.clear();
    this.#policy = { ...this.#startPolicy };
    this.#log.reset();
  }

  /** The integrations (of one account, or all); URLs with secret-looking query parameters redacted. */
  list(accountId?: string): IntegrationView[] {
    return this.#integrations.list(accountId);
  }

  /** The recorded delivery attempts, oldest first (of one integration, or all). */
  attempts(integrationId?: string): DeliveryAttempt[] {
    return this.#log.list(integrationId);
  }

  /**
   * The kept delivery attempts made after attempt number `after`, oldest first, at most `limit`
   * (`AttemptLog.after`): what the live page's poll reads.
   */
  attemptsAfter(
    after: number,
    limit: number,
  ): { attempts: DeliveryAttempt[]; restarted: boolean; more: boolean } {
    return this.#log.after(after, limit);
  }

  /** How many attempt records and waiting retries the retention bounds dropped since the last clear. */
  dropped(): DroppedDeliveries {
    return { attempts: this.#log.dropped, retries: this.#queue.dropped };
  }

  /** When each waiting retry is due, earliest first (epoch milliseconds of the mock's clock). */
  waiting(): number[] {
    return this.#queue.waiting();
  }

  /**
   * Sends every retry that is due on the mock's clock, and waits until those and the attempts under
   * way have finished. Retries they schedule are due later (at least 100 ms on): they wait for the
   * clock. Call it after moving the clock to step through a schedule.
   */
  runDue(): Promise<void> {
    return this.#queue.runDue();
  }

  /**
   * Waits until every delivery has finished, retries included: retries not yet due are sent at once,
   * each recorded at the instant it was due (the clock does not move).
   */
  flush(): Promise<void> {
    return this.#queue.flush();
  }

  /**
   * Creates an integration after a successful test delivery to its URL. A failed test (no answer or
   * a non-2xx status) creates nothing and answers 422 saying to check the URL and the credential value.
   * It is charged to the `webhooks` ledger first: past the memory budget, a 409 `budget_exceeded`
   * before any id is drawn or anything is sent.
   */
  async create(accountId: string, body: IntegrationCreateInput): Promise<IntegrationView> {
    this.#integrations.checkCreate(body);
    const charge = this.#integrations.charge(accountId, body);
    try {
      const generation = this.#generation.signal;
      const stored = await this.#integrations.draft(this.#newId(), accountId, body, {
        seal: (credentials) => this.#sender.seal(credentials),
        now: this.#now,
      });
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
      return this.#integrations.add(stored, charge);
    } catch (error) {
      this.#integrations.uncharge(charge);
      throw error;
    }
  }

  /**
   * Stores an integration at once, without a test delivery: a scene's (`control.scene`), there from
   * the start. Its URL is checked as {@link WebhookHub.create} checks it (400 naming `url`). It is
   * charged to the `webhooks` ledger whatever the budget says: it is part of the scene's data, just
   * loaded (and a reset must be able to put it back).
   */
  install(accountId: string, body: IntegrationCreateInput): IntegrationView {
    this.#integrations.checkCreate(body);
    const charge = this.#integrations.charge(accountId, body, true);
    try {
      const stored = this.#integrations.sketch(this.#newId(), accountId, body, {
        seal: (credentials) => this.#sender.seal(credentials),
        now: this.#now,
      });
      return this.#integrations.add(stored, charge);
    } catch (error) {
      this.#integrations.uncharge(charge);
      throw error;
    }
  }

  /**
   * Edits an integration. Without `replaceCredentials` the stored credentials stay unchanged; with
   * it, the new method replaces the old one (a header value clears a username and password, Basic
   * clears a header value, none clears both). An edit that makes it take more is charged the
   * difference: past the memory budget, a 409 `budget_exceeded` and nothing changes.
   */
  update(id: string, body: IntegrationUpdateInput): Promise<IntegrationView> {
    return this.#integrations.update(id, body, {
      seal: (credentials) => this.#sender.seal(credentials),
      now: this.#now,
      generation: this.#generation.signal,
    });
  }

  /** Removes an integration. */
  remove(id: string): void {
    this.#integrations.remove(id);
  }

  /** Sends a test notification to an integration now; answers the attempt. */
  async test(id: string): Promise<DeliveryAttempt> {
    return this.#test(this.#integrations.get(id));
  }

  /**
   * Delivers a queued notification to the given integrations (all of the account when
   * `integrationIds` is empty). Never throws for the memory budget: a delivery it has no room for is
   * not made, and is recorded as a `failed` attempt (status 0, `error` `BUDGET_DROPPED_ERROR`);
   * the integration's status does not change. Answers how many deliveries were dropped so.
   */
  deliver(accountId: string, entry: OutboxEntry, integrationIds: readonly string[] = []): number {
    const policy = { ...this.#policy };
    const targets = this.#integrations.targets(accountId, integrationIds);
    if (targets.length === 0) return 0;
    const bytes = deliveryBytes(entry);
    let dropped = 0;
    for (const target of targets) {
      if (this.#queue.start(target, entry, { ...policy }, this.#generation.signal, bytes)) continue;
      dropped += 1;
      this.#recordDropped(target, entry);
    }
    return dropped;
  }

  /** Records a delivery the memory budget had no room for: a failed first attempt, never sent. */
  #recordDropped(target: StoredIntegration, entry: OutboxEntry): void {
    const recorded = this.#log.record(
      {
        integrationId: target.view.id,
        notificationId: entry.id,
        kind: entry.payload.notificationType,
        attempt: 1,
        time: new Date(this.#now()).toISOString(),
        status: 0,
        durationMs: 0,
        error: BUDGET_DROPPED_ERROR,
        outcome: 'failed',
        headers: {},
      },
      this.#integrations.holds(target),
    );
    this.#onAttempt?.({ ...recorded }, { ...target.view });
  }

  /** Sends the test notification to an integration and records the attempt (never retried). */
  async #test(target: StoredIntegration): Promise<DeliveryAttempt> {
    const at = this.#now();
    const sent = await this.#sender.post(
      target,
      generateNotification('test'),
      this.#policy.timeoutMs,
      this.#generation.signal,
    );
    return this.#keep(target, 'test', 'test', 1, at, sent, undefined);
  }

  /** Records an attempt of a queued delivery. */
  #record(delivery: Delivery, at: number, sent: Sent, nextAt: number | undefined): DeliveryAttempt {
    const { target, entry } = delivery;
    return this.#keep(target, entry.id, entry.payload.notificationType, delivery.attempt, at, sent, nextAt);
  }

  /**
   * Records one attempt (kept only for an integration still stored) and updates the integration's
   * status from it; `nextAt` when it is to be retried.
   */
  #keep(
    target: StoredIntegration,
    notificationId: string,
    kind: string,
    attempt: number,
    at: number,
    sent: Sent,
    nextAt: number | undefined,
  ): DeliveryAttempt {
    const outcome = sent.delivered ? 'delivered' : nextAt !== undefined ? 'retrying' : 'failed';
    noteAttempt(target, sent.status, outcome);
    const recorded = this.#log.record(
      {
        integrationId: target.view.id,
        notificationId,
        kind,
        attempt,
        time: new Date(at).toISOString(),
        status: sent.status,
        durationMs: sent.durationMs,
        ...(sent.error !== undefined ? { error: sent.error } : {}),
        outcome,
        ...(nextAt !== undefined && outcome === 'retrying'
          ? { nextAttemptAt: new Date(nextAt).toISOString() }
          : {}),
        headers: sent.headers,
      },
      this.#integrations.holds(target),
    );
    this.#onAttempt?.({ ...recorded }, { ...target.view });
    return recorded;
  }
}
