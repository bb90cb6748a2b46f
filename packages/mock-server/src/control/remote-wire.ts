/**
 * What the control plane over HTTP and its typed client (`@iacm/mock-server/remote`) agree on besides
 * the control table: the header that says the mock's version. Importable without the core, msw or
 * `node:`.
 *
 * @module
 */

/** The request header that selects a session (names in any case). */
export const SESSION_HEADER = 'x-iacm-mock-session';

/** The response header of every control answer that says the mock's version (its `VERSION`). */
export const MOCK_VERSION_HEADER = 'x-iacm-mock-version';

/**
 * Whether a client of version `client` may drive a mock of version `server`: the same major and
 * minor (`0.1.x` with `0.1.y`; the control plane may change in a minor while the major is 0).
 */
export function compatibleVersions(client: string, server: string): boolean {
  const line = (version: string) => version.split('.').slice(0, 2).join('.');
  return line(client) === line(server);
}

/**
 * The brand of the remote client (`connect`'s answer), by which the vitest matchers know it without
 * importing it: a registered symbol, the same in every copy of the package.
 */
export const REMOTE_BRAND: unique symbol = Symbol.for('@iacm/mock-server/remote');

/** The key under which the vitest global setup provides the mock's URL (`inject('iacmMockUrl')`). */
export const PROVIDED_MOCK_URL = 'iacmMockUrl';

/** The key under which the vitest global setup provides the mock's control token. */
export const PROVIDED_MOCK_TOKEN = 'iacmMockControlToken';
