import type { Event, EventType, MutationType, WebhookPayload } from '@iacm/sdk/contract';
import type { Random } from '../store/random.js';
import type { OutboxEntry } from '../store/state.js';
import type { AccountStore } from '../store/store.js';

// The outbox is part of the account's store, so its entry type lives there (store/state.ts).
export type { OutboxEntry } from '../store/state.js';

/** The integration id of events the platform itself records (API mutations, runs). */
export const PLATFORM_INTEGRATION_ID = 'iacm-platform';

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
  /** Attributes, as key/value pairs (values are stringified). */
  attributes: Record<string, string | number | boolean | undefined>;
}

/** Records events and queued notifications for one mock. */
export class EventRecorder {
  readonly #random: () => Random;
  readonly #now: () => number;
  readonly #onQueued: (account: AccountStore, entry: OutboxEntry) => void;

  /**
   * @param random the mock's runtime generator (read at each use: it changes on reset).
   * @param now the mock's clock.
   * @param onQueued called for each queued notification (the webhook hub delivers it).
   */
  constructor(
    random: () => Random,
    now: () => number,
    onQueued: (account: AccountStore, entry: OutboxEntry) => void = () => {},
  ) {
    this.#random = random;
    this.#now = now;
    this.#onQueued = onQueued;
  }

  /** Adds an event to the account's event center (seen by queries, facets and tokens at once). */
  record(account: AccountStore, input: EventInput): Event {
    const random = this.#random();
    const event: Event = {
      id: random.uuid(),
      account_id: account.account.id,
      integration_id: input.integrationId ?? PLATFORM_INTEGRATION_ID,
      event_timestamp: new Date(this.#now()).toISOString(),
      event_type: input.type,
      provider_type: input.providerType ?? 'iacm',
      asset_id: input.assetId,
      asset_type: input.assetType,
      event: {
        mutation_id: `mut-${random.hex(16)}`,
        mutation_type: input.mutation,
        attributes: Object.entries(input.attributes)
          .filter(([, value]) => value !== undefined)
          .map(([key, value]) => ({ key, value: String(value) })),
      },
    };
    account.events.insert(event);
    return event;
  }

  /** Queues a notification for delivery. */
  queue(account: AccountStore, source: OutboxEntry['source'], payload: WebhookPayload): OutboxEntry {
    const entry: OutboxEntry = {
      id: `ntf_${this.#random().hex(12)}`,
      createdAt: new Date(this.#now()).toISOString(),
      source,
      payload,
    };
    account.outbox.push(entry);
    this.#onQueued(account, entry);
    return entry;
  }
}
