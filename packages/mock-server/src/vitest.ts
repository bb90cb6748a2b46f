/**
 * `@iacm/mock-server/vitest`: matchers over the mock's journal for vitest's `expect.extend`.
 *
 * ```ts
 * import { expect } from 'vitest';
 * import { mockMatchers } from '@iacm/mock-server/vitest';
 *
 * expect.extend(mockMatchers);
 * expect(mock).toHaveReceived('workspaces.search', { times: 1, body: expect.objectContaining({ searchValue: 'web' }) });
 * expect(mock).toHaveReceivedNothingElse();
 * ```
 *
 * `mock` is what `createMockServer` answers, or a `MockCore`, or the remote client of a standalone
 * mock (`connect` of `@iacm/mock-server/remote`): then the matchers answer a Promise, so await them
 * (`await expect(remote).toHaveReceived(...)`). The matchers read the journal
 * (`control.calls(name)`, `control.journal()`), so they see what the journal keeps (the last
 * `journalLimit` requests, 500 by default). Their failure messages list the calls that did arrive
 * (at most 20 lines, each body shown in at most 100 characters) and the nearest miss: the call of the
 * endpoint that had the most of the expected values, with the first member that differed. Importing this entry also types
 * them on vitest's `Assertion`, by endpoint name. vitest is an optional peer dependency: only this
 * entry needs it, for its types.
 *
 * @packageDocumentation
 */

import { type ClientOptions, IacmClient } from '@iacm/sdk';
import type { EndpointName } from '@iacm/sdk/contract';
import type { Matcher, MatcherState } from 'vitest';
import { afterAll, beforeAll, inject } from 'vitest';
import type { ControlPlane } from './control/plane.js';
import { PROVIDED_MOCK_TOKEN, PROVIDED_MOCK_URL, REMOTE_BRAND } from './control/remote-wire.js';
import type { EndpointBody, EndpointParams, EndpointQuery } from './operations/operation.js';
import { checkEndpointName } from './pipeline/endpoint-name.js';
import type { JournalEntry } from './pipeline/journal.js';
import type { JournalCall } from './pipeline/journal-calls.js';
import { connect, type RemoteMock } from './remote.js';
import type { Scene } from './store/seed/scene.js';
import type { MockAccount, SeedSizes } from './store/state.js';

/** What the matchers take as `mock`: anything with the mock's control plane (a `MockServer`, a `MockCore`). */
export interface MockWithControl {
  /** The control plane (its journal is what the matchers read). */
  readonly control: Pick<ControlPlane, 'calls' | 'journal'>;
}

/**
 * What `toHaveReceived(name, expected)` asks of endpoint `N`'s calls. A call matches when each
 * member given equals the call's (vitest's equality: `expect.objectContaining(...)` and the other
 * asymmetric matchers work); `params`, `query` and `body` are compared with what the route stage
 * validated (`control.calls(name)`).
 */
export interface ReceivedExpectation<N extends EndpointName = EndpointName> {
  /** How many calls must match, exactly (a non-negative integer); without it, at least one. */
  times?: number;
  /** The path parameters. */
  params?: EndpointParams<N>;
  /** The query, as the endpoint's schema parsed it (`page` a number). */
  query?: EndpointQuery<N>;
  /** The body, as the endpoint's schema parsed it (credentials read `[redacted]`). */
  body?: EndpointBody<N>;
  /** The answer's status. */
  status?: number;
  /** The id of the account the call authenticated as. */
  accountId?: string;
}

/** The matchers as `expect(mock)` offers them once `expect.extend(mockMatchers)` has run. */
export interface MockMatchers<R = unknown> {
  /**
   * Passes when the mock received calls of endpoint `name` matching `expected`: exactly
   * `expected.times` of them, or at least one. The calls it matched count as expected for
   * `toHaveReceivedNothingElse` in the same test. An unknown name throws (a 400 naming the closest).
   */
  toHaveReceived<N extends EndpointName>(name: N, expected?: ReceivedExpectation<N>): R;
  /**
   * Passes when every API call the journal holds was matched by an earlier `toHaveReceived` of the
   * same test, or is of one of the endpoints `names` (the control plane's own requests are left out).
   */
  toHaveReceivedNothingElse(names?: readonly EndpointName[]): R;
}

declare module 'vitest' {
  // No type parameters: vitest 4 declares `Assertion<T = any>`, vitest 5 `Assertion<R = void, T = unknown>`,
  // and a merging declaration must repeat the names of the parameters it declares (TS2428), but may
  // declare none when all of them have defaults. So one declaration serves both majors.
  interface Assertion extends MockMatchers<void> {}
}

