/**
 * What is never written down: the one home of the redaction rules of the SDK, the mock server and
 * the webhook receiver. Header and body member names are matched exactly (in any case); other names
 * (query parameters, members whose values a validation issue describes) are matched by the words
 * they contain.
 *
 * @module
 */

/** The stand-in for a redacted value. */
export const REDACTED = '[redacted]';

/** Header names (lower case) whose values are credentials. */
export const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
] as const;

/** Member names of JSON bodies whose values are credentials (matched exactly, in any case). */
export const SECRET_MEMBERS = [
  'accessKey',
  'secretKey',
  'password',
  'token',
  'accessToken',
  'authorization',
  'secret',
  'credentials',
] as const;

/**
 * Words that make any other name look like a credential's (matched anywhere in the name, in any
 * case): `access_token`, `apiKey`, `X-Signature`...
 */
export const SECRET_NAME_WORDS = [
  'key',
  'secret',
  'password',
  'token',
  'auth',
  'credential',
  'signature',
] as const;

const secretHeaders: ReadonlySet<string> = new Set(SECRET_HEADERS);
const secretMembers: ReadonlySet<string> = new Set(SECRET_MEMBERS.map((name) => name.toLowerCase()));

/** Whether a header's value is a credential ({@link SECRET_HEADERS}, in any case). */
export function isSecretHeader(name: string): boolean {
  return secretHeaders.has(name.toLowerCase());
}

/** Whether a JSON member's value is a credential ({@link SECRET_MEMBERS}, in any case). */
export function isSecretMember(name: string): boolean {
  return secretMembers.has(name.toLowerCase());
}

/** Whether a name looks like a credential's: it contains one of {@link SECRET_NAME_WORDS}, in any case. */
export function looksLikeSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_NAME_WORDS.some((word) => lower.includes(word));
}

/** Copies headers, replacing the values of secret headers ({@link isSecretHeader}) with `[redacted]`. */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = isSecretHeader(name) ? REDACTED : value;
  return out;
}

/** Copies a JSON value, replacing the values of credential members ({@link isSecretMember}), at any depth, with `[redacted]`. */
export function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactBody);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      k,
      isSecretMember(k) ? REDACTED : redactBody(v),
    ]),
  );
}
