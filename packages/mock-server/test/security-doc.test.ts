/**
 * docs/security.md lists every bound the mock keeps, with its default: this test keeps those figures
 * equal to the constants the code uses, so that the page cannot drift from the code.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_JSON_BOUNDS } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVER_TIMEOUTS } from '../src/adapters/node.js';
import { DEFAULT_LOGIN_THROTTLE } from '../src/core/login.js';
import { MIN_RETRY_DELAY_MS } from '../src/domain/delivery-policy.js';
import { DEFAULT_RETENTION } from '../src/domain/retention.js';
import { DEFAULT_MAX_BODY_BYTES } from '../src/pipeline/body.js';
import { FAULT_LIMITS } from '../src/pipeline/faults.js';
import {
  DEFAULT_JOURNAL_BODY_BYTES,
  DEFAULT_JOURNAL_LIMIT,
  DEFAULT_JOURNAL_MAX_BYTES,
} from '../src/pipeline/journal.js';
import { DEFAULT_MAX_RATE_LIMIT_CLIENTS } from '../src/pipeline/rate-limit.js';
import { EventLog } from '../src/store/event-log.js';
import { RUN_CACHE_WORKSPACES } from '../src/store/runs.js';
import { SIZE_MAXIMA } from '../src/store/seed/limits.js';

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
    ['journal bytes', `${kib(DEFAULT_JOURNAL_MAX_BYTES)} (approximate JSON size`],
    ['journal body', `${kib(DEFAULT_JOURNAL_BODY_BYTES)} (larger:`],
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
