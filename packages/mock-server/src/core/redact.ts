/**
 * What the mock never writes down. The rules themselves (secret headers, body members, and the words
 * that make a name look like a credential's) have one home, the contract's redaction module, shared
 * with the SDK and the receiver; this module applies them to what the mock records: the request
 * journal and the standalone server's request log.
 *
 * @module
 */
import { looksLikeSecretName, REDACTED } from '@iacm/sdk/contract';

export { isSecretHeader, REDACTED, redactBody } from '@iacm/sdk/contract';

/**
 * Whether a query parameter's name looks like a credential's (`access_token`, `apiKey`,
 * `X-Signature`...). The API takes no credential in a query; a caller who puts one there still
 * never sees it written down.
 */
export const isSecretParameter: (name: string) => boolean = looksLikeSecretName;

/** A copy of parsed query parameters with the values of credential-looking names replaced. */
export function redactQuery(query: Record<string, string | string[]>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => [name, isSecretParameter(name) ? REDACTED : value]),
  );
}
