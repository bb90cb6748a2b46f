/**
 * The per-account caps (`domain/caps.ts`, issue 20 finding 3): their documented defaults and ranges,
 * the measure of a rule's bytes, and each cap's boundary (the limit passes, one more is a 409
 * `conflict` naming the cap). Through the API: `test/operations/caps.test.ts`; by attack, in a small
 * heap: `test/hostile/caps.test.ts`.
 */
import type { GuardrailRule } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_LIMITS,
  type AccountLimits,
  capReached,
  checkNotificationRoom,
  DEFAULT_ACCOUNT_LIMITS,
  RULE_OVERHEAD_BYTES,
  RuleLedger,
  ruleBytes,
  STORED_BYTES,
  storedBytes,
  toAccountLimits,
} from '../../src/domain/caps.js';
import { HttpError } from '../../src/errors.js';
import { SIZE_MAXIMA } from '../../src/store/seed/limits.js';
import { refusal } from '../helpers.js';

function rule(id: string, name = 'r'): GuardrailRule {
  return {
    id,
    accountId: 'a'.repeat(24),
    createdBy: 'b'.repeat(24),
    name,
    type: 'cost',
    scope: {
      workspaces: { include: ['*'], exclude: [] },
      repositories: { include: [], exclude: [] },
      branches: { include: [], exclude: [] },
      labels: { include: [], exclude: [] },
    },
    criteria: { cost: { thresholdAmount: 100 } },
    isEnabled: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    notificationId: 'c'.repeat(24),
    severity: 2,
  };
}

const limits = (partial: Partial<AccountLimits>): AccountLimits => ({
  ...DEFAULT_ACCOUNT_LIMITS,
  ...partial,
});

describe('the caps’ defaults and ranges', () => {
  it('has documented defaults that let the largest seed create more', () => {
    expect(DEFAULT_ACCOUNT_LIMITS).toEqual({
      rulesPerAccount: 10_000,
      ruleBytesPerAccount: 128 * 1024 * 1024,
      notificationsPerAccount: 20_000,
    });
    expect(DEFAULT_ACCOUNT_LIMITS.rulesPerAccount).toBe(SIZE_MAXIMA.rules);
    expect(DEFAULT_ACCOUNT_LIMITS.notificationsPerAccount).toBe(2 * SIZE_MAXIMA.rules);
    expect(ACCOUNT_LIMITS.ranges).toEqual({
      rulesPerAccount: { min: 0, max: 1_000_000 },
      ruleBytesPerAccount: { min: 0, max: 4 * 1024 ** 3, unit: 'bytes' },
      notificationsPerAccount: { min: 0, max: 2_000_000 },
    });
    expect(Object.isFrozen(DEFAULT_ACCOUNT_LIMITS)).toBe(true);
    expect(Object.isFrozen(ACCOUNT_LIMITS.ranges)).toBe(true);
    expect(Object.isFrozen(ACCOUNT_LIMITS)).toBe(true);
  });

  it('fills what is not given with the defaults, and takes each end of each range', () => {
    expect(toAccountLimits()).toEqual(DEFAULT_ACCOUNT_LIMITS);
    expect(toAccountLimits({ rulesPerAccount: 5, notificationsPerAccount: undefined })).toEqual({
      ...DEFAULT_ACCOUNT_LIMITS,
      rulesPerAccount: 5,
    });
    for (const [name, range] of Object.entries(ACCOUNT_LIMITS.ranges)) {
      expect(toAccountLimits({ [name]: range.min })[name as keyof AccountLimits]).toBe(range.min);
      expect(toAccountLimits({ [name]: range.max })[name as keyof AccountLimits]).toBe(range.max);
    }
  });

  it('refuses a cap outside its range, or an unknown one, naming it, the range and what came', () => {
    expect(() => toAccountLimits({ rulesPerAccount: -1 })).toThrow(
      new RangeError(
        'MockOptions limits.rulesPerAccount: expected an integer from 0 to 1000000, received -1',
      ),
    );
    expect(() => toAccountLimits({ notificationsPerAccount: 2_000_001 })).toThrow(
      'MockOptions limits.notificationsPerAccount: expected an integer from 0 to 2000000, received 2000001',
    );
    expect(() => toAccountLimits({ ruleBytesPerAccount: 4 * 1024 ** 3 + 1 })).toThrow(
      'MockOptions limits.ruleBytesPerAccount: expected an integer from 0 to 4294967296 (bytes), received 4294967297',
    );
    expect(() => toAccountLimits({ rulesPerAccount: 1.5 })).toThrow(RangeError);
    expect(() => toAccountLimits({ rules: 1 } as Partial<AccountLimits>, 'limits')).toThrow(
      /^limits\.rules: unknown limit; expected rulesPerAccount, ruleBytesPerAccount, notificationsPerAccount$/,
    );
  });
});