/** What a matcher answers vitest. */
interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** How many calls a failure message lists at most. */
const LISTED_CALLS = 20;

/** How many characters of a body (or an expectation) a failure message shows at most. */
const PREVIEW_CHARS = 100;

/** The matchers' claims: for each control plane, the calls matched in the current test. */
const claims = new WeakMap<object, { test: string; keys: Set<string> }>();

function testOf(state: MatcherState): string {
  return `${state.testPath ?? ''}\u0000${state.currentTestName ?? ''}`;
}

/** A journal entry's identity within a test (request ids start again after a reset; the time and path tell them apart). */
function keyOf(entry: {
  requestId?: string;
  id?: string;
  time: string;
  method: string;
  path: string;
}): string {
  return `${entry.requestId ?? entry.id} ${entry.time} ${entry.method} ${entry.path}`;
}

function claimed(state: MatcherState, control: object): Set<string> {
  const test = testOf(state);
  let claim = claims.get(control);
  if (!claim || claim.test !== test) {
    claim = { test, keys: new Set() };
    claims.set(control, claim);
  }
  return claim.keys;
}

/** The remote client's journal reads (`connect` of `@iacm/mock-server/remote`), as the matchers use them. */
interface RemoteJournal {
  calls(name: EndpointName): Promise<JournalCall[]>;
  journal(limit?: number): Promise<JournalEntry[]>;
}

/** Where a matcher reads the journal: in process (at once), or a remote client (a Promise). */
type JournalSource =
  | { readonly remote: false; readonly key: object; readonly control: MockWithControl['control'] }
  | { readonly remote: true; readonly key: object; readonly control: RemoteJournal };

/** The journal of `mock`, or a TypeError saying what the matcher takes. */
function sourceOf(mock: unknown, matcher: string): JournalSource {
  if (typeof mock === 'object' && mock !== null && (mock as Record<symbol, unknown>)[REMOTE_BRAND] === true) {
    return { remote: true, key: mock, control: mock as unknown as RemoteJournal };
  }
  const control = (mock as { control?: Partial<ControlPlane> } | null | undefined)?.control;
  if (typeof control?.calls === 'function' && typeof control.journal === 'function') {
    return { remote: false, key: control, control: control as MockWithControl['control'] };
  }
  throw new TypeError(
    `${matcher}: expected the mock (what createMockServer returns, a MockCore, or connect()'s remote client), received ${mock === null ? 'null' : typeof mock}`,
  );
}

/**
 * Runs `judge` on what it reads of the journal: at once in process, once both reads arrived for a
 * remote client (`calls` only when a name is given).
 */
function withJournal<T>(
  source: JournalSource,
  name: EndpointName | undefined,
  judge: (calls: JournalCall[], entries: JournalEntry[]) => T,
): T | Promise<T> {
  if (!source.remote) {
    const { control } = source;
    return judge(name === undefined ? [] : control.calls(name), control.journal());
  }
  const { control } = source;
  return (async () => {
    const calls = name === undefined ? [] : await control.calls(name);
    return judge(calls, await control.journal());
  })();
}

