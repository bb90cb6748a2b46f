/**
 * docs/security.md lists every bound the mock keeps, with its default: this test keeps those figures
 * equal to the constants the code uses, so that the page cannot drift from the code.
 */
import { readFileSync } from 'node:fs';
import {
  DEFAULT_JSON_BOUNDS,
  MAX_LABEL_LENGTH,
  MAX_REQUEST_LIST_VALUES,
  MAX_RESOURCE_ADDRESS_LENGTH,
  MAX_RULE_VALUE_LENGTH,
  MAX_WORKSPACE_LABELS,
  SECRET_PARAMETERS,
} from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SERVER_TIMEOUTS,
  MAX_CONNECTIONS_CHECK_MS,
  MIN_CONNECTIONS_CHECK_MS,
} from '../src/adapters/node.js';
import { DEFAULT_SESSION_BOUNDS, SESSION_RANGES } from '../src/app/sessions.js';
import { DEFAULT_LOGIN_THROTTLE } from '../src/auth/login.js';
import { MAX_SNAPSHOT_BYTES } from '../src/control/state.js';
import { DEFAULT_ACCOUNT_LIMITS } from '../src/domain/caps.js';
import { MIN_RETRY_DELAY_MS } from '../src/domain/delivery-policy.js';
import { MAX_EVENT_ATTRIBUTE_LENGTH } from '../src/domain/events.js';
import { DEFAULT_RETENTION } from '../src/domain/retention.js';
import { MAX_LISTED_SKIPS, SCENARIO_LIMITS } from '../src/domain/scenario.js';
import { TIMED_RUN_LIMITS } from '../src/domain/timed-runs.js';
import { DEFAULT_MAX_BODY_BYTES } from '../src/pipeline/body.js';
import { CLOCK_ADVANCE_RANGE, CLOCK_RANGE } from '../src/pipeline/clock.js';
import { FAULT_LIMITS } from '../src/pipeline/faults.js';
import {
  DEFAULT_JOURNAL_BODY_BYTES,
  DEFAULT_JOURNAL_LIMIT,
  DEFAULT_JOURNAL_MAX_BYTES,
  JOURNAL_BYTES_PER_CHAR,
  JOURNAL_ENTRY_OVERHEAD_BYTES,
  JOURNAL_STRING_OVERHEAD_BYTES,
} from '../src/pipeline/journal.js';
import { ONE_OFF_LIMITS } from '../src/pipeline/one-off.js';
import { DEFAULT_MAX_RATE_LIMIT_CLIENTS, RATE_LIMIT_RANGES } from '../src/pipeline/rate-limit.js';
import { WAIT_LIMITS } from '../src/pipeline/waiters.js';
import { CHANGE_LOG_LENGTH, MAX_COMPOSITE_INDEXES } from '../src/query/collection.js';
import { SPLIT_PATTERN_BOUNDS } from '../src/query/glob.js';
import { TEXT_CHUNK_RECORDS } from '../src/query/text.js';
import { VERSION_KEY_BOUNDS } from '../src/query/versions.js';
import {
  BUDGET_RANGES,
  BUDGET_STORE_NAMES,
  BUDGET_STORES,
  DEFAULT_BUDGET_BYTES,
  HEAP_BUDGET_SHARE,
} from '../src/store/budget.js';
import { COMPACT_AFTER_HOLES, EventLog } from '../src/store/event-log.js';
import { RUN_CACHE_WORKSPACES } from '../src/store/runs.js';
import { SIZE_MAXIMA } from '../src/store/seed/limits.js';
import { SCENE_LIMITS } from '../src/store/seed/scene.js';
import { TEMPLATE_CACHE_KEYS, TEMPLATE_MAX_EVENTS } from '../src/store/template.js';

