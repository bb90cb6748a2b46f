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
 * `mock` is what `createMockServer` answers, or a `MockCore`. The matchers read the journal
 * (`control.calls(name)`, `control.journal()`), so they see what the journal keeps (the last
 * `journalLimit` requests, 500 by default). Their failure messages list the calls that did arrive
 * (at most 20 lines, each body shown in at most 100 characters). Importing this entry also types
 * them on vitest's `Assertion`, by endpoint name. vitest is an optional peer dependency: only this
 * entry needs it, for its types.
 *
 * @packageDocumentation
 */
import type { EndpointName } from '@iacm/sdk/contract';
import type { Matcher, MatcherState } from 'vitest';
import type { ControlPlane } from './control/plane.js';
import type { EndpointBody, EndpointParams, EndpointQuery } from './operations/operation.js';
import { checkEndpointName } from './pipeline/endpoint-name.js';
import type { JournalEntry } from './pipeline/journal.js';
import type { JournalCall } from './pipeline/journal-calls.js';

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

/** The control plane of `mock`, or a TypeError saying what the matcher takes. */
function controlOf(mock: unknown, matcher: string): MockWithControl['control'] {
  const control = (mock as { control?: Partial<ControlPlane> } | null | undefined)?.control;
  if (typeof control?.calls === 'function' && typeof control.journal === 'function') {
    return control as MockWithControl['control'];
  }
  throw new TypeError(
    `${matcher}: expected the mock (what createMockServer returns, or a MockCore), received ${mock === null ? 'null' : typeof mock}`,
  );
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

/** The API calls the journal holds (the control plane's own requests left out), oldest first. */
function apiEntries(control: MockWithControl['control']): JournalEntry[] {
  return control.journal().filter((entry) => entry.endpoint !== 'control');
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

function toHaveReceived(
  this: MatcherState,
  mock: unknown,
  name: EndpointName,
  expected: ReceivedExpectation = {},
): MatcherResult {
  const control = controlOf(mock, 'toHaveReceived');
  const { times } = expected;
  if (times !== undefined && !(Number.isInteger(times) && times >= 0)) {
    throw new TypeError(`toHaveReceived: times: expected a non-negative integer, received ${String(times)}`);
  }
  const calls = control.calls(name);
  const matched = calls.filter((call) => matches(this, call, expected));
  const pass = times === undefined ? matched.length > 0 : matched.length === times;
  if (pass && !this.isNot) {
    const keys = claimed(this, control);
    for (const call of matched) keys.add(keyOf(call));
  }
  const wanted = `${name} ${timesText(times)}${describeExpectation(this, expected)}`;
  return {
    pass,
    message: () => {
      const ids = new Set(matched.map(keyOf));
      const matchedEntries = apiEntries(control).filter((entry) => ids.has(keyOf(entry)));
      return this.isNot
        ? `expected the mock not to have received ${wanted}, but ${matched.length} of its ${calls.length} calls of ${name} matched\n${listing('matching calls', matchedEntries)}`
        : `expected the mock to have received ${wanted}, but ${matched.length} of its ${calls.length} calls of ${name} matched\n${listing('calls that arrived', apiEntries(control))}`;
    },
  };
}

function toHaveReceivedNothingElse(
  this: MatcherState,
  mock: unknown,
  names: readonly EndpointName[] = [],
): MatcherResult {
  const control = controlOf(mock, 'toHaveReceivedNothingElse');
  if (!Array.isArray(names)) {
    throw new TypeError('toHaveReceivedNothingElse: expected a list of endpoint names, or nothing');
  }
  const allowed = new Set<string>(names.map((name) => checkEndpointName(name, 'body')));
  const keys = claimed(this, control);
  const others = apiEntries(control).filter(
    (entry) => !keys.has(keyOf(entry)) && !(entry.endpoint !== undefined && allowed.has(entry.endpoint)),
  );
  const besides =
    allowed.size > 0
      ? `calls of ${[...allowed].join(', ')} and what earlier toHaveReceived matched`
      : 'what earlier toHaveReceived assertions matched';
  return {
    pass: others.length === 0,
    message: () =>
      this.isNot
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
