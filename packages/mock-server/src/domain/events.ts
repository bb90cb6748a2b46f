import type { Event, EventType, MutationType, WebhookPayload } from '@iacm/sdk/contract';
import { heapBytes, type Ledger } from '../store/budget.js';
import type { Random } from '../store/random.js';
import type { OutboxEntry } from '../store/state.js';
import type { AccountStore } from '../store/store.js';
import { DEFAULT_RETENTION, type RetentionBounds } from './retention.js';

// The outbox is part of the account's store, so its entry type lives there (store/state.ts).
export type { OutboxEntry } from '../store/state.js';

/** The integration id of events the platform itself records (API mutations, runs). */
export const PLATFORM_INTEGRATION_ID = 'iacm-platform';

/**
 * The most characters of one attribute value of an event the mock records: 1,024. A longer value (the
 * whole label list of a workspace, in the `from` and `to` of a labels update) is cut to its first
 * 1,023 characters and `…`, so that each event holds a bounded amount and a bounded number of events
 * takes bounded memory (`retention.eventsPerAccount`).
 */
export const MAX_EVENT_ATTRIBUTE_LENGTH = 1024;

/**
 * An attribute value as an event keeps it: `value` as a string, cut to
 * {@link MAX_EVENT_ATTRIBUTE_LENGTH} characters (ending with `…`, never between the two halves of a
 * surrogate pair). A cut value is a copy that holds nothing of the longer one.
 */
export function attributeValue(value: string | number | boolean): string {
  const text = String(value);
  if (text.length <= MAX_EVENT_ATTRIBUTE_LENGTH) return text;
  let end = MAX_EVENT_ATTRIBUTE_LENGTH - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  // `slice` would keep the whole text alive (V8 shares it); copying the characters does not.
  const codes = new Uint16Array(end);
  for (let i = 0; i < end; i++) codes[i] = text.charCodeAt(i);
  return `${String.fromCharCode(...codes)}…`;
}

/** What a new event says. */
export interface EventInput {
  /** The event's type. */
  type: EventType;
  /** The mutation type (create, update, delete). */
  mutation: MutationType;
  /** The asset the event is about. */
  assetId: string;
  /** The asset's type. */
  assetType: string;
  /** The integration it came from. Default {@link PLATFORM_INTEGRATION_ID}. */
  integrationId?: string | undefined;
  /** The provider. Default `iacm`. */
  providerType?: string | undefined;
  /** Attributes, as key/value pairs (values are stringified, and cut at {@link MAX_EVENT_ATTRIBUTE_LENGTH} characters). */
  attributes: Record<string, string | number | boolean | undefined>;
}

/** How many records a retention bound dropped from one account. */
export interface DroppedRecords {
  /** Events dropped (the oldest) to keep the account within `eventsPerAccount`. */
  events: number;
  /** Outbox entries dropped (the oldest) to keep the outbox within `outboxPerAccount`. */
  outbox: number;
}

/** What the recorder knows of one account: what it dropped, and how many events it may hold. */
interface AccountRetention extends DroppedRecords {
  /** The most events the account holds: the bound, or what it was loaded with when that is more. */
  maxEvents: number;
}

/**
 * Where an {@link EventRecorder} charges what it keeps at run time: the memory budget's `events`
 * ledger (the events recorded, and the outbox's entries), and the bytes the run-time events may take
 * (`retention.eventBytes`). Both evict: the oldest go first.
 */
export interface EventCharges {
  /** The budget's `events` ledger. */
  readonly ledger: Ledger;
  /** The bytes the run-time events of the mock may take (`RetentionBounds.eventBytes`). */
  readonly maxBytes: () => number;
}

/** Records events and queued notifications for one mock, within the retention bounds. */
export class EventRecorder {
  readonly #random: () => Random;
  readonly #now: () => number;
  readonly #onQueued: (account: AccountStore, entry: OutboxEntry) => void;
  readonly #bounds: () => Pick<RetentionBounds, 'eventsPerAccount' | 'outboxPerAccount'>;
  /** Per account store: a reset or a new state makes new stores, so the counts start again. */
  readonly #retention = new WeakMap<AccountStore, AccountRetention>();
  readonly #charges: EventCharges | undefined;

