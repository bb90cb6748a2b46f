/**
 * The guardrails group: search, create, update and delete rules (each leaves a mutation event).
 *
 * @module
 */
import {
  criteriaProblems,
  type EndpointName,
  type GuardrailRule,
  pathIdToObjectId,
  toTimestamp,
} from '@iacm/sdk/contract';
import { checkNotificationRoom, RuleLedger } from '../domain/caps.js';
import { HttpError, notFound, validationError } from '../errors.js';
import { stripUndefined } from '../http/objects.js';
import type { SortValue } from '../query/compare.js';
import { anyOf, type FilterSpec } from '../query/search.js';
import { SEARCH_FIELDS } from '../query/text.js';
import type { AccountStore } from '../store/store.js';
import { searchList } from './listing.js';
import { accountOf, type HandlerContext, type Operations } from './operation.js';

const scopeIncludes =
  (list: 'labels' | 'repositories' | 'workspaces' | 'branches') => (r: GuardrailRule, v: string[]) =>
    anyOf(r.scope[list].include, v);

const guardrailFilters: FilterSpec<GuardrailRule> = {
  createdBy: (r, v: string[]) => anyOf(r.createdBy, v),
  type: (r, v: string[]) => anyOf(r.type, v),
  labels: scopeIncludes('labels'),
  repositories: scopeIncludes('repositories'),
  workspaces: scopeIncludes('workspaces'),
  branches: scopeIncludes('branches'),
};

const guardrailSorts: Record<string, (r: GuardrailRule) => SortValue> = {
  createdAt: (r) => r.createdAt,
  accountId: (r) => r.accountId,
  createdBy: (r) => r.createdBy,
  name: (r) => r.name,
  severity: (r) => r.severity,
};

function ruleEvent(
  ctx: Pick<HandlerContext<EndpointName>, 'services'>,
  account: AccountStore,
  rule: GuardrailRule,
  mutation: 'create' | 'update' | 'delete',
) {
  ctx.services.events.record(account, {
    type: 'mutation',
    mutation,
    assetId: rule.id,
    assetType: 'iacm_guardrail_rule',
    attributes: {
      ruleId: rule.id,
      ruleName: rule.name,
      ruleType: rule.type,
      notificationId: rule.notificationId ?? undefined,
    },
  });
}

/**
 * A notification configuration belongs to exactly one rule (deleting the rule deletes it): a 409
 * naming `notificationId` when a rule other than `ruleId` holds this one.
 */
function checkNotificationFree(
  account: AccountStore,
  notificationId: string,
  ruleId: string | undefined,
): void {
  for (const other of account.rules.values()) {
    if (other.id === ruleId || other.notificationId?.toLowerCase() !== notificationId) continue;
    const message = `body.notificationId: notification configuration "${notificationId}" belongs to rule "${other.id}"; a notification configuration belongs to exactly one rule (deleting the rule deletes it): omit notificationId to get a new one`;
    throw new HttpError(409, 'conflict', message, {
      issues: [
        {
          location: 'body',
          path: 'notificationId',
          message,
          expected: 'a notification configuration no other rule holds',
          received: `the notification configuration of rule "${other.id}"`,
        },
      ],
    });
  }
}

function findRule(account: AccountStore, rawId: string): GuardrailRule {
  const id = pathIdToObjectId(rawId);
  const rule = id === undefined ? undefined : account.rules.get(id);
  if (!rule) throw notFound('guardrail rule', rawId);
  return rule;
}

