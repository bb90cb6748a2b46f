/**
 * The delivery queue, the one home of the retry rule: which attempts are retried (the contract's
 * `isRetriedDeliveryStatus`: no answer, 408, 429, 5xx), when (exponential backoff with jitter drawn
 * from a generator seeded with the mock's seed, the notification, the integration and the attempt;
 * `Retry-After` as a floor; never under the contract's 100 ms), until when (the policy's `attempts`
 * and `maxTotalMs` cutoffs), and how many may wait (the `waitingRetries` bound: past it, the one
 * waiting longest is given up). Retries fall due at instants of the mock's clock: a wall-time timer
 * sends them while the clock runs, {@link DeliveryQueue.runDue} after it moved, and
 * {@link DeliveryQueue.flush} all at once without moving it. At most `MAX_DELIVERIES_IN_FLIGHT`
 * attempts are sent at once (`gate.ts`); the others wait their turn.
 *
 * Each delivery under way (its first attempt to come, waiting its turn, being sent, or waiting for a
 * retry) is charged to the memory budget's `webhooks` ledger ({@link deliveryBytes}) from the moment
 * it is queued until it ends (delivered, given up, its integration gone, dropped by a bound, or a
 * clear). One that does not fit is not queued ({@link DeliveryQueue.start} answers `false`).
 *
 * @module
 */
import { isRetriedDeliveryStatus, WEBHOOK_DELIVERY_RETRIES } from '@iacm/sdk/contract';
import { type Ledger, textBytes, unboundedLedger } from '../../store/budget.js';
import { Random } from '../../store/random.js';
import type { DeliveryPolicy } from '../delivery-policy.js';
import type { OutboxEntry } from '../events.js';
import type { DeliveryAttempt } from './attempt-log.js';
import { DeliveryGate } from './gate.js';
import type { StoredIntegration } from './integrations.js';
import type { Sent } from './sender.js';

/** One notification on its way to one integration: its next attempt and when it is due. */
export interface Delivery {
  /** The integration. */
  readonly target: StoredIntegration;
  /** The notification. */
  readonly entry: OutboxEntry;
  /** The policy when it was queued (a later `setPolicy` applies to later notifications). */
  readonly policy: DeliveryPolicy;
  /** Aborted by a clear or reset: the delivery stops. */
  readonly generation: AbortSignal;
  /** The instant of the first attempt, mock clock. */
  readonly firstAt: number;
  /** The number of the next attempt (1 for the first). */
  attempt: number;
  /** When the next attempt is due, mock clock. */
  dueAt: number;
}

/**
 * What a delivery under way takes besides its body, bytes: the delivery, its policy, its timers and
 * promises, its turn at the gate: 1,024.
 */
export const DELIVERY_OVERHEAD_BYTES = 1024;

/**
 * What a delivery of `entry` is charged to the `webhooks` ledger while it is under way, bytes: its
 * body's text (`textBytes` of the payload's JSON, what each attempt sends) and
 * {@link DELIVERY_OVERHEAD_BYTES}.
 */
export function deliveryBytes(entry: Pick<OutboxEntry, 'payload'>): number {
  return textBytes(JSON.stringify(entry.payload)) + DELIVERY_OVERHEAD_BYTES;
}

/** What the queue needs from the hub: the clock, the seed, and how an attempt is sent and recorded. */
export interface DeliveryQueueOptions {
  /** The mock's clock, epoch milliseconds. */
  now(): number;
  /** The mock's seed, read at each retry: the jitter's. */
  seed(): number | string;
  /** The most deliveries waiting for a retry (the `waitingRetries` retention bound). */
  waitingRetries: number;
  /** Whether the delivery's integration is still stored (a removed one gets no further attempt). */
  holds(target: StoredIntegration): boolean;
  /** Sends one attempt of a delivery. */
  send(delivery: Delivery): Promise<Sent>;
  /** Records an attempt made at `at`, and its outcome; `nextAt` when it is to be retried. */
  record(delivery: Delivery, at: number, sent: Sent, nextAt: number | undefined): DeliveryAttempt;
  /**
   * The memory budget's `webhooks` ledger, charged {@link deliveryBytes} for each delivery under way.
   * Default: `unboundedLedger('webhooks')`.
   */
  ledger?: Ledger | undefined;
}

/** The largest delay `setTimeout` takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The shortest wait of the timer: a clock stopped or moved back is checked again this often. */
const TIMER_RECHECK_MS = 100;

