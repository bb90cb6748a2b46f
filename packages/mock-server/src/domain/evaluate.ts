/**
 * The guardrail evaluator: decides which rules apply to a run and whether the run's plan passes
 * them. Pure and transport-free: no I/O, no clock, no randomness, only web-standard APIs. The
 * semantics are written down in `docs/guardrails.md`, whose worked examples are run as tests.
 */
import type {
  GuardrailRule,
  GuardrailScope,
  GuardrailSeverityName,
  GuardrailsSummary,
  GuardrailViolation,
  PolicySeverity,
} from '@iacm/sdk/contract';
import { severityName } from '@iacm/sdk/contract';
import { globMatch, listMatches, scopeCovers } from '../query/glob.js';
import type { PlanChange, PlanContent, PolicyFinding, RunScope } from './plan.js';

// ---------------------------------------------------------------------------------------------------
// Matching
// ---------------------------------------------------------------------------------------------------

export { globMatch, listMatches };

/**
 * Whether a rule's scope covers a run: all four members must match (see {@link listMatches}):
 * `workspaces` against the workspace name, `repositories` against the repository (`<org>/<repo>`),
 * `branches` against the branch, `labels` against the workspace's labels. A missing scope member
 * (malformed data) matches everything, so a damaged rule is evaluated rather than silently skipped.
 */
export function scopeMatches(scope: GuardrailScope, run: RunScope): boolean {
  return scopeCovers(scope, run);
}

// ---------------------------------------------------------------------------------------------------
// Outcomes
// ---------------------------------------------------------------------------------------------------

/** The outcome of one evaluated rule (an enabled rule whose scope covers the run). */
export interface RuleOutcome {
  /** The rule's id. */
  ruleId: string;
  /** The rule's name. */
  ruleName: string;
  /** The rule's kind: `cost`, `policy`, `resource`, `tag` (or whatever a malformed rule carries). */
  type: string;
  /** The rule's severity: 1 flexible, 2 strict, 3 warning. */
  severity: number;
  /** The severity's name; an unknown severity is named by its number, like `"7"`. */
  severityName: GuardrailSeverityName | (string & {});
  /** Whether the plan passes the rule. */
  passed: boolean;
  /** Why the rule failed, one message per finding; empty when it passed. */
  messages: string[];
}

/** The result of evaluating a set of guardrail rules against one run's plan. */
export interface GuardrailEvaluation {
  /** The outcome of each enabled, in-scope rule, in input order. */
  outcomes: RuleOutcome[];
  /** How many rules were evaluated (`outcomes.length`). */
  total: number;
  /** How many evaluated rules passed. */
  passed: number;
  /** How many evaluated rules failed. */
  failed: number;
  /** One violation per failed rule, in input order: its id, severity name and messages joined by `; `. */
  violations: GuardrailViolation[];
  /** Whether a strict (severity 2) rule failed: the run is blocked and must not be applied. */
  blocked: boolean;
  /** Rules that were not evaluated, in input order, and why. */
  skipped: Array<{ ruleId: string; reason: 'disabled' | 'out_of_scope' }>;
}

/** The severity that blocks a run when its rule fails. */
const STRICT = 2;

/** Policy finding severities, lowest first. */
const POLICY_ORDER: readonly PolicySeverity[] = ['trace', 'info', 'low', 'medium', 'high', 'critical'];

/**
 * Evaluates guardrail rules against a run's plan.
 *
 * Each rule, in input order, is skipped when disabled (`isEnabled: false`; reason `disabled`) or
 * when its scope does not cover the run (reason `out_of_scope`); otherwise its criteria are checked
 * (cost, policy, resource or tag; see `docs/guardrails.md`). A rule whose criteria lack the member
 * for its type, or are otherwise unusable, fails with a message saying so: it never throws.
 * `blocked` is true when a strict (severity 2) rule failed; flexible (1) and warning (3) failures
 * are reported without blocking. Inputs are not modified.
 */
