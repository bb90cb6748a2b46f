/**
 * Scenes: a declarative description of the mock's data (accounts, their workspaces and runs,
 * guardrail rules, IaC stacks with findings, events, webhook integrations), every record partial.
 * This module holds what a scene may say ({@link SceneSchema}, {@link SCENE_LIMITS}) and the one
 * check of a scene ({@link checkScene}): shape by the strict contract, then references by name and
 * impossible combinations, each problem one issue naming its path. What the scene leaves out is
 * filled in by the generator (`scene-generate.ts`).
 *
 * @module
 */
import {
  CI_TOOLS,
  type CiTool,
  criteriaProblems,
  EVENT_TYPES,
  type EventType,
  GuardrailCreateBody,
  type GuardrailSeverity,
  type GuardrailType,
  MUTATION_TYPES,
  type MutationType,
  RUN_STATUSES,
  type RunStatus,
  STACK_STATUSES,
  type StackStatus,
  VCS_TYPES,
  type VcsType,
} from '@iacm/sdk/contract';
import * as z from 'zod';
import { listedError, type Problem, problemIssues, shapeError } from '../../errors.js';
import { at, type DataReferences, referenceProblems, shown } from '../references.js';
import { SEED_RANGE, SEED_TEXT_LENGTH } from './limits.js';

/**
 * The bounds of a scene, each a 400 naming the list past it: accounts (the seed's 1 to 50),
 * records per account of each kind, runs per workspace, and all records of a scene together. What
 * the scene leaves out is generated at the default sizes. Over HTTP, `POST /__mock/scene` takes at
 * most {@link SCENE_LIMITS}.`maxBodyBytes`.
 */
export const SCENE_LIMITS = Object.freeze({
  /** Accounts of a scene (as the `accounts` size). */
  accounts: 50,
  /** Workspaces of one account. */
  workspacesPerAccount: 10_000,
  /** Runs of one workspace (as the `runsPerWorkspace` size). */
  runsPerWorkspace: 100,
  /** Guardrail rules of one account. */
  rulesPerAccount: 1_000,
  /** IaC stacks of one account. */
  stacksPerAccount: 10_000,
  /** Events of one account. */
  eventsPerAccount: 100_000,
  /** IaC modules of one account. */
  modulesPerAccount: 10_000,
  /** Webhook integrations of one account (all accounts together: the registry's 1,000). */
  webhooksPerAccount: 100,
  /** Records of a scene together: accounts, workspaces, runs, rules, stacks, events and webhooks. */
  records: 20_000,
  /** The largest `POST /__mock/scene` body, bytes (16 MiB). */
  maxBodyBytes: 16 * 1024 * 1024,
});

/** The IaC tools a scene's workspace may use: those the generator makes workspaces of. */
export const SCENE_IAC_TYPES = ['terraform', 'opentofu', 'cloudformation'] as const;

const Name = z.string().trim().min(1).max(128);
const Label = z.string().min(1).max(128);
const Count = z.int().min(0).max(100_000);
/** A repository's full name, `owner/name`. */
const Repo = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, { error: 'expected owner/name' });

/** A run of a scene's workspace; what it leaves out is drawn from the seed. */
const SceneRunSchema = z.strictObject({
  status: z.enum(RUN_STATUSES).optional(),
  branch: z.string().min(1).max(256).optional(),
  title: z.string().min(1).max(512).optional(),
});

/** A workspace of a scene; runs and the rest it leaves out are drawn from the seed. */
const SceneWorkspaceSchema = z.strictObject({
  name: Name.optional(),
  repo: Repo.optional(),
  vcsType: z.enum(VCS_TYPES).optional(),
  runnerType: z.enum(CI_TOOLS).optional(),
  iacType: z.enum(SCENE_IAC_TYPES).optional(),
  iacTypeVersion: z.string().min(1).max(32).optional(),
  labels: z.array(Label).max(50).optional(),
  isWorkflowManaged: z.boolean().optional(),
  guardrails: z.array(Name).max(1_000).optional(),
  runs: z.array(SceneRunSchema).max(SCENE_LIMITS.runsPerWorkspace).optional(),
});

const ruleShape = GuardrailCreateBody.shape;
/** A guardrail rule of a scene, partial: what it leaves out is drawn from the seed. */
const SceneRuleSchema = z.strictObject({
  name: z.optional(ruleShape.name),
  type: z.optional(ruleShape.type),
  severity: z.optional(ruleShape.severity),
  isEnabled: z.boolean().optional(),
  scope: z.optional(ruleShape.scope),
  criteria: z.optional(ruleShape.criteria),
});

