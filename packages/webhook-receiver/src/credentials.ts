/**
 * Credentials of a webhook integration (spec §5, "Outbound webhook authentication"): how the service
 * encodes them into the `Authorization` header, and how the receiver checks that header in constant
 * time. Web-standard APIs only (`TextEncoder`, `btoa`/`atob`) and a plain-JavaScript SHA-256 (`sha256.ts`).
 *
 * @module
 */

import { sha256 } from './sha256.js';

/** HTTP Basic credentials: the service sends `Authorization: Basic base64(username:password)` (UTF-8). */
export interface BasicCredentials {
  /** Selects the Basic method. */
  readonly type: 'basic';
  /** The username configured on the integration. */
  readonly username: string;
  /** The password configured on the integration. */
  readonly password: string;
}

/**
 * One `Authorization` header value, scheme included (`Bearer <TOKEN>`, `Api-Key <KEY>`): the service
 * sends it verbatim, and the receiver compares it verbatim.
 */
export interface AuthorizationHeaderCredentials {
  /** Selects the Authorization header method. */
  readonly type: 'header';
  /** The whole header value, scheme included, exactly as configured on the integration. */
  readonly value: string;
}

/** Credentials of a webhook integration: Basic, or one verbatim `Authorization` header value. */
export type WebhookCredentials = BasicCredentials | AuthorizationHeaderCredentials;

/**
 * What a receiver accepts: `"none"` (the integration has no custom credentials, every delivery is
 * accepted), one credential, or several at once (during a rotation, the old and the new).
 */
export type CredentialsOption = 'none' | WebhookCredentials | readonly WebhookCredentials[];

const encoder = new TextEncoder();

/** Base64 (standard alphabet, padded) of bytes. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * Decodes strict, padded, canonical standard base64; `undefined` when the text is not that. Canonical:
 * the text is exactly what encoding its bytes gives back, so the unused bits of the last character are
 * zero (`YR==` is refused, only `YQ==` decodes to `a`), and each value has one encoding.
 */
