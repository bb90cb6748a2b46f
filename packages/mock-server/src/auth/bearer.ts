/**
 * The one reading of `Authorization: Bearer <token>`: the API's login tokens (the authenticate stage)
 * and the control plane's token (`control/access.ts`) are read the same way.
 *
 * @module
 */

/**
 * The token of an `Authorization` header value in the bearer scheme (`Bearer <token>`, the scheme's
 * name in any case, one or more spaces, a token without white space; white space around the whole
 * value ignored), or `undefined` when the value is not one.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer +(\S+)$/i.exec(header.trim());
  return match?.[1];
}
