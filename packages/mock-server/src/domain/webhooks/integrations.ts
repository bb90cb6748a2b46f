/**
 * The integration registry: the mock's webhook integrations (at most {@link MAX_INTEGRATIONS}), as
 * the control plane lists them (credentials shown by method only, URLs with secret-looking query
 * parameters redacted) and as deliveries use them (the URL as entered, the credentials sealed by the
 * sender). It creates, edits and removes them from bodies already parsed, and keeps each one's status
 * from its latest delivery. Each stored integration is charged to the memory budget's `webhooks`
 * ledger ({@link integrationBytes}): past the budget a create or an edit that grows it is a 409
 * `budget_exceeded`, before anything is sent or changed.
 *
 * @module
 */
import type { WebhookCredentials } from '@iacm/webhook-receiver';
import { HttpError, notFound, validationError } from '../../errors.js';
import { HEAP_BYTES, heapBytes, KEPT_ITEM_BYTES, type Ledger, unboundedLedger } from '../../store/budget.js';
import { redactUrl, webhookUrlProblem } from '../webhook-url.js';
import { type IntegrationCreateInput, type IntegrationUpdateInput, toCredentials } from './bodies.js';
import type { DeliveryTarget, SealedCredentials } from './sender.js';

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

/** An integration as the registry stores it. */
export interface StoredIntegration extends DeliveryTarget {
  /** The view, its URL redacted. */
  readonly view: IntegrationView;
  /** The URL as entered: where deliveries go. */
  url: string;
  /** How deliveries authenticate. */
  method: CredentialMethod;
  /** The credentials, sealed by the sender (a promise while a scene's are being sealed). */
  sealed: SealedCredentials | undefined | Promise<SealedCredentials | undefined>;
}

/** The most webhook integrations a mock keeps, over all accounts (a further create is a 409). */
export const MAX_INTEGRATIONS = 1000;

/** An ISO 8601 instant, as long as `createdAt` and `updatedAt` are. */
const INSTANT = '2000-01-01T00:00:00.000Z';

/**
 * What an integration is charged to the `webhooks` ledger, bytes: the heap measure (`heapBytes`) of
 * its stored configuration (its URL as entered, its view: id, account, nickname, redacted URL,
 * method, status, times; the longest method and status counted), the measure of its credentials as
 * given and of their sealed form (two byte arrays as long as their JSON text's UTF-8 bytes), and
 * `KEPT_ITEM_BYTES` (its entry in the registry). Measured from the body, before an id is drawn.
 */
export function integrationBytes(
  accountId: string,
  config: { nickname: string; url: string },
  credentials: unknown,
): number {
  const view = {
    id: '0'.repeat(24),
    accountId,
    nickname: config.nickname,
    url: redactUrl(config.url),
    credentials: { method: 'authorization' },
    status: 'missing_write_permission',
    createdAt: INSTANT,
    updatedAt: INSTANT,
  };
  return (
    heapBytes({ url: config.url, view, method: 'authorization' }) +
    credentialBytes(credentials) +
    KEPT_ITEM_BYTES
  );
}

/** The measure of credentials as given (none: 0). */
function credentialBytes(credentials: unknown): number {
  if (credentials === undefined || credentials === null || credentials === 'none') return 0;
  // Sealed, they are two byte arrays as long as their JSON text's UTF-8 bytes (the bytes and their
  // pad: up to 6 bytes for a character of the text, more than the text's own measure).
  const sealed = new TextEncoder().encode(JSON.stringify(credentials)).length;
  return heapBytes(credentials) + HEAP_BYTES.object + 2 * (sealed + SEALED_ARRAY_BYTES);
}

/** What one byte array of sealed credentials takes besides its bytes (its `ArrayBuffer` and view). */
const SEALED_ARRAY_BYTES = 256;

/** What one integration is charged: in all, and of it its credentials' part (an edit may keep them). */
export interface IntegrationCharge {
  /** The bytes charged in all ({@link integrationBytes}). */
  readonly bytes: number;
  /** Of them, its credentials' measure. */
  readonly credentials: number;
}