/** At most {@link PREVIEW_CHARS} characters of `text`. */
function cut(text: string): string {
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

/** A body in one short line: its JSON text, cut. */
function preview(body: unknown): string {
  if (body === undefined) return 'no body';
  try {
    return cut(JSON.stringify(body) ?? String(body));
  } catch {
    return '[not JSON]';
  }
}

/** One line of a listing: request id, method, path, status, endpoint and a body preview. */
function callLine(entry: JournalEntry): string {
  const input = entry.input;
  const body = input?.validated ? input.body : entry.body;
  return `  ${entry.id} ${entry.method} ${cut(entry.path)} -> ${entry.status} ${entry.endpoint ?? '(no endpoint)'}: ${preview(body)}`;
}

/** The API calls of journal entries (the control plane's own requests left out), oldest first. */
function apiEntries(entries: readonly JournalEntry[]): JournalEntry[] {
  return entries.filter((entry) => entry.endpoint !== 'control');
}

/** The listing of `entries` under `title`, at most {@link LISTED_CALLS} lines of calls (the last ones). */
function listing(title: string, entries: readonly JournalEntry[]): string {
  if (entries.length === 0) return `${title}: none`;
  const shown = entries.slice(-LISTED_CALLS);
  const lines = [`${title} (${entries.length}, oldest first):`];
  if (shown.length < entries.length) lines.push(`  … ${entries.length - shown.length} earlier not shown`);
  lines.push(...shown.map(callLine));
  return lines.join('\n');
}

/** What an expectation asks, in one line. */
function describeExpectation(state: MatcherState, expected: ReceivedExpectation): string {
  const parts: string[] = [];
  for (const member of ['params', 'query', 'body', 'status', 'accountId'] as const) {
    if (expected[member] !== undefined) {
      parts.push(
        `${member} ${cut(state.utils.stringify(expected[member], 4, { maxLength: 4096, min: true }))}`,
      );
    }
  }
  return parts.length === 0 ? '' : ` with ${parts.join(', ')}`;
}

function timesText(times: number | undefined): string {
  if (times === undefined) return 'at least once';
  return times === 1 ? 'once' : `${times} times`;
}

/** Whether `call` matches each member `expected` gives. */
function matches(state: MatcherState, call: JournalCall, expected: ReceivedExpectation): boolean {
  for (const member of ['params', 'query', 'body', 'status', 'accountId'] as const) {
    if (expected[member] === undefined) continue;
    if (!state.equals(call[member], expected[member], state.customTesters)) return false;
  }
  return true;
}

/** Whether `value` is one of vitest's asymmetric matchers (`expect.objectContaining(...)`, `expect.any(...)`). */
function isAsymmetric(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
  );
}

/** How near a call came to an expectation: the values it had as expected, and the first that differed. */
interface Nearness {
  matched: number;
  miss: { path: string; expected: string; received: string } | undefined;
}

/** A value in a near miss, as vitest prints it, in one short line. */
function shown(state: MatcherState, value: unknown): string {
  if (value === undefined) return 'nothing';
  return cut(state.utils.stringify(value, 4, { maxLength: 4096, min: true }));
}

/**
 * How near `actual` is to `expected` under vitest's equality (the one `toHaveReceived` applies): a
 * primitive or an asymmetric matcher compared whole, arrays item by item (as many items), objects
 * member by member (a member `actual` has and `expected` does not is a difference too).
 */
