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
export { MAX_TIMEOUT_MS, SERVER_TIMEOUT_RANGE } from './adapters/timeouts.js';
export { MockCore, type MockOptions } from './app/mock.js';
export { OPTION_RANGES } from './app/options.js';
export type { LoginThrottleOption } from './auth/login.js';
export type { ControlExposure } from './control/access.js';
export type { NumberRange } from './errors/ranges.js';
export type { HandleOptions } from './http/message.js';
export type { TrustProxy } from './pipeline/rate-limit.js';
