/**
 * `@iacm/mock-server/node`: the standalone mock server on `node:http`.
 *
 * @packageDocumentation
 */
export {
  createRequestListener,
  type ListenOptions,
  listen,
  type RunningMockServer,
} from './adapters/node.js';