describe('storedBytes: an upper bound of the heap a value takes', () => {
  it('charges each part what STORED_BYTES says', () => {
    expect(STORED_BYTES).toEqual({
      string: 24,
      perCharacter: 2,
      number: 16,
      array: 64,
      perItem: 16,
      object: 64,
      perMember: 96,
    });
    expect(storedBytes('')).toBe(24);
    expect(storedBytes('ab')).toBe(28);
    expect(storedBytes(7)).toBe(16);
    expect(storedBytes(true)).toBe(0);
    expect(storedBytes(null)).toBe(0);
    expect(storedBytes(undefined)).toBe(0);
    expect(storedBytes(10n)).toBe(0);
    expect(storedBytes([])).toBe(64);
    expect(storedBytes({})).toBe(64);
    expect(storedBytes([null, 'a'])).toBe(64 + 2 * 16 + 26);
    expect(storedBytes({ ab: 1 })).toBe(64 + 96 + 24 + 4 + 16);
    expect(storedBytes({ a: null })).toBe(64 + 96 + 26);
  });

  it('walks nested lists and objects, charging every level', () => {
    expect(storedBytes([[['xyz']]])).toBe(3 * (64 + 16) + 24 + 6);
    expect(storedBytes({ a: { b: ['c', 2] } })).toBe(64 + 96 + 26 + (64 + 96 + 26 + (64 + 2 * 16 + 26 + 16)));
    // A value used twice is charged twice (the measure never undercounts a copy).
    const shared = ['s'];
    expect(storedBytes([shared, shared])).toBe(64 + 32 + 2 * (64 + 16 + 26));
  });

  it('counts a rule with its overhead: its index entry and its notification configuration', () => {
    const r = rule('d'.repeat(24));
    expect(RULE_OVERHEAD_BYTES).toBe(1024);
    expect(ruleBytes(r)).toBe(storedBytes(r) + 1024);
    expect(ruleBytes(rule('d'.repeat(24), 'longer name'))).toBe(ruleBytes(r) + 2 * 10);
    expect(
      storedBytes({ id: 'c'.repeat(24), ruleId: 'd'.repeat(24), integrationIds: [], createdAt: r.createdAt }),
    ).toBeLessThan(RULE_OVERHEAD_BYTES);
  });
});

describe('capReached', () => {
  it('is a 409 conflict with the message given', () => {
    const error = capReached('full');
    expect(error).toBeInstanceOf(HttpError);
    expect([error.status, error.code, error.message, error.issues]).toEqual([
      409,
      'conflict',
      'full',
      undefined,
    ]);
  });
});

