/**
 * Bounds proven by attack (issue 20, findings 2 and 3): an API user, the least privileged caller
 * who can add to a store, attacks through the cheapest path in a child Node with a small heap, and the
 * heap's growth after GC stays within the documented bound plus a small constant.
 *
 * - Label updates (finding 2): each `PUT /v2/workspaces/{id}/labels` records an event holding the old
 *   and new label lists. The event log's dictionaries used to keep every value they ever saw; now
 *   compaction drops those of dropped events, and an event's values are cut at 1,024 characters.
 * - Guardrail rules (finding 3): `POST /v2/guardrails` had no cap and scope values no length; now
 *   rules per account and their bytes are capped (409 naming the cap), and values are at most 256
 *   characters (400).
 *
 * Each attack takes a few seconds; each test fails on 3d60dc0 (the heap grows with every request,
 * and no 409 ever comes).
 */
import type { GuardrailRule } from '@iacm/sdk/contract';
import { MAX_RULE_VALUE_LENGTH } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_LIMITS, ruleBytes, storedBytes } from '../../src/domain/caps.js';
import { MAX_EVENT_ATTRIBUTE_LENGTH } from '../../src/domain/events.js';
import { COMPACT_AFTER_HOLES } from '../../src/store/event-log.js';
import { runInSmallHeap } from './child.js';

/** What an attack allows itself besides the bound: the request machinery's own garbage-free state. */
const SLACK = 4 * 1024 * 1024;

/** The child's prelude: a small mock, logged in as its primary account's API user. */
const MOCK = `
  const { MockCore } = await import(src + '/app/mock.ts');
  const core = new MockCore({ sizes: { accounts: 1, workspaces: 3, events: 10, rules: 4, stacks: 3 }, journalLimit: 1, ...OPTIONS });
  const [primary] = core.accounts();
  const login = await core.handle({ method: 'POST', path: '/v2/login', body: { accessKey: primary.accessKey, secretKey: primary.secretKey } });
  const headers = { authorization: 'Bearer ' + login.body.accessToken, 'content-type': 'application/json' };
  const send = (method, path, rawBody) => core.handle({ method, path, rawBody, headers });
`;

const mock = (options: Record<string, unknown>) => MOCK.replace('OPTIONS', JSON.stringify(options));

describe('the event log under an API user’s label updates (finding 2)', () => {
  const retained = 200;
  // Compaction runs when the dropped events' holes pass 1,024 and outnumber the kept ones: until
  // then, up to 1,025 dropped events' values wait in the dictionaries.
  const cycle = COMPACT_AFTER_HOLES + 1;
  // An event of a labels update, at its largest: two values of 1,024 characters (`from`, `to`) and
  // three short ones, kept three times (the event, its attribute list's key, its lower-cased values).
  const perEvent =
    3 *
    storedBytes({
      id: 'i'.repeat(36),
      event: {
        mutation_id: 'm'.repeat(20),
        attributes: [
          { key: 'workspaceId', value: 'w'.repeat(24) },
          { key: 'workspaceName', value: 'n'.repeat(64) },
          { key: 'field', value: 'labels' },
          { key: 'from', value: 'f'.repeat(MAX_EVENT_ATTRIBUTE_LENGTH) },
          { key: 'to', value: 't'.repeat(MAX_EVENT_ATTRIBUTE_LENGTH) },
        ],
      },
    });
  const bound = (retained + cycle) * perEvent;

  it('grows by nothing per update: 2,450 updates of 50 labels of 128 characters under eventsPerAccount 200', {
    timeout: 120_000,
  }, async () => {
    const result = await runInSmallHeap<{
      statuses: number[];
      base: number;
      warm: number;
      after: number;
      events: number;
    }>(
      `${mock({ retention: { eventsPerAccount: retained } })}
      const search = await core.handle({ method: 'POST', path: '/v2/workspaces/search', body: {}, headers });
      const path = '/v2/workspaces/' + search.body[0].id + '/labels';
      const statuses = new Set();
      let n = 0;
      const update = async (times) => {
        for (let i = 0; i < times; i++, n++) {
          const labels = Array.from({ length: 50 }, (_, k) => (n + '-' + k + '-').padEnd(128, 'L'));
          statuses.add((await send('PUT', path, JSON.stringify({ labels }))).status);
        }
      };
      const base = heapAfterGc();
      // The first drop comes at update 191 (10 seeded events + 191 > 200); then a compaction at every
      // 1,025th drop. 400 and 400 + 2 x 1,025 updates are at the same point of that cycle.
      await update(400);
      const warm = heapAfterGc();
      await update(2 * ${cycle});
      const after = heapAfterGc();
      const account = [...core.store.accounts.values()][0];
      return { statuses: [...statuses], base, warm, after, events: account.events.size };
    `,
      { heapMb: 128 },
    );
    expect(result.statuses).toEqual([200]);
    expect(result.events).toBe(retained);
    // No growth per update: 2,050 more updates at the same point of the compaction cycle.
    expect(result.after - result.warm).toBeLessThan(1024 * 1024);
    // Within what the retained events (and those waiting for compaction) may hold.
    expect(result.after - result.base).toBeLessThan(bound + SLACK);
  });
});

