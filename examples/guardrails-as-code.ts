/**
 * Guardrails as code: the account's guardrail rules are declared below, and a sync makes the service
 * match them: it creates the missing rules, updates the ones that changed and deletes the extra ones,
 * matching rules by name, so running it twice changes nothing the second time. Then it tries a plan
 * against the declared rules (stored or not) through the mock's dry run, `POST
 * /__mock/guardrails/evaluate`, called with plain `fetch`: that endpoint is the mock's control plane,
 * not part of the API, so the SDK has no method for it.
 *
 * Shows: `for await` over guardrail search, create / update / delete, typed rule bodies from
 * `@iacm/sdk/contract`, and the mock's evaluation of a plan (see docs/guardrails.md).
 *
 * Run it against the mock (`pnpm start` prints the key pair):
 *
 *   IACM_BASE_URL=http://127.0.0.1:4010 IACM_ACCESS_KEY=iacm_ak_… IACM_SECRET_KEY=iacm_sk_… \
 *     npx tsx examples/guardrails-as-code.ts [--dry-run]
 *
 * `--dry-run` prints what the sync would change without changing it. Careful against a real account:
 * by default every rule that is not declared here is deleted; pass `owns` to `main` to limit the sync
 * to the rules it manages (for example the ones whose `createdBy` is its own user id).
 */
import { pathToFileURL } from 'node:url';
import type { GuardrailEvaluation, PlanContent, RunScope } from '@iacm/mock-server';
import { IacmClient } from '@iacm/sdk';
import type { GuardrailCreateFields, GuardrailKind, GuardrailRule, IncludeExclude } from '@iacm/sdk/contract';

/** A declared rule: a create body without the members the sync fills in; its `criteria` fit its `type`. */
export type RuleDeclaration = Pick<GuardrailCreateFields, 'name' | 'severity' | 'scope' | 'isEnabled'> &
  GuardrailKind;

const list = (include: string[] = [], exclude: string[] = []): IncludeExclude => ({ include, exclude });
const everywhere = { workspaces: list(), repositories: list(), branches: list(), labels: list() };

/** The rules of the account. Severity: 1 flexible, 2 strict (blocks the run), 3 warning. */
export const RULES: RuleDeclaration[] = [
  {
    name: 'Prod: monthly cost rise at most $200',
    type: 'cost',
    severity: 2,
    scope: { ...everywhere, labels: list(['prod']) },
    criteria: { cost: { thresholdAmount: 200 } },
  },
  {
    name: 'No high encryption findings',
    type: 'policy',
    severity: 1,
    scope: everywhere,
    criteria: { policy: { severity: 'high', policies: list(['*encryption*']) } },
  },
  {
    name: 'Prod: no database deletes',
    type: 'resource',
    severity: 2,
    scope: { ...everywhere, labels: list(['prod']) },
    criteria: {
      resource: {
        actions: ['delete'],
        regions: list(),
        assetTypes: list(['aws_db_instance', 'aws_rds_cluster']),
      },
    },
  },
  {
    name: 'Owner tag on new resources',
    type: 'tag',
    severity: 3,
    scope: { ...everywhere, branches: list(['main']) },
    criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['owner'] } },
  },
];

/** A plan to try the rules on: the database is replaced (delete + create) and costs $220 more a month. */
export const SAMPLE_RUN: RunScope = {
  workspaceName: 'payments-prod',
  repository: 'acme/payments',
  branch: 'main',
  labels: ['prod'],
};
export const SAMPLE_PLAN: PlanContent = {
  changes: [
    {
      address: 'aws_db_instance.main',
      assetType: 'aws_db_instance',
      region: 'us-east-1',
      actions: ['delete', 'create'],
      tags: { owner: 'payments-team' },
      monthlyCost: { before: 300, after: 520 },
    },
  ],
  policyFindings: [{ policy: 's3-bucket-encryption', severity: 'high', address: 'aws_s3_bucket.exports' }],
};

/** Options of {@link main}. Absent connection options fall back to the SDK's environment variables. */
export interface GuardrailsAsCodeOptions {
  /** The service's base URL. Default: `IACM_BASE_URL`. */
  baseUrl?: string;
  /** Access key. Default: `IACM_ACCESS_KEY` (or a token in `IACM_TOKEN`). */
  accessKey?: string;
  /** Secret key. Default: `IACM_SECRET_KEY`. */
  secretKey?: string;
  /** Where progress goes, one line at a time. Default: `console.log`. */
  log?: (line: string) => void;
  /** The declared rules. Default {@link RULES}. */
  rules?: RuleDeclaration[];
  /** The user id recorded as `createdBy` of created rules (24 hex digits). */
  createdBy?: string;
  /** Which existing rules the sync manages (may update or delete). Default: all of them. */
  owns?: (rule: GuardrailRule) => boolean;
  /** Only compute the changes, make none. Default false. */
  dryRun?: boolean;
  /** The run and plan to evaluate against the declared rules; `false` skips the evaluation. */
  evaluate?: { run: RunScope; plan: PlanContent } | false;
}