/** Findings on a stack of a scene, counted by kind. */
const SceneFindingsSchema = z.strictObject({
  drifts: Count.optional(),
  ghosts: Count.optional(),
  unmanaged: Count.optional(),
  insights: Count.optional(),
});

/** An IaC stack of a scene: the stack of the workspace it names. */
const SceneStackSchema = z.strictObject({
  workspace: Name,
  status: z.enum(STACK_STATUSES).optional(),
  assetCount: z.int().min(0).max(1_000_000).optional(),
  findings: SceneFindingsSchema.optional(),
});

/** An event of a scene, partial. */
const SceneEventSchema = z.strictObject({
  event_type: z.enum(EVENT_TYPES).optional(),
  event_timestamp: z.iso.datetime({ offset: true }).optional(),
  asset_id: z.string().min(1).max(1024).optional(),
  asset_type: z.string().min(1).max(256).optional(),
  provider_type: z.string().min(1).max(64).optional(),
  mutation_type: z.enum(MUTATION_TYPES).optional(),
});

/**
 * A webhook integration of a scene: there from the start, without a test delivery. Its URL and
 * credentials are checked as `POST /__mock/integrations/webhook` checks them, by `control/scene.ts`.
 */
const SceneWebhookSchema = z.strictObject({
  nickname: z.string().trim().min(1).max(256),
  url: z.string().min(1).max(2048),
  /** As `POST /__mock/integrations/webhook` takes them: `{ basic: { username, password } }`, `{ authorization }` or `'none'`. */
  credentials: z.unknown().optional(),
});

/** A module of a scene, in one of the account's repositories. */
const SceneModuleSchema = z.strictObject({
  name: z
    .string()
    .max(64)
    .regex(/^[a-z0-9][a-z0-9_-]*$/, { error: 'expected a module folder name (a-z, 0-9, - and _)' }),
  repo: Repo.optional(),
  version: z.string().min(1).max(32).optional(),
  origin: z.enum(['registry', 'git', 'local']).optional(),
});

/** An account of a scene; a collection it names holds exactly its records. */
const SceneAccountSchema = z.strictObject({
  name: Name.optional(),
  workspaces: z.array(SceneWorkspaceSchema).max(SCENE_LIMITS.workspacesPerAccount).optional(),
  rules: z.array(SceneRuleSchema).max(SCENE_LIMITS.rulesPerAccount).optional(),
  stacks: z.array(SceneStackSchema).max(SCENE_LIMITS.stacksPerAccount).optional(),
  events: z.array(SceneEventSchema).max(SCENE_LIMITS.eventsPerAccount).optional(),
  modules: z.array(SceneModuleSchema).max(SCENE_LIMITS.modulesPerAccount).optional(),
  webhooks: z.array(SceneWebhookSchema).max(SCENE_LIMITS.webhooksPerAccount).optional(),
});

/** A whole scene. */
export const SceneSchema = z.strictObject({
  seed: z
    .union([
      z.int().min(SEED_RANGE.min).max(SEED_RANGE.max),
      z.string().min(SEED_TEXT_LENGTH.min).max(SEED_TEXT_LENGTH.max),
    ])
    .optional(),
  accounts: z.array(SceneAccountSchema).min(1).max(SCENE_LIMITS.accounts).optional(),
});

/**
 * A scene: what the mock's data is to hold. Every member is optional: what the scene leaves out is
 * generated from its `seed` (default 1), deterministically, and agrees with what it names. A
 * collection the scene names (an account's `workspaces`, a workspace's `runs`...) holds exactly its
 * records; one it leaves out is generated at the default sizes. References go by name: a stack's
 * `workspace`, a workspace's `guardrails` (rule names). See `docs/testing-with-the-mock.md`, "Scenes".
 */
export interface Scene {
  /** The seed of what the scene leaves out: a safe integer or a text of 1 to 200 characters. Default 1. */
  seed?: number | string | undefined;
  /** Exactly these accounts (1 to 50), the first the primary one; none: three generated accounts. */
  accounts?: SceneAccount[] | undefined;
}

