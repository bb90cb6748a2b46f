/**
 * The attempt log: every delivery attempt to a stored integration, headers redacted, oldest first,
 * bounded by the `deliveryAttempts` retention bound (the oldest dropped first, and counted). Attempt
 * ids (`dlv_000001`, ...) count every attempt made, kept or not.
 *
 * @module
 */

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

/** The recorded attempts, bounded. */
export class AttemptLog {
  readonly #attempts: DeliveryAttempt[] = [];
  readonly #limit: number;
  #count = 0;
  #dropped = 0;

  /** @param limit the most attempts kept (the `deliveryAttempts` retention bound, checked by the caller). */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /**
   * Gives an attempt its id and, when `keep` (its integration is still stored), records it, dropping
   * the oldest past the bound. Answers the attempt with its id, kept or not.
   */
  record(attempt: Omit<DeliveryAttempt, 'id'>, keep: boolean): DeliveryAttempt {
    const record: DeliveryAttempt = { id: `dlv_${String(++this.#count).padStart(6, '0')}`, ...attempt };
    if (keep) {
      this.#attempts.push(record);
      const excess = this.#attempts.length - this.#limit;
      if (excess > 0) {
        this.#attempts.splice(0, excess);
        this.#dropped += excess;
      }
    }
    return record;
  }

  /** The recorded attempts, oldest first (of one integration, or all): copies. */
  list(integrationId?: string): DeliveryAttempt[] {
    return this.#attempts
      .filter((a) => !integrationId || a.integrationId === integrationId)
      .map((a) => ({ ...a }));
  }

  /** How many records the bound dropped since the last {@link AttemptLog.clear}. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Forgets every record and the dropped count; ids keep counting. */
  clear(): void {
    this.#attempts.length = 0;
    this.#dropped = 0;
  }

  /** As {@link AttemptLog.clear}, and ids count from 1 again. */
  reset(): void {
    this.clear();
    this.#count = 0;
  }
}
