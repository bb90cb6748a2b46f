/**
 * Guardrail rules, their notification configurations, which workspaces each rule covers, and what
 * the rules say about a seeded run: the rules a workspace's runs answer to and a run's guardrails
 * summary (with its violation messages).
 *
 * Not here: the runs themselves (`runs.ts`), guardrail violation events (`events.ts`), the
 * evaluation of rules against a plan sent through the API (`domain/`).
 *
 * @module
 */
import type {
  GuardrailRule,
  GuardrailsSummary,
  GuardrailType,
  GuardrailViolation,
  PolicySeverity,
  RunStatus,
} from '@iacm/sdk/contract';
import { severityName } from '@iacm/sdk/contract';
import { scopeCovers } from '../../query/glob.js';
import type { Random } from '../random.js';
import { type NotificationConfig, SEED_EPOCH } from '../state.js';
import type { AccountContext, WsInfo } from './context.js';
import {
  DAY,
  HISTORY,
  HOUR,
  iso,
  MINUTE,
  STEP_RECORDS,
  StepCounter,
  type Steps,
  Weighted,
} from './helpers.js';
import type { GuardrailCriteria, GuardrailScope } from './vocabulary.js';

// --- guardrail rules -------------------------------------------------------------------------------

/**
 * The account's guardrail rules (one of each kind first) and their notification configurations, in
 * steps of {@link STEP_RECORDS} rules.
 */
export function* generateRules(g: AccountContext): Steps<{
  rules: GuardrailRule[];
  notifications: NotificationConfig[];
}> {
  const rng = g.rng('rules');
  const typeTable = new Weighted<GuardrailType>([
    ['policy', 35],
    ['cost', 25],
    ['resource', 20],
    ['tag', 20],
  ]);
  const severityTable = new Weighted<1 | 2 | 3>([
    [1, 35],
    [2, 35],
    [3, 30],
  ]);
  const usedNames = new Set<string>();
  const repoNames = [...g.repos.keys()];
  const notifications: NotificationConfig[] = [];
  const order: GuardrailType[] = ['policy', 'cost', 'resource', 'tag'];
  for (let i = 0; i < g.plan.rules; i++) {
    if (i > 0 && i % STEP_RECORDS === 0) yield;
    const drawn = i < order.length ? (order[i] as GuardrailType) : typeTable.pick(rng);
    const type = g.pins?.rules?.[i]?.type ?? drawn;
    const template = ruleTemplate(rng, type, g.org);
    let name = template.name;
    for (let n = 2; usedNames.has(name); n++) name = `${template.name} #${n}`;
    usedNames.add(name);
    const scope = i === 0 ? globalScope(rng) : ruleScope(g, rng, repoNames);
    const createdAt = SEED_EPOCH - HISTORY - rng.int(0, 20 * DAY) + rng.int(0, 85 * DAY);
    const updatedAt = rng.chance(0.4)
      ? createdAt
      : Math.min(createdAt + rng.int(MINUTE, 30 * DAY), SEED_EPOCH - rng.int(HOUR, 3 * DAY));
    const id = g.objectId(rng, createdAt);
    const notificationId = g.objectId(rng, createdAt);
    const rule: GuardrailRule = {
      id,
      accountId: g.accountId,
      createdBy: rng.pick(g.people).id,
      name,
      type,
      scope,
      criteria: template.criteria,
      isEnabled: i === 0 || rng.chance(0.85),
      createdAt: iso(createdAt),
      updatedAt: iso(updatedAt),
      notificationId,
      severity: i === 0 ? 2 : severityTable.pick(rng),
    };
    g.rules.push(rule);
    g.rulesById.set(id, rule);
    notifications.push({ id: notificationId, ruleId: id, integrationIds: [], createdAt: iso(createdAt) });
  }
  return { rules: g.rules, notifications };
}