/** An account of a {@link Scene}; each collection it names holds exactly its records. */
export interface SceneAccount {
  /** The display name (also the organisation slug of its generated repositories and e-mails). */
  name?: string | undefined;
  /** Exactly these workspaces (at most 10,000), each name used once. */
  workspaces?: SceneWorkspace[] | undefined;
  /** Exactly these guardrail rules (at most 1,000), each name used once. */
  rules?: SceneRule[] | undefined;
  /** Exactly these IaC stacks (at most 10,000), one per workspace named; other workspaces share them. */
  stacks?: SceneStack[] | undefined;
  /** Exactly this many events (at most 100,000), with the members given. */
  events?: SceneEvent[] | undefined;
  /** Webhook integrations there from the start (at most 100), each nickname used once. */
  webhooks?: SceneWebhook[] | undefined;
  /**
   * Exactly these IaC modules (at most 10,000), each in a repository of the account's workspaces
   * (their repository records count them); none: drawn per repository.
   */
  modules?: SceneModule[] | undefined;
}

/** An IaC module of a {@link SceneAccount}. */
export interface SceneModule {
  /** Its folder name (`modules/<name>`), used once per repository: a-z, 0-9, `-` and `_`, at most 64. */
  name: string;
  /** The repository holding it, `owner/name`: the `repo` of one of the account's workspaces; default: the repositories in turn. */
  repo?: string | undefined;
  /** Its version. */
  version?: string | undefined;
  /** Where workspaces take it from: the registry, a git URL, or a local path. */
  origin?: 'registry' | 'git' | 'local' | undefined;
}

/** A workspace of a {@link SceneAccount}, with its runs. */
export interface SceneWorkspace {
  /** The workspace's name, 1 to 128 characters (the name its stack takes); default: generated. */
  name?: string | undefined;
  /** Its repository, `owner/name` (the repository record and URLs follow). */
  repo?: string | undefined;
  /** The repository's VCS (a VCS belongs to the repository: its other workspaces follow). */
  vcsType?: VcsType | undefined;
  /** The CI tool its runs come from. */
  runnerType?: CiTool | undefined;
  /** The IaC tool: one of {@link SCENE_IAC_TYPES}. */
  iacType?: (typeof SCENE_IAC_TYPES)[number] | undefined;
  /** The tool's version. */
  iacTypeVersion?: string | undefined;
  /** Labels, at most 50 of at most 128 characters. */
  labels?: string[] | undefined;
  /** Whether a workflow manages it. */
  isWorkflowManaged?: boolean | undefined;
  /** Exactly these guardrail rules, by name (the account's `rules` must name them). */
  guardrails?: string[] | undefined;
  /** Exactly these runs (at most 100), oldest first; its record's counts and last-run members follow. */
  runs?: SceneRun[] | undefined;
}

/** A run of a {@link SceneWorkspace}. */
export interface SceneRun {
  /** The run's status (`blocked` and `Acknowledged` need an enabled strict rule over the workspace). */
  status?: RunStatus | undefined;
  /** Its branch. */
  branch?: string | undefined;
  /** Its title (also its `runName`). */
  title?: string | undefined;
}

/** A guardrail rule of a {@link SceneAccount}. */
export interface SceneRule {
  /** The rule's name, 1 to 256 characters, what workspaces' `guardrails` name. */
  name?: string | undefined;
  /** The rule's kind (needed with `criteria`); default: drawn, the first four one of each kind. */
  type?: GuardrailType | undefined;
  /** 1 flexible, 2 strict (blocks runs), 3 warning. */
  severity?: GuardrailSeverity | undefined;
  /** Whether the rule is checked. */
  isEnabled?: boolean | undefined;
  /** What it applies to, as a create body's `scope` (a member's `include` or `exclude` left out is `[]`). */
  scope?: z.input<typeof GuardrailCreateBody>['scope'] | undefined;
  /**
   * What breaks it, as a create body's `criteria` (the member `type` names; an include/exclude
   * list left out is `[]`).
   */
  criteria?: z.input<typeof GuardrailCreateBody>['criteria'] | undefined;
}

/** An IaC stack of a {@link SceneAccount}: the stack of the workspace it names, with its findings. */
export interface SceneStack {
  /** The name of the account's workspace whose stack this is (required; the stack takes its name). */
  workspace: string;
  /** The stack's status (with findings: what they mean, or left out). */
  status?: StackStatus | undefined;
  /** Its assets (0 for an empty stack). */
  assetCount?: number | undefined;
  /** Findings counted on the stack (0 to 100,000 each): drifts make it `contains_drifts`, ghosts `contains_ghosts`. */
  findings?:
    | {
        drifts?: number | undefined;
        ghosts?: number | undefined;
        unmanaged?: number | undefined;
        insights?: number | undefined;
      }
    | undefined;
}

