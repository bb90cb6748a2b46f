/**
 * Per-account caps: how much an API user can add to an account's store. One home for every cap, with
 * its documented default (`docs/security.md`, "What the mock stores"; `docs/mock-server.md`).
 *
 * Which error a limit gives follows one rule:
 * - a limit that **one request** breaks by itself (a label's length, the labels of a workspace, the
 *   values of a scope list, a scope value's length) belongs to the contract's request schemas
 *   (`@iacm/sdk/contract`, `limits.ts`): a 400 `validation_failed` naming the field;
 * - a limit that only **the store's state** breaks (the rule after the last one allowed) is a cap
 *   here: a 409 `conflict` whose message names what is full, how much it holds, the limit and the
 *   cap's option (`limits.rulesPerAccount`).
 *
 * Caps apply to what the API adds, never to what is loaded: a seed or a snapshot that holds more is
 * kept whole, and then only the requests that would add more are refused (rules and notification
 * configurations can still be updated and deleted; an update that makes the rules take more bytes is
 * refused while the account is over {@link AccountLimits.ruleBytesPerAccount}).
 *
 * The other kind of bound, retention (`retention.ts`), drops the oldest records instead of refusing
 * new ones: events and outbox entries.
 *
 * @module
 */
import type { GuardrailRule } from '@iacm/sdk/contract';
import { type OptionGroup, resolveOptionGroup } from '../errors/ranges.js';
import { HttpError } from '../errors.js';
import { HEAP_BYTES, heapBytes, type Ledger } from '../store/budget.js';

/** How much an API user may add to one account. */
export interface AccountLimits {
  /**
   * Guardrail rules per account: `POST /v2/guardrails` past it is a 409. 0 to 1,000,000. Default
   * 10,000, the largest seed's rules.
   */
  rulesPerAccount: number;
  /**
   * Bytes the account's guardrail rules may take, by the mock's measure (`storedBytes` in
   * `domain/caps.ts`: at least the heap they take, and 1 KiB more per rule):
   * a create or an update that would take the rules past it is a 409. 0 to 4 GiB. Default 128 MiB:
   * the largest seed's 10,000 rules count for about 68 MiB, which leaves room for as much again.
   */
  ruleBytesPerAccount: number;
  /**
   * Notification configurations per account: a `POST /v2/guardrails` without `notificationId` (which
   * makes one) past it is a 409. 0 to 2,000,000. Default 20,000: twice the rules of a full account.
   * Through the API an account never holds more configurations than rules plus what it was loaded
   * with beyond its rules (a rule takes only a configuration no rule holds, and deleting a rule deletes
   * the one it holds); the cap bounds them all the same.
   */
  notificationsPerAccount: number;
}

/** The caps' documented ranges and defaults. */
export const ACCOUNT_LIMITS: OptionGroup<keyof AccountLimits> = Object.freeze({
  ranges: Object.freeze({
    rulesPerAccount: { min: 0, max: 1_000_000 },
    ruleBytesPerAccount: { min: 0, max: 4 * 1024 ** 3, unit: 'bytes' },
    notificationsPerAccount: { min: 0, max: 2_000_000 },
  }),
  defaults: Object.freeze({
    rulesPerAccount: 10_000,
    ruleBytesPerAccount: 128 * 1024 ** 2,
    notificationsPerAccount: 20_000,
  }),
});

/** The default caps. */
export const DEFAULT_ACCOUNT_LIMITS: Readonly<AccountLimits> = ACCOUNT_LIMITS.defaults;

/**
 * Whole caps from the defaults and a partial set (`MockOptions limits`), each checked against its
 * range.
 * @throws RangeError naming the cap, its range and what came, or an unknown cap.
 */
export function toAccountLimits(
  partial?: { readonly [K in keyof AccountLimits]?: number | undefined },
  label = 'MockOptions limits',
): AccountLimits {
  return resolveOptionGroup(ACCOUNT_LIMITS, partial, label, 'limit');
}

/**
 * What {@link storedBytes} charges, in bytes: the budget's measure (`HEAP_BYTES` of
 * `store/budget.ts`), under the name the caps have always used.
 */
export const STORED_BYTES = HEAP_BYTES;

