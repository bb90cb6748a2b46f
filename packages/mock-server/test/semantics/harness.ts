/**
 * Drives a {@link MockCore} for the semantics properties: load a generated state (validated record by
 * record, as `PUT /__mock/state` does), log in as the primary account, call endpoints as an HTTP
 * client would (JSON in, JSON out).
 */
import { isDeepStrictEqual } from 'node:util';
import { MockCore } from '../../src/app/mock.js';
import type { MockState } from '../../src/store/state.js';
import { PRIMARY, stateOf } from './arbitraries.js';

/** An answer as a client reads it: the status and the JSON body. */
export interface Answer {
  /** HTTP status. */
  status: number;
  /** The body, through JSON (as it travels). */
  body: unknown;
}

/**
 * The hang bound of a property test: it only catches hangs (`pnpm test:fuzz` runs 12 times the cases,
 * on a busy 2-core machine).
 */
export const HANG = 600_000;

/** The instant the mock's clock stands at unless a property moves it. */
export const NOW = Date.UTC(2026, 0, 15, 12, 0, 0, 0);

/** A mock to load generated states into and query. */
export class Harness {
  readonly core = new MockCore({ state: stateOf({}), clock: () => NOW });
  #token = '';

  /** Replaces the mock's state, sets its clock, and logs in as the primary account. */
  async load(state: MockState, now: number = NOW): Promise<void> {
    await this.core.control.setState(structuredClone(state));
    this.core.clock.set(now);
    const res = await this.core.handle({
      method: 'POST',
      path: '/v2/login',
      headers: { 'content-type': 'application/json' },
      body: { accessKey: PRIMARY.accessKey, secretKey: PRIMARY.secretKey },
    });
    if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
    this.#token = (res.body as { accessToken: string }).accessToken;
  }

  /** Calls an endpoint as the primary account, with a JSON body. */
  async call(
    method: string,
    path: string,
    init: { body?: unknown; query?: Record<string, string> } = {},
  ): Promise<Answer> {
    const res = await this.core.handle({
      method,
      path,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.#token}` },
      ...(init.query ? { query: init.query } : {}),
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    return {
      status: res.status,
      body: res.body === undefined ? undefined : JSON.parse(JSON.stringify(res.body)),
    };
  }

  /** The primary account's records as the mock holds them now (after mutations). */
  async primaryState() {
    const account = (await this.core.control.getState()).accounts[0];
    if (!account) throw new Error('no primary account');
    return JSON.parse(JSON.stringify(account)) as MockState['accounts'][number];
  }
}

/** Throws with the request, the status and the body when an answer is not 200. */
export function ok(answer: Answer, request: unknown): unknown {
  if (answer.status !== 200) {
    throw new Error(
      `expected 200 for ${JSON.stringify(request)}, got ${answer.status}: ${JSON.stringify(answer.body)}`,
    );
  }
  return answer.body;
}

/**
 * Asserts a 400 whose issues name `path` (the member, or a member inside it), for a request the
 * docs say is invalid.
 */
export function refused(answer: Answer, location: string, path: string, request: unknown): void {
  const body = answer.body as { issues?: Array<{ location: string; path: string }> } | undefined;
  const named = body?.issues?.some(
    (i) =>
      i.location === location &&
      (i.path === path || i.path.startsWith(`${path}.`) || i.path.startsWith(`${path}[`)),
  );
  if (answer.status !== 400 || !named) {
    throw new Error(
      `expected a 400 naming ${location}.${path} for ${JSON.stringify(request)}, got ${answer.status}: ${JSON.stringify(answer.body)}`,
    );
  }
}

/**
 * Asserts that an answer's items are the model's: the same keys in the same order first (a short
 * message), then the same items member by member.
 */
export function sameItems(
  got: unknown,
  expected: readonly unknown[],
  key: (item: never) => unknown,
  request: unknown,
) {
  const gotKeys = (got as unknown[]).map((item) => key(item as never));
  const wantKeys = expected.map((item) => key(item as never));
  if (JSON.stringify(gotKeys) !== JSON.stringify(wantKeys)) {
    throw new Error(
      `items differ for ${JSON.stringify(request)}\n  engine: ${JSON.stringify(gotKeys)}\n  model:  ${JSON.stringify(wantKeys)}`,
    );
  }
  same(got, expected, `item members differ for ${JSON.stringify(request)}`);
}

/** Asserts deep equality (member order aside), printing both values when they differ. */
export function same(got: unknown, expected: unknown, what: string): void {
  if (!isDeepStrictEqual(got, expected)) {
    throw new Error(`${what}\n  engine: ${JSON.stringify(got)}\n  model:  ${JSON.stringify(expected)}`);
  }
}