/** An event of a {@link SceneAccount}. */
export interface SceneEvent {
  /** The event's type. */
  event_type?: EventType | undefined;
  /** When it happened (ISO 8601 with an offset). */
  event_timestamp?: string | undefined;
  /** The asset's id. */
  asset_id?: string | undefined;
  /** The asset's type (`aws_s3_bucket`). */
  asset_type?: string | undefined;
  /** The provider (`aws`). */
  provider_type?: string | undefined;
  /** The change's kind. */
  mutation_type?: MutationType | undefined;
}

/** A webhook integration of a {@link SceneAccount}, stored without a test delivery. */
export interface SceneWebhook {
  /** Its nickname, 1 to 256 characters. */
  nickname: string;
  /** Where deliveries go: an absolute http(s) URL, as `POST /__mock/integrations/webhook` takes it. */
  url: string;
  /** As `POST /__mock/integrations/webhook` takes them: `{ basic: { username, password } }`, `{ authorization }` or `'none'`. */
  credentials?: unknown;
}

/** A scene once {@link checkScene} checked it. */
export type CheckedScene = z.output<typeof SceneSchema>;

/**
 * The references and unique keys of a scene (by name), checked by `referenceProblems` as a
 * snapshot's are (by id): a stack names its workspace, a workspace its guardrail rules, a module its
 * repository (a workspace's `repo`); workspace, rule, webhook and account names are used once, as a
 * module's name in its repository, and a workspace has one stack.
 */
export const SCENE_REFERENCES: DataReferences = Object.freeze<DataReferences>({
  references: [
    { from: 'workspaces', member: 'guardrails', to: 'rules', toNoun: 'rule', key: 'name' },
    { from: 'modules', member: 'repo', to: 'workspaces', toNoun: 'workspace', key: 'repo' },
    { from: 'stacks', member: 'workspace', to: 'workspaces', toNoun: 'workspace', key: 'name' },
  ],
  unique: [
    { list: 'workspaces', key: ['name'], noun: 'workspace' },
    { list: 'rules', key: ['name'], noun: 'rule' },
    { list: 'webhooks', key: ['nickname'], noun: 'webhook', keyNoun: 'name' },
    {
      list: 'modules',
      key: ['repo', 'name'],
      noun: 'module',
      message: (first, module) =>
        `expected a module name used once in ${String(module.repo)}, also at modules[${first}]`,
    },
    {
      list: 'stacks',
      key: ['workspace'],
      noun: 'stack',
      message: (first) => `expected one stack per workspace, also at stacks[${first}]`,
    },
  ],
  uniqueAccounts: [{ list: 'accounts', key: ['name'], noun: 'account' }],
});

/** The impossible combinations of one account, each problem once (its references: {@link SCENE_REFERENCES}). */
function accountProblems(account: z.output<typeof SceneAccountSchema>, a: number): Problem[] {
  const problems: Problem[] = [];
  const base = (...parts: Array<string | number>) => at('accounts', a, ...parts);
  const workspaces = account.workspaces;
  const rules = account.rules;
  rules?.forEach((rule, i) => {
    if (rule.criteria === undefined) return;
    if (rule.type === undefined) {
      problems.push([
        base('rules', i, 'type'),
        'expected the rule type that its criteria are for',
        'nothing',
      ]);
      return;
    }
    for (const [path, message] of criteriaProblems(rule.type, rule.criteria)) {
      problems.push([base('rules', i, ...(path as string[])), message, 'criteria']);
    }
  });
  const repositories = new Map<string, { vcs: string; at: number }>();
  workspaces?.forEach((ws, w) => {
    if (ws.repo === undefined || ws.vcsType === undefined) return;
    const first = repositories.get(ws.repo);
    if (!first) repositories.set(ws.repo, { vcs: ws.vcsType, at: w });
    else if (first.vcs !== ws.vcsType) {
      problems.push([
        base('workspaces', w, 'vcsType'),
        `expected "${first.vcs}", the VCS of ${ws.repo} at workspaces[${first.at}]`,
        shown(ws.vcsType),
      ]);
    }
  });
  const strictRules = new Set(
    rules?.flatMap((r) =>
      r.name !== undefined && r.severity === 2 && r.isEnabled !== false ? [r.name] : [],
    ),
  );
  workspaces?.forEach((ws, w) => {
    ws.runs?.forEach((run, r) => {
      if (run.status !== 'blocked' && run.status !== 'Acknowledged') return;
      // A blocked run names the strict rules that blocked it: the workspace's own, or the account's.
      const own = ws.guardrails?.some((name) => strictRules.has(name));
      const any = rules === undefined || strictRules.size > 0;
      if (!own && !(ws.guardrails === undefined && any)) {
        problems.push([
          base('workspaces', w, 'runs', r, 'status'),
          `a run "${run.status}" by guardrails needs an enabled strict rule (severity 2) over its workspace: add one to the workspace's guardrails`,
          shown(run.status),
        ]);
      }
    });
  });
  account.stacks?.forEach((stack, s) => {
    const findings = stack.findings;
    if (stack.status === 'empty' && (stack.assetCount ?? 0) > 0) {
      problems.push([
        base('stacks', s, 'assetCount'),
        'expected 0 for an empty stack',
        String(stack.assetCount),
      ]);
    }
    if (findings && stack.status !== undefined) {
      const expected =
        (findings.drifts ?? 0) > 0
          ? 'contains_drifts'
          : (findings.ghosts ?? 0) > 0
            ? 'contains_ghosts'
            : undefined;
      if (expected && stack.status !== expected) {
        problems.push([
          base('stacks', s, 'status'),
          `expected "${expected}" for a stack with its findings (or leave the status out)`,
          shown(stack.status),
        ]);
      }
    }
    if (stack.status === 'empty' && findings && Object.values(findings).some((n) => (n ?? 0) > 0)) {
      problems.push([base('stacks', s, 'findings'), 'expected no findings on an empty stack', 'findings']);
    }
  });
  return problems;
}