/** The operations of the guardrails group, one per endpoint. */
export const guardrailsOperations = {
  'guardrails.search': (ctx) => {
    const account = accountOf(ctx);
    return searchList('guardrails.search', ctx, account.rules.values(), ctx.body, {
      filters: guardrailFilters,
      text: SEARCH_FIELDS.guardrails,
      sorts: guardrailSorts,
      fallback: ['createdAt', -1],
    });
  },

  'guardrails.create': (ctx) => {
    const account = accountOf(ctx);
    const { body } = ctx;
    if (body.accountId !== undefined && body.accountId.toLowerCase() !== account.account.id) {
      throw new HttpError(
        403,
        'forbidden',
        "body.accountId: a rule can only be created in the caller's own account",
      );
    }
    const limits = ctx.services.limits();
    const ledger = new RuleLedger(account.rules);
    // Every check before anything is stored: the caps (409), then the notification configuration.
    ledger.checkCount(limits);
    const given = body.notificationId?.toLowerCase();
    const existing = given === undefined ? undefined : account.notifications.get(given);
    if (given === undefined) checkNotificationRoom(account.notifications, limits);
    else {
      if (!existing) throw notFound('notification configuration', given);
      checkNotificationFree(account, given, undefined);
    }
    const now = toTimestamp(ctx.services.now());
    const id = ctx.services.newId();
    const notificationId = given ?? ctx.services.newId();
    const rule: GuardrailRule = {
      id,
      accountId: account.account.id,
      createdBy: body.createdBy,
      name: body.name.trim(),
      type: body.type,
      scope: body.scope,
      criteria: body.criteria,
      isEnabled: body.isEnabled ?? true,
      createdAt: now,
      updatedAt: now,
      notificationId,
      severity: body.severity,
    };
    ledger.store(limits, rule, undefined, ctx.services.records);
    account.notifications.set(
      notificationId,
      existing
        ? { ...existing, ruleId: id }
        : { id: notificationId, ruleId: id, integrationIds: [], createdAt: now },
    );
    ruleEvent(ctx, account, rule, 'create');
    return { ruleId: id, notificationId };
  },

  'guardrails.update': (ctx) => {
    const account = accountOf(ctx);
    const rule = findRule(account, ctx.params.ruleId);
    const { body } = ctx;
    if (body.accountId !== undefined && body.accountId.toLowerCase() !== account.account.id) {
      throw new HttpError(403, 'forbidden', 'body.accountId: a rule cannot be moved to another account');
    }
    const notificationId = body.notificationId?.toLowerCase();
    const notification = notificationId === undefined ? undefined : account.notifications.get(notificationId);
    if (body.notificationId !== undefined && !notification) {
      throw notFound('notification configuration', body.notificationId);
    }
    if (notificationId !== undefined) checkNotificationFree(account, notificationId, rule.id);
    const { createdAt: _c, updatedAt: _u, accountId: _a, ...changes } = body;
    const merged: GuardrailRule = {
      ...rule,
      ...stripUndefined(changes),
      updatedAt: toTimestamp(ctx.services.now()),
    };
    if (changes.name !== undefined) merged.name = changes.name.trim();
    if (notificationId !== undefined) merged.notificationId = notificationId;
    const problems = criteriaProblems(merged.type, merged.criteria);
    if (problems.length > 0) {
      throw validationError(
        problems.map(([path, message]) => ({
          location: 'body',
          path: path.join('.'),
          message: `body.${path.join('.')}: ${message} (the rule's type is "${merged.type}" after this update)`,
        })),
      );
    }
    new RuleLedger(account.rules).store(ctx.services.limits(), merged, rule, ctx.services.records);
    // The configuration now belongs to this rule (one no rule held, or its own).
    if (notification && notification.ruleId !== rule.id) {
      account.notifications.set(notification.id, { ...notification, ruleId: rule.id });
    }
    ruleEvent(ctx, account, merged, 'update');
    return { id: merged.id, name: merged.name, enabled: merged.isEnabled, updatedAt: merged.updatedAt };
  },

  'guardrails.delete': (ctx) => {
    const account = accountOf(ctx);
    const rule = findRule(account, ctx.params.ruleId);
    new RuleLedger(account.rules).delete(rule, ctx.services.records);
    if (rule.notificationId) account.notifications.delete(rule.notificationId);
    ruleEvent(ctx, account, rule, 'delete');
    return {
      status: 200,
      message: `Guardrail rule ${rule.name} and its notification configuration were deleted`,
    };
  },
} satisfies Operations<'guardrails'>;