/** A rule's scope: all workspaces, or some by name, repository or label. */
function ruleScope(g: AccountContext, rng: Random, repoNames: string[]): GuardrailScope {
  const none = () => ({ include: [] as string[], exclude: [] as string[] });
  const branches = rng.chance(0.6)
    ? { include: ['main'], exclude: [] }
    : { include: ['*'], exclude: rng.chance(0.5) ? ['renovate/*'] : [] };
  const kind = rng.int(0, 4);
  if (kind === 0) return { ...globalScope(rng), branches };
  if (kind === 1) {
    return rng.chance(0.5)
      ? { workspaces: none(), repositories: none(), branches, labels: { include: ['prod'], exclude: [] } }
      : {
          workspaces: { include: ['*-prod', '*-prod-*'], exclude: [] },
          repositories: none(),
          branches,
          labels: none(),
        };
  }
  if (kind === 2 && repoNames.length > 0) {
    return {
      workspaces: none(),
      repositories: { include: rng.sample(repoNames, rng.int(1, 3)), exclude: [] },
      branches,
      labels: none(),
    };
  }
  if (kind === 3) {
    const label = rng.pick([
      'payments',
      'data',
      'network',
      'security',
      'team-platform',
      'team-payments',
      'team-data',
    ]);
    return {
      workspaces: none(),
      repositories: none(),
      branches,
      labels: { include: [label], exclude: [] },
    };
  }
  return {
    workspaces: { include: ['*'], exclude: ['sandbox-*', '*-sandbox', '*-sandbox-*'] },
    repositories: { include: [`${g.org}/*`], exclude: [] },
    branches,
    labels: { include: [], exclude: ['sandbox'] },
  };
}

/**
 * How many scope checks {@link assignGuardrails} makes between two points where it may stop: 1,024
 * (a check takes about a microsecond; workspaces times rules of them in all).
 */
const STEP_CHECKS = 1024;

/**
 * Gives each workspace the ids of the rules whose scope covers it, in steps of {@link STEP_CHECKS}
 * scope checks (a workspace counting as one).
 */
export function* assignGuardrails(g: AccountContext): Steps {
  const work = new StepCounter(STEP_CHECKS);
  for (const ws of g.workspaces) {
    const subject = { workspaceName: ws.name, repository: ws.repo.fullName, labels: ws.labels };
    if (work.add()) yield;
    for (const rule of g.rules) {
      if (scopeCovers(rule.scope, subject)) ws.guardrails.push(rule.id);
      if (work.add()) yield;
    }
  }
}

// --- what the rules say about a run ---------------------------------------------------------------

/** The rules one workspace's runs answer to (ids), and the summary of a run that passed them all. */
export interface RunRules {
  /** The guardrails summary of a run that passed them all (frozen, shared). */
  passed: GuardrailsSummary;
  /** The enabled rules that cover the workspace. */
  enabled: string[];
  /** The strict (blocking) rules a blocked run names: the workspace's own, or the account's. */
  strict: string[];
  /** The enabled rules that cover the workspace and do not block. */
  soft: string[];
}

/** The rules a workspace without strict rules of its own is blocked by. */
export function strictRulesOf(g: AccountContext): string[] {
  return g.rules.filter((rule) => rule.severity === 2 && rule.isEnabled).map((rule) => rule.id);
}

/** The rules `ws`'s runs answer to (`strictRules`: {@link strictRulesOf} the account). Draws nothing. */
export function runRules(g: AccountContext, ws: WsInfo, strictRules: string[]): RunRules {
  const enabled = ws.guardrails.filter((id) => g.rulesById.get(id)?.isEnabled);
  const wsStrict = enabled.filter((id) => g.rulesById.get(id)?.severity === 2);
  const wsSoft = enabled.filter((id) => g.rulesById.get(id)?.severity !== 2);
  return {
    passed: passedSummary(enabled.length),
    enabled,
    strict: wsStrict.length > 0 ? wsStrict : strictRules,
    soft: wsSoft,
  };
}

/** A run's guardrails summary: which of the rules `c` it failed, drawn from `rng`. */
export function runGuardrailsSummary(
  g: AccountContext,
  rng: Random,
  c: RunRules,
  status: RunStatus,
): GuardrailsSummary {
  if (status === 'init_error') return NOT_EVALUATED;
  if (status === 'planning') return PENDING;
  // Most runs fail nothing: the list is made only for those that do.
  let failing: string[] | undefined;
  if (status === 'blocked' || status === 'Acknowledged') {
    failing = [rng.pick(c.strict)];
    if (c.soft.length > 0 && rng.chance(0.3)) failing.push(rng.pick(c.soft));
  } else if (c.soft.length > 0 && rng.chance(0.12)) {
    failing = [rng.pick(c.soft)];
  }
  if (failing === undefined) return c.passed;
  const violations = failing.map((id) => {
    const rule = g.rulesById.get(id) as GuardrailRule;
    return {
      id,
      severity: severityName(rule.severity) ?? 'warning',
      message: violationMessage(rng, rule),
    };
  });
  let total = c.enabled.length;
  for (const id of failing) if (!c.enabled.includes(id)) total++;
  const failed = violations.length;
  return Object.freeze({
    total,
    passed: total - failed,
    failed,
    violations: Object.freeze(violations) as GuardrailViolation[],
    description: failedDescription(failed, total),
  });
}

