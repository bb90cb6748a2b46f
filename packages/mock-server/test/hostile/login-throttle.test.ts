/**
 * Bound proven by attack (issue 20, finding 5): the login throttle's table of access keys. An
 * unauthenticated client, the least privileged caller, sends failed logins with new access keys of the
 * longest length the API takes (512 characters, two bytes each) through `POST /v2/login`, in a child
 * Node with a small heap: the table holds at most `maxKeys` keys, whatever comes, and the heap's growth
 * after GC stays within `maxKeys` times the cost of one key at its largest, plus a small constant.
 * About 20,000 requests: a few seconds.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_THROTTLE } from '../../src/auth/login.js';
import { runInSmallHeap } from './child.js';

/** The longest access key `POST /v2/login` takes (the contract's `max(512)`). */
const MAX_ACCESS_KEY_LENGTH = 512;

/**
 * What one tracked key costs at most: its characters (two bytes each outside Latin-1), a map entry
 * and its list of failure times (8 bytes each, at most `maxFailures`), with room for V8's headers.
 */
const BYTES_PER_KEY = 2 * MAX_ACCESS_KEY_LENGTH + 256 + 16 * DEFAULT_LOGIN_THROTTLE.maxFailures;

/** What an attack allows itself besides the bound: the request machinery's own state. */
const SLACK = 4 * 1024 * 1024;

describe('the login throttle under failed logins with ever new access keys', () => {
  it(`keeps at most ${DEFAULT_LOGIN_THROTTLE.maxKeys} keys, within their bytes, across windows`, async () => {
    const result = await runInSmallHeap<{ growth: number; statuses: Record<string, number> }>(
      `
      const { MockCore } = await import(src + '/app/mock.ts');
      let now = Date.UTC(2026, 0, 15);
      const core = new MockCore({
        sizes: { accounts: 1, workspaces: 3, events: 10, rules: 4, stacks: 3 },
        journalLimit: 1,
        clock: () => now,
      });
      const login = (accessKey) =>
        core.handle({ method: 'POST', path: '/v2/login', body: { accessKey, secretKey: 'x' } });
      // Warm the route up, then let those failures leave the window.
      for (let i = 0; i < 50; i++) await login('warm-' + i);
      now += 120_000;
      const before = heapAfterGc();
      const statuses = {};
      const pad = '\\u4e00'.repeat(${MAX_ACCESS_KEY_LENGTH} - 12);
      // Two windows' worth: the table fills, then the second round takes the places of the first.
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < ${DEFAULT_LOGIN_THROTTLE.maxKeys}; i++) {
          const res = await login(pad + String(round * 100_000 + i).padStart(12, '-'));
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          now += 1;
        }
        now += 61_000;
      }
      return { growth: heapAfterGc() - before, statuses };
      `,
      { heapMb: 192 },
    );
    // Every login was compared and failed: the first round filled the table, the second took its places.
    expect(result.statuses).toEqual({ 401: 2 * DEFAULT_LOGIN_THROTTLE.maxKeys });
    expect(result.growth).toBeLessThanOrEqual(DEFAULT_LOGIN_THROTTLE.maxKeys * BYTES_PER_KEY + SLACK);
  });
});