/** An upper bound of the heap a JSON-like value takes: the budget's measure (`heapBytes` of `store/budget.ts`). */
export const storedBytes: (value: unknown) => number = heapBytes;

/**
 * What a rule takes besides its own members: its entry in the account's index of rules and its
 * notification configuration (an object of four members: about 700 bytes by {@link storedBytes}).
 */
export const RULE_OVERHEAD_BYTES = 1024;

/** The bytes a stored rule counts for against {@link AccountLimits.ruleBytesPerAccount}. */
export function ruleBytes(rule: GuardrailRule): number {
  return storedBytes(rule) + RULE_OVERHEAD_BYTES;
}

/** A 409 `conflict` for a cap: what is full, the limit and the option that sets it. */
export function capReached(message: string): HttpError {
  return new HttpError(409, 'conflict', message);
}

/** The running byte totals of accounts' rules, by their rule index (a new state makes new indexes). */
const TOTALS = new WeakMap<ReadonlyMap<string, GuardrailRule>, { bytes: number }>();

/**
 * The account's guardrail rules with their caps: every rule the API stores goes through here, which
 * keeps a running total of their bytes (worked out once, when first asked, for a loaded state).
 */
export class RuleLedger {
  readonly #rules: Map<string, GuardrailRule>;
  readonly #total: { bytes: number };

  /** The ledger of an account's rule index. */
  constructor(rules: Map<string, GuardrailRule>) {
    this.#rules = rules;
    let total = TOTALS.get(rules);
    if (!total) {
      total = { bytes: 0 };
      for (const rule of rules.values()) total.bytes += ruleBytes(rule);
      TOTALS.set(rules, total);
    }
    this.#total = total;
  }

  /** The bytes the account's rules count for, by {@link ruleBytes}. */
  get bytes(): number {
    return this.#total.bytes;
  }

  /**
   * Whether one more rule may be created (a 409 naming `rulesPerAccount` otherwise): checked before
   * anything is made for it.
   */
  checkCount(limits: AccountLimits): void {
    const held = this.#rules.size;
    if (held >= limits.rulesPerAccount) {
      throw capReached(
        `guardrail rules: this account holds ${held}, the most it may hold is ${limits.rulesPerAccount} (limits.rulesPerAccount): delete a rule before creating another`,
      );
    }
  }

  /**
   * Stores `rule`, new or in place of `previous` (its earlier version): a 409 naming
   * `ruleBytesPerAccount` when it would make the rules take more bytes than the cap (a change that
   * does not add bytes always passes), then the bytes it adds charged to the mock's budget
   * (`records`, the data's ledger: a 409 `budget_exceeded` past it), before anything is stored.
   */
  store(limits: AccountLimits, rule: GuardrailRule, previous?: GuardrailRule, records?: Ledger): void {
    const added = ruleBytes(rule) - (previous ? ruleBytes(previous) : 0);
    const after = this.#total.bytes + added;
    if (added > 0 && after > limits.ruleBytesPerAccount) {
      throw capReached(
        `guardrail rule bytes: this account's rules would take ${after} bytes with this ${previous ? 'change' : 'rule'}, more than the ${limits.ruleBytesPerAccount} they may take (limits.ruleBytesPerAccount): make the rule smaller or delete rules first`,
      );
    }
    if (added > 0) records?.charge(added);
    else records?.release(-added);
    this.#rules.set(rule.id, rule);
    this.#total.bytes = after;
  }

  /** Removes a stored rule (its bytes given back to the budget's `records` ledger). */
  delete(rule: GuardrailRule, records?: Ledger): void {
    if (!this.#rules.delete(rule.id)) return;
    this.#total.bytes -= ruleBytes(rule);
    records?.release(ruleBytes(rule));
  }
}

/**
 * Whether the account may get one more notification configuration (a 409 naming
 * `notificationsPerAccount` otherwise).
 */
export function checkNotificationRoom(
  notifications: ReadonlyMap<string, unknown>,
  limits: AccountLimits,
): void {
  const held = notifications.size;
  if (held >= limits.notificationsPerAccount) {
    throw capReached(
      `notification configurations: this account holds ${held}, the most it may hold is ${limits.notificationsPerAccount} (limits.notificationsPerAccount): give notificationId to reuse one no rule holds, or delete rules first`,
    );
  }
}