const NO_VIOLATIONS = Object.freeze([]) as unknown as GuardrailViolation[];
const NOT_EVALUATED: GuardrailsSummary = Object.freeze({
  total: 0,
  passed: 0,
  failed: 0,
  violations: NO_VIOLATIONS,
  description: 'Guardrails not evaluated',
});
const PENDING: GuardrailsSummary = Object.freeze({
  total: 0,
  passed: 0,
  failed: 0,
  violations: NO_VIOLATIONS,
  description: 'Guardrails pending',
});

const PASSED = new Map<number, GuardrailsSummary>();

/** The guardrails summary of a run that passed all of its `total` guardrails (frozen, shared). */
function passedSummary(total: number): GuardrailsSummary {
  let summary = PASSED.get(total);
  if (!summary) {
    summary = Object.freeze({
      total,
      passed: total,
      failed: 0,
      violations: NO_VIOLATIONS,
      description: total === 0 ? 'No guardrails apply' : `All ${total} guardrails passed`,
    });
    PASSED.set(total, summary);
  }
  return summary;
}

const FAILED_DESCRIPTIONS = new Map<string, string>();

function failedDescription(failed: number, total: number): string {
  const key = `${failed}/${total}`;
  let description = FAILED_DESCRIPTIONS.get(key);
  if (description === undefined) {
    description = `${failed} of ${total} guardrails failed`;
    FAILED_DESCRIPTIONS.set(key, description);
  }
  return description;
}

/** The message of a violation of a rule, in the words of the rule's kind. */
function violationMessage(rng: Random, rule: GuardrailRule): string {
  const criteria = rule.criteria;
  switch (rule.type) {
    case 'cost': {
      const threshold = criteria.cost?.thresholdAmount;
      const percentage = criteria.cost?.thresholdPercentage;
      if (threshold !== undefined) {
        const over = threshold + rng.int(1, Math.max(2, Math.round(threshold))) + rng.int(0, 99) / 100;
        return `Monthly cost rises by $${over.toFixed(2)} (threshold $${threshold.toFixed(2)})`;
      }
      return `Monthly cost rises by ${(percentage ?? 10) + rng.int(1, 40)}% (threshold ${percentage ?? 10}%)`;
    }
    case 'policy': {
      const severity = criteria.policy?.severity ?? 'high';
      const n = rng.int(1, 6);
      return `${n} ${severity} policy finding${n === 1 ? '' : 's'} (${rule.name})`;
    }
    case 'resource': {
      const action = rng.pick(criteria.resource?.actions ?? ['delete']);
      const assetTypes = criteria.resource?.assetTypes.include ?? [];
      const assetType =
        assetTypes.length > 0 && assetTypes[0] !== '*' ? rng.pick(assetTypes) : 'aws_instance';
      return `Plan would ${action} ${assetType}.${rng.pick(['main', 'primary', 'this', 'replica'])} (not allowed)`;
    }
    default: {
      const tag = criteria.tag;
      const name =
        tag?.requiredTags && tag.requiredTags.length > 0
          ? rng.pick(tag.requiredTags)
          : (Object.keys(tag?.requiredValues ?? {})[0] ?? 'team');
      return `${rng.pick(['aws_s3_bucket.logs', 'aws_instance.app', 'google_storage_bucket.assets', 'azurerm_resource_group.main'])} is missing required tag "${name}"`;
    }
  }
}

function globalScope(rng: Random): GuardrailScope {
  return {
    workspaces: { include: ['*'], exclude: rng.chance(0.5) ? ['sandbox-*'] : [] },
    repositories: { include: ['*'], exclude: [] },
    branches: { include: ['main'], exclude: [] },
    labels: { include: [], exclude: [] },
  };
}