const doc = readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8');
const n = (value: number) => value.toLocaleString('en-US');
const kib = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`);

describe('docs/security.md matches the code', () => {
  it.each([
    ['API body', kib(DEFAULT_MAX_BODY_BYTES)],
    ['fault body', `\`POST /__mock/faults\` ${kib(FAULT_LIMITS.maxBodyBytes)}`],
    ['faults waiting', `${n(FAULT_LIMITS.maxFaults)} (the next is a 409)`],
    ['fault path', `a path pattern of ${n(FAULT_LIMITS.maxPathLength)} characters`],
    ['fault headers', `${FAULT_LIMITS.maxHeaders} headers`],
    ['journal entries', new RegExp(`Journal entries\\s*\\|\\s*${DEFAULT_JOURNAL_LIMIT}\\s`)],
    ['journal bytes', `${kib(DEFAULT_JOURNAL_MAX_BYTES)} of heap`],
    [
      'journal accounting',
      `${JOURNAL_BYTES_PER_CHAR} bytes per character, ${JOURNAL_STRING_OVERHEAD_BYTES} per text and ${JOURNAL_ENTRY_OVERHEAD_BYTES} per entry`,
    ],
    ['journal body', `${kib(DEFAULT_JOURNAL_BODY_BYTES)} of its JSON text`],
    ['one-off answers waiting', `${n(ONE_OFF_LIMITS.maxAnswers)} (the next is a 409)`],
    ['one-off answer size', `${kib(ONE_OFF_LIMITS.maxBodyBytes)} of JSON each`],
    ['one-off answers total', `${kib(ONE_OFF_LIMITS.maxTotalBytes)} all together by the heap's measure`],
    [
      'scenes',
      `at most ${n(SCENE_LIMITS.accounts)} accounts, ${n(SCENE_LIMITS.workspacesPerAccount)} workspaces, ${n(SCENE_LIMITS.rulesPerAccount)} rules, ${n(SCENE_LIMITS.stacksPerAccount)} stacks, ${n(SCENE_LIMITS.eventsPerAccount)} events, ${n(SCENE_LIMITS.modulesPerAccount)} modules and ${n(SCENE_LIMITS.webhooksPerAccount)} webhooks per account, ${n(SCENE_LIMITS.runsPerWorkspace)} runs per workspace, and ${n(SCENE_LIMITS.records)} records in all`,
    ],
    ['scenario steps', `at most ${n(SCENARIO_LIMITS.maxSteps)} steps`],
    ['scenario body', `\`POST /__mock/scenario\` takes ${kib(SCENARIO_LIMITS.maxBodyBytes)} of JSON`],
    ['scenario at', `each \`at\` 0 to ${SCENARIO_LIMITS.maxAtMs / 86_400_000} days`],
    [
      'sessions',
      `\`sessions.max\` 0 to ${n(SESSION_RANGES.max.max)} live at a time, default ${DEFAULT_SESSION_BOUNDS.max}`,
    ],
    ['sessions memory', 'within its share of the memory budget (`budget.sessionBytes`'],
    ['budget default', `a fixed ${kib(DEFAULT_BUDGET_BYTES)}`],
    ['budget share', `Default ${HEAP_BUDGET_SHARE === 0.5 ? 'half' : HEAP_BUDGET_SHARE} the heap`],
    [
      'budget range',
      `\`budget.bytes\`: ${kib(BUDGET_RANGES.bytes.min)} to ${BUDGET_RANGES.bytes.max / 1024 ** 3} GiB`,
    ],
    ['sorted indexes', `at most ${MAX_COMPOSITE_INDEXES} of several keys`],
    ['text index chunks', `${n(TEXT_CHUNK_RECORDS)} records`],
    ['change log', `its last ${n(CHANGE_LOG_LENGTH)} changes`],
    ['shared data keys', `at most ${TEMPLATE_CACHE_KEYS} keys (\`TEMPLATE_CACHE_KEYS\`)`],
    ['shared data events', `never for more than ${n(TEMPLATE_MAX_EVENTS)} events in the primary account`],
    ['scenario skips listed', `the first ${MAX_LISTED_SKIPS} listed by \`GET /__mock/scenario\``],
    ['timed runs', `${n(TIMED_RUN_LIMITS.maxInFlight)} over all accounts`],
    ['waits pending', `${n(WAIT_LIMITS.maxWaiters)} at once`],
    ['waits match bytes', `${kib(WAIT_LIMITS.maxMatchBytes)} together by the heap's measure`],
    ['wait default', `${n(WAIT_LIMITS.defaultTimeoutMs)} by default, on real timers`],
    ['wait listing', `lists at most ${WAIT_LIMITS.listed} of what arrived`],
    ['scene body', `\`POST /__mock/scene\` takes ${kib(SCENE_LIMITS.maxBodyBytes)} of JSON`],
    ['rules per account', `${n(DEFAULT_ACCOUNT_LIMITS.rulesPerAccount)} per account (the next`],
    ['rule bytes', `${kib(DEFAULT_ACCOUNT_LIMITS.ruleBytesPerAccount)} per account by \`storedBytes\``],
    [
      'notification configurations',
      `${n(DEFAULT_ACCOUNT_LIMITS.notificationsPerAccount)} per account (a create`,
    ],
    ['event attribute', `an attribute value at most ${n(MAX_EVENT_ATTRIBUTE_LENGTH)} characters`],
    ['event compaction', `more than ${n(COMPACT_AFTER_HOLES)})`],
    [
      'rule values',
      `${n(MAX_REQUEST_LIST_VALUES)} values of at most ${MAX_RULE_VALUE_LENGTH} characters (\`specificResources\` ${n(MAX_RESOURCE_ADDRESS_LENGTH)})`,
    ],
    ['labels', `${MAX_WORKSPACE_LABELS} per workspace, each 1 to ${MAX_LABEL_LENGTH} characters`],
    ['connection checks', `at least every ${MAX_CONNECTIONS_CHECK_MS / 1000} s`],
    ['connection check floor', `from ${MIN_CONNECTIONS_CHECK_MS} ms to ${MAX_CONNECTIONS_CHECK_MS / 1000} s`],
    [
      'clock range',
      `${new Date(CLOCK_RANGE.min).toISOString()} to ${new Date(CLOCK_RANGE.max).toISOString()} (\`now\`)`,
    ],
    ['clock move', `a move at most ${CLOCK_ADVANCE_RANGE.max / (365 * 86_400_000)} years either way`],
    [
      'rate-limit range',
      `\`limit\` ${n(RATE_LIMIT_RANGES.limit.min)} to ${n(RATE_LIMIT_RANGES.limit.max)}, \`windowSeconds\` ${n(RATE_LIMIT_RANGES.windowSeconds.min)} to ${n(RATE_LIMIT_RANGES.windowSeconds.max)}`,
    ],
    [
      'split glob patterns',
      `the last ${n(SPLIT_PATTERN_BOUNDS.maxEntries)} patterns of at most ${SPLIT_PATTERN_BOUNDS.maxKeyLength} characters`,
    ],
    [
      'version sort keys',
      `the last ${n(VERSION_KEY_BOUNDS.maxEntries)} values of at most ${VERSION_KEY_BOUNDS.maxKeyLength} characters`,
    ],
    ['snapshot bytes', `${kib(MAX_SNAPSHOT_BYTES)} of JSON (about`],
    ...SECRET_PARAMETERS.map((name) => [`secret parameter ${name}`, `\`${name}\``] as [string, string]),
    ['headers timeout', `${DEFAULT_SERVER_TIMEOUTS.headersTimeoutMs / 1000} s to send a request's headers`],
    [
      'request timeout',
      new RegExp(`whole request\\s*\\|\\s*${DEFAULT_SERVER_TIMEOUTS.requestTimeoutMs / 1000} s\\s`),
    ],
    [
      'keep-alive timeout',
      new RegExp(`idle keep-alive\\s*\\|\\s*${DEFAULT_SERVER_TIMEOUTS.keepAliveTimeoutMs / 1000} s\\s`),
    ],
    ['idle timeout', `${DEFAULT_SERVER_TIMEOUTS.idleTimeoutMs / 1000} s without a byte`],
    [
      'login throttle',
      `${DEFAULT_LOGIN_THROTTLE.maxFailures} per ${DEFAULT_LOGIN_THROTTLE.windowSeconds} s of the mock's clock`,
    ],
    ['throttle keys', `${n(DEFAULT_LOGIN_THROTTLE.maxKeys)} (empty windows`],
    ['rate-limit clients', `${n(DEFAULT_MAX_RATE_LIMIT_CLIENTS)} (least recent evicted`],
    ['JSON depth', `${DEFAULT_JSON_BOUNDS.maxDepth} levels`],
    ['JSON array length', `${n(DEFAULT_JSON_BOUNDS.maxArrayLength)} items`],
    ['seed workspaces', `${n(SIZE_MAXIMA.workspaces)} workspaces`],
    ['seed events', `${n(SIZE_MAXIMA.events)} events`],
    ['seed runs', `${n(SIZE_MAXIMA.runsPerWorkspace)} runs per workspace`],
    ['seed accounts', `${n(SIZE_MAXIMA.accounts)} accounts`],
    ['seeded runs cached', `kept for the last ${n(RUN_CACHE_WORKSPACES)} workspaces read`],
    ['event walk chunk', `between chunks of ${n(EventLog.defaultChunk)} events`],
    ['events retained', `${n(DEFAULT_RETENTION.eventsPerAccount)} (the largest seed`],
    ['outbox retained', `${n(DEFAULT_RETENTION.outboxPerAccount)} notifications`],
    [
      'attempts retained',
      new RegExp(`Delivery attempt records\\s*\\|\\s*${n(DEFAULT_RETENTION.deliveryAttempts)}\\s`),
    ],
    ['waiting retries', `${n(DEFAULT_RETENTION.waitingRetries)} (past it`],
    ['retry minimum', `never under ${MIN_RETRY_DELAY_MS} ms`],
  ] as Array<[string, string | RegExp]>)('%s: says %j', (_, text) => {
    if (typeof text === 'string') expect(doc).toContain(text);
    else expect(doc).toMatch(text);
  });
});

