/**
 * The journal's typed view: the entries of one endpoint of the contract, their inputs typed from the
 * endpoint table (`control.calls('workspaces.search')`).
 *
 * @module
 */
import type { EndpointName } from '@iacm/sdk/contract';
import type { EndpointBody, EndpointParams, EndpointQuery } from '../operations/operation.js';
import type { JournalEntry } from './journal.js';

/**
 * A journal entry of endpoint `N`, typed from the contract's endpoint table
 * (`control.calls('workspaces.search')`): its inputs as the route stage validated them, the answer's
 * status, the request id and the account. For a request answered before its inputs were validated
 * (`validated: false`: a fault, a 401, a 429, a 400 naming a bad field), `params`, `query` and `body`
 * hold what is known of what was sent, as {@link JournalInput} says, whatever their type says.
 */
export interface JournalCall<N extends EndpointName = EndpointName> {
  /** The endpoint's name. */
  endpoint: N;
  /** The request id (`x-request-id` of the answer). */
  requestId: string;
  /** When the request arrived (ISO 8601). */
  time: string;
  /** HTTP method. */
  method: string;
  /** The path as sent. */
  path: string;
  /** The answer's status (0 when a fault dropped the connection). */
  status: number;
  /** How long the answer took, milliseconds. */
  durationMs: number;
  /** The id of the account the request authenticated as (`undefined` for login, health, or a refused token). */
  accountId: string | undefined;
  /** Whether `params`, `query` and `body` are the validated inputs (else: what was sent, as far as known). */
  validated: boolean;
  /** The path parameters, as the endpoint's `params` schema parsed them. */
  params: EndpointParams<N>;
  /** The query, as the endpoint's `query` schema parsed it. */
  query: EndpointQuery<N>;
  /** The body, as the endpoint's `body` schema parsed it (credentials `[redacted]`). */
  body: EndpointBody<N>;
  /** True when a fault dropped the connection. */
  dropped?: boolean;
  /** Why the request's `Prefer: code=` was ignored, when it was (`JournalEntry.preferIgnored`). */
  preferIgnored?: string;
}

/** An entry of endpoint `N` as `control.calls(name)` answers it: its inputs read once. */
export function toCall<N extends EndpointName>(entry: JournalEntry): JournalCall<N> {
  const input = entry.input ?? { validated: false, params: {}, query: { ...entry.query }, body: entry.body };
  return {
    endpoint: entry.endpoint as N,
    requestId: entry.id,
    time: entry.time,
    method: entry.method,
    path: entry.path,
    status: entry.status,
    durationMs: entry.durationMs,
    accountId: entry.accountId,
    validated: input.validated,
    params: input.params as EndpointParams<N>,
    query: input.query as EndpointQuery<N>,
    body: input.body as EndpointBody<N>,
    ...(entry.dropped ? { dropped: true } : {}),
    ...(entry.preferIgnored !== undefined ? { preferIgnored: entry.preferIgnored } : {}),
  };
}