describe('RuleLedger', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => String(i).padStart(24, '0'));
  const rules = (n: number) => new Map(ids(n).map((id) => [id, rule(id)]));

  it('counts the rules a state was loaded with, once, and keeps the count as rules change', () => {
    const map = rules(3);
    const one = ruleBytes(rule(ids(1)[0] as string));
    const ledger = new RuleLedger(map);
    expect(ledger.bytes).toBe(3 * one);
    ledger.store(limits({}), rule('f'.repeat(24)));
    expect(map.size).toBe(4);
    // A ledger made again for the same index reads the running total.
    expect(new RuleLedger(map).bytes).toBe(4 * one);
    ledger.delete(rule('f'.repeat(24)));
    expect(new RuleLedger(map).bytes).toBe(3 * one);
    // A rule the index does not hold changes nothing.
    ledger.delete(rule('e'.repeat(24)));
    expect(ledger.bytes).toBe(3 * one);
    expect(new RuleLedger(new Map()).bytes).toBe(0);
    // Worked out once: a rule put in the index behind the ledger's back is not counted again.
    map.set('g'.repeat(24), rule('g'.repeat(24)));
    expect(new RuleLedger(map).bytes).toBe(3 * one);
  });

  it('lets a rule be created below rulesPerAccount, and refuses it at the cap with a 409 naming it', () => {
    const map = rules(4);
    expect(() => new RuleLedger(map).checkCount(limits({ rulesPerAccount: 5 }))).not.toThrow();
    const error = refusal(() => new RuleLedger(map).checkCount(limits({ rulesPerAccount: 4 })));
    expect([error.status, error.code]).toEqual([409, 'conflict']);
    expect(error.message).toBe(
      'guardrail rules: this account holds 4, the most it may hold is 4 (limits.rulesPerAccount): delete a rule before creating another',
    );
    expect(refusal(() => new RuleLedger(map).checkCount(limits({ rulesPerAccount: 0 }))).status).toBe(409);
  });

  it('stores a rule that takes the rules to ruleBytesPerAccount exactly, and refuses one byte more', () => {
    const map = rules(2);
    const ledger = new RuleLedger(map);
    const next = rule('f'.repeat(24));
    const exactly = ledger.bytes + ruleBytes(next);
    const error = refusal(() => ledger.store(limits({ ruleBytesPerAccount: exactly - 1 }), next));
    expect([error.status, error.code]).toEqual([409, 'conflict']);
    expect(error.message).toBe(
      `guardrail rule bytes: this account's rules would take ${exactly} bytes with this rule, more than the ${exactly - 1} they may take (limits.ruleBytesPerAccount): make the rule smaller or delete rules first`,
    );
    expect(map.has(next.id)).toBe(false);
    expect(ledger.bytes).toBe(exactly - ruleBytes(next));
    ledger.store(limits({ ruleBytesPerAccount: exactly }), next);
    expect(map.get(next.id)).toBe(next);
    expect(ledger.bytes).toBe(exactly);
  });

  it('refuses an update that grows the rules past the cap, and takes one that does not grow them', () => {
    const map = rules(2);
    const ledger = new RuleLedger(map);
    const before = map.get(ids(1)[0] as string) as GuardrailRule;
    const bigger = { ...before, name: 'a much longer name' };
    const grown = ledger.bytes + ruleBytes(bigger) - ruleBytes(before);
    const error = refusal(() => ledger.store(limits({ ruleBytesPerAccount: grown - 1 }), bigger, before));
    expect(error.message).toBe(
      `guardrail rule bytes: this account's rules would take ${grown} bytes with this change, more than the ${grown - 1} they may take (limits.ruleBytesPerAccount): make the rule smaller or delete rules first`,
    );
    expect(map.get(before.id)).toBe(before);
    ledger.store(limits({ ruleBytesPerAccount: grown }), bigger, before);
    expect(ledger.bytes).toBe(grown);
    // Over the cap (a state loaded with more, or a lowered cap), a change that adds nothing passes.
    ledger.store(limits({ ruleBytesPerAccount: 0 }), { ...bigger, isEnabled: false }, bigger);
    ledger.store(limits({ ruleBytesPerAccount: 0 }), before, bigger);
    expect(ledger.bytes).toBe(grown - ruleBytes(bigger) + ruleBytes(before));
    expect(map.get(before.id)).toBe(before);
  });
});

describe('checkNotificationRoom', () => {
  it('lets a configuration be made below notificationsPerAccount, and refuses it at the cap', () => {
    const held = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    expect(() => checkNotificationRoom(held, limits({ notificationsPerAccount: 3 }))).not.toThrow();
    const error = refusal(() => checkNotificationRoom(held, limits({ notificationsPerAccount: 2 })));
    expect([error.status, error.code]).toEqual([409, 'conflict']);
    expect(error.message).toBe(
      'notification configurations: this account holds 2, the most it may hold is 2 (limits.notificationsPerAccount): give notificationId to reuse one no rule holds, or delete rules first',
    );
    expect(() => checkNotificationRoom(new Map(), limits({ notificationsPerAccount: 0 }))).toThrow(HttpError);
  });
});
