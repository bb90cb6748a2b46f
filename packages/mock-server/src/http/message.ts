import type { BodyReader } from '@iacm/sdk/contract';

/** A plain request, as an adapter hands it to the core. */
export interface MockRequest {
  /** HTTP method, any case. */
  method: string;
  /** The path, without the query string, relative to the mock's base URL (`/v2/workspaces/search`). */
  path: string;
  /** Query parameters; a repeated parameter is a list. */
  query?: Readonly<Record<string, string | readonly string[]>> | URLSearchParams;
  /** Request headers; names in any case. */
  headers?: Readonly<Record<string, string | readonly string[] | undefined>> | Headers;
  /** The parsed JSON body, when the adapter parsed it. */
  body?: unknown;
  /** The raw body text, when the adapter did not parse it (the core parses it, answering 400 on bad JSON). */
  rawBody?: string;
  /**
   * Reads the raw body on demand, keeping at most `limit` bytes (the adapters pass one: the body is
   * then read only if the request gets as far as the body stage, and never beyond the size limit).
   * Used when neither `body` nor `rawBody` is given.
   */
  readBody?: BodyReader;
  /**
   * The client's network address (the socket's remote address, as the node:http adapter gives it),
   * for the rate limit. Forwarding headers are not read unless the mock is told to trust a proxy.
   */
  clientAddress?: string;
}

/** Per-request options of `MockCore.handle`, from the adapter. */
export interface HandleOptions {
  /**
   * Aborted when the client has gone (its connection closed): the pipeline checks it between stages
   * and stops, answering nothing (the journal records the request as dropped).
   */
  signal?: AbortSignal;
  /** The largest API request body for this request, bytes (default: the mock's `maxBodyBytes`). */
  maxBodyBytes?: number;
  /**
   * The `Host` names the server answers to (lower-case, IPv6 without brackets): a request with
   * another `Host` is a 403 (the standalone server's guard against DNS rebinding). Default: any.
   */
  allowedHosts?: ReadonlySet<string>;
  /**
   * Who may ask for an error with `Prefer: code=<status>`: `always` (the default: a request of the
   * process itself, `MockCore.handle`, MSW), or `control` (the standalone server sets it: only on an
   * open control plane, or with the control token in `X-Iacm-Mock-Control-Token`; otherwise the
   * header is ignored and the answer carries `x-iacm-mock-prefer: ignored ...`).
   */
  preferHeader?: 'always' | 'control';
}

/** A plain response, as the core hands it to an adapter. */
export interface MockResponse {
  /** HTTP status. */
  status: number;
  /** Response headers (lower-case names). */
  headers: Record<string, string>;
  /** The JSON body, or undefined for none (204). */
  body: unknown;
  /** When true the adapter closes the connection without answering (fault injection). */
  drop?: boolean;
  /**
   * When true the journal does not write this request down: a successful answer of a control route
   * declared `journalled: false` (the live page's polls, `GET /__mock/live/feed`).
   */
  unjournalled?: boolean;
}

/** The 500 answer of a bug in the mock (never caused by client input; the fuzz tests check that). */
export function internalErrorResponse(requestId?: string): MockResponse {
  return {
    status: 500,
    headers: { 'content-type': 'application/json' },
    body: {
      status: 500,
      code: 'internal_error',
      message: 'the mock server failed; this is a bug in @iacm/mock-server',
      ...(requestId ? { requestId } : {}),
    },
  };
}

/**
 * The answer that is no answer: the adapter closes the connection without a response (an injected
 * `drop` fault, or a request whose client has gone); the journal records it as dropped.
 */
export function droppedResponse(): MockResponse {
  return { status: 0, headers: {}, body: undefined, drop: true };
}