/** What the sync did (rule names), and the evaluation of the plan. */
export interface SyncResult {
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: string[];
  evaluation: GuardrailEvaluation | undefined;
}

export async function main(options: GuardrailsAsCodeOptions = {}): Promise<SyncResult> {
  const { accessKey, secretKey, log = console.log, rules = RULES, owns = () => true } = options;
  const baseUrl = options.baseUrl ?? process.env.IACM_BASE_URL;
  if (!baseUrl) throw new Error('set IACM_BASE_URL (or pass baseUrl), like http://127.0.0.1:4010');
  const client = new IacmClient({
    baseUrl,
    ...(accessKey && secretKey ? { auth: { accessKey, secretKey } } : {}),
  });
  const createdBy = options.createdBy ?? 'a0a0a0a0a0a0a0a0a0a0a0a0';

  const names = rules.map((rule) => rule.name);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate) throw new Error(`rule "${duplicate}" is declared twice: names identify rules`);

  // Every existing rule, all pages (there is no get-by-id: search is the way to read rules).
  const existing = new Map<string, GuardrailRule>();
  const extra: GuardrailRule[] = [];
  for await (const rule of client.guardrails.search({ sort: { createdAt: { order: 1 } }, pageSize: 100 })) {
    if (!owns(rule)) continue;
    // The oldest rule of a name is kept; later ones of the same name are extra.
    if (existing.has(rule.name) || !names.includes(rule.name)) extra.push(rule);
    else existing.set(rule.name, rule);
  }

  const result: SyncResult = { created: [], updated: [], deleted: [], unchanged: [], evaluation: undefined };
  const verb = options.dryRun ? 'would ' : '';
  for (const rule of rules) {
    const current = existing.get(rule.name);
    if (!current) {
      // Retried like the other calls (`idempotent`): a duplicate from a lost answer would be found by
      // name and deleted by the next sync.
      if (!options.dryRun) await client.guardrails.create({ ...rule, createdBy }, { idempotent: true });
      result.created.push(rule.name);
      log(`${verb}create  ${rule.name}`);
    } else if (canonical(desired(rule)) !== canonical(desired(current))) {
      if (!options.dryRun) await client.guardrails.update(current.id, desired(rule));
      result.updated.push(rule.name);
      log(`${verb}update  ${rule.name}`);
    } else {
      result.unchanged.push(rule.name);
    }
  }
  for (const rule of extra) {
    if (!options.dryRun) await client.guardrails.delete(rule.id);
    result.deleted.push(rule.name);
    log(`${verb}delete  ${rule.name}`);
  }
  log(
    `sync: ${result.created.length} created, ${result.updated.length} updated, ` +
      `${result.deleted.length} deleted, ${result.unchanged.length} unchanged`,
  );

  const tryOn = options.evaluate ?? { run: SAMPLE_RUN, plan: SAMPLE_PLAN };
  if (tryOn) {
    result.evaluation = await evaluate(baseUrl, rules, createdBy, tryOn.run, tryOn.plan);
    const { evaluation } = result;
    log(
      `plan on ${tryOn.run.workspaceName}@${tryOn.run.branch}: ${evaluation.passed} of ${evaluation.total} passed`,
    );
    for (const outcome of evaluation.outcomes.filter((o) => !o.passed)) {
      log(`  ✗ ${outcome.ruleName} (${outcome.severityName}): ${outcome.messages.join('; ')}`);
    }
    log(evaluation.blocked ? 'the run would be blocked' : 'the run would go on');
  }
  return result;
}

/** The members of a rule the sync compares and writes (`isEnabled` defaults to true). */
function desired(rule: RuleDeclaration | GuardrailRule) {
  return {
    type: rule.type,
    severity: rule.severity,
    isEnabled: rule.isEnabled ?? true,
    scope: rule.scope,
    criteria: rule.criteria,
  } as Pick<GuardrailCreateFields, 'severity' | 'isEnabled' | 'scope'> & GuardrailKind;
}

/** JSON with object keys sorted, so that two equal rules compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    member && typeof member === 'object' && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );
}

/** The mock's dry run: evaluates rules (create bodies) against a plan and stores nothing. */
async function evaluate(
  baseUrl: string,
  rules: RuleDeclaration[],
  createdBy: string,
  run: RunScope,
  plan: PlanContent,
): Promise<GuardrailEvaluation> {
  const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/__mock/guardrails/evaluate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules: rules.map((rule) => ({ ...rule, createdBy })), run, plan }),
  });
  if (!response.ok) {
    throw new Error(`POST /__mock/guardrails/evaluate: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as GuardrailEvaluation;
}

// Run directly: `npx tsx examples/guardrails-as-code.ts [--dry-run]`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main({ dryRun: process.argv.includes('--dry-run') }).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
