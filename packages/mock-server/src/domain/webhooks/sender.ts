/**
 * The sender: the one place a delivery leaves the mock. It seals an integration's credentials with
 * AES-GCM under a key made for this instance (WebCrypto), opens them only to build a delivery's
 * `Authorization` header, and POSTs the payload with `fetch` and a timeout: what came back (status,
 * `Retry-After` as the contract's `parseRetryAfter` reads it, errors scrubbed of the URL's secrets,
 * the headers sent with `authorization` redacted). Whether and when to retry is the queue's rule.
 *
 * @module
 */
import { parseRetryAfter, type WebhookPayload } from '@iacm/sdk/contract';
import { encodeAuthorization, type WebhookCredentials } from '@iacm/webhook-receiver';
import { scrubUrl } from '../webhook-url.js';

/** Credentials sealed with the sender's key. */
export interface SealedCredentials {
  /** The AES-GCM nonce. */
  readonly iv: Uint8Array<ArrayBuffer>;
  /** The ciphertext. */
  readonly data: Uint8Array<ArrayBuffer>;
}

/** Where a delivery goes: the URL as entered, and the sealed credentials (none: no `Authorization`). */
export interface DeliveryTarget {
  /** The URL as entered (deliveries go to it exactly). */
  readonly url: string;
  /** The sealed credentials, `undefined` for none (a promise while they are being sealed). */
  readonly sealed: SealedCredentials | undefined | Promise<SealedCredentials | undefined>;
}

/** What one POST of a delivery gave. */
export interface Sent {
  /** The endpoint's status, 0 when there was no answer. */
  status: number;
  /** The network error (scrubbed of the URL's secrets), when there was no answer. */
  error?: string;
  /** What `Retry-After` (or `retry-after-ms`) asked, milliseconds. */
  retryAfterMs?: number;
  /** Wall time it took. */
  durationMs: number;
  /** 2xx. */
  delivered: boolean;
  /** The request headers, `authorization` redacted. */
  headers: Record<string, string>;
}

/** The headers of every delivery, besides `authorization`. */
const DELIVERY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
  'user-agent': 'iacm-mock-webhooks/1',
});

/** Seals credentials and sends deliveries. */
export class WebhookSender {
  readonly #key = crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  readonly #fetch: typeof fetch;

  /** @param fetchImpl the `fetch` deliveries use; the global one (looked up at each delivery) by default. */
  constructor(fetchImpl?: typeof fetch) {
    this.#fetch = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Seals credentials for storing; `undefined` for none. */
  async seal(credentials: WebhookCredentials | undefined): Promise<SealedCredentials | undefined> {
    if (!credentials) return undefined;
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv },
      await this.#key,
      new TextEncoder().encode(JSON.stringify(credentials)),
    );
    return { iv, data: new Uint8Array(data) };
  }

  /**
   * POSTs a payload to a target's URL (redirects not followed), within `timeoutMs` of wall time and
   * until `signal` aborts: what came back.
   */
  async post(
    target: DeliveryTarget,
    payload: WebhookPayload | { text: string },
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<Sent> {
    const headers: Record<string, string> = { ...DELIVERY_HEADERS };
    const credentials = await this.#open(await target.sealed);
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
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), signal]),
        redirect: 'manual',
      });
      status = response.status;
      // The endpoint's date is wall time, not the mock's clock.
      retryAfterMs = parseRetryAfter(Object.fromEntries(response.headers), Date.now());
      // Not awaited: under MSW 2.15's patched fetch the cancel only settles when the signal fires
      // (mswjs/interceptors#799), which would hold every delivery for the whole timeout.
      void response.body?.cancel().catch(() => {});
    } catch (cause) {
      const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : 'network error';
      error = scrubUrl(text, target.url);
    }
    return {
      status,
      ...(error !== undefined ? { error } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      durationMs: Date.now() - wallStart,
      delivered: status >= 200 && status < 300,
      headers: authorization ? { ...headers, authorization: '[redacted]' } : headers,
    };
  }

  async #open(sealed: SealedCredentials | undefined): Promise<WebhookCredentials | undefined> {
    if (!sealed) return undefined;
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: sealed.iv },
      await this.#key,
      sealed.data,
    );
    return JSON.parse(new TextDecoder().decode(plain)) as WebhookCredentials;
  }
}