/** How many records a scene holds, to check {@link SCENE_LIMITS}.`records`. */
function recordCount(scene: CheckedScene): number {
  let count = 0;
  for (const account of scene.accounts ?? []) {
    count += 1 + (account.rules?.length ?? 0) + (account.stacks?.length ?? 0);
    count += (account.events?.length ?? 0) + (account.webhooks?.length ?? 0) + (account.modules?.length ?? 0);
    for (const ws of account.workspaces ?? []) count += 1 + (ws.runs?.length ?? 0);
  }
  return count;
}

/**
 * Checks a scene before anything changes, the one check of `createMockServer({ scene })`,
 * `control.scene` and `POST /__mock/scene`: its shape by the strict contract (unknown members,
 * enum values, types, the bounds of {@link SCENE_LIMITS}), then its references by name (a stack's
 * workspace, a workspace's guardrails), names used twice, and impossible combinations (a blocked
 * run without a strict rule over it, findings against a stack's status, an empty stack with
 * assets). Answers the scene as parsed.
 * @throws HttpError 400 `validation_failed` whose message names the first problem's path, what was
 *   expected and what came (`scene.accounts[0].workspaces[2].runs[0].status: expected one of
 *   "queued", ..., received "aplied"`), its issues every problem (at most 20, then a count).
 */
export function checkScene(input: unknown): CheckedScene {
  const parsed = SceneSchema.safeParse(input);
  if (!parsed.success) throw shapeError(parsed.error, input, 'scene', SceneSchema);
  const scene = parsed.data;
  const problems = referenceProblems(scene, SCENE_REFERENCES);
  problems.push(...(scene.accounts ?? []).flatMap((account, a) => accountProblems(account, a)));
  const records = recordCount(scene);
  if (records > SCENE_LIMITS.records) {
    problems.push(['', `expected at most ${SCENE_LIMITS.records} records in a scene`, `${records} records`]);
  }
  if (problems.length > 0) throw listedError(problemIssues(problems, 'scene'));
  return scene;
}

/**
 * Typed builders for a {@link Scene}, for TypeScript users: each returns what it is given, typed, so
 * that a misspelt member or a wrong enum value does not compile where the record is written
 * (`scene.workspace({ name: 'payments-prod', runs: [scene.run({ status: 'applied' })] })`).
 */
export const scene = Object.freeze({
  /** A whole scene. */
  define: (value: Scene): Scene => value,
  /** An account. */
  account: (value: SceneAccount): SceneAccount => value,
  /** A workspace, with its runs. */
  workspace: (value: SceneWorkspace): SceneWorkspace => value,
  /** A run of a workspace. */
  run: (value: SceneRun): SceneRun => value,
  /** A guardrail rule. */
  rule: (value: SceneRule): SceneRule => value,
  /** An IaC stack (of the workspace it names), with its findings. */
  stack: (value: SceneStack): SceneStack => value,
  /** An event. */
  event: (value: SceneEvent): SceneEvent => value,
  /** A webhook integration. */
  webhook: (value: SceneWebhook): SceneWebhook => value,
  /** An IaC module. */
  module: (value: SceneModule): SceneModule => value,
});
