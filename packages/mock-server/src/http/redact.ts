/**
 * What the mock never writes down. The rule itself (which names are a credential's: headers, body
 * members at any depth, query parameters) has one home, the contract's redaction module, shared
 * with the SDK and the receiver; this module applies it to what the mock records: the request
 * journal, snapshots, error messages and the standalone server's request log.
 *
 * @module
 */
import { isSecretParameter, REDACTED } from '@iacm/sdk/contract';

/**
 * `isSecretParameter` tells a query parameter's name is a credential's (`access_token`, `apiKey`,
 * `key`, `X-Signature`...): the API takes no credential in a query; a caller who puts one there
 * still never sees it written down.
 */
export {
  isSecretHeader,
  isSecretName,
  isSecretParameter,
  REDACTED,
  REDACTED_TOO_DEEP,
  redactBody,
  redactHeaders,
} from '@iacm/sdk/contract';

/**
 * A copy of parsed query parameters with the values of credential-looking names replaced, as a
 * record without a prototype (a parameter named `__proto__` or `constructor` is just a name).
 */
export function redactQuery(
  query: Readonly<Record<string, string | string[]>>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const name of Object.keys(query)) {
    out[name] = isSecretParameter(name) ? REDACTED : (query[name] as string | string[]);
  }
  return out;
}