  /**
   * @param random the mock's runtime generator (read at each use: it changes on reset).
   * @param now the mock's clock.
   * @param onQueued called for each queued notification (the webhook hub delivers it).
   * @param bounds the retention bounds (read at each use; checked by `toRetentionBounds`). Default
   *   {@link DEFAULT_RETENTION}.
   * @param charges where what it keeps at run time is charged (default: nowhere, a recorder made alone).
   */
  constructor(
    random: () => Random,
    now: () => number,
    onQueued: (account: AccountStore, entry: OutboxEntry) => void = () => {},
    bounds: () => Pick<RetentionBounds, 'eventsPerAccount' | 'outboxPerAccount'> = () => DEFAULT_RETENTION,
    charges?: EventCharges,
  ) {
    this.#random = random;
    this.#now = now;
    this.#onQueued = onQueued;
    this.#bounds = bounds;
    this.#charges = charges;
  }

  /** How many events and outbox entries the retention bounds dropped from an account so far. */
  dropped(account: AccountStore): DroppedRecords {
    const known = this.#retention.get(account);
    return { events: known?.events ?? 0, outbox: known?.outbox ?? 0 };
  }

  #retentionOf(account: AccountStore): AccountRetention {
    let known = this.#retention.get(account);
    if (!known) {
      // Seen for the first time: what it was loaded with stays, even beyond the bound.
      known = { events: 0, outbox: 0, maxEvents: account.events.size };
      this.#retention.set(account, known);
      // Its run-time events are charged to the mock's budget from now on (its start data is not).
      if (this.#charges) account.events.chargeTo(this.#charges.ledger, this.#charges.maxBytes);
    }
    return known;
  }

  /**
   * Adds an event to the account's event center (seen by queries, facets and tokens at once), stamped
   * `at` (epoch milliseconds; default: now; a timed run's step gives its own instant).
   */
  record(account: AccountStore, input: EventInput, at?: number): Event {
    const random = this.#random();
    const event: Event = {
      id: random.uuid(),
      account_id: account.account.id,
      integration_id: input.integrationId ?? PLATFORM_INTEGRATION_ID,
      event_timestamp: new Date(at ?? this.#now()).toISOString(),
      event_type: input.type,
      provider_type: input.providerType ?? 'iacm',
      asset_id: input.assetId,
      asset_type: input.assetType,
      event: {
        mutation_id: `mut-${random.hex(16)}`,
        mutation_type: input.mutation,
        attributes: Object.entries(input.attributes)
          .filter(([, value]) => value !== undefined)
          .map(([key, value]) => ({ key, value: attributeValue(value as string | number | boolean) })),
      },
    };
    const retention = this.#retentionOf(account);
    // Dropped to keep the run-time events within the budget (the new one too, when it cannot fit).
    retention.events += account.events.insert(event);
    const max = Math.max(this.#bounds().eventsPerAccount, retention.maxEvents);
    while (account.events.size > max) {
      // The oldest by timestamp (then id): the end of the event center's newest-first order.
      if (!account.events.deleteOldest()) break;
      retention.events += 1;
    }
    return event;
  }

  /** Queues a notification for delivery, created `at` (epoch milliseconds; default: now). */
  queue(
    account: AccountStore,
    source: OutboxEntry['source'],
    payload: WebhookPayload,
    at?: number,
  ): OutboxEntry {
    const entry: OutboxEntry = {
      id: `ntf_${this.#random().hex(12)}`,
      createdAt: new Date(at ?? this.#now()).toISOString(),
      source,
      payload,
    };
    const retention = this.#retentionOf(account);
    const ledger = this.#charges?.ledger;
    const bytes = ledger ? heapBytes(entry) : 0;
    // An entry is charged its heap measure, its payload included; the oldest go first to make room.
    // One that cannot fit is not kept in the outbox (it is still queued for delivery, which the
    // budget bounds in its turn).
    let kept = !ledger || ledger.tryCharge(bytes);
    while (ledger && !kept && account.outbox.length > 0) {
      const oldest = account.outbox.shift() as OutboxEntry;
      ledger.release(heapBytes(oldest));
      retention.outbox += 1;
      kept = ledger.tryCharge(bytes);
    }
    if (kept) account.outbox.push(entry);
    else retention.outbox += 1;
    const excess = account.outbox.length - this.#bounds().outboxPerAccount;
    if (excess > 0) {
      const dropped = account.outbox.splice(0, excess);
      if (ledger) for (const old of dropped) ledger.release(heapBytes(old));
      retention.outbox += excess;
    }
    this.#onQueued(account, entry);
    return entry;
  }
}
