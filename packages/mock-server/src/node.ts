/**
 * `@iacm/mock-server/node`: the standalone mock server on `node:http`, and the transport-free core.
 * This entry needs no msw (the root entry's `createMockServer` does).
 *
 * @packageDocumentation
 */
export {
  createRequestListener,
  DEFAULT_SERVER_TIMEOUTS,
  isLoopbackHost,
  type ListenOptions,
  listen,
  type RunningMockServer,
  UnsafeBindError,
} from './adapters/node.js';
export type { HandleOptions } from './core/http.js';
export type { LoginThrottleOption } from './core/login.js';
export { MockCore, type MockOptions } from './core/mock.js';
export type { TrustProxy } from './pipeline/rate-limit.js';
