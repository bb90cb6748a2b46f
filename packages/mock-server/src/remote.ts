/**
 * `@iacm/mock-server/remote`: the typed client of a standalone mock's control plane (`iacm-mock`,
 * `listen()`), for tests that drive a mock in another process: parallel workers of one CI run, each
 * in its own session, or a mock a container runs. `connect(url, { session, controlToken })` answers
 * the same capabilities, with the same names and argument types, as the in-process `mock.control`,
 * each answering a Promise: `await remote.calls('workspaces.search')`, `await remote.reset()`,
 * `await remote.clock.advance(60_000)`. Its methods are made from the control table (each row's
 * route, and how its arguments map to the route's path, query and body), not written a second time.
 *
 * No msw and no `node:` import: it runs in Node 20.19+, Bun, Deno and browsers, with the global
 * `fetch` (or the one given). The vitest matchers take it: `await expect(remote).toHaveReceived(...)`.
 *
 * @module
 */

import type { WorkspaceRun } from '@iacm/sdk/contract';
import { buildPath, type EndpointName } from '@iacm/sdk/contract';
import type { ControlMethodsOf } from './control/declare.js';
import { controlMembersOf, controlRows } from './control/declare.js';
import {
  compatibleVersions,
  MOCK_VERSION_HEADER,
  REMOTE_BRAND,
  SESSION_HEADER,
} from './control/remote-wire.js';
import { CONTROL_TABLE, type ControlTableOf } from './control/table.js';
import type { GuardrailEvaluation } from './domain/evaluate.js';
import type { RunTimingInput, SimulatedRunInput } from './domain/simulate.js';
import type { TimedRunAnswer } from './domain/timed-runs.js';
import type { Fault, FaultRule } from './pipeline/faults.js';
import type { JournalCall } from './pipeline/journal-calls.js';
import type { OneOff, OneOffAnswer } from './pipeline/one-off.js';
import type { WaitForOptions } from './pipeline/waiters.js';
import { VERSION } from './version.js';

/** How {@link connect} reaches the mock. */
export interface ConnectOptions {
  /**
   * The session every request goes to (`X-Iacm-Mock-Session`): its data, journal, faults, clock,
   * waits. Without it, the mock's default session.
   */
  readonly session?: string;
  /** The mock's control token (`--control-token`), sent as `Authorization: Bearer`; never shown in an error. */
  readonly controlToken?: string;
  /** The `fetch` to use; default the global one, looked up at each request. */
  readonly fetch?: typeof fetch;
  /**
   * How long one control request may take, milliseconds (a wait's own `timeout` is the mock's to
   * keep; this is the bound beyond it). 1,000 to 600,000; default 60,000.
   */
  readonly timeoutMs?: number;
}

/**
 * The remote form of in-process control methods `M`: each method takes the same arguments and answers
 * a Promise of what it answers in process; a group (`clock`, `webhooks`) stays a group.
 */