export function evaluateGuardrails(
  rules: Iterable<GuardrailRule>,
  run: RunScope,
  plan: PlanContent,
): GuardrailEvaluation {
  const outcomes: RuleOutcome[] = [];
  const skipped: GuardrailEvaluation['skipped'] = [];
  const changes = plan.changes ?? [];
  const findings = plan.policyFindings ?? [];
  for (const rule of rules) {
    if (rule.isEnabled === false) {
      skipped.push({ ruleId: rule.id, reason: 'disabled' });
      continue;
    }
    if (!scopeMatches(rule.scope, run)) {
      skipped.push({ ruleId: rule.id, reason: 'out_of_scope' });
      continue;
    }
    const messages = checkRule(rule, changes, findings);
    outcomes.push({
      ruleId: rule.id,
      ruleName: rule.name,
      type: rule.type,
      severity: rule.severity,
      severityName: severityName(rule.severity) ?? String(rule.severity),
      passed: messages.length === 0,
      messages,
    });
  }
  const failedOutcomes = outcomes.filter((o) => !o.passed);
  return {
    outcomes,
    total: outcomes.length,
    passed: outcomes.length - failedOutcomes.length,
    failed: failedOutcomes.length,
    violations: failedOutcomes.map((o) => ({
      id: o.ruleId,
      severity: o.severityName,
      message: o.messages.join('; '),
    })),
    blocked: failedOutcomes.some((o) => o.severity === STRICT),
    skipped,
  };
}

/**
 * The guardrails summary a run's plan task carries (`guardrailsSummary`): the counts and violations
 * of an evaluation and a description, `"2 of 3 guardrails passed"`, or `"no guardrail applies"` when
 * no rule was evaluated.
 */
export function summarise(evaluation: GuardrailEvaluation): GuardrailsSummary {
  const { total, passed, failed } = evaluation;
  return {
    total,
    passed,
    failed,
    violations: evaluation.violations.map((v) => ({ id: v.id, severity: v.severity, message: v.message })),
    description:
      total === 0
        ? 'no guardrail applies'
        : `${passed} of ${total} guardrail${total === 1 ? '' : 's'} passed`,
  };
}

// ---------------------------------------------------------------------------------------------------
// Criteria
// ---------------------------------------------------------------------------------------------------

type IncludeExcludeLike = { include: string[]; exclude: string[] };

