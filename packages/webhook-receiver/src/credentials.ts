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
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Decodes strict, padded, canonical standard base64; `undefined` when the text is not that. Canonical:
 * the text is exactly what encoding its bytes gives back, so the unused bits of the last character are
 * zero (`YR==` is refused, only `YQ==` decodes to `a`), and each value has one encoding.
 */
function base64ToBytes(text: string): Uint8Array | undefined {
  let binary: string;
  try {
    // `atob` refuses characters outside the alphabet; it forgives missing padding and whitespace,
    // which the comparison below refuses.
    binary = atob(text);
  } catch {
    return undefined;
  }
  // Canonical: the text is exactly its bytes encoded again. This compares the received text with
  // itself re-encoded: it says nothing about the credentials.
  if (btoa(binary) !== text) return undefined;
  // A loop, not `Uint8Array.from(binary, mapper)`: that costs a call per byte (it was most of the check).
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
  // Stryker disable next-line StringLiteral: equivalent, 'none'.type and 'none'.value are undefined too.
  if (credentials === 'none') return undefined;
  if (credentials.type === 'basic') {
    return `Basic ${bytesToBase64(encoder.encode(`${credentials.username}:${credentials.password}`))}`;
  }
  return credentials.value;
}

/**
 * What checking an `Authorization` header concluded: only `'ok'` lets a delivery through (the
 * receiver refuses every other result, one it does not know included). `'control'`: the value holds
 * a control character (CR, LF, NUL, another C0 character or DEL; a tab is allowed, as in HTTP).
 */
export type AuthorizationCheck = 'ok' | 'missing' | 'malformed' | 'control' | 'invalid';

/** The configured credentials, kept only as SHA-256 digests. */
interface Digests {
  readonly none: boolean;
  readonly basic: readonly Uint8Array[];
  readonly header: readonly Uint8Array[];
}

/** 1 when two SHA-256 digests are equal, 0 otherwise; looks at every byte (no early exit). */
function sameDigest(a: Uint8Array, b: Uint8Array): number {
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0 ? 1 : 0;
}

/** Printable ASCII, space and tab: what an HTTP header value carries unchanged through every server. */
const HEADER_VALUE = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/;

/**
 * Whether a credential value holds a control character: NUL to US (CR, LF...) but the tab, or DEL.
 * HTTP allows the tab in a field value and no other of them; a value holding one is refused
 * wherever it came from (a header value a framework did not check, a configured password).
 */
export function hasControlCharacter(value: string): boolean {
  // By UTF-16 code unit: a surrogate (0xd800 and up) is never one of these.
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true;
  }
  return false;
}

/** `value` without the spaces and tabs (HTTP's optional whitespace) at its start and end; linear. */
function trimWhitespace(value: string): string {
  let start = 0;
  let end = value.length;
  // Past either end `charCodeAt` is NaN, not blank: each loop stops there.
  while (isBlank(value.charCodeAt(start))) start++;
  while (isBlank(value.charCodeAt(end - 1))) end--;
  // All blank: `start` is the length and `end` 0, and the slice is empty.
  return value.slice(start, end);
}

/** A space or a tab. */
function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** What a configured value is, for an error message that never shows the value itself. */
function describeValue(value: unknown): string {
  if (value === '') return 'an empty string';
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** The end of the message for a member that is not a string: the likely cause. */
const UNSET = ' (is its environment variable set?).';

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
        `${where} is not a credential object; expected { type: 'basic', ... } or { type: 'header', ... }, received ${describeValue(credential)}.`,
      );
    }
    if (credential.type === 'basic') {
      for (const member of ['username', 'password'] as const) {
        const value: unknown = credential[member];
        if (typeof value !== 'string') {
          throw new TypeError(
            `${where}.${member}: expected a string, received ${describeValue(value)}${UNSET}`,
          );
        }
        if (hasControlCharacter(value)) {
          throw new TypeError(
            `${where}.${member}: expected no control characters (CR, LF, NUL, DEL...), received a string with one.`,
          );
        }
      }
    } else if (credential.type === 'header') {
      const value: unknown = credential.value;
      if (typeof value !== 'string' || value === '') {
        throw new TypeError(
          `${where}.value: expected a non-empty string (the whole Authorization value, scheme included), received ${describeValue(value)}${UNSET}`,
        );
      }
      if (!HEADER_VALUE.test(value)) {
        throw new TypeError(
          `${where}.value: the Authorization header value must be printable ASCII without leading or trailing whitespace ` +
            '(HTTP strips surrounding whitespace and servers read other bytes differently, so it could never match).',
        );
      }
    } else {
      throw new TypeError(`${where}.type: unknown type; expected 'basic' or 'header'.`);
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
  if (header === undefined) return 'missing';
  // Nothing is trimmed but HTTP's optional whitespace: a value with CR, LF, NUL... never verifies.
  if (hasControlCharacter(header)) return 'control';
  const received = trimWhitespace(header);
  if (received === '') return 'missing';

  let basicBytes: Uint8Array | undefined;
  let malformedBasic = false;
  // The scheme, then spaces or tabs and the token (`Basic` alone has an empty token).
  const basic = /^basic(?:[ \t]+|$)(.*)/is.exec(received);
  if (basic) {
    const decoded = base64ToBytes(basic[1] as string);
    if (decoded?.includes(0x3a)) basicBytes = decoded;
    else malformedBasic = true;
  }

  // Each digest is computed when a credential of its kind is configured, and compared with every
  // such credential, whatever the header holds: the time depends on the configuration (not a secret
  // of the request) and on the header's length, never on how much of it matched.
  let matched = 0;
  if (digests.header.length > 0) {
    const headerDigest = sha256(encoder.encode(received));
    for (const digest of digests.header) matched |= sameDigest(headerDigest, digest);
  }
  if (digests.basic.length > 0) {
    // Without a decodable Basic header, hash the empty string: no configured user-pass (which always
    // holds a colon) has that digest, and the comparisons still run.
    const basicDigest = sha256(basicBytes ?? new Uint8Array(0));
    for (const digest of digests.basic) matched |= sameDigest(basicDigest, digest);
  }
  if (matched === 1) return 'ok';
  return malformedBasic && digests.basic.length > 0 ? 'malformed' : 'invalid';
}