function base64ToBytes(text: string): Uint8Array | undefined {
  if (text.length === 0 || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  // This compares the received text with itself re-encoded: it says nothing about the credentials.
  if (btoa(binary) !== text) return undefined;
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The `Authorization` header value the service sends for these credentials: `Basic ` + base64 of
 * `username:password` in UTF-8 for Basic, the configured value verbatim for a header value, and
 * `undefined` (no header) for `"none"`.
 * @param credentials the integration's credentials.
 * @example encodeAuthorization({ type: 'basic', username: 'aladdin', password: 'opensesame' }) // 'Basic YWxhZGRpbjpvcGVuc2VzYW1l'
 */
export function encodeAuthorization(credentials: WebhookCredentials): string;
/**
 * The `Authorization` header value the service sends for these credentials, or `undefined` for `"none"`.
 * @param credentials the integration's credentials, or `"none"`.
 */
export function encodeAuthorization(credentials: WebhookCredentials | 'none'): string | undefined;
export function encodeAuthorization(credentials: WebhookCredentials | 'none'): string | undefined {
  if (credentials === 'none') return undefined;
  if (credentials.type === 'basic') {
    return `Basic ${bytesToBase64(encoder.encode(`${credentials.username}:${credentials.password}`))}`;
  }
  return credentials.value;
}

/** What checking an `Authorization` header concluded. */
export type AuthorizationCheck = 'ok' | 'missing' | 'malformed' | 'invalid';

/** The configured credentials, kept only as SHA-256 digests. */
interface Digests {
  readonly none: boolean;
  readonly basic: readonly Uint8Array[];
  readonly header: readonly Uint8Array[];
}

/** 1 when two SHA-256 digests are equal, 0 otherwise; looks at every byte (no early exit). */
function sameDigest(a: Uint8Array, b: Uint8Array): number {
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0 ? 1 : 0;
}

/** Printable ASCII, space and tab: what an HTTP header value carries unchanged through every server. */
const HEADER_VALUE = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/;

/**
 * Validates the configured credentials and returns them as a list; throws a `TypeError` that says what
 * to fix (never echoing a credential) when the configuration cannot work.
 */
export function normalizeCredentials(
  option: CredentialsOption | undefined,
): readonly WebhookCredentials[] | 'none' {
  if (option === 'none') return 'none';
  if (option === undefined || option === null) {
    throw new TypeError(
      'createWebhookReceiver: `credentials` is required. Pass the credentials configured on the integration ' +
        "({ type: 'basic', username, password } or { type: 'header', value }), a list of them while rotating, " +
        "or credentials: 'none' when the integration has no custom credentials.",
    );
  }
  const list: readonly WebhookCredentials[] = Array.isArray(option) ? option : [option as WebhookCredentials];
  if (list.length === 0) {
    throw new TypeError(
      "createWebhookReceiver: `credentials` is an empty list, which would refuse every delivery. Configure at least one credential, or credentials: 'none'.",
    );
  }
  list.forEach((credential, index) => {
    const where = `createWebhookReceiver: credentials[${index}]`;
    if (credential === null || typeof credential !== 'object') {
      throw new TypeError(
        `${where} is not a credential object; expected { type: 'basic', ... } or { type: 'header', ... }.`,
      );
    }
    if (credential.type === 'basic') {
      if (typeof credential.username !== 'string' || typeof credential.password !== 'string') {
        throw new TypeError(`${where}: Basic credentials need a string username and a string password.`);
      }
    } else if (credential.type === 'header') {
      if (typeof credential.value !== 'string' || credential.value.length === 0) {
        throw new TypeError(`${where}: an Authorization header credential needs a non-empty string value.`);
      }
      if (!HEADER_VALUE.test(credential.value)) {
        throw new TypeError(
          `${where}: the Authorization header value must be printable ASCII without leading or trailing whitespace ` +
            '(HTTP strips surrounding whitespace and servers read other bytes differently, so it could never match).',
        );
      }
    } else {
      throw new TypeError(`${where}: unknown type; expected 'basic' or 'header'.`);
    }
  });
  return list;
}

/** Hashes the configured credentials once; the receiver keeps only the digests. */
export function digestCredentials(list: readonly WebhookCredentials[] | 'none'): Digests {
  if (list === 'none') return { none: true, basic: [], header: [] };
  const basic: Uint8Array[] = [];
  const header: Uint8Array[] = [];
  for (const credential of list) {
    if (credential.type === 'basic') {
      basic.push(sha256(encoder.encode(`${credential.username}:${credential.password}`)));
    } else {
      header.push(sha256(encoder.encode(credential.value)));
    }
  }
  return { none: false, basic, header };
}

/** The digests a receiver checks against. */
export type CredentialDigests = Digests;

/**
 * Checks an `Authorization` header against every configured credential in constant time: both sides
 * are hashed with SHA-256 and the digests compared byte by byte, for every credential, without
 * stopping at the first match. Neither which part was wrong nor the length leaks.
 */
export function checkAuthorization(
  header: string | undefined,
  digests: CredentialDigests,
): AuthorizationCheck {
  if (digests.none) return 'ok';
  const received = header?.trim() ?? '';
  if (received === '') return 'missing';

  let basicBytes: Uint8Array | undefined;
  let malformedBasic = false;
  const basic = /^basic(?:[ \t]+(.*))?$/is.exec(received);
  if (basic) {
    const decoded = base64ToBytes((basic[1] ?? '').trim());
    if (decoded?.includes(0x3a)) basicBytes = decoded;
    else malformedBasic = true;
  }

  let matched = 0;
  if (digests.header.length > 0) {
    const receivedDigest = sha256(encoder.encode(received));
    for (const digest of digests.header) matched |= sameDigest(receivedDigest, digest);
  }
  if (digests.basic.length > 0) {
    // Without a decodable Basic header, hash the empty string: no configured user-pass (which always
    // holds a colon) has that digest, and the comparisons still run.
    const receivedDigest = sha256(basicBytes ?? new Uint8Array(0));
    for (const digest of digests.basic) matched |= sameDigest(receivedDigest, digest);
  }
  if (matched === 1) return 'ok';
  return malformedBasic && digests.basic.length > 0 ? 'malformed' : 'invalid';
}