export type RemoteMethods<M> = {
  readonly [K in keyof M]: M[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : RemoteMethods<M[K]>;
};

/**
 * The rows whose in-process signature is generic in the endpoint (or overloaded): a mapped type keeps
 * neither, so their remote forms are spelt here, and checked against the table's below.
 */
export interface RemoteGenericMethods {
  /** `control.calls(name)`: the journal's entries of endpoint `name`, typed from the contract. */
  calls<N extends EndpointName>(name: N): Promise<JournalCall<N>[]>;
  /** `control.waitFor(name, options)`: the first matching call (over HTTP, a wait lasts 30 s at most). */
  waitFor<N extends EndpointName>(name: N, options?: WaitForOptions<N>): Promise<JournalCall<N>>;
  /** `control.addFault(rule)`. */
  addFault<N extends EndpointName>(rule: FaultRule<N>): Promise<Fault>;
  /** `control.respond(name, answer)`. */
  respond<N extends EndpointName>(name: N, answer: OneOffAnswer<N>): Promise<OneOff>;
  /** `control.simulateRun(workspaceId, body)` with `timing`: a run on the mock's clock. */
  simulateRun(
    workspaceId: string,
    body: SimulatedRunInput & { timing: RunTimingInput },
  ): Promise<TimedRunAnswer>;
  /** `control.simulateRun(workspaceId, body)` without `timing`: a run finished at once. */
  simulateRun(workspaceId: string, body: SimulatedRunInput & { timing?: undefined }): Promise<FinishedRun>;
  /** `control.simulateRun(workspaceId, body)`: either. */
  simulateRun(workspaceId: string, body: SimulatedRunInput): Promise<FinishedRun | TimedRunAnswer>;
}

/** A simulated run finished at once: the run and its guardrail evaluation. */
export type FinishedRun = { run: WorkspaceRun; evaluation: GuardrailEvaluation };

/** The names {@link RemoteGenericMethods} spells. */
type GenericRowNames = keyof RemoteGenericMethods;

/** The in-process control methods (`mock.control`, without the HTTP server half), typed from the control table. */
type InProcessControl = ControlMethodsOf<ControlTableOf>;

/**
 * The remote control client's capabilities: every in-process `control.*` method of the control
 * table, with the same name, arguments and answer, as a Promise.
 *
 * @interface
 */
export type RemoteControl = Omit<RemoteMethods<InProcessControl>, keyof RemoteGenericMethods> &
  RemoteGenericMethods;

// Each spelt form takes what the table's method takes (a row changed in the table and not here fails here).
type Check<T extends true> = T;
type _RemoteGenericsMatch = Check<
  {
    [K in GenericRowNames]: Parameters<RemoteGenericMethods[K]> extends Parameters<InProcessControl[K]>
      ? true
      : false;
  }[GenericRowNames] extends true
    ? true
    : false
>;

/** What {@link connect} answers: the capabilities, and where they go. */
export type RemoteMock = RemoteControl & {
  /** The mock's base URL, as given (without a trailing `/`). */
  readonly url: string;
  /** The session its requests go to, when one was given. */
  readonly session: string | undefined;
  /** The brand the vitest matchers read. */
  readonly [REMOTE_BRAND]: true;
};

/**
 * A control request the mock refused or could not answer: its status (0 when there was no answer),
 * the mock's error `code` and field `issues` when it sent them, and the request's method and path.
 * The message never holds the control token.
 */
export class MockControlError extends Error {
  /** The HTTP status; 0 when no answer came (network error, timeout). */
  readonly status: number;
  /** The mock's error code (`validation_failed`, `not_found`, ...), or `network_error`, `version_mismatch`. */
  readonly code: string;
  /** The field issues of a 400, as the mock sent them. */
  readonly issues: ReadonlyArray<{ path?: string; message?: string }> | undefined;
  /** The request: `POST /__mock/faults`. */
  readonly request: string;

  /** Creates the error. */
  constructor(
    request: string,
    status: number,
    code: string,
    message: string,
    options: { issues?: MockControlError['issues']; cause?: unknown } = {},
  ) {
    super(`${request}: ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MockControlError';
    this.request = request;
    this.status = status;
    this.code = code;
    this.issues = options.issues;
  }
}

/** The most characters of a message from the mock that an error keeps. */
const MESSAGE_CHARS = 2000;

/** The most bytes of an answer the client reads (a snapshot may be 64 MiB; a little over). */
const MAX_ANSWER_BYTES = 96 * 1024 * 1024;

function cut(text: string, chars = MESSAGE_CHARS): string {
  return text.length > chars ? `${text.slice(0, chars)}…` : text;
}

/** `text` with every occurrence of `secret` replaced (no pattern is built from it). */
function withoutSecret(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}

/** Checks {@link connect}'s arguments: a TypeError naming the one that is wrong. */
function checkConnect(baseUrl: unknown, options: unknown): { url: string; options: ConnectOptions } {
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl)) {
    throw new TypeError(
      `connect: baseUrl: expected an http(s) URL such as http://127.0.0.1:4010, received ${
        typeof baseUrl === 'string' ? JSON.stringify(cut(baseUrl, 100)) : typeof baseUrl
      }`,
    );
  }
  const parsed = new URL(baseUrl);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`connect: baseUrl: expected http: or https:, received ${cut(parsed.protocol, 20)}`);
  }
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    throw new TypeError(
      'connect: options: expected an object { session?, controlToken?, fetch?, timeoutMs? }',
    );
  }
  const given = (options ?? {}) as Record<string, unknown>;
  const known = new Set(['session', 'controlToken', 'fetch', 'timeoutMs']);
  for (const key of Object.keys(given)) {
    if (!known.has(key)) {
      throw new TypeError(
        `connect: options.${cut(key, 40)}: unknown option (expected session, controlToken, fetch or timeoutMs)`,
      );
    }
  }
  for (const key of ['session', 'controlToken'] as const) {
    const value = given[key];
    if (value !== undefined && (typeof value !== 'string' || value === '' || value.length > 4096)) {
      throw new TypeError(`connect: options.${key}: expected a non-empty string, received ${typeof value}`);
    }
  }
  if (given.fetch !== undefined && typeof given.fetch !== 'function') {
    throw new TypeError(`connect: options.fetch: expected a function, received ${typeof given.fetch}`);
  }
  const timeout = given.timeoutMs;
  if (
    timeout !== undefined &&
    !(Number.isInteger(timeout) && (timeout as number) >= 1000 && (timeout as number) <= 600_000)
  ) {
    throw new TypeError(
      `connect: options.timeoutMs: expected a whole number of milliseconds from 1000 to 600000, received ${cut(String(timeout), 40)}`,
    );
  }
  return { url: baseUrl.replace(/\/+$/, ''), options: given as ConnectOptions };
}

/**
 * Reads an answer's text, at most {@link MAX_ANSWER_BYTES} (counted as it streams: a missing or
 * wrong `content-length` does not let more in).
 */
async function readText(response: Response, request: string): Promise<string> {
  const tooLarge = () =>
    new MockControlError(
      request,
      response.status,
      'answer_too_large',
      `the answer is larger than ${MAX_ANSWER_BYTES} bytes`,
    );
  if (Number(response.headers.get('content-length') ?? 0) > MAX_ANSWER_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * The typed client of a standalone mock's control plane at `baseUrl` (what `iacm-mock` or `listen()`
 * printed): the same capabilities as the in-process `mock.control`, by the same names, each answering
 * a Promise. Nothing is sent until a method is called. Every answer says the mock's version; a mock
 * of another major or minor version fails the call with a `MockControlError` (`version_mismatch`).
 *
 * @param baseUrl The mock's URL, `http://127.0.0.1:4010`.
 * @param options `session` (the `X-Iacm-Mock-Session` every request carries), `controlToken`,
 * `fetch`, `timeoutMs`.
 * @throws TypeError naming the argument that is wrong, before any request.
 * @example
 * ```ts
 * import { connect } from '@iacm/mock-server/remote';
 * const remote = connect('http://127.0.0.1:4010', { session: id });
 * await remote.addFault({ endpoint: 'workspaces.search', status: 500, times: 1 });
 * const searches = await remote.calls('workspaces.search'); // typed as in process
 * ```
 */
export function connect(baseUrl: string, options?: ConnectOptions): RemoteMock {
  const { url, options: given } = checkConnect(baseUrl, options);
  const timeoutMs = given.timeoutMs ?? 60_000;
  const token = given.controlToken;
  const rows = new Map(controlRows(CONTROL_TABLE));

  async function send(
    name: string,
    request: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown },
    via: string | undefined,
  ) {
    const route = rows.get(via ?? name)?.route;
    if (!route) throw new TypeError(`${name}: this capability has no route over HTTP`);
    const path = buildPath(route.path, request.params ?? {});
    const target = new URL(`${url}${path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) target.searchParams.set(key, String(value));
    }
    const label = `${route.method} ${path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    const mutating = route.method !== 'GET';
    if (mutating) headers['content-type'] = 'application/json';
    if (given.session) headers[SESSION_HEADER] = given.session;
    if (token) headers.authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await (given.fetch ?? globalThis.fetch)(target, {
        method: route.method,
        headers,
        ...(mutating && route.method !== 'DELETE' ? { body: JSON.stringify(request.body ?? {}) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new MockControlError(
        label,
        0,
        'network_error',
        withoutSecret(cut(`could not reach the mock at ${url}: ${reason}`), token),
        { cause: error },
      );
    }
    const version = response.headers.get(MOCK_VERSION_HEADER);
    // An error answered before the control plane (an unknown session's 404) says no version: its
    // own error is the better message.
    if ((version === null && response.ok) || (version !== null && !compatibleVersions(VERSION, version))) {
      await response.body?.cancel().catch(() => {});
      throw new MockControlError(
        label,
        response.status,
        'version_mismatch',
        version === null
          ? `the server at ${url} did not say its version (${MOCK_VERSION_HEADER}): is it @iacm/mock-server ${VERSION}, with its control plane on?`
          : `the mock at ${url} is @iacm/mock-server ${cut(version, 40)} and this client ${VERSION}: install the same version on both sides`,
      );
    }
    const text = await readText(response, label);
    let answer: unknown;
    try {
      answer = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new MockControlError(
        label,
        response.status,
        'invalid_answer',
        `the answer is not JSON: ${cut(text, 200)}`,
      );
    }
    if (!response.ok) {
      const body = (answer ?? {}) as { code?: unknown; message?: unknown; issues?: unknown };
      throw new MockControlError(
        label,
        response.status,
        typeof body.code === 'string' ? body.code : 'error',
        withoutSecret(
          cut(`${response.status} ${typeof body.message === 'string' ? body.message : response.statusText}`),
          token,
        ),
        Array.isArray(body.issues) ? { issues: body.issues as MockControlError['issues'] } : {},
      );
    }
    return answer;
  }

  const members = controlMembersOf(CONTROL_TABLE, (name, row) => {
    const call = row.call as NonNullable<typeof row.call>;
    const result = call.result as ((answer: unknown) => unknown) | undefined;
    return async (...args: unknown[]) => {
      const answer = await send(name, call.args(...args), row.via);
      return result ? result(answer) : answer;
    };
  });
  return Object.freeze(
    Object.assign(members, { url, session: given.session, [REMOTE_BRAND]: true as const }),
  ) as unknown as RemoteMock;
}

export { MOCK_VERSION_HEADER, REMOTE_BRAND } from './control/remote-wire.js';