/** Reads a possibly malformed `{ include, exclude }` list; missing parts read as empty. */
function readList(value: unknown): IncludeExcludeLike {
  const list = isObject(value) ? value : {};
  return { include: stringArray(list.include), exclude: stringArray(list.exclude) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Checks one rule; answers its failure messages (empty when it passes). */
function checkRule(rule: GuardrailRule, changes: PlanChange[], findings: PolicyFinding[]): string[] {
  const type = rule.type;
  if (type !== 'cost' && type !== 'policy' && type !== 'resource' && type !== 'tag') {
    return [`unknown guardrail type "${String(type)}": the rule cannot be evaluated`];
  }
  const criteria = isObject(rule.criteria) ? rule.criteria : {};
  const member = criteria[type];
  if (!isObject(member)) return [`criteria.${type} is missing: the rule cannot be evaluated`];
  switch (type) {
    case 'cost':
      return checkCost(member, changes);
    case 'policy':
      return checkPolicy(member, findings);
    case 'resource':
      return checkResource(member, changes);
    default:
      return checkTag(member, changes);
  }
}

/** Rounds to a millionth, so floating-point noise (0.1 + 0.2) never tips a threshold edge. */
function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** `$120.00`; more decimals only when the amount is not a whole number of cents. */
function money(amount: number): string {
  const cents = amount.toFixed(2);
  if (round6(Number(cents)) === round6(amount)) return `$${cents}`;
  return `$${String(round6(amount))}`;
}

function percent(value: number): string {
  return value === Number.POSITIVE_INFINITY ? '∞%' : `${value.toFixed(2)}%`;
}

function checkCost(criteria: Record<string, unknown>, changes: PlanChange[]): string[] {
  const amount = finite(criteria.thresholdAmount);
  const percentage = finite(criteria.thresholdPercentage);
  if (amount === undefined && percentage === undefined) {
    return ['criteria.cost names no thresholdAmount or thresholdPercentage: the rule cannot be evaluated'];
  }
  let before = 0;
  let after = 0;
  for (const change of changes) {
    const cost = change.monthlyCost;
    if (!isObject(cost)) continue;
    before += finite(cost.before) ?? 0;
    after += finite(cost.after) ?? 0;
  }
  before = round6(before);
  after = round6(after);
  const increase = round6(after - before);
  if (increase <= 0) return [];
  const rise = before <= 0 ? Number.POSITIVE_INFINITY : round6((increase * 100) / before);
  const over: string[] = [];
  if (amount !== undefined && increase > amount) over.push(money(amount));
  if (percentage !== undefined && rise > percentage) over.push(`${percentage}%`);
  if (over.length === 0) return [];
  const thresholds = over.length === 1 ? `the ${over[0]} threshold` : `the ${over.join(' and ')} thresholds`;
  return [`monthly cost rises by ${money(increase)} (+${percent(rise)}), over ${thresholds}`];
}

function checkPolicy(criteria: Record<string, unknown>, findings: PolicyFinding[]): string[] {
  const threshold = POLICY_ORDER.indexOf(criteria.severity as PolicySeverity);
  if (threshold < 0) {
    return [
      `criteria.policy.severity ${JSON.stringify(criteria.severity ?? null)} is not one of ${POLICY_ORDER.join(', ')}: the rule cannot be evaluated`,
    ];
  }
  const policies = readList(criteria.policies);
  const messages: string[] = [];
  for (const finding of findings) {
    const rank = POLICY_ORDER.indexOf(finding.severity);
    // An unknown finding severity counts as critical: fail safe.
    if ((rank < 0 ? POLICY_ORDER.length : rank) < threshold) continue;
    if (!listMatches(policies, [finding.policy])) continue;
    const where = finding.address ? ` on ${finding.address}` : '';
    messages.push(
      `policy "${finding.policy}" found a ${finding.severity} finding (threshold: ${POLICY_ORDER[threshold]})${where}`,
    );
  }
  return messages;
}

/** The region value of a change without one. */
const GLOBAL_REGION = 'global';

function checkResource(criteria: Record<string, unknown>, changes: PlanChange[]): string[] {
  const actions = stringArray(criteria.actions);
  const regions = readList(criteria.regions);
  const assetTypes = readList(criteria.assetTypes);
  const specific = stringArray(criteria.specificResources);
  const messages: string[] = [];
  for (const change of changes) {
    const changeActions: string[] = change.actions ?? [];
    if (actions.length > 0 && !changeActions.some((a) => actions.includes(a))) continue;
    const region = change.region ?? GLOBAL_REGION;
    if (!listMatches(regions, [region])) continue;
    if (!listMatches(assetTypes, [change.assetType])) continue;
    if (specific.length > 0 && !specific.some((pattern) => globMatch(pattern, change.address))) continue;
    messages.push(
      `resource ${change.address} (${change.assetType} in ${region}) is planned to ${changeActions.join(', ') || 'change'}`,
    );
  }
  return messages;
}

/** The actions whose resources tag rules check. */
const TAGGED_ACTIONS: readonly string[] = ['create', 'update'];

function checkTag(criteria: Record<string, unknown>, changes: PlanChange[]): string[] {
  const mode = criteria.tagEnforcementMode;
  const requiredTags = stringArray(criteria.requiredTags);
  const requiredValues = isObject(criteria.requiredValues) ? criteria.requiredValues : {};
  const valueKeys = Object.keys(requiredValues);
  if (mode === 'requiredTags' || mode === 'anyTags') {
    if (requiredTags.length === 0) {
      return [`criteria.tag.requiredTags is empty in mode "${mode}": the rule cannot be evaluated`];
    }
  } else if (mode === 'requiredValues') {
    if (valueKeys.length === 0) {
      return ['criteria.tag.requiredValues is empty in mode "requiredValues": the rule cannot be evaluated'];
    }
  } else {
    return [
      `criteria.tag.tagEnforcementMode ${JSON.stringify(mode ?? null)} is not one of requiredTags, anyTags, requiredValues: the rule cannot be evaluated`,
    ];
  }
  const messages: string[] = [];
  for (const change of changes) {
    if (!(change.actions ?? []).some((a) => TAGGED_ACTIONS.includes(a))) continue;
    const tags: Record<string, unknown> = isObject(change.tags) ? change.tags : {};
    const has = (key: string) => Object.hasOwn(tags, key);
    if (mode === 'requiredTags') {
      const missing = requiredTags.filter((key) => !has(key));
      if (missing.length > 0) messages.push(`${change.address} is missing tags ${missing.join(', ')}`);
    } else if (mode === 'anyTags') {
      if (!requiredTags.some(has)) {
        messages.push(`${change.address} carries none of the tags ${requiredTags.join(', ')}`);
      }
    } else {
      const problems: string[] = [];
      for (const key of valueKeys) {
        const allowed = stringArray(requiredValues[key]);
        const expected = allowed.length > 0 ? `one of ${allowed.join(', ')}` : 'no value is allowed';
        if (!has(key)) problems.push(`tag ${key} is missing (expected ${expected})`);
        else if (!allowed.includes(tags[key] as string)) {
          problems.push(`tag ${key} is ${JSON.stringify(tags[key])} (expected ${expected})`);
        }
      }
      if (problems.length > 0) messages.push(`${change.address}: ${problems.join(', ')}`);
    }
  }
  return messages;
}
