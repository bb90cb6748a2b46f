/**
 * `@iacm/sdk`: the typed, validated client of the IaC management service API.
 *
 * The API contract (schemas and the endpoint table) is exported from `@iacm/sdk/contract`.
 *
 * @packageDocumentation
 */
export { IacmClient } from './client.js';
export type { GuardrailCreated } from './contract/guardrails.js';
export { REFRESH_MARGIN_SECONDS } from './core/auth.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  IacmError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  UnprocessableEntityError,
} from './core/errors.js';
export { LOG_LEVELS, type Logger, type LogLevel } from './core/logger.js';
export {
  type AuthOption,
  type ClientOptions,
  DEFAULTS,
  type Hooks,
  type RequestInfo,
  type RequestOptions,
  type ResponseInfo,
  type RetryInfo,
  type ValidationMode,
} from './core/options.js';
export { APIPromise, type NextPage, PagePromise, type ToArrayOptions } from './core/pagination.js';
export { MAX_RETRY_AFTER, type WithResponse } from './core/transport.js';
export {
  Auth,
  EventCenter,
  Guardrails,
  IacExplorer,
  WorkspaceRuns,
  Workspaces,
} from './resources/resources.js';
export type {
  BackendQueryParams,
  EventQueryParams,
  GuardrailSearchParams,
  ModuleQueryParams,
  PageParams,
  Projected,
  RunSearchParams,
  StackQueryParams,
  WorkspaceSearchParams,
} from './resources/types.js';

/** The version of this package. */
export const VERSION = '0.1.0';