/**
 * Each test a cell names (a `path.test.ts` in backticks, then its quoted test or describe names)
 * exists: the file, and each name in it.
 */
function expectNamedTestsExist(cell: string): void {
  const root = new URL('../../../', import.meta.url);
  const files = [...cell.matchAll(/`([^`]+\.test\.ts)`/g)].map(([, path]) => path as string);
  const names = [...cell.matchAll(/"([^"]+)"/g)].map(([, name]) => name as string);
  expect(files.length).toBeGreaterThan(0);
  expect(names.length).toBeGreaterThan(0);
  const texts = files.map((path) => readFileSync(new URL(path, root), 'utf8'));
  for (const name of names)
    expect(
      texts.some((text) => text.includes(name)),
      name,
    ).toBe(true);
}

/**
 * The memory budget's table lists every store the budget charges, with what it does when full and
 * the attack tests at the default options that prove it.
 */
describe('docs/security.md: the memory budget table matches BUDGET_STORES', () => {
  const section = doc.split('### The memory budget')[1]?.split('\n### ')[0] ?? '';
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, '').trim()));
  it('has one row per store, in order, each saying whether it refuses or evicts', () => {
    expect(rows.map((cells) => cells[0])).toEqual(BUDGET_STORE_NAMES.map((name) => `\`${name}\``));
    for (const cells of rows) {
      expect(cells).toHaveLength(5);
      const name = (cells[0] as string).replaceAll('`', '') as keyof typeof BUDGET_STORES;
      expect(cells[3]).toMatch(BUDGET_STORES[name].full === 'refuses' ? /^refuses/ : /^evicts/);
    }
  });

  it.each(rows.map((cells) => [cells[0], cells] as const))('%s names attack tests that exist', (_, cells) => {
    expectNamedTestsExist(cells[4] as string);
  });
});

/**
 * The table "Bounds proven by attack": every row names a caller and the test that attacks the bound;
 * each named test must exist (the file, and each quoted test or describe name in it), so that the
 * table cannot point at a test that was renamed or removed.
 */
describe('docs/security.md: every bound proven by attack names a test that exists', () => {
  const section = doc.split('## Bounds proven by attack')[1]?.split('\n## ')[0] ?? '';
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Bound') && !line.startsWith('| ---'))
    .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, '').trim()));
  const callers = new Set(['unauthenticated', 'API user', 'control plane', 'in-process caller']);

  it('has a row for each bound this issue attacked', () => {
    expect(rows.length).toBeGreaterThanOrEqual(15);
  });

  it.each(rows.map((cells) => [cells[0], cells] as const))('%s', (_, cells) => {
    expect(cells).toHaveLength(4);
    const [, caller, , test] = cells as [string, string, string, string];
    expect([...callers].some((name) => caller.startsWith(name))).toBe(true);
    expectNamedTestsExist(test);
  });
});
