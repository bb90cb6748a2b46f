/**
 * The attempt log: every delivery attempt to a stored integration, headers redacted, oldest first,
 * bounded by the `deliveryAttempts` retention bound (the oldest dropped first, and counted). Attempt
 * ids (`dlv_000001`, ...) count every attempt made, kept or not. Each kept record is charged to the
 * memory budget's `attempts` ledger ({@link attemptBytes}); the log evicts: when the budget has no
 * room for a record, the oldest go first until it fits (or, when dropping them all would not make
 * room, the new one is not kept). Recording never throws for the budget.
 *
 * @module
 */
import { heapBytes, type Ledger, unboundedLedger } from '../../store/budget.js';

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

/** What a kept record takes besides its own measure, bytes: its slot in the log and its charge: 32. */
export const ATTEMPT_OVERHEAD_BYTES = 32;

/** What a kept attempt record is charged to the `attempts` ledger: its heap measure (`heapBytes`) and {@link ATTEMPT_OVERHEAD_BYTES}. */
export function attemptBytes(attempt: DeliveryAttempt): number {
  return heapBytes(attempt) + ATTEMPT_OVERHEAD_BYTES;
}

/** The number of an attempt id (`dlv_000042` → 42). */
export function attemptNumber(id: string): number {
  return Number(id.slice(4));
}

/** The recorded attempts, bounded. */
export class AttemptLog {
  readonly #attempts: DeliveryAttempt[] = [];
  /** What each kept record is charged, by its place in `#attempts`. */
  readonly #bytes: number[] = [];
  /** What the kept records are charged together. */
  #charged = 0;
  readonly #limit: number;
  readonly #ledger: Ledger;
  #count = 0;
  #dropped = 0;

  /**
   * @param limit the most attempts kept (the `deliveryAttempts` retention bound, checked by the caller).
   * @param ledger the memory budget's `attempts` ledger, charged {@link attemptBytes} for each kept
   *   record. Default: `unboundedLedger('attempts')`.
   */
  constructor(limit: number, ledger?: Ledger) {
    this.#limit = limit;
    this.#ledger = ledger ?? unboundedLedger('attempts');
    // A refusing store's write that needs the room makes the oldest records go first.
    this.#ledger.evictWith((need) => {
      let freed = 0;
      let count = 0;
      while (count < this.#bytes.length && freed < need) freed += this.#bytes[count++] as number;
      if (count > 0) this.#dropOldest(count);
    });
  }

  /**
   * Gives an attempt its id and, when `keep` (its integration is still stored), records it, dropping
   * the oldest past the bound, and past the memory budget (oldest first, until it fits; when dropping
   * every record would not make room, it is not kept, and counted as dropped). Answers the attempt
   * with its id, kept or not.
   */
  record(attempt: Omit<DeliveryAttempt, 'id'>, keep: boolean): DeliveryAttempt {
    const record: DeliveryAttempt = { id: `dlv_${String(++this.#count).padStart(6, '0')}`, ...attempt };
    if (keep) {
      const bytes = attemptBytes(record);
      if (!this.#ledger.fits(bytes - this.#charged)) {
        this.#dropped += 1;
        return record;
      }
      while (this.#attempts.length > 0 && !this.#ledger.fits(bytes)) this.#dropOldest(1);
      if (!this.#ledger.tryCharge(bytes)) {
        this.#dropped += 1;
        return record;
      }
      this.#attempts.push(record);
      this.#bytes.push(bytes);
      this.#charged += bytes;
      const excess = this.#attempts.length - this.#limit;
      if (excess > 0) this.#dropOldest(excess);
    }
    return record;
  }

  /** Drops the `count` oldest records, giving back what they were charged, and counts them. */
  #dropOldest(count: number): void {
    this.#attempts.splice(0, count);
    let bytes = 0;
    for (const b of this.#bytes.splice(0, count)) bytes += b;
    this.#release(bytes);
    this.#dropped += count;
  }

  /** Gives back `bytes` of what the kept records are charged. */
  #release(bytes: number): void {
    const released = Math.min(bytes, this.#charged);
    this.#charged -= released;
    this.#ledger.release(released);
  }

  /** The bytes the kept records are charged to the `attempts` ledger together. */
  get chargedBytes(): number {
    return this.#charged;
  }

  /** The recorded attempts, oldest first (of one integration, or all): copies. */
  list(integrationId?: string): DeliveryAttempt[] {
    return this.#attempts
      .filter((a) => !integrationId || a.integrationId === integrationId)
      .map((a) => ({ ...a }));
  }

  /**
   * The kept attempts made after attempt number `after` (the number of an id `dlv_000042`; 0: every
   * kept one), oldest first, at most `limit` of them: copies, found by a binary search (ids grow in the
   * log's order), so a poll costs what it answers. `restarted` when `after` is past the last id made
   * (the log was reset since: ids count from 1 again), and the answer starts from the oldest kept.
   */
  after(after: number, limit: number): { attempts: DeliveryAttempt[]; restarted: boolean; more: boolean } {
    const restarted = after > this.#count;
    const from = restarted ? 0 : after;
    let low = 0;
    let high = this.#attempts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (attemptNumber((this.#attempts[middle] as DeliveryAttempt).id) <= from) low = middle + 1;
      else high = middle;
    }
    const attempts = this.#attempts.slice(low, low + limit).map((a) => ({ ...a }));
    return { attempts, restarted, more: low + limit < this.#attempts.length };
  }

  /** How many records the bound dropped since the last {@link AttemptLog.clear}. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Forgets every record (what they were charged given back) and the dropped count; ids keep counting. */
  clear(): void {
    this.#attempts.length = 0;
    this.#bytes.length = 0;
    this.#release(this.#charged);
    this.#dropped = 0;
  }

  /** As {@link AttemptLog.clear}, and ids count from 1 again. */
  reset(): void {
    this.clear();
    this.#count = 0;
  }
}
