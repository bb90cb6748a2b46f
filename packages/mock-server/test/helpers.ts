import { ErrorBody } from '@iacm/sdk/contract';
import { expect } from 'vitest';
import { MockCore, type MockOptions } from '../src/app/mock.js';
import { HttpError } from '../src/errors.js';
import type { MockRequest, MockResponse } from '../src/http/message.js';
import type { Journal, JournalBody } from '../src/pipeline/journal.js';
import { readRequestLine } from '../src/pipeline/request.js';

/** A request as tests write it. */
export interface Call {
  body?: unknown;
  rawBody?: string;
  query?: Record<string, string | string[]>;
  token?: string | null | undefined;
  headers?: Record<string, string>;
}

/** A login token of `account` (the primary account by default) of `core`. */
export async function loginToken(
  core: MockCore,
  account: { accessKey: string; secretKey: string } | undefined = core.accounts()[0],
): Promise<string> {
  const res = await core.handle({
    method: 'POST',
    path: '/v2/login',
    headers: { 'content-type': 'application/json' },
    body: { accessKey: account?.accessKey, secretKey: account?.secretKey },
  });
  expect(res.status).toBe(200);
  return (res.body as { accessToken: string }).accessToken;
}

/**
 * `POST /v2/workspaces/search` of the primary account of `core`, with `headers` added, as the node:http
 * adapter hands it over: `Prefer: code=` only with control access (`preferHeader: 'control'`).
 */
export async function searchOverHttp(core: MockCore) {
  const token = await loginToken(core);
  return (headers: Record<string, string>) =>
    core.handle(
      {
        method: 'POST',
        path: '/v2/workspaces/search',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
        body: {},
      },
      { preferHeader: 'control' },
    );
}

/** A core with a clock tests can move, logged in as the primary and the second account. */
export async function setup(options: MockOptions = {}) {
  let now = Date.UTC(2026, 0, 15, 12, 0, 0, 0);
  const core = new MockCore({ clock: () => now, ...options });
  const [primary, other] = core.accounts();
  if (!primary || !other) throw new Error('expected at least two accounts');
  const login = async (account: { accessKey: string; secretKey: string }) => {
    const res = await core.handle({
      method: 'POST',
      path: '/v2/login',
      body: { accessKey: account.accessKey, secretKey: account.secretKey },
    });
    expect(res.status).toBe(200);
    return (res.body as { accessToken: string }).accessToken;
  };
  const token = await login(primary);
  const otherToken = await login(other);
  const call = (method: string, path: string, init: Call = {}): Promise<MockResponse> => {
    // As an HTTP client sends it: JSON, unless the test says otherwise (the control plane's mutating
    // routes need the header even without a body).
    const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
    if (
      Object.keys(init.headers ?? {}).some((k) => k.toLowerCase() === 'content-type' && k !== 'content-type')
    )
      delete headers['content-type'];
    const bearer = init.token === undefined ? token : init.token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    return core.handle({
      method,
      path,
      headers,
      ...(init.query ? { query: init.query } : {}),
      ...(init.body !== undefined ? { body: init.body } : {}),
      ...(init.rawBody !== undefined ? { rawBody: init.rawBody } : {}),
    });
  };
  return {
    core,
    primary,
    other,
    token,
    otherToken,
    login,
    call,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

/** Asserts an error answer: the status, the code, the one error shape, and the request id. */
export function expectError(res: MockResponse, status: number, code: string): ErrorBody {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = ErrorBody.parse(res.body);
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  expect(body.requestId).toBe(res.headers['x-request-id']);
  expect(res.headers['content-type']).toBe('application/json');
  return body as ErrorBody;
}

/** The HttpError `fn` throws; anything else, or no throw at all, fails the test. */
export function refusal(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected a refusal (an HttpError), but nothing was thrown');
}

/** The HttpError a promise rejects with; anything else, or a fulfilment, fails the test. */
export async function rejection(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return error;
}

/** A valid guardrail create body (a tag rule on every workspace) with this name. */
export function tagRuleBody(name: string) {
  return {
    createdBy: 'bbbbbbbbbbbbbbbbbbbbbbbb',
    name,
    type: 'tag',
    scope: {
      workspaces: { include: ['*'], exclude: [] },
      repositories: { include: [], exclude: [] },
      branches: { include: [], exclude: [] },
      labels: { include: [], exclude: [] },
    },
    criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['team'] } },
    severity: 3,
  };
}

/**
 * Writes a request into a journal as the stage sequence does: the request line as the request stage
 * reads it, the body as read (a function is called now: what it answers, or what it throws).
 */
export function record(
  journal: Journal,
  request: MockRequest,
  response: MockResponse,
  requestId: string,
  started: number,
  now: number,
  body: JournalBody | (() => unknown),
): void {
  const line = readRequestLine(request);
  let read: JournalBody;
  if (typeof body !== 'function') read = body;
  else {
    try {
      read = { value: body() };
    } catch (error) {
      read = { error };
    }
  }
  journal.record(
    { method: line.method, path: request.path, query: line.query, headers: request.headers },
    response,
    requestId,
    started,
    now,
    read,
  );
}

/** Events in the event center's answer order: newest first, ties in time by id ascending. */
export function inAnswerOrder<T extends { event_timestamp: string; id: string }>(events: readonly T[]): T[] {
  return [...events].sort((a, b) =>
    a.event_timestamp !== b.event_timestamp
      ? a.event_timestamp < b.event_timestamp
        ? 1
        : -1
      : a.id < b.id
        ? -1
        : 1,
  );
}

/**
 * Counts the turns of the event loop from now until `stop()`: an immediate that schedules itself again
 * runs once per turn, however fast the work in between (a 1 ms interval counts milliseconds, and
 * counted none on a fast machine). No wall time.
 */
export function countTurns(): { stop(): number } {
  let turns = 0;
  let counting = true;
  const count = () => {
    if (!counting) return;
    turns++;
    setImmediate(count);
  };
  setImmediate(count);
  return {
    stop() {
      counting = false;
      return turns;
    },
  };
}