/** What an edit needs besides the body: the sender's sealing, the clock, the current generation. */
export interface EditContext {
  /** Seals credentials (the sender's). */
  seal(credentials: WebhookCredentials | undefined): Promise<SealedCredentials | undefined>;
  /** The mock's clock, epoch milliseconds. */
  now(): number;
  /** Aborted by a clear or reset while the edit waits: the edit then stores nothing. */
  generation: AbortSignal;
}

/** The registry of integrations. */
export class IntegrationRegistry {
  readonly #integrations = new Map<string, StoredIntegration>();
  /** What each stored integration is charged, by id. */
  readonly #charges = new Map<string, IntegrationCharge>();
  readonly #ledger: Ledger;

  /**
   * @param ledger the memory budget's `webhooks` ledger, charged {@link integrationBytes} for each
   *   stored integration. Default: `unboundedLedger('webhooks')`.
   */
  constructor(ledger?: Ledger) {
    this.#ledger = ledger ?? unboundedLedger('webhooks');
  }

  /**
   * Charges what an integration of `accountId` made from `body` takes ({@link integrationBytes}),
   * before it is drafted: the charge is the caller's until {@link add} takes it (or {@link uncharge}
   * gives it back). `force`: whatever the budget says (a scene's integrations, part of its data).
   * @throws HttpError 409 `budget_exceeded` naming the `webhooks` store (nothing charged).
   */
  charge(accountId: string, body: IntegrationCreateInput, force = false): IntegrationCharge {
    const credentials = credentialBytes(body.credentials);
    const bytes = integrationBytes(accountId, body, body.credentials);
    this.#ledger.charge(bytes, force);
    return { bytes, credentials };
  }

  /** Gives back a charge {@link add} did not take (the integration was not stored). */
  uncharge(charge: IntegrationCharge): void {
    this.#ledger.release(charge.bytes);
  }

