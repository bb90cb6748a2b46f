/**
 * `@iacm/mock-server`: a stateful in-memory reference server for the IaC management service API.
 *
 * - {@link createMockServer}: MSW handlers for `setupServer` (Node) and `setupWorker` (browser).
 * - {@link MockCore}: the transport-free core (a plain request in, a plain response out).
 * - `@iacm/mock-server/node`: `listen()`, the standalone `node:http` server; the `iacm-mock` CLI.
 *
 * @packageDocumentation
 */

export {
  type CreateMockServerOptions,
  createMockServer,
  handleFetchRequest,
  type MockServer,
  toFetchResponse,
} from './adapters/msw.js';
export {
  type ControlPlane,
  type Fault,
  FaultBody,
  type FaultRule,
  type JournalEntry,
  RateLimitBody,
  SeedBody,
  StateSchema,
} from './core/control.js';
export { HttpError, type MockRequest, type MockResponse } from './core/http.js';
export { MockCore, type MockOptions } from './core/mock.js';
export { Collection, type QueryOptions } from './query/collection.js';
export type { SortValue } from './query/compare.js';
export { type GenerateStateOptions, generateState } from './store/seed.js';
export {
  type AccountState,
  DEFAULT_SEED,
  DEFAULT_SIZES,
  type MockAccount,
  type MockState,
  type NotificationConfig,
  SEED_EPOCH,
  type SeedSizes,
} from './store/state.js';
export { AccountStore, Store } from './store/store.js';

export { VERSION } from './version.js';
