/**
 * What the mock never writes down: the one home of its redaction rules, used by the request journal
 * and by the standalone server's request log.
 *
 * @module
 */

/** The stand-in for a redacted value. */
export const REDACTED = '[redacted]';

/** Request headers whose values are credentials. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'cookie',
  'proxy-authorization',
  'x-api-key',
  'set-cookie',
]);

/** Members of JSON bodies whose values are credentials (exact names, any case). */
const SECRET_MEMBERS = new Set(
  [
    'accessKey',
    'secretKey',
    'password',
    'token',
    'accessToken',
    'authorization',
    'secret',
    'credentials',
  ].map((name) => name.toLowerCase()),
);

/**
 * Query parameters that look like credentials: a name containing token, key, secret, password,
 * signature, auth or credential, in any case. The API itself takes none in a query; a caller who puts
 * one there (`?access_token=…`) still never sees it written down.
 */
const SECRET_PARAMETER = /token|key|secret|password|signature|auth|credential/i;

/** Whether a query parameter's name looks like a credential's (see {@link redactQuery}). */
export function isSecretParameter(name: string): boolean {
  return SECRET_PARAMETER.test(name);
}

/** A copy of a JSON body with every credential member, at any depth, replaced by `[redacted]`. */
export function redactBody(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(redactBody);
  if (typeof body !== 'object' || body === null) return body;
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => [k, SECRET_MEMBERS.has(k.toLowerCase()) ? REDACTED : redactBody(v)]),
  );
}

/** A copy of parsed query parameters with the values of credential-looking names replaced. */
export function redactQuery(query: Record<string, string | string[]>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => [name, isSecretParameter(name) ? REDACTED : value]),
  );
}