  /** The integrations (of one account, or all): copies of their views. */
  list(accountId?: string): IntegrationView[] {
    return [...this.#integrations.values()]
      .filter((i) => !accountId || i.view.accountId === accountId)
      .map((i) => ({ ...i.view }));
  }

  /** The stored integration with this id; 404 when there is none. */
  get(id: string): StoredIntegration {
    const stored = this.#integrations.get(id);
    if (!stored) throw notFound('webhook integration', id);
    return stored;
  }

  /** Whether `target` is still stored (not removed, nor from before a clear that reused its id). */
  holds(target: StoredIntegration): boolean {
    return this.#integrations.get(target.view.id) === target;
  }

  /** The integrations of an account that a notification goes to: those named, or all when none is. */
  targets(accountId: string, integrationIds: readonly string[]): StoredIntegration[] {
    return [...this.#integrations.values()].filter(
      (i) =>
        i.view.accountId === accountId && (integrationIds.length === 0 || integrationIds.includes(i.view.id)),
    );
  }

  /**
   * Checks a create body before anything is sent: its URL (400 naming `url`), and room for one more
   * (409).
   */
  checkCreate(body: IntegrationCreateInput): void {
    checkUrl(body.url);
    if (this.#integrations.size >= MAX_INTEGRATIONS) {
      throw new HttpError(
        409,
        'conflict',
        `${MAX_INTEGRATIONS} webhook integrations exist already, the most a mock keeps: remove some first`,
      );
    }
  }

  /** An integration made from a create body, not stored yet (its test delivery decides). */
  async draft(
    id: string,
    accountId: string,
    body: IntegrationCreateInput,
    context: Omit<EditContext, 'generation'>,
  ): Promise<StoredIntegration> {
    const stored = this.sketch(id, accountId, body, context);
    stored.sealed = await stored.sealed;
    return stored;
  }

  /**
   * An integration made from a create body, its credentials still being sealed: what a scene's
   * integration is stored as at once (a delivery waits for the sealing).
   */
  sketch(
    id: string,
    accountId: string,
    body: IntegrationCreateInput,
    context: Omit<EditContext, 'generation'>,
  ): StoredIntegration {
    const credentials = toCredentials(body.credentials);
    const now = new Date(context.now()).toISOString();
    const method = methodOf(credentials);
    return {
      url: body.url,
      view: {
        id,
        accountId,
        nickname: body.nickname,
        url: redactUrl(body.url),
        credentials: { method },
        status: 'active',
        createdAt: now,
        updatedAt: now,
      },
      method,
      sealed: context.seal(credentials),
    };
  }

  /**
   * Stores a drafted integration whose test delivery succeeded, taking over its `charge` (made by
   * {@link charge}); 409 when the registry filled meanwhile (the charge stays the caller's).
   */
  add(stored: StoredIntegration, charge?: IntegrationCharge): IntegrationView {
    if (this.#integrations.size >= MAX_INTEGRATIONS) {
      throw new HttpError(
        409,
        'conflict',
        `${MAX_INTEGRATIONS} webhook integrations exist already; it was not created`,
      );
    }
    const before = this.#charges.get(stored.view.id);
    if (before) this.#ledger.release(before.bytes);
    this.#integrations.set(stored.view.id, stored);
    if (charge) this.#charges.set(stored.view.id, charge);
    else this.#charges.delete(stored.view.id);
    return { ...stored.view };
  }

  /**
   * Edits an integration. Without `replaceCredentials` the stored credentials stay unchanged; with
   * it, the new method replaces the old one (a header value clears a username and password, Basic
   * clears a header value, none clears both).
   */
  async update(id: string, body: IntegrationUpdateInput, context: EditContext): Promise<IntegrationView> {
    const stored = this.get(id);
    if (body.url !== undefined) checkUrl(body.url);
    // Nothing changes until the edit is known to fit the budget (a 409 after the sealing changes nothing).
    const credentials = body.replaceCredentials ? toCredentials(body.credentials) : undefined;
    const sealed = body.replaceCredentials ? await context.seal(credentials) : undefined;
    if (context.generation.aborted || !this.holds(stored)) throw notFound('webhook integration', id);
    const before = this.#charges.get(id);
    const credentialPart = body.replaceCredentials
      ? credentialBytes(body.credentials)
      : (before?.credentials ?? 0);
    const bytes =
      integrationBytes(
        stored.view.accountId,
        { nickname: body.nickname ?? stored.view.nickname, url: body.url ?? stored.url },
        undefined,
      ) + credentialPart;
    const change = bytes - (before?.bytes ?? 0);
    if (change > 0) this.#ledger.charge(change);
    else this.#ledger.release(-change);
    this.#charges.set(id, { bytes, credentials: credentialPart });
    if (body.nickname !== undefined) stored.view.nickname = body.nickname;
    if (body.url !== undefined) {
      stored.url = body.url;
      stored.view.url = redactUrl(body.url);
    }
    if (body.replaceCredentials) {
      stored.method = methodOf(credentials);
      stored.view.credentials = { method: stored.method };
      stored.sealed = sealed;
      stored.view.status = 'active';
    }
    stored.view.updatedAt = new Date(context.now()).toISOString();
    return { ...stored.view };
  }

  /** Removes an integration (what it was charged given back); 404 when there is none. */
  remove(id: string): void {
    this.get(id);
    this.#integrations.delete(id);
    this.#release(id);
  }

  /** Forgets every integration; what they were charged is given back. */
  clear(): void {
    this.#integrations.clear();
    for (const charge of this.#charges.values()) this.#ledger.release(charge.bytes);
    this.#charges.clear();
  }

  /** Gives back what the integration of id `id` was charged. */
  #release(id: string): void {
    const charge = this.#charges.get(id);
    if (!charge) return;
    this.#charges.delete(id);
    this.#ledger.release(charge.bytes);
  }
}

/**
 * Sets an integration's status from an attempt: delivered → active, 401 → invalid_credentials,
 * 403 → missing_write_permission, given up → failing (a retry to come changes nothing).
 */
export function noteAttempt(
  target: StoredIntegration,
  status: number,
  outcome: 'delivered' | 'retrying' | 'failed',
): void {
  if (outcome === 'delivered') target.view.status = 'active';
  else if (status === 401) target.view.status = 'invalid_credentials';
  else if (status === 403) target.view.status = 'missing_write_permission';
  else if (outcome === 'failed') target.view.status = 'failing';
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

function methodOf(credentials: WebhookCredentials | undefined): CredentialMethod {
  if (!credentials) return 'none';
  return credentials.type === 'basic' ? 'basic' : 'authorization';
}
