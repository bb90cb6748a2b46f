/**
 * The sender: the one place a delivery leaves the mock. It seals an integration's credentials with a
 * one-time pad (as many random bytes as their text, from `crypto.getRandomValues`, kept by the
 * sender alone, never beside the sealed bytes), opens them only to build a delivery's `Authorization`
 * header, and POSTs the payload with `fetch` and a timeout: what came back (status,
 * `Retry-After` as the contract's `parseRetryAfter` reads it, errors scrubbed of the URL's secrets,
 * the headers sent with `authorization` redacted). Whether and when to retry is the queue's rule.
 *
 * @module
 */
import { parseRetryAfter, type WebhookPayload } from '@iacm/sdk/contract';
import { encodeAuthorization, type WebhookCredentials } from '@iacm/webhook-receiver';
import { scrubUrl } from '../webhook-url.js';

/**
 * Credentials sealed by a sender: their JSON text's UTF-8 bytes XORed with a pad of random bytes that
 * only that sender holds (so neither a store, a snapshot nor a heap search for the secret finds it).
 */
export interface SealedCredentials {
  /** The sealed bytes. */
  readonly data: Uint8Array<ArrayBuffer>;
}

/** The most bytes one `crypto.getRandomValues` call fills (the Web Crypto limit). */
const RANDOM_CHUNK = 65_536;

/** `length` random bytes from `crypto.getRandomValues`, filled a chunk at a time. */
function randomPad(length: number): Uint8Array<ArrayBuffer> {
  const pad = new Uint8Array(length);
  for (let at = 0; at < length; at += RANDOM_CHUNK) {
    crypto.getRandomValues(pad.subarray(at, Math.min(length, at + RANDOM_CHUNK)));
  }
  return pad;
}

/** `a` XOR `pad`, into a new array (`pad` is at least as long as `a`). */
function xor(a: Uint8Array, pad: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i += 1) out[i] = (a[i] as number) ^ (pad[i] as number);
  return out;
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
  /**
   * Each sealed value's pad, held here only (a sealed value another sender made does not open).
   * Not Web Crypto's AES-GCM: Node 22 and 24 abort the process (a native assertion in
   * `CipherJob<AESCipherTraits>::ToResult`, `errors->Empty()`, which also reads the main thread's
   * OpenSSL error queue) when an AES job completes in the turn after msw 3 answered an `https`
   * delivery (issue 35, finding 1). A pad needs no thread pool, no key and no `await`.
   */
  readonly #pads = new WeakMap<SealedCredentials, Uint8Array<ArrayBuffer>>();
  readonly #fetch: typeof fetch;

  /** @param fetchImpl the `fetch` deliveries use; the global one (looked up at each delivery) by default. */
  constructor(fetchImpl?: typeof fetch) {
    this.#fetch = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Seals credentials for storing; `undefined` for none. */
  async seal(credentials: WebhookCredentials | undefined): Promise<SealedCredentials | undefined> {
    if (!credentials) return undefined;
    const plain = new TextEncoder().encode(JSON.stringify(credentials));
    const pad = randomPad(plain.length);
    const sealed: SealedCredentials = { data: xor(plain, pad) };
    plain.fill(0);
    this.#pads.set(sealed, pad);
    return sealed;
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
    const pad = this.#pads.get(sealed);
    if (!pad) throw new TypeError('the credentials were sealed by another sender');
    const plain = xor(sealed.data, pad);
    try {
      return JSON.parse(new TextDecoder().decode(plain)) as WebhookCredentials;
    } finally {
      plain.fill(0);
    }
  }
}