/**
 * The delay before retry number `retry` (1 for the first retry), milliseconds: `baseDelayMs × 2^(retry-1)`,
 * capped at `maxDelayMs`, times a jitter factor in the contract's [0.5, 1) drawn from `random`; at
 * least what `Retry-After` asked (capped at `maxDelayMs` too), and never less than the contract's
 * `minDelayMs` (100 ms).
 */
export function retryDelay(
  policy: DeliveryPolicy,
  retry: number,
  random: Pick<Random, 'next'>,
  retryAfterMs?: number,
): number {
  const { jitter, minDelayMs } = WEBHOOK_DELIVERY_RETRIES;
  const backoff = Math.min(policy.baseDelayMs * 2 ** Math.min(retry - 1, 30), policy.maxDelayMs);
  const jittered = Math.round(backoff * (jitter[0] + random.next() * (jitter[1] - jitter[0])));
  const asked = retryAfterMs === undefined ? 0 : Math.min(retryAfterMs, policy.maxDelayMs);
  return Math.max(jittered, asked, minDelayMs);
}

/**
 * When a delivery's next attempt is due after an attempt made at `at` gave `sent`, mock clock; or
 * `undefined` when there is none: delivered, not a retried status, the last of `attempts`, or due
 * later than `maxTotalMs` after the first attempt.
 */
export function nextAttemptAt(
  delivery: Pick<Delivery, 'policy' | 'firstAt' | 'attempt'> & {
    readonly target: { readonly view: { readonly id: string } };
    readonly entry: { readonly id: string };
  },
  at: number,
  sent: Pick<Sent, 'status' | 'delivered' | 'retryAfterMs'>,
  seed: number | string,
): number | undefined {
  const { policy } = delivery;
  if (sent.delivered || !isRetriedDeliveryStatus(sent.status) || delivery.attempt >= policy.attempts) {
    return undefined;
  }
  const jitter = new Random(
    `webhooks:${String(seed)}:${delivery.entry.id}:${delivery.target.view.id}:${delivery.attempt}`,
  );
  const due = at + retryDelay(policy, delivery.attempt, jitter, sent.retryAfterMs);
  return due - delivery.firstAt <= policy.maxTotalMs ? due : undefined;
}

/** The deliveries under way and waiting. */
export class DeliveryQueue {
  readonly #options: DeliveryQueueOptions;
  /** Attempts being made now. */
  readonly #running = new Set<Promise<void>>();
  /** At most `MAX_DELIVERIES_IN_FLIGHT` attempts are sent at once; the others wait their turn. */
  readonly #gate = new DeliveryGate();
  /** Deliveries waiting for their next attempt, longest waiting first. */
  readonly #waiting = new Set<Delivery>();
  /** The wall-time timer that runs the earliest waiting retry, and the instant it was set for. */
  #timer: { handle: ReturnType<typeof setTimeout>; for: number } | undefined;
  #dropped = 0;
  readonly #ledger: Ledger;
  /** What each delivery under way is charged (a delivery leaves it when it ends). */
  readonly #charges = new Map<Delivery, number>();

  /** @param options the hub's parts the queue works with. */
  constructor(options: DeliveryQueueOptions) {
    this.#options = options;
    this.#ledger = options.ledger ?? unboundedLedger('webhooks');
  }