function ruleTemplate(
  rng: Random,
  type: GuardrailType,
  org: string,
): { name: string; criteria: GuardrailCriteria } {
  switch (type) {
    case 'policy': {
      const options: Array<[string, PolicySeverity, string[], string[]]> = [
        ['No critical policy findings', 'critical', ['*'], []],
        ['Block high-severity misconfigurations', 'high', ['*'], ['aws-ec2-imdsv1']],
        ['CIS benchmark: medium and above', 'medium', ['cis-*'], []],
        [
          'S3 buckets must not be public',
          'high',
          ['aws-s3-public-read', 'aws-s3-public-write', 'aws-s3-block-public-access'],
          [],
        ],
        ['Encryption at rest required', 'medium', ['*-encryption-at-rest'], []],
        ['Kubernetes hardening', 'low', ['k8s-*'], ['k8s-default-namespace']],
      ];
      const [name, severity, include, exclude] = rng.pick(options);
      return { name, criteria: { policy: { severity, policies: { include, exclude } } } };
    }
    case 'cost': {
      const amount = rng.pick([50, 100, 250, 500, 1000, 5000]);
      const percentage = rng.pick([5, 10, 15, 20, 25]);
      const roll = rng.int(0, 2);
      if (roll === 0)
        return {
          name: `Monthly cost increase over $${amount}`,
          criteria: { cost: { thresholdAmount: amount } },
        };
      if (roll === 1)
        return {
          name: `Monthly cost increase over ${percentage}%`,
          criteria: { cost: { thresholdPercentage: percentage } },
        };
      return {
        name: `Budget guard ($${amount} or ${percentage}%)`,
        criteria: { cost: { thresholdAmount: amount, thresholdPercentage: percentage } },
      };
    }
    case 'resource': {
      const options: Array<{ name: string; criteria: NonNullable<GuardrailCriteria['resource']> }> = [
        {
          name: 'No deletes of databases',
          criteria: {
            actions: ['delete'],
            regions: { include: ['*'], exclude: [] },
            assetTypes: {
              include: [
                'aws_db_instance',
                'aws_rds_cluster',
                'google_sql_database_instance',
                'azurerm_mssql_database',
              ],
              exclude: [],
            },
            specificResources: [],
          },
        },
        {
          name: 'Approved regions only',
          criteria: {
            actions: ['create', 'update'],
            regions: {
              include: ['us-east-1', 'us-west-2', 'eu-west-1', 'europe-west1', 'westeurope'],
              exclude: [],
            },
            assetTypes: { include: ['*'], exclude: [] },
            specificResources: [],
          },
        },
        {
          name: 'Protect state buckets',
          criteria: {
            actions: ['update', 'delete'],
            regions: { include: ['*'], exclude: [] },
            assetTypes: { include: ['aws_s3_bucket', 'google_storage_bucket'], exclude: [] },
            specificResources: [`arn:aws:s3:::${org}-tf-state-prod`, `arn:aws:s3:::${org}-tf-state-nonprod`],
          },
        },
        {
          name: 'No IAM changes outside the platform team',
          criteria: {
            actions: ['create', 'update', 'delete'],
            regions: { include: ['*'], exclude: [] },
            assetTypes: {
              include: ['aws_iam_role', 'aws_iam_policy', 'google_service_account'],
              exclude: [],
            },
            specificResources: [],
          },
        },
        {
          name: 'No public load balancers',
          criteria: {
            actions: ['create'],
            regions: { include: ['*'], exclude: ['us-gov-west-1'] },
            assetTypes: { include: ['aws_lb', 'aws_elb'], exclude: [] },
            specificResources: [],
          },
        },
      ];
      const { name, criteria } = rng.pick(options);
      return { name, criteria: { resource: criteria } };
    }
    default: {
      const options: Array<{ name: string; criteria: NonNullable<GuardrailCriteria['tag']> }> = [
        {
          name: 'Team tag required',
          criteria: { tagEnforcementMode: 'requiredTags', requiredTags: ['team'] },
        },
        {
          name: 'Cost allocation tags',
          criteria: {
            tagEnforcementMode: 'requiredTags',
            requiredTags: ['cost-center', 'team', 'environment'],
          },
        },
        {
          name: 'Owner or team tag',
          criteria: { tagEnforcementMode: 'anyTags', requiredTags: ['owner', 'team'] },
        },
        {
          name: 'Environment tag values',
          criteria: {
            tagEnforcementMode: 'requiredValues',
            requiredValues: { environment: ['prod', 'staging', 'dev', 'qa', 'sandbox', 'shared'] },
          },
        },
        {
          name: 'Data classification tag values',
          criteria: {
            tagEnforcementMode: 'requiredValues',
            requiredValues: { 'data-classification': ['public', 'internal', 'confidential', 'restricted'] },
          },
        },
      ];
      const { name, criteria } = rng.pick(options);
      return { name, criteria: { tag: criteria } };
    }
  }
}