describe('guardrail rules created by an API user (finding 3)', () => {
  /** A rule body with 8 scope lists of `perList` values of the longest length (about 1 MB for 500). */
  const scopeBody = (perList: number) => {
    const list = (k: number) => ({
      include: Array.from({ length: perList }, (_, i) => `${k}-${i}-`.padEnd(MAX_RULE_VALUE_LENGTH, 's')),
      exclude: Array.from({ length: perList }, (_, i) => `${k}-${i}+`.padEnd(MAX_RULE_VALUE_LENGTH, 's')),
    });
    return {
      createdBy: 'a'.repeat(24),
      name: 'n'.repeat(256),
      type: 'cost' as const,
      severity: 1 as const,
      criteria: { cost: { thresholdAmount: 1 } },
      scope: { workspaces: list(0), repositories: list(1), branches: list(2), labels: list(3) },
    };
  };
  /** The bytes the rule stored from `scopeBody(perList)` counts for (ids and timestamps have fixed lengths). */
  const storedRuleBytes = (perList: number) => {
    const body = scopeBody(perList);
    const rule: GuardrailRule = {
      ...body,
      id: 'i'.repeat(24),
      accountId: 'a'.repeat(24),
      isEnabled: true,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      notificationId: 'c'.repeat(24),
    };
    return ruleBytes(rule);
  };
  /** The child's attack: creates rules of 8 x 2 x `perList` values of 256 characters until a refusal. */
  const attack = (options: Record<string, unknown>, perList: number, attempts: number) => `${mock(options)}
    const list = (n, k, sign) => Array.from({ length: ${perList} }, (_, i) => (n + '-' + k + '-' + i + sign).padEnd(${MAX_RULE_VALUE_LENGTH}, 's'));
    const body = (n) => JSON.stringify({
      createdBy: '${'a'.repeat(24)}', name: '${'n'.repeat(256)}', type: 'cost', severity: 1, criteria: { cost: { thresholdAmount: 1 } },
      scope: Object.fromEntries(['workspaces', 'repositories', 'branches', 'labels'].map((name, k) => [name, { include: list(n, k, '-'), exclude: list(n, k, '+') }])),
    });
    const base = heapAfterGc();
    let created = 0;
    let refusal;
    for (let n = 0; n < ${attempts} && !refusal; n++) {
      const res = await send('POST', '/v2/guardrails', body(n));
      if (res.status === 200) created++;
      else refusal = { status: res.status, code: res.body.code, message: res.body.message };
    }
    const after = heapAfterGc();
    return { created, refusal, growth: after - base, bodyBytes: body(0).length };
  `;

  it('stops at rulesPerAccount: 30 rules of 960 scope values of the longest length, then a 409 naming the cap', {
    timeout: 120_000,
  }, async () => {
    const perList = 60;
    const result = await runInSmallHeap<{
      created: number;
      refusal?: { status: number; code: string; message: string };
      growth: number;
    }>(attack({ limits: { rulesPerAccount: 4 + 30 } }, perList, 100), { heapMb: 256 });
    expect(result.created).toBe(30);
    expect(result.refusal?.status).toBe(409);
    expect(result.refusal?.code).toBe('conflict');
    expect(result.refusal?.message).toMatch(
      /^guardrail rules: this account holds 34, the most it may hold is 34 \(limits\.rulesPerAccount\)/,
    );
    expect(result.growth).toBeLessThan(30 * storedRuleBytes(perList) + SLACK);
  });

  it('stops at the default ruleBytesPerAccount (128 MiB): rules of 1 MB bodies until a 409 naming it', {
    timeout: 120_000,
  }, async () => {
    const perList = 500;
    const result = await runInSmallHeap<{
      created: number;
      refusal?: { status: number; code: string; message: string };
      growth: number;
      bodyBytes: number;
    }>(attack({}, perList, 300), { heapMb: 256 });
    // About 1 MB sent per request (under the 1 MiB body limit), about 2 MiB counted per rule.
    expect(result.bodyBytes).toBeGreaterThan(1_000_000);
    expect(result.bodyBytes).toBeLessThan(1024 * 1024);
    expect(result.refusal?.status).toBe(409);
    expect(result.refusal?.message).toMatch(/^guardrail rule bytes: .*\(limits\.ruleBytesPerAccount\)/);
    // As many as the cap takes, less the 4 seeded rules' few kilobytes.
    const most = Math.floor(DEFAULT_ACCOUNT_LIMITS.ruleBytesPerAccount / storedRuleBytes(perList));
    expect([most - 1, most]).toContain(result.created);
    expect(result.growth).toBeLessThan(DEFAULT_ACCOUNT_LIMITS.ruleBytesPerAccount + SLACK);
  });
});