function nearness(
  state: MatcherState,
  expected: unknown,
  actual: unknown,
  path: string,
  depth = 0,
): Nearness {
  const whole = (): Nearness =>
    state.equals(actual, expected, state.customTesters)
      ? { matched: 1, miss: undefined }
      : { matched: 0, miss: { path, expected: shown(state, expected), received: shown(state, actual) } };
  if (depth > 32 || expected === null || typeof expected !== 'object' || isAsymmetric(expected))
    return whole();
  if (Array.isArray(expected) !== Array.isArray(actual) || actual === null || typeof actual !== 'object') {
    return whole();
  }
  const out: Nearness = { matched: 0, miss: undefined };
  const add = (sub: Nearness) => {
    out.matched += sub.matched;
    out.miss ??= sub.miss;
  };
  if (Array.isArray(expected)) {
    const got = actual as unknown[];
    expected.forEach((item, i) => {
      add(nearness(state, item, got[i], `${path}[${i}]`, depth + 1));
    });
    if (got.length > expected.length) {
      out.miss ??= {
        path: `${path}[${expected.length}]`,
        expected: `nothing (${expected.length} items)`,
        received: shown(state, got[expected.length]),
      };
    }
    return out;
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  for (const [name, value] of Object.entries(e)) {
    if (value !== undefined) add(nearness(state, value, a[name], `${path}.${name}`, depth + 1));
  }
  const extra = Object.keys(a).find((name) => a[name] !== undefined && e[name] === undefined);
  if (extra !== undefined) {
    out.miss ??= { path: `${path}.${extra}`, expected: 'nothing', received: shown(state, a[extra]) };
  }
  return out;
}

/**
 * The call of `calls` (none of which matched) that came nearest to `expected`, in one line with the
 * first member that differed (the later of two as near); `undefined` when there is none.
 */
function nearestMiss(
  state: MatcherState,
  calls: readonly JournalCall[],
  expected: ReceivedExpectation,
): string | undefined {
  let best: { call: JournalCall; near: Nearness } | undefined;
  for (const call of calls) {
    const near: Nearness = { matched: 0, miss: undefined };
    for (const member of ['params', 'query', 'body', 'status', 'accountId'] as const) {
      if (expected[member] === undefined) continue;
      const sub = nearness(state, expected[member], call[member], member);
      near.matched += sub.matched;
      near.miss ??= sub.miss;
    }
    if (near.miss && (best === undefined || near.matched >= best.near.matched)) best = { call, near };
  }
  if (!best?.near.miss) return undefined;
  const { call, near } = best;
  const { path, expected: wanted, received } = near.miss as NonNullable<Nearness['miss']>;
  return `nearest miss: ${call.requestId} ${call.method} ${cut(call.path)} -> ${call.status}, at ${path}: expected ${wanted}, received ${received}`;
}

function toHaveReceived(
  this: MatcherState,
  mock: unknown,
  name: EndpointName,
  expected: ReceivedExpectation = {},
): MatcherResult | Promise<MatcherResult> {
  const source = sourceOf(mock, 'toHaveReceived');
  const { times } = expected;
  if (times !== undefined && !(Number.isInteger(times) && times >= 0)) {
    throw new TypeError(`toHaveReceived: times: expected a non-negative integer, received ${String(times)}`);
  }
  return withJournal(source, name, (calls, entries) => {
    const matched = calls.filter((call) => matches(this, call, expected));
    const pass = times === undefined ? matched.length > 0 : matched.length === times;
    if (pass && !this.isNot) {
      const keys = claimed(this, source.key);
      for (const call of matched) keys.add(keyOf(call));
    }
    const wanted = `${name} ${timesText(times)}${describeExpectation(this, expected)}`;
    return {
      pass,
      message: () => {
        const ids = new Set(matched.map(keyOf));
        const nearText = (all: readonly JournalCall[], hits: readonly JournalCall[]) => {
          const missed = all.filter((call) => !hits.includes(call));
          const line = missed.length > 0 ? nearestMiss(this, missed, expected) : undefined;
          return line === undefined ? '' : `\n${line}`;
        };
        const matchedEntries = apiEntries(entries).filter((entry) => ids.has(keyOf(entry)));
        return this.isNot
          ? `expected the mock not to have received ${wanted}, but ${matched.length} of its ${calls.length} calls of ${name} matched\n${listing('matching calls', matchedEntries)}`
          : `expected the mock to have received ${wanted}, but ${matched.length} of its ${calls.length} calls of ${name} matched\n${listing('calls that arrived', apiEntries(entries))}${nearText(calls, matched)}`;
      },
    };
  });
}

function toHaveReceivedNothingElse(
  this: MatcherState,
  mock: unknown,
  names: readonly EndpointName[] = [],
): MatcherResult | Promise<MatcherResult> {
  const source = sourceOf(mock, 'toHaveReceivedNothingElse');
  if (!Array.isArray(names)) {
    throw new TypeError('toHaveReceivedNothingElse: expected a list of endpoint names, or nothing');
  }
  const allowed = new Set<string>(names.map((name) => checkEndpointName(name, 'body')));
  return withJournal(source, undefined, (_calls, entries) => nothingElse(this, source, allowed, entries));
}

function nothingElse(
  state: MatcherState,
  source: JournalSource,
  allowed: ReadonlySet<string>,
  entries: readonly JournalEntry[],
): MatcherResult {
  const keys = claimed(state, source.key);
  const others = apiEntries(entries).filter(
    (entry) => !keys.has(keyOf(entry)) && !(entry.endpoint !== undefined && allowed.has(entry.endpoint)),
  );
  const besides =
    allowed.size > 0
      ? `calls of ${[...allowed].join(', ')} and what earlier toHaveReceived matched`
      : 'what earlier toHaveReceived assertions matched';
  return {
    pass: others.length === 0,
    message: () =>
      state.isNot
        ? `expected the mock to have received calls besides ${besides}, but it received none`
        : `expected the mock to have received nothing besides ${besides}\n${listing('other calls that arrived', others)}`,
  };
}

/**
 * The matchers, for `expect.extend(mockMatchers)`: `toHaveReceived(name, { times, params, query,
 * body, status, accountId })` and `toHaveReceivedNothingElse(names?)` (see {@link MockMatchers}).
 */
export const mockMatchers: {
  /** `expect(mock).toHaveReceived(name, expected?)` ({@link MockMatchers.toHaveReceived}). */
  readonly toHaveReceived: Matcher;
  /** `expect(mock).toHaveReceivedNothingElse(names?)` ({@link MockMatchers.toHaveReceivedNothingElse}). */
  readonly toHaveReceivedNothingElse: Matcher;
} = Object.freeze({ toHaveReceived, toHaveReceivedNothingElse });

/** What a test file's session is made of ({@link useMockSession}); the mock's own seed and sizes by default. */
export interface MockSessionOptions {
  /** The session's seed. */
  readonly seed?: number | string;
  /** The session's sizes. */
  readonly sizes?: Partial<SeedSizes>;
  /** A scene instead of a seed. */
  readonly scene?: Scene;
  /** The mock's URL; default what `@iacm/mock-server/vitest-setup` provided (`inject('iacmMockUrl')`). */
  readonly url?: string;
  /** The mock's control token; default what the global setup provided. */
  readonly controlToken?: string;
}

/** A test file's own session of the run's standalone mock ({@link useMockSession}). */
export interface MockSession {
  /** The session's remote control client (`connect(url, { session })`): `await session.remote.reset()`. */
  readonly remote: RemoteMock;
  /** The session's id (`X-Iacm-Mock-Session`). */
  readonly id: string;
  /** The mock's URL. */
  readonly url: string;
  /** The session's accounts, the primary first, with their key pairs. */
  readonly accounts: readonly MockAccount[];
  /** The options of an `IacmClient` of this session: its base URL, the primary's keys, the session header. */
  clientOptions(extra?: ClientOptions): ClientOptions;
  /** An `IacmClient` of this session, logged in as the primary account (`extra` overrides). */
  client(extra?: ClientOptions): IacmClient;
}

/**
 * Gives the test file (or the `describe` it is called in) a session of its own on the run's standalone
 * mock: created in a `beforeAll`, ended in an `afterAll`, so parallel workers never see each other's
 * data, journal, faults, clock or resets. Call it at the top of the file; read its members in hooks
 * and tests. The mock comes from `globalSetup: ['@iacm/mock-server/vitest-setup']` (or `url`). Each
 * session counts against the mock's memory budget (`budget.sessionBytes`) and `sessions.max`.
 *
 * @example
 * ```ts
 * const session = useMockSession({ sizes: { workspaces: 5 } });
 * it('searches', async () => {
 *   await session.client().workspaces.search({});
 *   await expect(session.remote).toHaveReceived('workspaces.search', { times: 1 });
 * });
 * ```
 */
export function useMockSession(options: MockSessionOptions = {}): MockSession {
  let made:
    | { remote: RemoteMock; id: string; url: string; accounts: MockAccount[]; end: () => Promise<void> }
    | undefined;
  const ready = () => {
    if (!made) {
      throw new Error(
        'useMockSession: the session is made in a beforeAll hook: read it in a hook or a test, not while the file loads',
      );
    }
    return made;
  };
  beforeAll(async () => {
    const url = options.url ?? inject(PROVIDED_MOCK_URL);
    if (typeof url !== 'string') {
      throw new Error(
        "useMockSession: no mock URL: add globalSetup: ['@iacm/mock-server/vitest-setup'] to the vitest config, or pass { url }",
      );
    }
    const token = options.controlToken ?? inject(PROVIDED_MOCK_TOKEN);
    const access = token === undefined ? {} : { controlToken: token };
    const root = connect(url, access);
    const source: { seed?: number | string; sizes?: Partial<SeedSizes>; scene?: Scene } = {};
    if (options.seed !== undefined) source.seed = options.seed;
    if (options.sizes !== undefined) source.sizes = options.sizes;
    if (options.scene !== undefined) source.scene = options.scene;
    const created = await root.createSession(source);
    made = {
      remote: connect(url, { ...access, session: created.id }),
      id: created.id,
      url,
      accounts: created.accounts,
      end: () => root.endSession(created.id),
    };
  });
  afterAll(async () => {
    const ending = made;
    made = undefined;
    // Already ended (the mock closed, the session idled out): nothing is left to end.
    await ending?.end().catch(() => {});
  });
  const session: MockSession = {
    get remote() {
      return ready().remote;
    },
    get id() {
      return ready().id;
    },
    get url() {
      return ready().url;
    },
    get accounts() {
      return ready().accounts;
    },
    clientOptions(extra = {}) {
      const { url, id, accounts } = ready();
      const [primary] = accounts;
      if (!primary) throw new Error('useMockSession: the session has no account');
      return {
        baseUrl: url,
        auth: { accessKey: primary.accessKey, secretKey: primary.secretKey },
        ...extra,
        headers: { ...extra.headers, 'X-Iacm-Mock-Session': id },
      };
    },
    client(extra) {
      return new IacmClient(session.clientOptions(extra));
    },
  };
  return session;
}