  /**
   * Makes a delivery's first attempt now, charged `bytes` (default {@link deliveryBytes} of `entry`)
   * until it ends. Answers `false`, queuing nothing, when they do not fit the memory budget (the
   * caller records it as dropped: a notification's delivery never fails the request that queued it).
   */
  start(
    target: StoredIntegration,
    entry: OutboxEntry,
    policy: DeliveryPolicy,
    generation: AbortSignal,
    bytes: number = deliveryBytes(entry),
  ): boolean {
    if (!this.#ledger.tryCharge(bytes)) return false;
    const now = this.#options.now();
    const delivery: Delivery = { target, entry, policy, generation, firstAt: now, attempt: 1, dueAt: now };
    this.#charges.set(delivery, bytes);
    this.#run(delivery);
    return true;
  }

  /** How many deliveries are under way (charged): first attempts to come, being sent, or waiting for a retry. */
  get underWay(): number {
    return this.#charges.size;
  }

  /** The bytes the deliveries under way are charged to the `webhooks` ledger together. */
  get chargedBytes(): number {
    let bytes = 0;
    for (const b of this.#charges.values()) bytes += b;
    return bytes;
  }

  /** When each waiting retry is due, earliest first (epoch milliseconds of the mock's clock). */
  waiting(): number[] {
    return [...this.#waiting].map((d) => d.dueAt).sort((a, b) => a - b);
  }

  /** Deliveries given up while waiting (the longest waiting) to stay within the bound, since the last clear. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Sends every retry that is due on the mock's clock, and waits until those and the attempts under
   * way have finished. Retries they schedule are due later (at least 100 ms on): they wait for the
   * clock.
   */
  async runDue(): Promise<void> {
    for (;;) {
      const now = this.#options.now();
      for (const delivery of [...this.#waiting]) {
        if (delivery.dueAt > now) continue;
        this.#waiting.delete(delivery);
        this.#run(delivery);
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
      for (const delivery of waiting) this.#run(delivery);
      if (this.#running.size === 0) break;
      await Promise.allSettled([...this.#running]);
    }
    this.#disarm();
  }

  /**
   * Forgets the waiting deliveries (their remaining attempts are not made) and the dropped count;
   * attempts under way stop with their generation. What every delivery under way was charged is
   * given back.
   */
  clear(): void {
    this.#waiting.clear();
    this.#dropped = 0;
    for (const bytes of this.#charges.values()) this.#ledger.release(bytes);
    this.#charges.clear();
    this.#disarm();
  }

  /** A delivery ended: what it was charged goes back (once; nothing after a clear gave it back). */
  #end(delivery: Delivery): void {
    const bytes = this.#charges.get(delivery);
    if (bytes === undefined) return;
    this.#charges.delete(delivery);
    this.#ledger.release(bytes);
  }

  /** Makes a delivery's next attempt now. */
  #run(delivery: Delivery): void {
    const task = this.#attempt(delivery).finally(() => this.#running.delete(task));
    this.#running.add(task);
  }

  /**
   * Makes one attempt of a delivery and schedules the next one when it is to be retried; the
   * delivery ends (its charge given back) otherwise.
   */
  async #attempt(delivery: Delivery): Promise<void> {
    let waits = false;
    try {
      waits = await this.#try(delivery);
    } finally {
      if (!waits) this.#end(delivery);
    }
  }

  /** Makes one attempt of a delivery, records it; `true` when it waits for a retry. */
  async #try(delivery: Delivery): Promise<boolean> {
    const { target, generation } = delivery;
    if (generation.aborted || !this.#options.holds(target)) return false;
    // Its turn among the attempts under way (none taken when a clear or reset came first).
    if (!(await this.#gate.enter(generation))) return false;
    let sent: Sent;
    let at: number;
    try {
      // Past the gate's slice, a turn of the event loop first (and again before it is recorded).
      await this.#gate.turn();
      if (generation.aborted || !this.#options.holds(target)) return false;
      // Sent when due: at once, or (flushed early) recorded at the instant it was due.
      at = Math.max(this.#options.now(), delivery.dueAt);
      sent = await this.#options.send(delivery);
      await this.#gate.turn();
    } finally {
      this.#gate.leave();
    }
    const nextAt = nextAttemptAt(delivery, at, sent, this.#options.seed());
    const recorded = this.#options.record(delivery, at, sent, nextAt);
    if (recorded.outcome !== 'retrying' || nextAt === undefined || generation.aborted) return false;
    if (!this.#options.holds(target)) return false;
    delivery.attempt += 1;
    delivery.dueAt = nextAt;
    this.#wait(delivery);
    return true;
  }

  /** Puts a delivery among those waiting (the longest waiting one given up past the bound). */
  #wait(delivery: Delivery): void {
    while (this.#waiting.size >= this.#options.waitingRetries) {
      const oldest = this.#waiting.values().next();
      if (oldest.done) break;
      this.#waiting.delete(oldest.value);
      this.#end(oldest.value);
      this.#dropped += 1;
    }
    this.#waiting.add(delivery);
    if (!this.#timer || delivery.dueAt < this.#timer.for) this.#arm();
  }

  /**
   * Sets the wall-time timer for the earliest waiting retry: while the mock's clock runs, it comes due
   * then. A clock stopped or moved back is checked again later (at least every 100 ms); moving it
   * forward takes effect at the next check, or at once with {@link DeliveryQueue.runDue}. The timer
   * does not keep a Node process alive.
   */
  #arm(): void {
    this.#disarm();
    let earliest = Number.POSITIVE_INFINITY;
    for (const delivery of this.#waiting) if (delivery.dueAt < earliest) earliest = delivery.dueAt;
    if (earliest === Number.POSITIVE_INFINITY) return;
    const wait = Math.min(Math.max(earliest - this.#options.now(), TIMER_RECHECK_MS), MAX_TIMER_MS);
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
}
